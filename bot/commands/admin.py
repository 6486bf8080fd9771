"""A server's settings (its admins'), and each player's own settings and data: /settings
server, /settings me, /resetboard, /mydata export, delete and unshare.

The console is one local server (``bot.console_together.CONSOLE_PLACE``) that the person at
the terminal manages; its games are played in direct-message scope, so a reply there says
what a server's setting changes at a terminal and what it does not."""

from __future__ import annotations

import dataclasses
from contextlib import nullcontext
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.commands.model import Caller, ChannelId, Param, Reply, RoleId, command
from bot.i18n import LOCALES, N_, _, language_name, ngettext, use_locale
from bot.render.palette import PALETTES, palette_named
from bot.render.text import squares_of
from bot.services import Services, deletion, shares
from bot.services.kinds import LANGUAGES, NotShipped, kind_for
from bot.services.winner_role import RoleDoor

# The interface's languages a player may choose (auto: as Discord shows yours).
INTERFACE = ("auto", *LOCALES)


IN_A_SERVER = N_("That works in a server, not in direct messages.")
MANAGE_SERVER = N_("You need the Manage Server permission for that.")
AT_THE_CONSOLE = N_(
    "At the console these are its own server's settings; its games are played in "
    "direct-message scope, where daily hints are always allowed and the boards are everyone's."
)
# What Discord's option ranges allow (the cog declares the same); the console obeys them too.
RANGES = {"season_days": (1, 366), "fail_score": (1, 20), "coop_cooldown": (0, 3600)}
# Who hears of a player's achievement: the player alone, or the channel too.
ACHIEVEMENTS = ("private", "public")
# The server's page on the web: on (its link), a new link (the old one stops), off.
WEB = ("on", "new-link", "off")
# Whether a player is named on servers' pages (else an anonymous label).
WEB_NAME = ("on", "off")


