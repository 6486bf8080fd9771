"""A player's page on a server's page (issue 41): their figures as /stats, /year and the
achievements list count them, under the name or label the server's page shows them by.

A page is found by the address the boards link to: a named player's handle, anyone else's
label (bot/services/web.py). Only players with results kept in the server have one; a deleted
player has none. It counts what they did in that server alone. What it may show is decided
here: numbers, days and achievements, never the year card's favourite opener (a word), a grid,
an answer or an id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.services.achievements import CATALOGUE
from bot.services.stats import StatsService
from bot.services.year import Highlight, YearService
from bot.storage import Storage


@dataclass(frozen=True)
class ShownAchievement:
    title: str  # the catalogue's message, translated where shown
    description: str
    earned_on: str  # ISO day


@dataclass(frozen=True)
class ShownYear:
    year: int
    games: int
    wins: int
    win_percent: int
    best_streak: int
    skill_by_month: tuple[tuple[int, int | None], ...]  # (1..12, mean skill or None)
    luckiest: Highlight | None  # a day and a number of guesses: no word
    most_skilful: Highlight | None


@dataclass(frozen=True)
class ShownPlayer:
    name: str
    named: bool
    ref: str
    kind: str
    played: int
    win_percent: int
    current_streak: int
    max_streak: int
    distribution: tuple[tuple[int, int], ...]  # (guesses, wins)
    year: ShownYear | None
    achievements: tuple[ShownAchievement, ...]


async def player_figures(storage: Storage, stats: StatsService, guild_id: int, player_id: int,
                         kind: str, today: date, name: str, named: bool,
                         ref: str) -> ShownPlayer:  # fmt: skip
    """What the page of ``guild_id`` shows of ``player_id``: their games there alone (as
    /stats counts them, with the server's streaks), this year's review of those games, and
    the achievements they earned there. Nothing of other servers: where else someone plays
    is theirs to tell."""
    figures = await stats.stats(player_id, kind, today, scope=guild_id)
    year = await YearService(storage).player_year(player_id, kind, today.year, today, guild_id)
    earned = await storage.achievements.earned_in(player_id, guild_id)
    achievements = tuple(
        ShownAchievement(a.title, a.description, earned[a.id][:10])
        for a in CATALOGUE if a.id in earned
    )  # fmt: skip
    shown_year = None if year is None else ShownYear(
        year.year, year.games, year.wins, year.win_percent, year.best_streak,
        tuple(sorted(year.skill_by_month.items())), year.luckiest, year.most_skilful,
    )  # fmt: skip
    return ShownPlayer(name, named, ref, kind, figures.played, figures.win_percent,
                       figures.current_streak, figures.max_streak,
                       tuple(sorted(figures.distribution.items())), shown_year,
                       achievements)  # fmt: skip


def group_streak(days: list[str], today: date) -> int:
    """The server's group streak: the days in a row on which someone here finished the game,
    up to today (today counts once someone has; until then the run up to yesterday holds)."""
    seen = {date.fromisoformat(day) for day in days}
    day = today if today in seen else date.fromordinal(today.toordinal() - 1)
    run = 0
    while day in seen:
        run += 1
        day = date.fromordinal(day.toordinal() - 1)
    return run
