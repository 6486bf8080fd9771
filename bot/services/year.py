"""A year in review: what the year card draws (bot/render/year.py), as plain data.

A player's year is their results of one game (as /stats counts them: wherever they played)
whose puzzle day falls in the calendar year, days being the puzzle's, in the deployment's
zone like every daily (bot/services/daily.py). A server's year is the games finished in that
server. Fair play: the card names no answer; the favourite opener is the player's own first
guess, counted only from games whose day is over (a first guess that solved today's daily
would be today's answer).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from bot.i18n import _
from bot.services.kinds import kind_name
from bot.storage import Storage
from bot.storage.records import Result, fold
from bot.storage.years import YearResult

TOP_PLAYERS = 5


class YearError(ValueError):
    """A year the card cannot be drawn for (one still to come)."""


@dataclass(frozen=True)
class Highlight:
    """One game of the year worth naming: its day, in how many guesses (None: not solved),
    and the coach's figure (0 to 99) that put it there."""

    day: str
    guesses: int | None
    value: int


@dataclass(frozen=True)
class PlayerYear:
    kind: str
    year: int
    games: int
    wins: int
    distribution: dict[int, int]  # guesses -> wins, 1..the game's limit
    best_streak: int  # the longest run of wins within the year
    opener: str | None  # the first guess played most (ties: the first played of them)
    opener_games: int
    luckiest: Highlight | None
    most_skilful: Highlight | None
    skill_by_month: dict[int, int | None]  # 1..12 -> mean skill that month (None: none)

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


@dataclass(frozen=True)
class ServerYear:
    kind: str
    year: int
    players: int
    games: int
    wins: int
    group_streak: int  # the longest run of days on which someone here finished a game
    busiest_day: str | None
    busiest_games: int
    games_by_month: dict[int, int]  # 1..12 -> games
    top: list[tuple[str, int, int]]  # name, wins, games


def first_guess(state: dict[str, Any]) -> str | None:
    """A stored game's first guess, whatever its kind (a board's rows, a multi-board game's
    guesses, Absurdle's words); None for a game with none stored."""
    rows = state.get("rows") or state.get("guesses") or []
    if not rows:
        return None
    first = rows[0]
    return str(first[0] if isinstance(first, list) else first)


def year_days(year: int, today: date) -> tuple[str, str]:
    """The year's first day and its last (or today, for the current year), as ISO days;
    a year still to come is refused plainly."""
    if year < 1:  # the calendar has no year 0 (the console takes any number)
        raise YearError(_("A year is a number such as {today}, not {year}")
                        .format(year=year, today=today.year))  # fmt: skip
    if year > today.year:
        raise YearError(_("{year} has not begun yet: choose {today} or an earlier year")
                        .format(year=year, today=today.year))  # fmt: skip
    last = min(date(year, 12, 31), today)
    return date(year, 1, 1).isoformat(), last.isoformat()


def best_streak(results: list[YearResult]) -> int:
    """The longest run of wins in these results, counted as the standings count a streak
    (a daily's streak needs consecutive days)."""
    row = None
    for r in results:
        row = fold(row, Result(r.won, r.guesses, r.day))
    return row[4] if row is not None else 0


def _highlight(results: list[YearResult], figure: str) -> Highlight | None:
    """The game with the highest ``figure`` (skill or luck), the earliest among equals."""
    measured = [r for r in results if getattr(r, figure) is not None]
    if not measured:
        return None
    top = max(measured, key=lambda r: (getattr(r, figure), -r.result_id))
    return Highlight(top.played_on, top.guesses if top.won else None, getattr(top, figure))


@dataclass
class YearService:
    storage: Storage

    async def player_year(self, player_id: int, kind: str, year: int, today: date,
                          scope: int | None = None) -> PlayerYear | None:  # fmt: skip
        """The player's year of ``kind`` (in ``scope`` alone if given); None when they
        finished no game of it that year."""
        first, last = year_days(year, today)
        results = await self.storage.years.results(player_id, kind, first, last, scope)
        if not results:
            return None
        limit = kind_name(kind).distribution_size
        distribution = dict.fromkeys(range(1, limit + 1), 0)
        for r in results:
            if r.won:
                distribution[min(r.guesses, limit)] += 1
        states = await self.storage.years.states(player_id, kind, first, last,
                                                 today.isoformat(), scope)  # fmt: skip
        openers = Counter(g for g in map(first_guess, states) if g)
        opener, opener_games = openers.most_common(1)[0] if openers else (None, 0)
        months: dict[int, list[int]] = {}
        for r in results:
            if r.skill is not None:
                months.setdefault(int(r.played_on[5:7]), []).append(r.skill)
        skill = {m: round(sum(months[m]) / len(months[m])) if m in months else None
                 for m in range(1, 13)}  # fmt: skip
        return PlayerYear(
            kind, year, len(results), sum(r.won for r in results), distribution,
            best_streak(results), opener, opener_games, _highlight(results, "luck"),
            _highlight(results, "skill"), skill,
        )  # fmt: skip

    async def server_year(self, scope: int, kind: str, year: int,
                          today: date) -> ServerYear | None:  # fmt: skip
        """The server's year of ``kind``; None when nobody finished a game of it here."""
        first, last = year_days(year, today)
        days = await self.storage.years.server_days(scope, kind, first, last)
        if not days:
            return None
        players, top = await self.storage.years.server_players(scope, kind, first, last,
                                                               TOP_PLAYERS)  # fmt: skip
        longest = run = 0
        previous: date | None = None
        for text, _games, _wins in days:
            day = date.fromisoformat(text)
            run = run + 1 if previous is not None and day - previous == timedelta(1) else 1
            longest, previous = max(longest, run), day
        busiest = max(days, key=lambda d: d[1])  # the first of equals: days are in order
        by_month = dict.fromkeys(range(1, 13), 0)
        for text, games, _wins in days:
            by_month[int(text[5:7])] += games
        return ServerYear(kind, year, players, sum(d[1] for d in days), sum(d[2] for d in days),
                          longest, busiest[0], busiest[1], by_month, top)  # fmt: skip
