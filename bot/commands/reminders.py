"""Reminders: /remind on and /remind off (a player's, in a server), /missing (who asked and
has not played today's Wordle). When they are due and sent is
:mod:`bot.services.reminders`'s; the daily role is set with /settings server."""

from __future__ import annotations

from bot.commands.admin import here, server_refusal
from bot.commands.model import Caller, Param, Reply, command
from bot.i18n import _
from bot.render.text import MESSAGE_LIMIT
from bot.services import Services
from bot.services.daily import shown_number
from bot.services.reminders import DEFAULT_TIME, BadTime, clock_time, parse_time


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
        return Reply.refuse(_("Use /remind on in the channel to be reminded in."))
    zone, today_too = await services.reminders.remind(caller.player, caller.guild_id, where,
                                                      minute)  # fmt: skip
    when = {"time": clock_time(minute), "zone": zone.key}
    if caller.front == "console":
        kept = (_("Reminder kept for the console's server, at {time} ({zone}) on days you have "
                  "not played the Wordle daily by then, from today.") if today_too else
                _("Reminder kept for the console's server, at {time} ({zone}) on days you have "
                  "not played the Wordle daily by then, from tomorrow."))  # fmt: skip
        sentences = [
            kept.format(**when),
            _("A terminal cannot remind you: /missing lists who has not played."),
        ]
    else:
        kept = (_("I will mention you here at {time} ({zone}) on days you have not played the "
                  "Wordle daily by then, from today.") if today_too else
                _("I will mention you here at {time} ({zone}) on days you have not played the "
                  "Wordle daily by then, from tomorrow."))  # fmt: skip
        sentences = [kept.format(**when)]
    sentences.append(_("/remind off stops it."))
    return Reply(" ".join(sentences), private=True)


@command("remind off")
async def remind_off(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    stopped = await services.reminders.stop(caller.player.id, caller.guild_id)
    return Reply(_("Reminders are off.") if stopped else _("You had no reminder here."),
                 private=True)  # fmt: skip


@command("missing")
async def missing(services: Services, caller: Caller) -> Reply:
    """Seen by everyone in the channel: Discord shows mentions as names and pings nobody
    (the bot allows no mentions unless a message names them); the console shows names."""
    refusal = server_refusal(caller)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    players = await services.reminders.missing(caller.guild_id)
    number = shown_number(services.daily.today())
    if not players:
        return Reply(_("Everyone here with a reminder (/remind on) has played Wordle #{number}.")
                     .format(number=number))  # fmt: skip
    names = (p.name if caller.front == "console" else f"<@{p.player_id}>" for p in players)
    text = _("Not played Wordle #{number} yet: {players}").format(
        number=number, players=", ".join(names)
    )
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 20].rsplit(",", 1)[0] + ", " + _("and more")
    return Reply(text)
