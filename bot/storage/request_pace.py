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

from collections.abc import Sequence

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

    async def reserve(
        self, count: int, spacing: float, horizon: float, now: float, *,
        hold: tuple[str, float] | None = None, yields: Sequence[str] = (),
    ) -> tuple[float, float] | None:  # fmt: skip
        """Reserve ``count`` send times ``spacing`` seconds apart, the first as soon as the
        schedule allows, unless the schedule already runs more than ``horizon`` seconds
        ahead. Returns the first time and the schedule's now, in seconds since the epoch by
        the schedule's clock (:attr:`own_clock`; else ``now``, the caller's), or None when
        refused. ``hold`` (a name, seconds): the reserving work holds the schedule, under that
        name, until this long after its last time; refused while any of ``yields`` holds it."""
        span, pg = count * spacing, self.db.engine == "postgresql"
        moment = "(SELECT t FROM now)" if pg else "?"
        held = ", ".join("?" * len(yields))
        quiet = ("AND NOT EXISTS (SELECT 1 FROM request_pace b WHERE b.name IN "
                 f"({held}) AND b.next_at > {moment}) ") if yields else ""  # fmt: skip
        # An upsert: a database whose tables were emptied (a copy, a test's) starts again.
        if pg:
            sql = (f"WITH {_PG_NOW} INSERT INTO request_pace AS p (name, next_at) "
                   "SELECT ?, now.t + ? FROM now ON CONFLICT (name) DO UPDATE "
                   "SET next_at = GREATEST(p.next_at, EXCLUDED.next_at - ?) + ? "
                   f"WHERE p.next_at <= EXCLUDED.next_at - ? + ? {quiet}"
                   "RETURNING p.next_at - ?, (SELECT t FROM now)")  # fmt: skip
            params: tuple[object, ...] = (PACE, span, span, span, span, horizon, *yields,
                                          span)  # fmt: skip
        else:
            sql = ("INSERT INTO request_pace (name, next_at) VALUES (?, ?) "
                   "ON CONFLICT (name) DO UPDATE SET next_at = MAX(next_at, ?) + ? "
                   f"WHERE next_at <= ? {quiet}RETURNING next_at - ?, ?")  # fmt: skip
            params = (PACE, now + span, now, span, now + horizon,
                      *((*yields, now) if yields else ()), span, now)  # fmt: skip
        async with self.db.transaction() as tx:
            row = await tx.one(sql, params)
            if row is not None and hold is not None:
                name, holds = hold
                until = float(row[0]) + span + holds
                await tx.execute(
                    "INSERT INTO request_pace (name, next_at) VALUES (?, ?) ON CONFLICT (name) "
                    f"DO UPDATE SET next_at = {'GREATEST' if pg else 'MAX'}("
                    "request_pace.next_at, excluded.next_at)", (name, until))  # fmt: skip
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
