"""How a command's :class:`~bot.commands.model.Reply` reaches Discord: the board message
with its buttons, the buttons that pick one of several games, private notes and refusals.

Every slash command runs the same way (:func:`perform`): who and where the interaction is
becomes a :class:`~bot.commands.model.Caller`, the command in ``bot/commands`` answers a
``Reply``, and :func:`send_reply` shows it. The console shows the same replies as text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable
from typing import Any

import discord

from bot.commands import COMMANDS, Caller, Picture, Reply
from bot.discord_bot import answer, fitted
from bot.i18n import _, ngettext, pgettext
from bot.render.text import MESSAGE_LIMIT, share_text, title
from bot.services import GameView
from bot.services.games import GAME_OVER, NO_GAME, NOT_YOURS
from cogs.common import (
    FORM_SECONDS,
    Admitted,
    answers_failures,
    board_message,
    board_posted,
    bot_of,
    guess_form_field,
    in_time,
    palette_of,
    place_of,
    player_of,
    refuse,
    scope_of,
)
from cogs.cooldowns import play_wait, slow_down

STYLES = {
    "guess": discord.ButtonStyle.success,
    "hint": discord.ButtonStyle.secondary,
    "giveup": discord.ButtonStyle.danger,
}


def label(action: str) -> str:
    """A board button's label, in the language of whoever the board is drawn for (a button
    rebuilt from its custom id takes the presser's: Discord never shows that one)."""
    labels = {"guess": pgettext("button", "Guess"), "hint": pgettext("button", "Hint"),
              "giveup": pgettext("button", "Give up")}  # fmt: skip
    return labels[action]


def caller_of(interaction: discord.Interaction[Any], *, game_id: int | None = None) -> Caller:
    """Who runs a command from ``interaction``, and where (``game_id``: the game a board's
    button names)."""
    permissions = interaction.permissions
    return Caller(
        player_of(interaction), scope_of(interaction), place_of(interaction),
        shown=game_id, guild_id=interaction.guild_id,
        manages_server=permissions.manage_guild, manages_messages=permissions.manage_messages,
        locale=interaction.locale.value,
    )  # fmt: skip


async def perform(
    interaction: discord.Interaction[Any], path: str, *, private_wait: bool = False,
    **options: Any,
) -> None:  # fmt: skip
    """Run the command at ``path`` for ``interaction`` and answer with its reply. The work
    is deferred if it runs long (``private_wait``: at once, privately, for work that is
    known to take a moment and whose answer is private, such as a hint)."""
    work = command_work(interaction, path, **options)
    if private_wait:
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await work
    else:
        reply = await in_time(interaction, work)
    await send_reply(interaction, reply)


def command_work(interaction: discord.Interaction[Any], path: str,
                 **options: Any) -> Awaitable[Reply]:  # fmt: skip
    """The command at ``path`` run for ``interaction``, to await (under
    :func:`cogs.common.in_time`) where a cog shows the reply its own way (a message with
    buttons of its own, from ``Reply.extra``)."""
    return COMMANDS[path].run(bot_of(interaction).services, caller_of(interaction), **options)


