"""Co-op channel games in Discord: /coop start posts one shared board in a server channel, whose
Guess button (a modal) anyone there may press; /coop board shows the server's co-op points and
/coop end (Manage Messages) ends the channel's game. The rules, points and cooldown are the
service's (:mod:`bot.services.coop`); what the commands and the form do is
:mod:`bot.commands.together`'s (the console's /coop and /cg run it too), and this cog shows
it. The button's and the form's custom ids carry the game, so both work after a restart."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import Reply
from bot.commands.together import coop_guess
from bot.discord_bot import WordleBot, answer, fitted, turned_away
from bot.i18n import _, pgettext
from bot.render import images
from bot.render.alt_text import board_alt_text
from bot.render.text import coop_rows, coop_status, keyboard_markdown
from bot.services.coop import NO_GAME, CoopView
from cogs.common import (
    FORM_SECONDS,
    GREEN,
    GREY,
    Admitted,
    answers_failures,
    bot_of,
    form_values,
    guess_form_field,
    in_servers,
    in_time,
    player_of,
    refuse,
)
from cogs.games import LANGUAGES, WORDS, Length
from cogs.replies import caller_of, command_work, guess_field_label, perform

GameChoice = Literal["wordle", "primel", "dordle", "quordle", "octordle"]
# Every submitted co-op form is played by Coop.on_interaction (as the game forms are, see
# cogs/games.py): whenever and wherever it was opened.
MODAL_ID = re.compile(r"wb:modal:coop:(?P<coop>[0-9]+)")


class CoopButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:coop:guess:(?P<coop>[0-9]+)",
):
    """The shared board's Guess button: anyone in the channel may press it."""

    def __init__(self, coop_id: int) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Guess"),
                                           style=discord.ButtonStyle.success,
                                           custom_id=f"wb:coop:guess:{coop_id}"))  # fmt: skip
        self.coop_id = coop_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> CoopButton:  # fmt: skip
        return cls(int(match["coop"]))

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The form, unless the player could not guess now (their cooldown, a game over)."""
        coop = bot_of(interaction).services.coop
        outcome = await coop.ready(player_of(interaction), self.coop_id)
        if not outcome.ok or outcome.coop is None:
            return await refuse(interaction, outcome.message or _(NO_GAME))
        await interaction.response.send_modal(CoopModal(outcome.coop))


class CoopModal(discord.ui.Modal):
    def __init__(self, view: CoopView) -> None:
        game = view.game
        heading = _("Co-op guess {number} of {limit}").format(
            number=len(game.rows) + 1, limit=game.max_guesses
        )
        super().__init__(title=heading, custom_id=f"wb:modal:coop:{view.coop_id}",
                         timeout=FORM_SECONDS)  # fmt: skip
        field, self.word = guess_form_field(guess_field_label(game))
        self.add_item(field)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Never run here: :meth:`Coop.on_interaction` plays every submitted form."""
        return False


def buttons(view: CoopView) -> discord.ui.View | None:
    if view.over:
        return None
    items = discord.ui.View(timeout=None)
    items.add_item(CoopButton(view.coop_id))
    return items


async def coop_message(view: CoopView, *, edit: bool = False) -> dict[str, Any]:
    """The public shared board: rows with who played them (mentions, which an embed never
    pings), the status, the keyboard and the image, letters shown (it is everyone's game)."""
    lines = coop_rows(view, name=lambda turn: f"<@{turn.player_id}>")
    lines.append(coop_status(view))
    if not view.over:
        lines += ["", keyboard_markdown(view.game)]
    embed = discord.Embed(title=_("{game} co-op").format(game=view.game.title),
                          description="\n".join(lines),
                          colour=GREEN if view.status == "won" else GREY)  # fmt: skip
    embed.set_image(url="attachment://board.png")
    png = await asyncio.to_thread(images.board_png, view.game, letters=True)
    message: dict[str, Any] = {
        "embed": embed,
        "attachments": [
            discord.File(io.BytesIO(png), "board.png", description=board_alt_text(view.game))
        ],
    }
    items = buttons(view)
    if items is not None or edit:  # an edit with no view takes the old buttons away
        message["view"] = items
    return message


async def show(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Answer a command with the board in a new message (a note above it), or refuse."""
    if "coop" not in reply.extra:
        return await refuse(interaction, reply.text)
    message = await coop_message(reply.extra["coop"])
    if reply.text:
        message["content"] = reply.text
    files = message.pop("attachments")
    await answer(interaction, files=files, private=False, **message)


class Coop(commands.Cog):
    coop = in_servers(app_commands.Group(
        name="coop", description="One shared board for the whole channel", guild_only=True
    ))  # fmt: skip

    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """In a server channel only: a co-op game is a channel's (Discord hides the commands
        elsewhere; a user install could still reach them)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @commands.Cog.listener()
    @answers_failures
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A submitted co-op guess: play it and edit the board it came from."""
        if interaction.type is not discord.InteractionType.modal_submit or not interaction.data:
            return
        match = MODAL_ID.fullmatch(str(interaction.data.get("custom_id", "")))
        if match is None or await turned_away(interaction):
            return
        values = form_values(interaction.data)
        work = coop_guess(self.bot.services, caller_of(interaction), int(match["coop"]),
                          str(values[0] if values else ""))  # fmt: skip
        reply = await in_time(interaction, work, update=True)
        if "coop" not in reply.extra:
            return await refuse(interaction, reply.text)
        message = fitted(interaction, await coop_message(reply.extra["coop"], edit=True))
        if interaction.response.is_done():  # deferred: the service was slow
            await interaction.edit_original_response(**message)
        else:
            await interaction.response.edit_message(**message)

    @coop.command(name="start", description="Start a shared board in this channel (or show it)")
    @app_commands.describe(game="Which game (default Wordle)", **WORDS)
    @app_commands.choices(language=LANGUAGES)
    async def start(self, interaction: discord.Interaction[Any], game: GameChoice = "wordle",
                    language: str | None = None, length: Length | None = None) -> None:  # fmt: skip
        work = command_work(interaction, "coop start", game=game, language=language, length=length)
        await show(interaction, await in_time(interaction, work))

    @coop.command(name="board", description="This server's co-op points")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "coop board")  # names as mentions; the bot pings nobody

    @coop.command(name="end", description="End this channel's co-op game (Manage Messages)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """The command says who may (Manage Messages), in Discord and the console alike."""
        await show(interaction, await in_time(interaction, command_work(interaction, "coop end")))


async def setup(bot: WordleBot) -> None:
    bot.add_dynamic_items(CoopButton)
    await bot.add_cog(Coop(bot))
