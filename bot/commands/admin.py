"""A server's settings (its admins'), and each player's own settings and data: /settings
server, /settings me, /resetboard, /mydata export, delete and unshare.

The console is one local server (``bot.console_together.CONSOLE_PLACE``) that the person at
the terminal manages; its games are played in direct-message scope, so a reply there says
what a server's setting changes at a terminal and what it does not."""

from __future__ import annotations

import dataclasses
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.commands.model import Caller, ChannelId, Param, Reply, RoleId, command
from bot.i18n import LOCALES
from bot.render.palette import PALETTES, palette_named
from bot.render.text import squares_of
from bot.services import Services, deletion, shares
from bot.services.kinds import LANGUAGES, NotShipped, kind_for
from engine.variants import REGISTRY

# The interface's languages a player may choose (auto: as Discord shows yours).
INTERFACE = ("auto", *LOCALES)


def language_name(code: str) -> str:
    """A word list's language by its own name ("Español")."""
    language = REGISTRY.languages.get(code)
    return language.name if language is not None else "English"


IN_A_SERVER = "That works in a server, not in direct messages."
MANAGE_SERVER = "You need the Manage Server permission for that."
AT_THE_CONSOLE = (
    " At the console these are its own server's settings; its games are played in "
    "direct-message scope, where daily hints are always allowed and the boards are everyone's."
)
# What Discord's option ranges allow (the cog declares the same); the console obeys them too.
RANGES = {"season_days": (1, 366), "fail_score": (1, 20), "coop_cooldown": (0, 3600)}


def server_refusal(caller: Caller, *, manage: bool = False) -> Reply | None:
    """Why a server's command cannot run for ``caller`` (``manage``: an admin's), or None.
    Discord checks the same first; the console and Discord obey this one rule."""
    if caller.guild_id is None:
        return Reply.refuse(IN_A_SERVER)
    if manage and not caller.manages_server:
        return Reply.refuse(MANAGE_SERVER)
    return None


def here(caller: Caller) -> int | None:
    """The channel a command is used in; at the console, its server's one channel."""
    return caller.guild_id if caller.front == "console" else caller.place


@command(
    "settings server",
    Param("timezone"),
    Param("hints_in_daily", bool, positional=False),
    Param("season_days", int, positional=False),
    Param("fail_score", int, positional=False),
    Param("daily_role", RoleId, positional=False),
    Param("daily_role_channel", ChannelId, positional=False),
    Param("daily_role_off", bool, positional=False),
    Param("coop_cooldown", int, positional=False),
    Param("language", choices=tuple(LANGUAGES), positional=False),
    Param("length", int, positional=False),
)
async def server_settings(
    services: Services, caller: Caller, timezone: str | None = None,
    hints_in_daily: bool | None = None, season_days: int | None = None,
    fail_score: int | None = None, daily_role: RoleId | None = None,
    daily_role_channel: ChannelId | None = None, daily_role_off: bool = False,
    coop_cooldown: int | None = None, role_pings: bool = True, language: str | None = None,
    length: int | None = None,
) -> Reply:  # fmt: skip
    """``role_pings``: whether a ping of ``daily_role`` reaches anyone (Discord knows: the
    role is mentionable, or the bot may mention every role)."""
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    guild = caller.guild_id
    if timezone is not None:
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            return Reply.refuse(f"Unknown time zone {timezone[:40]!r}: use a name like "
                                "Europe/Paris")  # fmt: skip
    numbers = {"season_days": season_days, "fail_score": fail_score,
               "coop_cooldown": coop_cooldown}  # fmt: skip
    for name, value in numbers.items():
        low, high = RANGES[name]
        if value is not None and not low <= value <= high:
            return Reply.refuse(f"{name} takes a number from {low} to {high}")
    role_refusal = _daily_role_refusal(guild, daily_role, daily_role_channel, daily_role_off)
    if role_refusal is not None:
        return Reply.refuse(role_refusal)
    reminders = services.reminders
    if daily_role_off:
        await reminders.set_daily_role(guild, None)
    elif daily_role is not None:
        where = daily_role_channel if daily_role_channel is not None else here(caller)
        await reminders.set_daily_role(guild, daily_role, where)
    storage = services.storage
    current = await storage.guild_settings(guild)
    words = language or current.language or "en"
    kept_length = None if language else current.word_length  # a new language: its default
    try:  # the language and length the server plays must be a list we ship
        kind_for("wordle", words, length or kept_length)
    except NotShipped as exc:
        return Reply.refuse(str(exc))
    changes = {"timezone": timezone, "hints_in_daily": hints_in_daily,
               "season_days": season_days, "fail_score": fail_score,
               "language": language}  # fmt: skip
    updated = dataclasses.replace(current, **{k: v for k, v in changes.items() if v is not None})
    updated = dataclasses.replace(updated, word_length=length or kept_length)
    await storage.save_guild_settings(updated)
    if coop_cooldown is not None:
        await services.coop.set_cooldown(guild, coop_cooldown)
    cooldown = await services.coop.cooldown(guild)
    text = (
        f"Server time zone: {updated.timezone or 'not set'}. The daily changes at midnight "
        f"{services.daily.zone.key} for everyone, so nobody can learn an answer before others "
        f"can play it. Hints in daily games: {'on' if updated.hints_in_daily else 'off'}. "
        f"Seasons of {updated.season_days} days (a new length counts from the next result). "
        f"A lost game counts as {updated.fail_score} on the average board. Co-op: one guess "
        f"every {cooldown} s per player. Wordle here: {language_name(updated.language or 'en')}"
        f", {updated.word_length or 5} letters, unless a player picks another; the digest and "
        f"reminders are written in {language_name(updated.language or 'en')}."
    )
    text += await _daily_role_note(services, guild, daily_role, role_pings)
    if caller.front == "console":
        text += AT_THE_CONSOLE
    return Reply(text, private=True)