def pieces(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut between lines (within a
    line only where one line is longer than a message)."""
    found: list[str] = []
    current: str | None = None  # the message being filled (None: none yet)
    for line in text.split("\n"):
        while len(line) > limit:
            if current is not None:
                found.append(current)
            current = None
            found.append(line[:limit])
            line = line[limit:]
        joined = line if current is None else f"{current}\n{line}"
        if len(joined) > limit:
            if current:  # never an empty message: Discord refuses one
                found.append(current)
            joined = line
        current = joined
    return [*found, current or ""]


async def send_reply(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Answer with ``reply`` in a new message: its board (with buttons) or its text, then
    its secret privately."""
    if reply.game is not None:
        await _send_board(interaction, reply)
    else:
        view = choices_view(reply)
        private = reply.private or view is not None
        if reply.extra.get("window") and view is None:  # /help: the game window's launcher
            view = discord.ui.View(timeout=None)
            view.add_item(WindowButton())
        texts = pieces(reply.text or _(NO_GAME))  # past 2,000 characters: several messages
        for number, piece in enumerate(texts):
            files = [picture_file(p) for p in reply.pictures] if number == 0 else []
            buttons = {"view": view} if view is not None and number == len(texts) - 1 else {}
            await answer(interaction, piece, private=private, files=files, **buttons)
    if reply.secret:
        await answer(interaction, reply.secret, private=True)
    await send_achievements(interaction, reply)


async def send_achievements(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """After a game's answer: the achievements it earned, to its player privately (like the
    first-game guide), and in the channel where the server announces them (naming the
    player, pinging nobody)."""
    if reply.earned:
        await answer(interaction, reply.earned, private=True)
    if reply.announcement:
        await answer(interaction, reply.announcement, private=False,
                     allowed_mentions=discord.AllowedMentions.none())  # fmt: skip


async def _send_board(interaction: discord.Interaction[Any], reply: Reply) -> None:
    assert reply.game is not None
    message = await drawn_board(interaction, reply.game)
    if reply.text:
        message["content"] = reply.text
    files = message.pop("attachments")
    await answer(interaction, files=files, private=reply.private, **message)
    if not reply.private:  # one board per game in the channel: the one it replaces goes
        board_posted(interaction, reply.game.game_id)
    report_over(interaction, reply)


async def edit_board(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Answer a button or the guess form by editing the board in place, or refuse privately
    (a game found older than the board showed: the board shows it, and the player is told)."""
    if reply.game is None:
        return await refuse(interaction, reply.text or _(NO_GAME))
    message = fitted(interaction, await drawn_board(interaction, reply.game, update=True))
    if interaction.response.is_done():  # deferred: the service or the drawing was slow
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.edit_message(**message)
    if reply.extra.get("rolled_back") and reply.text:  # the board shows it as stored: why
        await answer(interaction, reply.text, private=True)
    if reply.secret:
        await answer(interaction, reply.secret, private=True)
    await send_achievements(interaction, reply)
    report_over(interaction, reply)


def report_over(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Tell the cogs that follow games (a race's scoreboard) that one has just ended: the
    ``game_over`` event, with its view."""
    if reply.ended and reply.game is not None:
        bot_of(interaction).dispatch("game_over", reply.game)


def picture_file(picture: Picture) -> discord.File:
    data = picture.data if picture.data is not None else picture.path.read_bytes()  # type: ignore[union-attr]
    return discord.File(io.BytesIO(data), filename=picture.filename,
                        description=picture.description)  # fmt: skip


class GameButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:game:(?P<action>guess|hint|giveup):(?P<game>[0-9]+)",
):
    """A board button; its custom id carries the game, so it works after a restart."""

    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=label(action), style=STYLES[action],
                                           custom_id=f"wb:game:{action}:{game_id}"))  # fmt: skip
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> GameButton:
        return cls(match["action"], int(match["game"]))

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        services = bot_of(interaction).services
        player = player_of(interaction)
        game = await services.games.game(self.game_id)
        if game is None:
            return await refuse(interaction, _(NO_GAME))
        if game.player_id != player.id:
            return await refuse(interaction, _(NOT_YOURS))
        if game.over:
            return await refuse(interaction, _(GAME_OVER))
        services.games.shown(player.id, place_of(interaction), self.game_id)
        caller = caller_of(interaction, game_id=self.game_id)
        if self.action == "guess":
            await interaction.response.send_modal(GuessModal(self.game_id, game))
        elif self.action == "hint":
            wait = play_wait(interaction)  # the limit of /hint, on its button too
            if wait is not None:
                return await refuse(interaction, slow_down(wait))
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_reply(interaction, await COMMANDS["hint"].run(services, caller))
        else:
            work = COMMANDS["giveup"].run(services, caller)
            await edit_board(interaction, await in_time(interaction, work, update=True))


