"""The job that keeps the database from growing with what nobody reads
(:mod:`bot.storage.retention` says what that is): run by the process that runs the
deployment's jobs, on its clock, a few small batches a round.

``RETENTION_DAYS`` (bot/settings.py) is how long such rows stay after the last day a reader
could want them; 0 keeps everything. Players' own history (games with their boards, results,
standings, shares, achievements) is never purged: the year card, the archive, streaks,
achievements and /mydata read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from bot.services.daily import DailyPuzzles
from bot.storage import Storage

BATCH = 1000  # rows a statement deletes: short transactions beside the players' moves
BATCHES = 10  # statements a round (a few seconds): a backlog goes over many rounds


@dataclass
class Purged:
    period_rows: int = 0
    digests: int = 0
    live_boards: int = 0
    done: bool = True  # False: the round stopped at its batches, the rest waits for the next


class RetentionService:
    def __init__(self, storage: Storage, daily: DailyPuzzles, keep_days: int,
                 batch: int = BATCH, batches: int = BATCHES) -> None:  # fmt: skip
        self.storage = storage
        self.daily = daily
        self.keep_days = keep_days
        self.batch = batch
        self.batches = batches
        self._clean_on: date | None = None  # the day this process last left nothing to purge

    async def job(self) -> None:
        """The leader job (bot/discord_bot.py): a round."""
        await self.run_due()

    async def run_due(self) -> Purged:
        """One round: at most ``batches`` deletes of ``batch`` rows. Once a round leaves
        nothing, the next rounds of the same day read nothing either."""
        purged = Purged()
        today = self.daily.today()
        if self.keep_days <= 0 or self._clean_on == today:
            return purged
        before = today - timedelta(days=self.keep_days)
        retention = self.storage.retention
        left = self.batches
        # a day's digest is due the next day, its live board edited until the day closes
        days_before = (before - timedelta(days=1)).isoformat()
        for table in ("digests", "live_boards"):
            while left > 0:
                left -= 1
                gone = await retention.purge_days(table, days_before, self.batch)
                setattr(purged, table, getattr(purged, table) + gone)
                if gone < self.batch:
                    break
        # then the period boards, the most rows
        for board in await retention.ended_boards(before):
            while left > 0:
                left -= 1
                gone = await retention.purge_board(board, self.batch)
                purged.period_rows += gone
                if gone < self.batch:
                    break
        purged.done = left > 0
        if purged.done:
            self._clean_on = today
        return purged