def _daily_role_refusal(guild: int, role: RoleId | None, channel: ChannelId | None,
                        off: bool) -> str | None:  # fmt: skip
    if off and role is not None:
        return "Choose daily_role or daily_role_off, not both."
    if channel is not None and role is None:
        return "daily_role_channel goes with a daily_role."
    if role is not None and role == guild:  # Discord's @everyone has the server's id
        return "@everyone cannot be the daily role: pick a role people can join."
    return None


async def _daily_role_note(services: Services, guild: int, role: RoleId | None,
                           role_pings: bool) -> str:  # fmt: skip
    """The sentence the settings reply ends with: the daily role as it now is."""
    current = await services.reminders.daily_role(guild)
    if current is None:
        return " No daily role is pinged."
    note = (f" Daily role: <@&{current.role_id}>, pinged in <#{current.channel_id}> when each "
            f"daily opens{', from tomorrow' if role is not None else ''}.")  # fmt: skip
    if role is not None and not role_pings:
        note += (" It will not ping anyone until the role allows anyone to mention it or the "
                 "bot has Mention All Roles.")  # fmt: skip
    return note


@command(
    "settings me",
    Param("colours", choices=tuple(PALETTES)),
    Param("language", choices=INTERFACE, positional=False),
    console_name="/colours",
)
async def my_settings(services: Services, caller: Caller, colours: str | None = None,
                      language: str | None = None) -> Reply:  # fmt: skip
    """The player's colours and the language the bot speaks to them, wherever they play
    (``extra["palette"]``, ``extra["locale"]``: the console follows them at once)."""
    storage = services.storage
    player = caller.player
    if colours is not None:
        await storage.set_palette(player.id, player.name, colours)
    if language is not None:
        chosen = None if language == "auto" else language
        await storage.set_player_locale(player.id, player.name, chosen)
    palette = palette_named(colours or await storage.palette(player.id))
    locale = await storage.player_locale(player.id)
    named = ("orange: right place, blue: elsewhere" if palette.high_contrast
             else "green: right place, yellow: elsewhere")  # fmt: skip
    speaks = f"the bot speaks {locale} to you" if locale else "the bot speaks your Discord language"
    text = (f"Your colours: {palette.name} {squares_of('210', palette)} ({named}). Your "
            "boards, their images and your shares use them; /settings me colours changes "
            f"them. Language: {speaks} (/settings me language).")  # fmt: skip
    return Reply(text, private=True, extra={"palette": palette.name, "locale": locale})


@command("resetboard")
async def reset_board(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    removed = await services.reset_guild_board(caller.guild_id)
    text = f"Leaderboard cleared ({removed} entries). Players keep their own stats."
    if caller.front == "console":
        text += (" At the console this is its own server's board; its games are played in "
                 "direct-message scope and count on everyone's board, which stays.")  # fmt: skip
    return Reply(text, private=True)


@command("mydata export", console_name="/export")
async def export(services: Services, caller: Caller) -> Reply:
    """Everything stored about the player, as a JSON document (``extra["document"]``: its
    file name and text; Discord attaches it, the console prints it)."""
    text = await services.export_player(caller.player.id)
    return Reply("Your data:", private=True, extra={"document": ("wordlebot.json", text)})


@command("mydata delete", Param("confirm", required=True))
async def delete(services: Services, caller: Caller, confirm: str) -> Reply:
    """Deletion keeps, for the rest of the puzzle day, what the player played that day
    (bot/services/deletion.py): no way to play a daily again with its answer known."""
    if confirm != deletion.CONFIRM:
        return Reply.refuse(deletion.NOT_CONFIRMED)
    deleted = await services.delete_player(caller.player.id)
    return Reply(deletion.DELETED if deleted else deletion.NOTHING, private=True,
                 extra={"deleted": deleted})  # fmt: skip


@command("mydata unshare", Param("game", required=True), Param("puzzle", int, required=True))
async def unshare(services: Services, caller: Caller, game: str, puzzle: int) -> Reply:
    said = await shares.unshare(services.storage, caller.player.id, game, puzzle)
    return Reply(said, private=True)