class ShareButton(
    Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"wb:share:(?P<game>[0-9]+)"
):
    """A finished board's Share: the share text, privately, ready to copy (NYT format in the
    player's colours). Its custom id carries the game, so it works after a restart."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Share"),
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"wb:share:{game_id}"))  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ShareButton:
        return cls(int(match["game"]))

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        game = await bot_of(interaction).services.games.game(self.game_id)
        if game is None:
            return await refuse(interaction, _(NO_GAME))
        if game.player_id != interaction.user.id:
            return await refuse(interaction, _("Only its player can share a game: share your own"))
        if not game.over:
            return await refuse(interaction, _("Finish the game first, then share it"))
        palette = await palette_of(interaction, game.player_id)
        await interaction.response.send_message(share_text(game, palette), ephemeral=True)


class PickButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:pick:(?P<action>guess|giveup):(?P<game>[0-9]+):(?P<word>[a-z0-9]{0,16})",
):
    """When several games could be meant, one button per game: pressing it takes the action
    (the guess is in the custom id) on that game. Works after a restart too."""

    def __init__(self, action: str, game_id: int, word: str, label: str) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.primary,
            custom_id=f"wb:pick:{action}:{game_id}:{word}",
        ))  # fmt: skip
        self.action, self.game_id, self.word = action, game_id, word

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PickButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["action"], int(match["game"]), match["word"], label or "")

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        services = bot_of(interaction).services
        caller = caller_of(interaction, game_id=self.game_id)
        if self.action == "guess":
            work = COMMANDS["guess"].run(services, caller, word=self.word)
        else:
            work = COMMANDS["giveup"].run(services, caller)
        await send_reply(interaction, await in_time(interaction, work))


def choices_view(reply: Reply) -> discord.ui.View | None:
    """Buttons naming each game the player could have meant (Discord allows 25)."""
    action, word = reply.pick
    if not reply.picks or not action or not re.fullmatch(r"[a-z0-9]{0,16}", word):
        return None
    view = discord.ui.View(timeout=None)
    for game in reply.picks[:25]:
        view.add_item(PickButton(action, game.game_id, word, title(game)))
    return view


# The form's id names the game; forms opened by older versions also carry a mark of the
# process that opened them, which no longer matters (every submit takes one path).
MODAL_ID = re.compile(r"wb:modal:guess:(?P<game>[0-9]+)(?::[0-9a-f]+)?")


def guess_field_label(game: GameView) -> str:
    """The guess form's one field, by the game's unit (Primel's are digits)."""
    if game.variant == "primel":
        return ngettext("Your {length}-digit guess", "Your {length}-digit guess",
                        game.length).format(length=game.length)  # fmt: skip
    return ngettext("Your {length}-letter guess", "Your {length}-letter guess",
                    game.length).format(length=game.length)  # fmt: skip


class GuessModal(discord.ui.Modal):
    def __init__(self, game_id: int, game: GameView) -> None:
        number = len(game.rows) + 1
        heading = (
            _("Guess {number} of {limit}").format(number=number, limit=game.max_guesses)
            if game.max_guesses
            else _("Guess {number}").format(number=number)
        )
        super().__init__(title=heading, timeout=FORM_SECONDS,
                         custom_id=f"wb:modal:guess:{game_id}")  # fmt: skip
        self.game_id = game_id
        field, self.word = guess_form_field(guess_field_label(game))
        self.add_item(field)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Never run here: :meth:`cogs.games.Games.on_interaction` plays every submitted
        guess. discord.py learns of a modal only once the reply that opened it completes, so
        a quick submit could reach it unregistered and be dropped; one path for all avoids
        that race (and serves forms opened before a restart the same way)."""
        return False


async def submitted_guess(interaction: discord.Interaction[Any], game_id: int,
                          word: str) -> None:  # fmt: skip
    """A guess from the form on a board: the board is edited in place."""
    wait = play_wait(interaction)  # the limit of /guess, on its form too
    if wait is not None:
        return await refuse(interaction, slow_down(wait))
    services = bot_of(interaction).services
    work = COMMANDS["guess"].run(services, caller_of(interaction, game_id=game_id), word=word)
    await edit_board(interaction, await in_time(interaction, work, update=True))


class WindowButton(Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"wb:window"):
    """Play in the window: opens the game window (the Activity) in the channel, where the
    same game goes on (bot/web/activity.py). Shown where the bot has Activities on."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Play in the window"),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id="wb:window"))  # fmt: skip

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> WindowButton:  # fmt: skip
        return cls()

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.launch_activity()


def buttons(game: GameView, *, window: bool = False) -> discord.ui.View:
    """A game's buttons: Guess, Hint (not in a race) and Give up, and with ``window`` Play
    in the window (not in a race either: its board is the race's); once over, Share."""
    view = discord.ui.View(timeout=None)
    if game.over:
        view.add_item(ShareButton(game.game_id))
        return view
    race = game.kind.endswith(":race")  # no hints in a race
    for action in ("guess", "giveup") if race else ("guess", "hint", "giveup"):
        view.add_item(GameButton(action, game.game_id))
    if window and not race:
        view.add_item(WindowButton())
    return view


async def drawn_board(
    interaction: discord.Interaction[Any], game: GameView, *, update: bool = False
) -> dict[str, Any]:
    """The board message in its player's colours. Reading the palette and drawing can take
    long too (a busy database, a busy worker pool), so they run under the same deferral
    timer as the service call: the interaction is deferred rather than missing its window."""

    async def draw() -> dict[str, Any]:
        palette = await palette_of(interaction, game.player_id)
        window = bot_of(interaction).settings.activity
        return await board_message(game, buttons(game, window=window), palette)

    return await in_time(interaction, draw(), update=update)
