"""What storage hands the services: stored games, results, standings, guild settings, and
how a standings row folds in one more result. Plain data, no SQL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

GLOBAL = -1  # the scope of the boards of everyone
DEFAULT_SEASON_DAYS = 28


@dataclass(frozen=True)
class StoredGame:
    id: int
    player_id: int
    scope: int
    kind: str
    puzzle: str | None
    state: dict[str, Any]
    version: int
    status: str


@dataclass(frozen=True)
class Result:
    """How a finished game ended, for results and standings."""

    won: bool
    guesses: int
    day: str | None  # the daily puzzle's date, None for practice
    played_on: str | None = None  # the puzzle day it was played on (default: ``day``)


@dataclass(frozen=True)
class Standing:
    player_id: int
    name: str
    played: int
    wins: int
    win_guesses: int
    current_streak: int
    max_streak: int
    last_day: str | None


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    timezone: str | None = None
    hints_in_daily: bool = True
    season_days: int = 28  # the length of a leaderboard season
    fail_score: int = 7  # what a lost game counts as on the average-guesses board
    language: str | None = None  # its Wordle's words and its posts' words (None: English)
    word_length: int | None = None  # its Wordle's length (None: five where the language has it)


StandingRow = tuple[int, int, int, int, int, str | None]
"""played, wins, win_guesses, current_streak, max_streak, last_day"""


def fold(row: StandingRow | None, result: Result) -> StandingRow:
    """A standings row after one more result. Daily streaks continue only from yesterday's
    puzzle; a loss or a missed day starts over. Practice streaks count consecutive wins."""
    played, wins, win_guesses, current, best, last_day = row or (0, 0, 0, 0, 0, None)
    if result.won:
        if result.day is not None and last_day is not None:
            yesterday = (date.fromisoformat(result.day) - timedelta(days=1)).isoformat()
            current = current + 1 if last_day == yesterday else 1
        else:
            current += 1
    else:
        current = 0
    return (
        played + 1,
        wins + int(result.won),
        win_guesses + (result.guesses if result.won else 0),
        current,
        max(best, current),
        result.day if result.day is not None else last_day,
    )


@dataclass(frozen=True)
class Deletion:
    """What a player's deletion found in its own transaction, once their row was locked: what
    the front ends must undo now that no record of it is left."""

    deleted: bool  # they had data
    roles: list[tuple[int, int]]  # (server, role): the winner's roles the bot gave them
    boards: list[tuple[int, str]]  # (server, day): today's live boards that showed them

    def __bool__(self) -> bool:  # read as the bool a deletion returned before
        return self.deleted
