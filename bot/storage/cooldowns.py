"""Cooldowns counted from the rows the limited actions store (a challenge, a race lobby): the
same limit for every process and front end, kept across restarts, with no table of its own.
The count and the insert it allows share one transaction; the actor's player row is locked
first, so one player's actions are counted one after another whatever process takes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class Rate:
    """At most ``count`` actions in any ``per``."""

    count: int
    per: timedelta


@dataclass(frozen=True)
class Wait:
    """An action refused by a cooldown: the limit that refused it (the service names them)
    and when it is allowed again."""

    limit: str
    until: datetime


def stamp(moment: datetime) -> str:
    """A stored time: UTC, to the millisecond, so stored times compare as text."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


async def lock_player(tx: Any, for_update: str, player_id: int) -> None:
    """Hold the player's row until the transaction ends (SQLite's write lock holds all)."""
    await tx.one("SELECT id FROM players WHERE id = ?" + for_update, (player_id,))


async def free_at(
    tx: Any, sql: str, params: Sequence[Any], rate: Rate, now: datetime
) -> datetime | None:
    """When one more action is allowed, or None for now. ``sql`` selects ``created_at`` of
    the actions that count, ending in a condition (``... WHERE setter_id = ?``)."""
    row = await tx.one(
        f"{sql} AND created_at > ? ORDER BY created_at DESC LIMIT 1 OFFSET ?",
        (*params, stamp(now - rate.per), rate.count - 1),
    )
    return None if row is None else datetime.fromisoformat(row[0]) + rate.per
