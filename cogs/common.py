"""What every cog shares: who and where an interaction is, and the board message."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord
from discord import app_commands

from bot.discord_bot import ARRIVED, PUBLIC_THINKING, answer, turned_away
from bot.i18n import N_
from bot.render import images
from bot.render.alt_text import board_alt_text
from bot.render.palette import STANDARD, Palette, palette_named
from bot.render.text import board_rows, finished_definition, keyboard_markdown, status_line, title
from bot.services import DM, GameView, Player
from bot.services.digest import ChannelGone, Member, NotSent

if TYPE_CHECKING:
    from bot.discord_bot import WordleBot

log = logging.getLogger("wordlebot")
T = TypeVar("T")
# A form (the guess modal) that was dismissed is never submitted: discord.py forgets it after
# this long. A late submit is still played: the cogs' on_interaction answers every form.
FORM_SECONDS = 900.0
# Why a background post was refused for good (ChannelGone's message: English, as logged; the
# warning that tells a server's admin translates it, ``_(str(gone))``).
CHANNEL_DELETED = N_("its channel no longer exists")
CHANNEL_CLOSED = N_("the bot may not post in its channel")


def mention(member: Member) -> str:
    return f"<@{member.player_id}>"  # shown as the name; nobody is pinged (allowed_mentions)


def guess_form_field(label: str) -> tuple[discord.ui.Label[Any], discord.ui.TextInput[Any]]:
    """A form's one text field, in a Label (component type 18): Discord's current form
    layout, where a text input in an ActionRow is deprecated."""
    field: discord.ui.TextInput[Any] = discord.ui.TextInput(min_length=1, max_length=50)
    return discord.ui.Label(text=label, component=field), field


def form_values(data: Any) -> list[str]:
    """The text a submitted form carries, in order: each field in a Label (type 18, the
    forms this bot opens) or in an ActionRow (type 1, forms opened by older versions)."""
    values = []
    for top in data.get("components") or []:
        inner = [top["component"]] if "component" in top else top.get("components") or []
        values += [str(c.get("value") or "") for c in inner if "value" in c]
    return values


GREEN = discord.Colour.from_rgb(*images.GREEN)
GREY = discord.Colour.from_rgb(*images.GREY)


def anywhere(item: T) -> T:
    """Offered wherever its player is, installed to a server or to the player's account: in
    servers, in the bot's DMs and in other private channels (a group DM, through a user
    install). Such a command answers through the interaction alone: where the bot is not a
    member it cannot post or edit a channel message."""
    item = app_commands.allowed_installs(guilds=True, users=True)(item)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(item)


def in_servers(item: T) -> T:
    """Offered only in servers that installed the bot: what a server sets up, or what posts
    and edits channel messages later (races, co-op, challenges, digests, reminders)."""
    item = app_commands.allowed_installs(guilds=True, users=False)(item)
    return app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(item)


async def think(
    interaction: discord.Interaction[Any], *, public: bool, update: bool = False
) -> None:
    """Defer: "thinking..." (in public or privately), or for a button or form on a board
    (``update``) nothing visible, the board's edit coming later."""
    if update:
        await interaction.response.defer()
        return
    await interaction.response.defer(ephemeral=not public, thinking=True)
    if public:
        interaction.extras[PUBLIC_THINKING] = True


def player_of(interaction: discord.Interaction[Any]) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


