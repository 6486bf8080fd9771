"""The deployment's pace of requests to Discord, shared by every process through the database
(:mod:`bot.services.request_budget` decides who goes when).

One row holds ``next_at``: the moment from which the next request may be sent. A process
reserves ``count`` send times ``spacing`` apart in one statement, which moves ``next_at``
past them, so two processes never get the same time. On PostgreSQL the moments are the
database's clock (processes on several machines agree on it); SQLite's file is on this
machine, whose clock every process shares.

Discord's refusals (401, 403, 429) are counted by the minute: ten thousand in ten minutes
ban the bot's address.
"""

from __future__ import annotations

from bot.storage.database import Database

PACE = "discord"
_PG_NOW = "now AS (SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8 AS t)"


class RequestPace:
    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def own_clock(self) -> bool:
        """Whether the schedule's moments are the database's clock (PostgreSQL), not the
        caller's (SQLite: this machine's, which every process reads)."""
        return self.db.engine == "postgresql"

    async def reserve(self, count: int, spacing: float, horizon: float,
                      now: float) -> tuple[float, float] | None:  # fmt: skip
        """Reserve ``count`` send times ``spacing`` seconds apart, the first as soon as the
        schedule allows, unless the schedule already runs more than ``horizon`` seconds
        ahead. Returns the first time and the schedule's now, in seconds since the epoch by
        the schedule's clock (:attr:`own_clock`; else ``now``, the caller's), or None when
        refused."""
        span = count * spacing
        # An upsert: a database whose tables were emptied (a copy, a test's) starts again.
        if self.db.engine == "postgresql":
            sql = (f"WITH {_PG_NOW} INSERT INTO request_pace AS p (name, next_at) "
                   "SELECT ?, now.t + ? FROM now ON CONFLICT (name) DO UPDATE "
                   "SET next_at = GREATEST(p.next_at, EXCLUDED.next_at - ?) + ? "
                   "WHERE p.next_at <= EXCLUDED.next_at - ? + ? "
                   "RETURNING p.next_at - ?, (SELECT t FROM now)")  # fmt: skip
            params: tuple[object, ...] = (PACE, span, span, span, span, horizon, span)
        else:
            sql = ("INSERT INTO request_pace (name, next_at) VALUES (?, ?) "
                   "ON CONFLICT (name) DO UPDATE SET next_at = MAX(next_at, ?) + ? "
                   "WHERE next_at <= ? RETURNING next_at - ?, ?")  # fmt: skip
            params = (PACE, now + span, now, span, now + horizon, span, now)
        async with self.db.transaction() as tx:
            row = await tx.one(sql, params)
        return None if row is None else (float(row[0]), float(row[1]))

    async def ahead(self, now: float) -> float:
        """How far the schedule runs ahead of now, in seconds (0 when idle)."""
        if self.db.engine == "postgresql":
            sql = f"WITH {_PG_NOW} SELECT next_at - now.t FROM request_pace, now WHERE name = ?"
            row = await self.db.one(sql, (PACE,))
        else:
            sql = "SELECT next_at - ? FROM request_pace WHERE name = ?"
            row = await self.db.one(sql, (now, PACE))
        return 0.0 if row is None else max(0.0, float(row[0]))

    async def refused(self, minute: int, count: int) -> None:
        """Add ``count`` refusals to those of ``minute`` (minutes since the epoch)."""
        await self.db.write(
            "INSERT INTO request_refusals (minute, refused) VALUES (?, ?) ON CONFLICT(minute) "
            "DO UPDATE SET refused = request_refusals.refused + excluded.refused",
            (minute, count),
        )

    async def refusals(self, since_minute: int) -> int:
        """The refusals counted from ``since_minute`` on; older minutes are let go."""
        await self.db.write("DELETE FROM request_refusals WHERE minute < ?", (since_minute - 60,))
        row = await self.db.one(
            "SELECT COALESCE(SUM(refused), 0) FROM request_refusals WHERE minute >= ?",
            (since_minute,),
        )
        return 0 if row is None else int(row[0])
