"""Reminders: /remind on and /remind off (a player's, in a server), /missing (who asked and
has not played today's Wordle). When they are due and sent is
:mod:`bot.services.reminders`'s; the daily role is set with /settings server."""

from __future__ import annotations

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, Param, Reply, command
from bot.services import Services
from bot.services.daily import DailyPuzzles
from bot.services.reminders import DEFAULT_TIME, BadTime, clock_time, parse_time

LIMIT = 2000  # characters in one Discord message


@command("remind on", Param("time"))
async def remind_on(services: Services, caller: Caller, time: str = DEFAULT_TIME) -> Reply:
    """Remind the player where the command is used. The console keeps the reminder for its
    own server (/missing lists it); a terminal cannot be reminded."""
    refusal = server_refusal(caller)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    try:
        minute = parse_time(time[:20])
    except BadTime as exc:
        return Reply.refuse(str(exc))
    where = here(caller)
    if where is None:
        return Reply.refuse("Use /remind on in the channel to be reminded in.")
    zone, today_too = await services.reminders.remind(caller.player, caller.guild_id, where,
                                                      minute)  # fmt: skip
    days = (f"at {clock_time(minute)} ({zone.key}) on days you have not played the Wordle "
            f"daily by then, from {'today' if today_too else 'tomorrow'}")  # fmt: skip
    if caller.front == "console":
        text = (f"Reminder kept for the console's server, {days}. A terminal cannot remind "
                "you: /missing lists who has not played. /remind off stops it.")  # fmt: skip
    else:
        text = f"I will mention you here {days}. /remind off stops it."
    return Reply(text, private=True)


@command("remind off")
async def remind_off(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    stopped = await services.reminders.stop(caller.player.id, caller.guild_id)
    return Reply("Reminders are off." if stopped else "You had no reminder here.", private=True)


@command("missing")
async def missing(services: Services, caller: Caller) -> Reply:
    """Seen by everyone in the channel: Discord shows mentions as names and pings nobody
    (the bot allows no mentions unless a message names them); the console shows names."""
    refusal = server_refusal(caller)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    players = await services.reminders.missing(caller.guild_id)
    number = DailyPuzzles.number(services.daily.today())
    if not players:
        return Reply(f"Everyone here with a reminder (/remind on) has played Wordle #{number}.")
    names = (p.name if caller.front == "console" else f"<@{p.player_id}>" for p in players)
    text = f"Not played Wordle #{number} yet: " + ", ".join(names)
    if len(text) > LIMIT:
        text = text[: LIMIT - 20].rsplit(",", 1)[0] + ", and more"
    return Reply(text)
