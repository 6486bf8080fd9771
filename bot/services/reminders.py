"""Reminders: opted-in players are reminded at a time of their choosing when they have not
played the day's Wordle, and a server's daily role is pinged when each daily opens.

When a reminder is due. The puzzle day is one for everyone (``DAILY_TIMEZONE``); a player
chooses a minute of the server's day (``/settings server timezone``, daylight saving included). A
reminder of puzzle day D is due at the first moment of D when the server's clocks show that
minute, so every puzzle day has exactly one reminder time in every zone. A reminder (or role
ping) missed while the bot was down is sent when it comes back, the same puzzle day.

Exactly once: :meth:`ReminderService.run_due` claims each reminder's day in the database
before sending (:mod:`bot.storage.reminders`); only the process the database elects runs
it, and even two runners cannot both claim a day. A player who has played already is
claimed and sent nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import date, datetime, time, timedelta
from typing import TypeVar
from zoneinfo import ZoneInfo

from bot.i18n import N_, _
from bot.services.daily import DailyPuzzles
from bot.services.digest import ChannelGone, NotSent, zone_of  # as the digest's sends
from bot.services.games import Player
from bot.storage import Storage
from bot.storage.reminders import DailyRole, Missing, Reminder

log = logging.getLogger("wordlebot.reminders")

DEFAULT_TIME = "18:00"
BAD_TIME = N_("Give the time as HH:MM, 24-hour, in the server's time zone (e.g. 18:30).")
_TIME = re.compile(r"(\d{1,2})(?::(\d{2}))?")
_T = TypeVar("_T", Reminder, DailyRole)


class BadTime(ValueError):
    """A time a person typed that is not HH:MM; the message says how to write it."""


SendReminder = Callable[[Reminder, date], Awaitable[None]]  # the puzzle day it is about
SendRolePing = Callable[[DailyRole, date], Awaitable[None]]


def parse_time(text: str) -> int:
    """The minute of the day ``text`` names ("18:30", "7:05", "18"), or :class:`BadTime`."""
    match = _TIME.fullmatch(text.strip())
    if match is None:
        raise BadTime(_(BAD_TIME))
    hour, minute = int(match[1]), int(match[2] or 0)
    if hour > 23 or minute > 59:
        raise BadTime(_(BAD_TIME))
    return hour * 60 + minute


def clock_time(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


class ReminderService:
    def __init__(self, storage: Storage, daily: DailyPuzzles) -> None:
        self.storage = storage
        self.daily = daily  # its clock is the reminders': tests set the time there

    async def zone(self, guild_id: int) -> ZoneInfo:
        return zone_of((await self.storage.guild_settings(guild_id)).timezone, self.daily.zone)

    def due_at(self, minute: int, zone: ZoneInfo, day: date) -> datetime:
        """When a reminder at ``minute`` of a server's day (in ``zone``) is due for puzzle
        ``day``: the first moment from the puzzle's start at which the server's clocks show
        that minute."""
        opens = datetime.combine(day, time(), self.daily.zone).astimezone(zone)
        at = datetime.combine(opens.date(), time(minute // 60, minute % 60), zone)
        return at if at >= opens else datetime.combine(at.date() + timedelta(days=1),
                                                       at.time(), zone)  # fmt: skip

    # -- what players and admins choose ------------------------------------------------

    async def remind(self, player: Player, guild_id: int, channel_id: int,
                     minute: int) -> tuple[ZoneInfo, bool]:  # fmt: skip
        """Remind ``player`` in ``channel_id`` at ``minute`` of the server's day; returns the
        server's zone and whether the first reminder can be today. A time already past today
        starts tomorrow (never a reminder the minute after asking), and so does any change
        once today's reminder was sent or its time had passed: one a day at most."""
        zone = await self.zone(guild_id)
        today = self.daily.today().isoformat()
        passed = self.daily.clock() >= self.due_at(minute, zone, self.daily.today())
        await self.storage.ensure_player(player.id, player.name)
        last = await self.storage.reminders.set(guild_id, player.id, channel_id, minute,
                                                today if passed else None)  # fmt: skip
        return zone, last is None or last < today

    async def stop(self, player_id: int, guild_id: int) -> bool:
        return await self.storage.reminders.remove(guild_id, player_id)

    async def missing(self, guild_id: int) -> list[Missing]:
        """The server's opted-in players who have not played today's Wordle."""
        return await self.storage.reminders.missing(guild_id, self.daily.today().isoformat())

    async def set_daily_role(self, guild_id: int, role_id: int | None,
                             channel_id: int | None = None) -> None:  # fmt: skip
        """Ping ``role_id`` in ``channel_id`` when each daily opens, from tomorrow's on (None:
        no role ping)."""
        today = self.daily.today().isoformat()
        await self.storage.reminders.set_daily_role(
            guild_id, role_id, channel_id if role_id is not None else None,
            today if role_id is not None else None,
        )  # fmt: skip

    async def daily_role(self, guild_id: int) -> DailyRole | None:
        return await self.storage.reminders.daily_role(guild_id)

    # -- the job -----------------------------------------------------------------------

    async def run_due(self, send_reminder: SendReminder, send_role_ping: SendRolePing,
                      now: datetime | None = None) -> list[Reminder | DailyRole]:  # fmt: skip
        """Ping every daily role not yet pinged today, and send every reminder due and not
        yet claimed; returns what was sent. A channel that is gone removes the reminder (or
        turns the role ping off). A send that proves nothing reached Discord
        (:class:`NotSent`) gives its claim back for the next run; any other failure keeps
        it (sent at most once)."""
        now = now or self.daily.clock()
        day = now.astimezone(self.daily.zone).date()
        reminders = self.storage.reminders
        sent: list[Reminder | DailyRole] = []
        for role in await reminders.roles_pending(day.isoformat()):
            claimed = await reminders.claim_role(role.guild_id, day.isoformat())
            if claimed and await self._send(send_role_ping, role, day):
                sent.append(role)
        zones: dict[str | None, ZoneInfo] = {}
        for reminder in await reminders.pending(day.isoformat()):
            zone = zones.setdefault(reminder.timezone, zone_of(reminder.timezone, self.daily.zone))
            if now < self.due_at(reminder.minute, zone, day):
                continue
            if not await reminders.claim(reminder.guild_id, reminder.player_id, day.isoformat()):
                continue  # another runner took it meanwhile
            if await reminders.played(reminder.player_id, day.isoformat()):
                continue  # claimed, nothing to say
            if await self._send(send_reminder, reminder, day):
                sent.append(reminder)
        return sent

    async def _send(self, send: Callable[[_T, date], Awaitable[None]], what: _T,
                    day: date) -> bool:  # fmt: skip
        """Send one claimed reminder or role ping; whether it went."""
        reminders = self.storage.reminders
        try:
            await send(what, day)
        except ChannelGone as gone:
            log.info("%s off: %s", what, gone)
            if isinstance(what, Reminder):
                await reminders.remove(what.guild_id, what.player_id)
            else:
                await reminders.set_daily_role(what.guild_id, None, None)
            return False
        except NotSent:
            log.warning("%s not sent; will retry", what)
            if isinstance(what, Reminder):
                await reminders.release(what.guild_id, what.player_id, day.isoformat(),
                                        what.last_day)  # fmt: skip
            else:
                await reminders.release_role(what.guild_id, day.isoformat(), what.last_day)
            return False
        except Exception:  # it may have reached Discord: never risk sending it twice
            log.exception("%s failed; not retried today", what)
            return False
        return True