def server_refusal(caller: Caller, *, manage: bool = False) -> Reply | None:
    """Why a server's command cannot run for ``caller`` (``manage``: an admin's), or None.
    Discord checks the same first; the console and Discord obey this one rule."""
    if caller.guild_id is None:
        return Reply.refuse(_(IN_A_SERVER))
    if manage and not caller.manages_server:
        return Reply.refuse(_(MANAGE_SERVER))
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
    Param("achievements", choices=ACHIEVEMENTS, positional=False),
    Param("web", choices=WEB, positional=False),
    Param("web_index", bool, positional=False),
)
async def server_settings(
    services: Services, caller: Caller, timezone: str | None = None,
    hints_in_daily: bool | None = None, season_days: int | None = None,
    fail_score: int | None = None, daily_role: RoleId | None = None,
    daily_role_channel: ChannelId | None = None, daily_role_off: bool = False,
    coop_cooldown: int | None = None, role_pings: bool = True, language: str | None = None,
    length: int | None = None, achievements: str | None = None, web: str | None = None,
    web_index: bool | None = None,
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
            return Reply.refuse(_("Unknown time zone {zone}: use a name like Europe/Paris")
                                .format(zone=repr(timezone[:40])))  # fmt: skip
    numbers = {"season_days": season_days, "fail_score": fail_score,
               "coop_cooldown": coop_cooldown}  # fmt: skip
    for name, value in numbers.items():
        low, high = RANGES[name]
        if value is not None and not low <= value <= high:
            return Reply.refuse(_("{option} takes a number from {low} to {high}")
                                .format(option=name, low=low, high=high))  # fmt: skip
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
    updated = dataclasses.replace(  # an option not given keeps its setting
        current,
        timezone=current.timezone if timezone is None else timezone,
        hints_in_daily=current.hints_in_daily if hints_in_daily is None else hints_in_daily,
        season_days=current.season_days if season_days is None else season_days,
        fail_score=current.fail_score if fail_score is None else fail_score,
        language=current.language if language is None else language,
        word_length=length or kept_length,
    )
    await storage.save_guild_settings(updated)
    if coop_cooldown is not None:
        await services.coop.set_cooldown(guild, coop_cooldown)
    if achievements is not None:
        await storage.achievements.set_public(guild, achievements == "public")
    web_note = await _web_page(services, guild, web, web_index)
    cooldown = await services.coop.cooldown(guild)
    words_in = language_name(updated.language or "en")  # in the reader's words
    letters = updated.word_length or 5
    sentences = [
        _("Server time zone: {zone}.").format(zone=updated.timezone) if updated.timezone
        else _("Server time zone: not set."),
        _("The daily changes at midnight {zone} for everyone, so nobody can learn an answer "
          "before others can play it.").format(zone=services.daily.zone.key),
        _("Hints in daily games: on.") if updated.hints_in_daily
        else _("Hints in daily games: off."),
        ngettext("Seasons of {count} days (a new length counts from the next result).",
                 "Seasons of {count} days (a new length counts from the next result).",
                 updated.season_days).format(count=updated.season_days),
        _("A lost game counts as {score} on the average board.").format(
            score=updated.fail_score),
        _("Co-op: one guess every {seconds} s per player.").format(seconds=cooldown),
        ngettext("Wordle here: {language}, {count} letters, unless a player picks another; "
                 "the digest and reminders are written in {language}.",
                 "Wordle here: {language}, {count} letters, unless a player picks another; "
                 "the digest and reminders are written in {language}.",
                 letters).format(language=words_in, count=letters),
        *await _daily_role_note(services, guild, daily_role, role_pings),
        _("Achievements: each player is told privately, and the channel too.")
        if await storage.achievements.public(guild)
        else _("Achievements: each player is told privately (achievements:public also "
               "announces them in the channel)."),
        *web_note,
    ]  # fmt: skip
    if caller.front == "console":
        sentences.append(_(AT_THE_CONSOLE))
    return Reply(" ".join(sentences), private=True)


async def _web_page(services: Services, guild: int, web: str | None,
                    web_index: bool | None) -> list[str]:  # fmt: skip
    """Turn the server's page on, give it a new link or turn it off, as asked; the sentences
    that say how it now is."""
    pages = services.web
    if web == "on":
        await pages.turn_on(guild)
    elif web == "new-link":
        await pages.new_link(guild)
    elif web == "off":
        await pages.turn_off(guild)
    if web_index is not None:
        await pages.set_indexed(guild, web_index)
    page = await pages.page_of(guild)
    if page is None:
        return [_("Web page: off (web:on gives this server a page of its boards).")]
    note = [_("Web page: {link} (web:new-link replaces the link, web:off removes the page).")
            .format(link=pages.link(page.slug))]  # fmt: skip
    if not pages.base_url:
        note.append(_("The bot's operator has not set up its web server yet, so the page "
                      "cannot be opened until they do."))  # fmt: skip
    note.append(
        _("Search engines may index it.")
        if page.indexed
        else _("Search engines are asked not to index it (web_index:true allows it).")
    )
    return note


def _daily_role_refusal(guild: int, role: RoleId | None, channel: ChannelId | None,
                        off: bool) -> str | None:  # fmt: skip
    if off and role is not None:
        return _("Choose daily_role or daily_role_off, not both.")
    if channel is not None and role is None:
        return _("daily_role_channel goes with a daily_role.")
    if role is not None and role == guild:  # Discord's @everyone has the server's id
        return _("@everyone cannot be the daily role: pick a role people can join.")
    return None


async def _daily_role_note(services: Services, guild: int, role: RoleId | None,
                           role_pings: bool) -> list[str]:  # fmt: skip
    """The sentences the settings reply ends with: the daily role as it now is."""
    current = await services.reminders.daily_role(guild)
    if current is None:
        return [_("No daily role is pinged.")]
    where = {"role": f"<@&{current.role_id}>", "channel": f"<#{current.channel_id}>"}
    if role is None:
        return [_("Daily role: {role}, pinged in {channel} when each daily opens.")
                .format(**where)]  # fmt: skip
    note = [_("Daily role: {role}, pinged in {channel} when each daily opens, from tomorrow.")
            .format(**where)]  # fmt: skip
    if not role_pings:
        note.append(_("It will not ping anyone until the role allows anyone to mention it or "
                      "the bot has Mention All Roles."))  # fmt: skip
    return note


@command(
    "settings me",
    Param("colours", choices=tuple(PALETTES)),
    Param("language", choices=INTERFACE, positional=False),
    Param("web_name", choices=WEB_NAME, positional=False),
    console_name="/colours",
)
async def my_settings(services: Services, caller: Caller, colours: str | None = None,
                      language: str | None = None,
                      web_name: str | None = None) -> Reply:  # fmt: skip
    """The player's colours and the language the bot speaks to them, wherever they play
    (``extra["palette"]``, ``extra["locale"]``: the console follows them at once)."""
    storage = services.storage
    player = caller.player
    if colours is not None:
        await storage.set_palette(player.id, player.name, colours)
    if language is not None:
        chosen = None if language == "auto" else language
        await storage.set_player_locale(player.id, player.name, chosen)
    if web_name is not None:
        await storage.web_pages.set_named(player.id, player.name, web_name == "on")
    named = await storage.web_pages.named(player.id)
    palette = palette_named(colours or await storage.palette(player.id))
    locale = await storage.player_locale(player.id)
    # A new language answers in that language (auto: the one Discord shows, or the console's).
    speaking = use_locale(locale or caller.locale) if language is not None else nullcontext()
    with speaking:
        text = _my_settings_text(palette.name, squares_of("210", palette),
                                 palette.high_contrast, locale, named)  # fmt: skip
    return Reply(text, private=True, extra={"palette": palette.name, "locale": locale})


def _my_settings_text(palette: str, squares: str, high_contrast: bool,
                      locale: str | None, by_name: bool) -> str:  # fmt: skip
    named = (_("orange: right place, blue: elsewhere") if high_contrast
             else _("green: right place, yellow: elsewhere"))  # fmt: skip
    speaks = (
        _("Language: the bot speaks {locale} to you (/settings me language).").format(
            locale=language_name(locale.split("-")[0])
        )
        if locale
        else _("Language: the bot speaks your Discord language (/settings me language).")
    )
    return " ".join([
        _("Your colours: {palette} {squares} ({legend}).").format(
            palette=palette, squares=squares, legend=named),
        _("Your boards, their images and your shares use them; /settings me colours changes "
          "them."),
        speaks,
        _("Servers' web pages show your name (/settings me web_name:off hides it).") if by_name
        else _("Servers' web pages show you under an anonymous label (/settings me "
               "web_name:on shows your name)."),
    ])  # fmt: skip


@command("resetboard")
async def reset_board(services: Services, caller: Caller) -> Reply:
    refusal = server_refusal(caller, manage=True)
    if refusal is not None:
        return refusal
    assert caller.guild_id is not None
    removed = await services.reset_guild_board(caller.guild_id)
    text = ngettext("Leaderboard cleared ({count} entries). Players keep their own stats.",
                    "Leaderboard cleared ({count} entries). Players keep their own stats.",
                    removed).format(count=removed)  # fmt: skip
    if caller.front == "console":
        text += " " + _(
            "At the console this is its own server's board; its games are played "
            "in direct-message scope and count on everyone's board, which stays."
        )
    return Reply(text, private=True)


@command("mydata export", console_name="/export")
async def export(services: Services, caller: Caller) -> Reply:
    """Everything stored about the player, as a JSON document (``extra["document"]``: its
    file name and text; Discord attaches it, the console prints it)."""
    text = await services.export_player(caller.player.id)
    return Reply(_("Your data:"), private=True, extra={"document": ("wordlebot.json", text)})


@command("mydata delete", Param("confirm", required=True), guides=False)
async def delete(services: Services, caller: Caller, confirm: str,
                 door: RoleDoor | None = None) -> Reply:  # fmt: skip
    """Deletion keeps, for the rest of the puzzle day, what the player played that day
    (bot/services/deletion.py): no way to play a daily again with its answer known.
    ``door``: Discord's roles, to take back the winner's roles the bot gave the player."""
    if confirm != deletion.CONFIRM:
        return Reply.refuse(_(deletion.NOT_CONFIRMED))
    deleted = await services.delete_player(caller.player.id, door=door)
    return Reply(_(deletion.DELETED if deleted else deletion.NOTHING), private=True,
                 extra={"deleted": deleted})  # fmt: skip


@command("mydata unshare", Param("game", required=True), Param("puzzle", int, required=True))
async def unshare(services: Services, caller: Caller, game: str, puzzle: int) -> Reply:
    showing = await services.live_boards.showing(caller.player.id)
    said = await shares.unshare(services.storage, caller.player.id, game, puzzle)
    services.live_boards.shown_again(showing)  # a result taken back leaves today's boards
    return Reply(said, private=True)
