"""The year card's reads (bot/services/year.py): a player's results of one game between two
days, the first guesses of their games, and a server's year by day and by player."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database


@dataclass(frozen=True)
class YearResult:
    """One finished game of the year: its puzzle day (a practice game: the day it was played
    on), won or not, in how many guesses, and the coach's figures where it measured them."""

    result_id: int
    played_on: str
    day: str | None  # the daily's day; None for practice
    won: bool
    guesses: int
    skill: int | None
    luck: int | None


class Years:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def results(self, player_id: int, kind: str, first: str, last: str,
                      scope: int | None = None) -> list[YearResult]:  # fmt: skip
        """The player's results of ``kind`` played from ``first`` to ``last`` (ISO days), in
        play order, wherever they were played (in ``scope`` alone if given)."""
        rows = await self.db.all(
            "SELECT id, played_on, day, won, guesses, skill, luck FROM results "
            "WHERE player_id = ? AND kind = ? AND played_on >= ? AND played_on <= ? "
            + ("" if scope is None else "AND scope = ? ")
            + "ORDER BY played_on, id",
            (player_id, kind, first, last) + (() if scope is None else (scope,)),
        )
        return [YearResult(int(r[0]), str(r[1]), r[2], bool(r[3]), int(r[4]), r[5], r[6])
                for r in rows]  # fmt: skip

    async def states(self, player_id: int, kind: str, first: str, last: str, closed_before: str,
                     scope: int | None = None) -> list[dict[str, Any]]:  # fmt: skip
        """The stored states of the player's finished games of ``kind`` in those days (in
        ``scope`` alone if given), less the dailies of days not over (``day >=
        closed_before``): their guesses stay unsaid. In play order."""
        rows = await self.db.all(
            "SELECT g.state FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE r.player_id = ? AND r.kind = ? AND r.played_on >= ? AND r.played_on <= ? "
            "AND (r.day IS NULL OR r.day < ?) "
            + ("" if scope is None else "AND r.scope = ? ")
            + "ORDER BY r.played_on, r.id",
            (player_id, kind, first, last, closed_before) + (() if scope is None else (scope,)),
        )
        return [json.loads(r[0]) for r in rows]

    async def server_days(self, scope: int, kind: str, first: str,
                          last: str) -> list[tuple[str, int, int]]:  # fmt: skip
        """Each day of those on which someone here finished ``kind``: (day, games, wins)."""
        rows = await self.db.all(
            "SELECT played_on, COUNT(*), SUM(won) FROM results WHERE scope = ? AND kind = ? "
            "AND played_on >= ? AND played_on <= ? GROUP BY played_on ORDER BY played_on",
            (scope, kind, first, last),
        )
        return [(str(r[0]), int(r[1]), int(r[2] or 0)) for r in rows]

    async def server_players(self, scope: int, kind: str, first: str, last: str,
                             limit: int) -> tuple[int, list[tuple[str, int, int]]]:  # fmt: skip
        """How many players finished ``kind`` here in those days, and the first ``limit`` by
        wins (then games, then who came first): (name, wins, games)."""
        count = await self.db.one(
            "SELECT COUNT(DISTINCT player_id) FROM results WHERE scope = ? AND kind = ? "
            "AND played_on >= ? AND played_on <= ?",
            (scope, kind, first, last),
        )
        rows = await self.db.all(
            "SELECT r.player_id, p.name, SUM(r.won) AS wins, COUNT(*) AS games FROM results r "
            "JOIN players p ON p.id = r.player_id WHERE r.scope = ? AND r.kind = ? "
            "AND r.played_on >= ? AND r.played_on <= ? GROUP BY r.player_id, p.name "
            "ORDER BY wins DESC, games DESC, r.player_id LIMIT ?",
            (scope, kind, first, last, limit),
        )
        top = [(str(r[1] or r[0]), int(r[2] or 0), int(r[3])) for r in rows]
        return (int(count[0]) if count is not None else 0), top