def scope_of(interaction: discord.Interaction[Any]) -> int:
    """Where games are kept and counted: the server (installed there or reached through a
    user install), a group DM or other private channel (its channel: each such place keeps
    its own games), or the bot's DMs."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    if interaction.context.private_channel and interaction.channel_id is not None:
        return interaction.channel_id
    return DM


def place_of(interaction: discord.Interaction[Any]) -> int:
    """Where the player looks at a board: the channel (a DM is a channel too)."""
    return interaction.channel_id or scope_of(interaction)


def bot_of(interaction: discord.Interaction[Any]) -> WordleBot:
    return interaction.client  # type: ignore[no-any-return]


async def in_time(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, update: bool = False
) -> T:
    """Await a service call, deferring the interaction if it is not answered DEFER_SECONDS
    after it arrived (``update``: a button or modal on a board, whose message the answer
    will edit)."""
    deferral: asyncio.Task[None] | None = None

    def defer() -> None:
        nonlocal deferral
        if not interaction.response.is_done():
            deferral = asyncio.ensure_future(think(interaction, public=True, update=update))

    # A timer rather than a task and a wait per interaction: this runs for every one.
    loop = asyncio.get_running_loop()
    waited = loop.time() - interaction.extras.get(ARRIVED, loop.time())
    timer = loop.call_later(max(0.0, bot_of(interaction).settings.defer_seconds - waited), defer)
    try:
        result = await work
    finally:
        timer.cancel()
        if deferral is not None:  # the answer edits what the deferral created
            await deferral
    return result


class Boards:
    """The message that shows each game's board in a channel, while it can still be changed
    (through its interaction's token, 15 minutes; the bot may not be in the channel at all).
    A typed guess posts the new board and the old one goes, so a busy channel keeps one board
    per game. In memory: after a restart an older board stays where it is."""

    TOKEN_SECONDS = 14 * 60.0  # a minute short of the token's 15, for a slow request

    def __init__(self, limit: int = 20_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.clock = limit, clock
        self.deleting: set[asyncio.Task[None]] = set()
        self.shown: OrderedDict[tuple[int, int], tuple[float, discord.Interaction[Any]]] = (
            OrderedDict()
        )

    def replace(
        self, game_id: int, place: int, interaction: discord.Interaction[Any]
    ) -> discord.Interaction[Any] | None:
        """``interaction`` now shows the game's board in ``place``: the one that showed it
        before, if its board can still be deleted."""
        now = self.clock()
        before = self.shown.pop((game_id, place), None)
        self.shown[(game_id, place)] = (now, interaction)
        while len(self.shown) > self.limit or (
            self.shown and next(iter(self.shown.values()))[0] < now - self.TOKEN_SECONDS
        ):
            self.shown.popitem(last=False)
        if before is None or before[0] < now - self.TOKEN_SECONDS:
            return None
        return before[1]


def board_posted(interaction: discord.Interaction[Any], game_id: int) -> None:
    """``interaction`` has just posted ``game_id``'s board in public: the board it replaces
    in that channel is deleted, in the background (nobody waits on it)."""
    client = interaction.client
    boards: Boards | None = getattr(client, "boards", None)
    if boards is None:
        boards = client.boards = Boards()
    before = boards.replace(game_id, interaction.channel_id or 0, interaction)
    if before is not None:
        task = asyncio.ensure_future(_delete_board(before))
        boards.deleting.add(task)
        task.add_done_callback(boards.deleting.discard)


async def _delete_board(interaction: discord.Interaction[Any]) -> None:
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:  # gone already, or the token expired: fine
        log.info("an old board was not deleted: %s", exc.status)


class Admitted:
    """First among a button's bases (``class X(Admitted, discord.ui.DynamicItem[...])``): a
    press is admitted as a command is, a private "busy" past the bot's capacity, and then
    speaks its presser's language (:func:`bot.discord_bot.turned_away`)."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return not await turned_away(interaction)


Handler = TypeVar("Handler", bound=Callable[..., Awaitable[None]])


def answers_failures(handler: Handler) -> Handler:
    """For a button's callback or a form's handler, ``(self, interaction)``: a failure gets the
    answer a slash command's would (a refusal or an apology, privately), never Discord's
    "This interaction failed" (discord.py only logs what a button raises)."""

    @functools.wraps(handler)
    async def guarded(self: Any, interaction: discord.Interaction[Any]) -> None:
        try:
            await handler(self, interaction)
        except Exception as error:
            await bot_of(interaction).answer_failure(interaction, error)

    return guarded  # type: ignore[return-value]


async def refuse(interaction: discord.Interaction[Any], message: str) -> None:
    """A refusal, seen only by the person who caused it (after a deferral, whose "thinking..."
    may be public, that goes first)."""
    await answer(interaction, message, private=True)


async def palette_of(interaction: discord.Interaction[Any], player_id: int) -> Palette:
    """The colours a player chose (/settings me colours) for their boards and shares."""
    return palette_named(await bot_of(interaction).services.storage.palette(player_id))


async def board_message(
    game: GameView, view: discord.ui.View | None, palette: Palette = STANDARD
) -> dict[str, Any]:
    """The public board: emoji rows, keyboard and an image, in its player's ``palette``, the
    image described in words. A daily game (or a past one from the archive, which others may
    still play) shows its letters and answer only behind spoilers, and its image and its
    description have colours only. The image is drawn in a worker thread: the event loop
    never waits on Pillow."""
    hidden = game.number is not None
    lines = board_rows(game, hide_letters=hidden, palette=palette)
    lines.append(status_line(game, spoiler=hidden))
    if meaning := finished_definition(game, spoiler=hidden):
        lines.append(meaning)
    if not hidden and not game.over:
        lines.append("")
        lines.append(keyboard_markdown(game))
    embed = discord.Embed(
        title=title(game),
        description="\n".join(lines),
        colour=discord.Colour.from_rgb(*palette.correct) if game.status == "won" else GREY,
    )
    embed.set_image(url="attachment://board.png")
    png = await asyncio.to_thread(images.board_png, game, letters=not hidden, palette=palette)
    alt = board_alt_text(game, letters=not hidden)
    message: dict[str, Any] = {
        "embed": embed,
        "attachments": [discord.File(io.BytesIO(png), filename="board.png", description=alt)],
    }
    message["view"] = view if view is not None else discord.utils.MISSING
    return message


async def post_in_channel(
    bot: WordleBot, guild_id: int, channel_id: int, text: str, **options: Any
) -> discord.Message:
    """What a background job posts (a digest, a reminder), with Discord's refusals turned
    into what the services understand: :class:`ChannelGone` for a channel deleted or closed
    to the bot, :class:`NotSent` when nothing reached Discord (no connection)."""
    target = bot.get_partial_messageable(channel_id, guild_id=guild_id)
    try:
        return await target.send(text, **options)
    except discord.NotFound:
        raise ChannelGone(CHANNEL_DELETED) from None
    except discord.Forbidden:
        raise ChannelGone(CHANNEL_CLOSED) from None
    except aiohttp.ClientConnectorError as exc:
        raise NotSent(str(exc)) from exc
