"""What the live daily board reads and records: the channel a server chose for it, and the
message of each server's board of each puzzle day.

One board a server and day, across processes: a process claims the day's row (its message id
NULL) before it posts, and sets the id after; a board deleted in Discord is claimed again by
the compare-and-set of its old id. A claim left by a process that died before posting is
taken over once it is older than ``STALE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage.database import Database

STALE = timedelta(seconds=60)  # a claim with no message after this long: its poster died


@dataclass(frozen=True)
class BoardMessage:
    channel_id: int
    message_id: int | None  # None: claimed, being posted


def _now() -> datetime:
    return datetime.now(UTC)


def _stamp(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


class LiveBoards:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Keep the server's live board in ``channel_id`` (None: no live board)."""
        await self.db.write(
            "INSERT INTO guild_settings (guild_id, live_channel) VALUES (?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET live_channel = excluded.live_channel",
            (guild_id, channel_id),
        )

    async def channel(self, guild_id: int) -> int | None:
        row = await self.db.one(
            "SELECT live_channel FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None or row[0] is None else int(row[0])

    async def message(self, guild_id: int, day: str) -> BoardMessage | None:
        row = await self.db.one(
            "SELECT channel_id, message_id FROM live_boards WHERE guild_id = ? AND day = ?",
            (guild_id, day),
        )
        return None if row is None else BoardMessage(int(row[0]), row[1])

    async def claim(self, guild_id: int, day: str, channel_id: int) -> bool:
        """Take the posting of the server's board of ``day``; False when another process
        holds it (posted, or posting)."""
        return (
            await self.db.write(
                "INSERT INTO live_boards (guild_id, day, channel_id, claimed_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, day, channel_id, _stamp(_now())),
            )
            == 1
        )

    async def reclaim(self, guild_id: int, day: str, channel_id: int, gone: int | None) -> bool:
        """Take the posting again: the board ``gone`` was deleted (or, ``gone`` None, its
        claim went stale, or the channel changed). Exactly one process wins."""
        now = _now()
        if gone is None:
            return (
                await self.db.write(
                    "UPDATE live_boards SET claimed_at = ?, channel_id = ? WHERE guild_id = ? "
                    "AND day = ? AND message_id IS NULL AND claimed_at < ?",
                    (_stamp(now), channel_id, guild_id, day, _stamp(now - STALE)),
                )
                == 1
            )
        return (
            await self.db.write(
                "UPDATE live_boards SET message_id = NULL, claimed_at = ?, channel_id = ? "
                "WHERE guild_id = ? AND day = ? AND message_id = ?",
                (_stamp(now), channel_id, guild_id, day, gone),
            )
            == 1
        )

    async def posted(self, guild_id: int, day: str, message_id: int) -> None:
        await self.db.write(
            "UPDATE live_boards SET message_id = ? WHERE guild_id = ? AND day = ? "
            "AND message_id IS NULL",
            (message_id, guild_id, day),
        )

    async def servers_with_board(self, day: str) -> list[int]:
        """The servers with a board of ``day`` posted (or being posted)."""
        rows = await self.db.all(
            "SELECT guild_id FROM live_boards WHERE day = ? ORDER BY guild_id", (day,)
        )
        return [int(r[0]) for r in rows]

    async def showing(self, player_id: int, day: str) -> list[int]:
        """The servers whose board of ``day`` shows the player now (:func:`boards_showing`)."""
        return [scope for scope, _day in await boards_showing(self.db, player_id, day)]

    async def release(self, guild_id: int, day: str) -> None:
        """Give a claim back: nothing was posted."""
        await self.db.write(
            "DELETE FROM live_boards WHERE guild_id = ? AND day = ? AND message_id IS NULL",
            (guild_id, day),
        )


async def boards_showing(tx: Any, player_id: int, day: str) -> list[tuple[int, str]]:
    """(server, ``day``) of each board of that day that shows the player (the reads of
    :mod:`bot.storage.digests`, by player): a daily finished or going there, a share counted
    there. Read in ``tx``, their deletion's: those boards are shown again without them."""
    rows = await tx.all(
        "SELECT scope FROM results WHERE player_id = ? AND day = ? AND kind LIKE '%:daily' "
        "UNION SELECT scope FROM share_results WHERE player_id = ? AND day = ? AND counted = 1 "
        "UNION SELECT scope FROM games WHERE player_id = ? AND puzzle = ? "
        "AND status = 'playing' AND kind LIKE '%:daily' ORDER BY scope",
        (player_id, day, player_id, day, player_id, day),
    )
    return [(int(r[0]), day) for r in rows]
