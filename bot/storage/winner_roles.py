"""The winner's role: the role a server gives the day's winners (``guild_settings``), and who
holds it by the bot's hand (``winner_roles``).

A holder is recorded *before* the role is given and forgotten only once it is taken back, so
a restart, a crash between the two, or another process running the next digest still knows
whom to take it from; members who hold the role for any other reason are never recorded,
so never touched. A player's rows go with their data (the foreign key cascades): their
deletion reads them in its transaction (:func:`roles_held_by`), with the player's row
locked, and Discord's front end takes those roles back at once (:mod:`bot.services`). A
holder is recorded with that row locked too, so each record is either read by the deletion
or refused after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.storage.cooldowns import lock_player
from bot.storage.database import Database


@dataclass(frozen=True)
class Holder:
    player_id: int
    role_id: int
    day: str  # the digest's day that gave it


class WinnerRoles:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set_role(self, guild_id: int, role_id: int | None) -> None:
        """Give ``role_id`` to each day's winners (None: no role); nothing said about it yet."""
        await self.db.write(
            "INSERT INTO guild_settings (guild_id, winner_role) VALUES (?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET winner_role = excluded.winner_role, "
            "winner_role_problem = NULL",
            (guild_id, role_id),
        )

    async def role(self, guild_id: int) -> int | None:
        row = await self.db.one(
            "SELECT winner_role FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None or row[0] is None else int(row[0])

    async def holders(self, guild_id: int) -> list[Holder]:
        rows = await self.db.all(
            "SELECT player_id, role_id, day FROM winner_roles WHERE guild_id = ? "
            "ORDER BY player_id, role_id",
            (guild_id,),
        )
        return [Holder(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def holds(self, guild_id: int, player_id: int, role_id: int) -> bool:
        """Whether the bot's record of this holder is still there (a deletion drops it)."""
        row = await self.db.one(
            "SELECT 1 FROM winner_roles WHERE guild_id = ? AND player_id = ? AND role_id = ?",
            (guild_id, player_id, role_id),
        )
        return row is not None

    async def latest_day(self, guild_id: int) -> str | None:
        """The latest digest's day that gave the role here (a later one is never undone)."""
        row = await self.db.one("SELECT MAX(day) FROM winner_roles WHERE guild_id = ?", (guild_id,))
        return None if row is None or row[0] is None else str(row[0])

    async def giving(self, guild_id: int, player_id: int, role_id: int, day: str) -> bool:
        """Record that the role is about to be given; False when the player has no data
        (deleted since, or being deleted: the lock waits for that deletion): they are not
        given it."""
        async with self.db.transaction() as tx:
            await lock_player(tx, self.db.for_update, player_id)
            return (
                await tx.execute(
                    "INSERT INTO winner_roles (guild_id, player_id, role_id, day) "
                    "SELECT ?, id, ?, ? FROM players WHERE id = ? "
                    "ON CONFLICT(guild_id, player_id, role_id) DO UPDATE SET day = excluded.day",
                    (guild_id, role_id, day, player_id),
                )
                == 1
            )

    async def taken(self, guild_id: int, player_id: int, role_id: int) -> None:
        """Forget a holder: the role was taken back (or they left the server)."""
        await self.db.write(
            "DELETE FROM winner_roles WHERE guild_id = ? AND player_id = ? AND role_id = ?",
            (guild_id, player_id, role_id),
        )

    async def problem(self, guild_id: int) -> str | None:
        """The problem with the role last said in the digest's channel (None: none)."""
        row = await self.db.one(
            "SELECT winner_role_problem FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def said(self, guild_id: int, problem: str) -> bool:
        """Record ``problem`` as said in the digest's channel; False when it was said last
        time already (said once, not at each digest while it lasts)."""
        return (
            await self.db.write(
                "UPDATE guild_settings SET winner_role_problem = ? WHERE guild_id = ? "
                "AND (winner_role_problem IS NULL OR winner_role_problem <> ?)",
                (problem, guild_id, problem),
            )
            == 1
        )

    async def solved(self, guild_id: int) -> None:
        """The role worked again: a new problem will be said."""
        await self.db.write(
            "UPDATE guild_settings SET winner_role_problem = NULL WHERE guild_id = ? "
            "AND winner_role_problem IS NOT NULL",
            (guild_id,),
        )


async def roles_held_by(tx: Any, player_id: int) -> list[tuple[int, int]]:
    """(server, role) of every role the bot gave the player and has not taken back, read in
    ``tx`` (their deletion's, once it holds their row)."""
    rows = await tx.all(
        "SELECT guild_id, role_id FROM winner_roles WHERE player_id = ? ORDER BY guild_id, role_id",
        (player_id,),
    )
    return [(int(r[0]), int(r[1])) for r in rows]
