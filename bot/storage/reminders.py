"""What reminders read and record: each opted-in player's reminder in a server, the server's
daily role, and one claim per reminder (or role) and puzzle day.

The claim is the exactly-once guarantee: a reminder's ``last_day`` (a role's
``daily_role_day``) is moved to the puzzle day by a conditional ``UPDATE`` before anything is
sent; only the statement that changed the row may send, so two processes, a restart or a
retry never remind a player twice on one day. A send that failed before anything reached
Discord gives the day back.

Who has played: a player has played a puzzle day's Wordle once they have a daily game of
that day here (started counts: they know the board is waiting; one daily attempt per player,
in any server or in direct messages), or a Wordle share recorded for that day.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Database

DAILY_KIND = "wordle:daily"
SHARE_GAME = "wordle"  # a share of the official Wordle counts on the same puzzle day


def _played(player: str) -> str:
    """SQL: ``player`` (a column, or ?) has played the Wordle of puzzle day ?. Its
    parameters, in order: [player,] day, [player,] day."""
    return (
        f"(EXISTS (SELECT 1 FROM games g WHERE g.player_id = {player} AND g.kind = "
        f"'{DAILY_KIND}' AND g.puzzle = ?) OR EXISTS (SELECT 1 FROM share_results s WHERE "
        f"s.player_id = {player} AND s.game = '{SHARE_GAME}' AND s.day = ?))"
    )


@dataclass(frozen=True)
class Reminder:
    guild_id: int
    player_id: int
    channel_id: int
    minute: int  # of the server's day, in its time zone
    last_day: str | None  # the puzzle day last reminded (claimed)
    timezone: str | None  # the server's zone (None: the deployment's)


@dataclass(frozen=True)
class DailyRole:
    guild_id: int
    role_id: int
    channel_id: int
    last_day: str | None  # the puzzle day last pinged (claimed)


@dataclass(frozen=True)
class Missing:
    player_id: int
    name: str


class Reminders:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- each player's reminder ----------------------------------------------------------

    async def set(self, guild_id: int, player_id: int, channel_id: int, minute: int,
                  done_day: str | None = None) -> str | None:  # fmt: skip
        """Remind the player (who must exist) at ``minute`` in ``channel_id``. ``done_day``:
        count that day as reminded already (its minute has passed); a day counted so stays
        so, whatever the new time: one reminder a day at most. Returns the last day counted."""
        async with self.db.transaction() as db:
            row = await db.one(
                "INSERT INTO reminders (guild_id, player_id, channel_id, minute, last_day) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, minute = excluded.minute, "
                "last_day = COALESCE(excluded.last_day, reminders.last_day) RETURNING last_day",
                (guild_id, player_id, channel_id, minute, done_day),
            )
        return None if row is None else row[0]

    async def remove(self, guild_id: int, player_id: int) -> bool:
        return (
            await self.db.write(
                "DELETE FROM reminders WHERE guild_id = ? AND player_id = ?",
                (guild_id, player_id),
            )
            == 1
        )

    async def of_player(self, guild_id: int, player_id: int) -> Reminder | None:
        row = await self.db.one(
            "SELECT r.guild_id, r.player_id, r.channel_id, r.minute, r.last_day, s.timezone "
            "FROM reminders r LEFT JOIN guild_settings s ON s.guild_id = r.guild_id "
            "WHERE r.guild_id = ? AND r.player_id = ?",
            (guild_id, player_id),
        )
        return None if row is None else Reminder(*tuple(row))

    async def pending(self, day: str) -> list[Reminder]:
        """Every reminder not yet claimed for puzzle ``day``, with its server's zone (the
        service decides which are due: the minute is the server's)."""
        rows = await self.db.all(
            "SELECT r.guild_id, r.player_id, r.channel_id, r.minute, r.last_day, s.timezone "
            "FROM reminders r LEFT JOIN guild_settings s ON s.guild_id = r.guild_id "
            "WHERE r.last_day IS NULL OR r.last_day < ? ORDER BY r.guild_id, r.minute, "
            "r.player_id",
            (day,),
        )
        return [Reminder(*tuple(row)) for row in rows]

    async def claim(self, guild_id: int, player_id: int, day: str) -> bool:
        """Take the player's reminder of ``day``; False when it was taken before."""
        return (
            await self.db.write(
                "UPDATE reminders SET last_day = ? WHERE guild_id = ? AND player_id = ? "
                "AND (last_day IS NULL OR last_day < ?)",
                (day, guild_id, player_id, day),
            )
            == 1
        )

    async def release(self, guild_id: int, player_id: int, day: str,
                      previous: str | None) -> None:  # fmt: skip
        """Give a claim back: its send failed before anything reached Discord."""
        await self.db.write(
            "UPDATE reminders SET last_day = ? WHERE guild_id = ? AND player_id = ? "
            "AND last_day = ?",
            (previous, guild_id, player_id, day),
        )

    # -- who has played ------------------------------------------------------------------

    async def played(self, player_id: int, day: str) -> bool:
        """Whether the player has played (or started) the Wordle of puzzle ``day``."""
        row = await self.db.one(f"SELECT {_played('?')}", (player_id, day, player_id, day))
        return row is not None and bool(row[0])

    async def missing(self, guild_id: int, day: str) -> list[Missing]:
        """The server's opted-in players who have not played the Wordle of ``day``."""
        rows = await self.db.all(
            "SELECT r.player_id, p.name FROM reminders r JOIN players p ON p.id = r.player_id "
            f"WHERE r.guild_id = ? AND NOT {_played('r.player_id')} "
            "ORDER BY p.name, r.player_id",
            (guild_id, day, day),
        )
        return [Missing(int(r[0]), str(r[1])) for r in rows]

    # -- the daily role ------------------------------------------------------------------

    async def set_daily_role(self, guild_id: int, role_id: int | None, channel_id: int | None,
                             done_day: str | None = None) -> None:  # fmt: skip
        """Ping ``role_id`` in ``channel_id`` when each daily opens (None: never), from the
        day after ``done_day``."""
        await self.db.write(
            "INSERT INTO guild_settings (guild_id, daily_role, daily_role_channel, "
            "daily_role_day) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "daily_role = excluded.daily_role, daily_role_channel = excluded.daily_role_channel, "
            "daily_role_day = excluded.daily_role_day",
            (guild_id, role_id, channel_id, done_day),
        )

    async def daily_role(self, guild_id: int) -> DailyRole | None:
        row = await self.db.one(
            "SELECT guild_id, daily_role, daily_role_channel, daily_role_day FROM guild_settings "
            "WHERE guild_id = ? AND daily_role IS NOT NULL",
            (guild_id,),
        )
        return None if row is None else DailyRole(*tuple(row))

    async def roles_pending(self, day: str) -> list[DailyRole]:
        """Every daily role not yet pinged for puzzle ``day``."""
        rows = await self.db.all(
            "SELECT guild_id, daily_role, daily_role_channel, daily_role_day FROM guild_settings "
            "WHERE daily_role IS NOT NULL AND (daily_role_day IS NULL OR daily_role_day < ?) "
            "ORDER BY guild_id",
            (day,),
        )
        return [DailyRole(*tuple(row)) for row in rows]

    async def claim_role(self, guild_id: int, day: str) -> bool:
        """Take the server's role ping of ``day``; False when it was taken before."""
        return (
            await self.db.write(
                "UPDATE guild_settings SET daily_role_day = ? WHERE guild_id = ? "
                "AND daily_role IS NOT NULL AND (daily_role_day IS NULL OR daily_role_day < ?)",
                (day, guild_id, day),
            )
            == 1
        )

    async def release_role(self, guild_id: int, day: str, previous: str | None) -> None:
        await self.db.write(
            "UPDATE guild_settings SET daily_role_day = ? WHERE guild_id = ? "
            "AND daily_role_day = ?",
            (previous, guild_id, day),
        )
