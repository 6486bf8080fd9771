"""The skill board's storage: the coach's skill (0 to 99) of each finished daily, and each
player's total of them in the standings and period boards, so the board is read like the
others (mean skill = ``skill_total / skilled``).

A result is coached once: ``coached`` is set in the same transaction that adds its skill to
the boards, and only when it was still unset, so two runners never add one game twice.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from bot.storage.database import Database
from bot.storage.periods import period_keys
from bot.storage.records import DEFAULT_SEASON_DAYS, GLOBAL


class Skills:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def pending(self, limit: int) -> list[tuple[int, dict[str, Any]]]:
        """Finished dailies not yet coached, newest first: (result id, the game's state)."""
        rows = await self.db.all(
            "SELECT r.id, g.state FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE r.coached = 0 AND r.day IS NOT NULL ORDER BY r.id DESC LIMIT ?",
            (limit,),
        )
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def record(self, result_id: int, skill: int | None, luck: int | None = None) -> bool:
        """Mark a result coached and add its skill (None: the coach measured none, as for a
        game won at the first guess) to its player's boards, keeping its luck beside it (the
        year card's luckiest game); False if it was coached before."""
        async with self.db.transaction() as db:
            if not await db.execute(
                "UPDATE results SET coached = 1, skill = ?, luck = ? WHERE id = ? AND coached = 0",
                (skill, luck, result_id),
            ):
                return False
            if skill is None:
                return True
            row = await db.one(
                "SELECT r.scope, r.player_id, r.kind, r.played_on, gs.season_days FROM results r "
                "LEFT JOIN guild_settings gs ON gs.guild_id = r.scope WHERE r.id = ?",
                (result_id,),
            )
            assert row is not None
            scope, player_id, kind, played_on, season_days = tuple(row)
            for where in sorted({scope, GLOBAL}):  # the order every writer locks in
                await db.execute(
                    "UPDATE standings SET skilled = skilled + 1, skill_total = skill_total + ? "
                    "WHERE scope = ? AND kind = ? AND player_id = ?",
                    (skill, where, kind, player_id),
                )
                days = season_days if where == scope and season_days else DEFAULT_SEASON_DAYS
                for key in period_keys(date.fromisoformat(played_on), days):
                    await db.execute(
                        "UPDATE period_standings SET skilled = skilled + 1, "
                        "skill_total = skill_total + ? "
                        "WHERE scope = ? AND kind = ? AND period = ? AND player_id = ?",
                        (skill, where, kind, key, player_id),
                    )
        return True
