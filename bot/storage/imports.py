"""The checkpoints of share channels' history imports (/import): one row per server and
channel, holding where the walk got to and what it counted so far.

Who runs an import is decided here, across processes: the row is taken by compare-and-set
on its ``version`` (two /import at once, in one process or two, find one winner), and held
by its ``owner`` (a process) as long as that owner keeps ``updated_at`` fresh. An owner that
stopped (killed, restarted) leaves its row ``running`` and stale: whoever claims it next
carries on from ``last_message_id``. Every write of an owner names it, so an owner that lost
its row (taken over as stale) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from bot.storage.database import Database, Row

Claimed = Literal["started", "resumed", "held"]


@dataclass(frozen=True)
class ImportCounts:
    """What an import has read: messages, and the shares in them by outcome."""

    messages_read: int = 0
    counted: int = 0  # shares that count now (new, or a correction)
    already: int = 0  # shares counted before (live, or by an earlier import)
    refused: int = 0  # shares the counting rules refuse (stored nowhere)
    not_shares: int = 0  # messages with no share (talk, a bot's post)


COUNT_COLUMNS = tuple(f.name for f in fields(ImportCounts))


@dataclass(frozen=True)
class Checkpoint:
    guild_id: int
    channel_id: int
    since: str  # the first day read (ISO)
    started_by: int
    status: str  # "running" or "done"
    owner: str
    version: int
    last_message_id: int | None  # the last message read (None: none yet)
    counts: ImportCounts
    progress_channel_id: int | None  # where its progress is shown, once posted
    progress_message_id: int | None
    started_at: str
    updated_at: str


COLUMNS = ("guild_id, channel_id, since, started_by, status, owner, version, last_message_id, "
           + ", ".join(COUNT_COLUMNS)
           + ", progress_channel_id, progress_message_id, started_at, updated_at")  # fmt: skip


def _checkpoint(row: Row) -> Checkpoint:
    values = dict(zip(COLUMNS.split(", "), tuple(row), strict=True))
    counts = ImportCounts(*(int(values.pop(name)) for name in COUNT_COLUMNS))
    return Checkpoint(counts=counts, **values)


class Imports:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: int, channel_id: int) -> Checkpoint | None:
        row = await self.db.one(
            f"SELECT {COLUMNS} FROM share_imports WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return None if row is None else _checkpoint(row)

    async def claim(
        self, guild_id: int, channel_id: int, *, since: str, by: int, owner: str, now: str,
        stale_before: str,
    ) -> tuple[Claimed, Checkpoint | None]:  # fmt: skip
        """Take the import of a channel for ``owner``: ``"started"`` (none was running: a new
        walk from ``since``), ``"resumed"`` (one was left running by an owner silent since
        before ``stale_before``: it carries on from its checkpoint, its own ``since``) or
        ``"held"`` (another owner runs it now; nothing changes). The checkpoint as it is
        after the claim."""
        inserted = await self.db.write(
            "INSERT INTO share_imports (guild_id, channel_id, since, started_by, status, owner, "
            "started_at, updated_at) VALUES (?, ?, ?, ?, 'running', ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (guild_id, channel_id, since, by, owner, now, now),
        )
        if inserted:
            return "started", await self.get(guild_id, channel_id)
        old = await self.get(guild_id, channel_id)
        if old is None:  # removed between the two statements: let the caller try again
            return "held", None
        if old.status == "running" and old.updated_at >= stale_before:
            return "held", old  # its owner is alive (this process too: it runs it already)
        if old.status == "running":
            taken = await self.db.write(
                "UPDATE share_imports SET owner = ?, updated_at = ?, version = version + 1 "
                "WHERE guild_id = ? AND channel_id = ? AND version = ?",
                (owner, now, guild_id, channel_id, old.version),
            )
            outcome: Claimed = "resumed"
        else:  # done: a new walk, its counts from nothing
            zeros = ", ".join(f"{name} = 0" for name in COUNT_COLUMNS)
            taken = await self.db.write(
                f"UPDATE share_imports SET since = ?, started_by = ?, status = 'running', "
                f"owner = ?, last_message_id = NULL, {zeros}, progress_channel_id = NULL, "
                "progress_message_id = NULL, started_at = ?, updated_at = ?, "
                "version = version + 1 WHERE guild_id = ? AND channel_id = ? AND version = ?",
                (since, by, owner, now, now, guild_id, channel_id, old.version),
            )
            outcome = "started"
        if not taken:  # another claim won the row between our read and our write
            return "held", await self.get(guild_id, channel_id)
        return outcome, await self.get(guild_id, channel_id)

    async def advance(
        self, guild_id: int, channel_id: int, owner: str, last_message_id: int,
        counts: ImportCounts, now: str,
    ) -> bool:  # fmt: skip
        """Record a message read: the checkpoint moves past it. False: ``owner`` no longer
        holds the import (it was taken over), and nothing changed."""
        sets = ", ".join(f"{name} = ?" for name in COUNT_COLUMNS)
        return bool(await self.db.write(
            f"UPDATE share_imports SET last_message_id = ?, {sets}, updated_at = ? "
            "WHERE guild_id = ? AND channel_id = ? AND owner = ? AND status = 'running'",
            (last_message_id, *(getattr(counts, n) for n in COUNT_COLUMNS), now, guild_id,
             channel_id, owner),
        ))  # fmt: skip

    async def heartbeat(self, guild_id: int, channel_id: int, owner: str, now: str) -> bool:
        """Keep holding the import while a page is awaited (Discord may make us wait)."""
        return bool(await self.db.write(
            "UPDATE share_imports SET updated_at = ? WHERE guild_id = ? AND channel_id = ? "
            "AND owner = ? AND status = 'running'",
            (now, guild_id, channel_id, owner),
        ))  # fmt: skip

    async def shown_in(self, guild_id: int, channel_id: int, owner: str, where: int,
                       message_id: int) -> None:  # fmt: skip
        """The message that shows the import's progress (edited after a restart too)."""
        await self.db.write(
            "UPDATE share_imports SET progress_channel_id = ?, progress_message_id = ? "
            "WHERE guild_id = ? AND channel_id = ? AND owner = ?",
            (where, message_id, guild_id, channel_id, owner),
        )

    async def finish(self, guild_id: int, channel_id: int, owner: str, now: str) -> bool:
        return bool(await self.db.write(
            "UPDATE share_imports SET status = 'done', updated_at = ? WHERE guild_id = ? "
            "AND channel_id = ? AND owner = ? AND status = 'running'",
            (now, guild_id, channel_id, owner),
        ))  # fmt: skip

    async def release(self, owner: str) -> int:
        """Let go of ``owner``'s running imports at once (a process stopping cleanly): the
        next claim carries them on without waiting for the lease."""
        return await self.db.write(
            "UPDATE share_imports SET updated_at = '' WHERE owner = ? AND status = 'running'",
            (owner,),
        )

    async def stale(self, stale_before: str) -> list[Checkpoint]:
        """The imports left running by an owner silent since before ``stale_before``."""
        rows = await self.db.all(
            f"SELECT {COLUMNS} FROM share_imports WHERE status = 'running' AND updated_at < ? "
            "ORDER BY guild_id, channel_id",
            (stale_before,),
        )
        return [_checkpoint(row) for row in rows]
