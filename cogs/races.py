"""Races in Discord: /race posts a lobby (Join, Start) that becomes the live scoreboard (Play)
and ends with the podium; each player plays on a private board (the games cog's board, Guess
button and form). /raceboard ranks the server's racers. What the commands and the buttons
do is :mod:`bot.commands.together`'s (the console's /race, /join and /start run it too); this
cog shows it: the race's message, its buttons, the podium.

The buttons carry only the race's id: they work after a restart, and nothing of the answer
is in them. A race game's end reaches :meth:`Races.on_game_over` (the games cog's
``game_over`` event); a short loop in every process starts lobbies and ends races on time
and picks up finishes nobody reported (each change is taken once, in the database).
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import datetime
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands.together import join_race, play_race, start_race
from bot.discord_bot import WordleBot, answer, fitted
from bot.i18n import pgettext
from bot.render.text import MESSAGE_LIMIT, race_text
from bot.services import GameView
from bot.services.races import RaceBoard, RaceOutcome
from bot.storage.database import StorageBusy
from cogs.common import (
    Admitted,
    answers_failures,
    bot_of,
    in_servers,
    in_time,
    post_in_channel,
    refuse,
)
from cogs.games import LANGUAGES, WORDS, Length
from cogs.replies import caller_of, command_work, perform, send_reply

log = logging.getLogger("wordlebot.races")
TICK = 5.0  # seconds between looks at lobbies and time limits that are due
GameChoice = Literal["wordle", "primel", "dordle", "quordle", "octordle"]
NONE = discord.AllowedMentions.none()  # the scoreboard names players, pinging nobody
STYLES = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary,
          "play": discord.ButtonStyle.success}  # fmt: skip


def label(action: str) -> str:
    """A race button's label, in the language of whoever the message is drawn for."""
    labels = {"join": pgettext("button", "Join"), "start": pgettext("button", "Start"),
              "play": pgettext("button", "Play")}  # fmt: skip
    return labels[action]


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def scoreboard(board: RaceBoard) -> dict[str, Any]:
    """The race message: its text (players as mentions, pinging nobody) and buttons."""
    text = race_text(board, lambda r: f"<@{r.player_id}>", _when)
    if len(text) > MESSAGE_LIMIT:
        text = race_text(board, lambda r: f"<@{r.player_id}>", _when, grids=False)[:MESSAGE_LIMIT]
    race = board.race
    actions = {"lobby": ("join", "start"), "running": ("play",)}.get(race.status, ())
    view = discord.ui.View(timeout=None) if actions else None
    for action in actions:
        assert view is not None
        view.add_item(RaceButton(action, race.id))
    return {"content": text, "view": view, "allowed_mentions": NONE}


class RaceButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:race:(?P<action>join|start|play):(?P<race>[0-9]+)",
):
    """A race message's button; its custom id carries the race only."""

    def __init__(self, action: str, race_id: int) -> None:
        super().__init__(discord.ui.Button(label=label(action), style=STYLES[action],
                                           custom_id=f"wb:race:{action}:{race_id}"))  # fmt: skip
        self.action, self.race_id = action, race_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RaceButton:  # fmt: skip
        return cls(match["action"], int(match["race"]))

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        services, caller = bot_of(interaction).services, caller_of(interaction)
        if self.action == "play":  # deferred privately first: a slow moment stays private
            await interaction.response.defer(ephemeral=True, thinking=True)
            return await send_reply(interaction, await play_race(services, caller, self.race_id))
        pressed = join_race if self.action == "join" else start_race
        reply = await in_time(interaction, pressed(services, caller, self.race_id), update=True)
        if "race" not in reply.extra:
            return await refuse(interaction, reply.text)
        message = fitted(interaction, scoreboard(reply.extra["race"]))
        if interaction.response.is_done():
            await interaction.edit_original_response(**message)
        else:
            await interaction.response.edit_message(**message)
        if self.action == "join":  # a private note beside the updated scoreboard
            await answer(interaction, reply.text, private=True)
        else:  # the host's board at once; the others press Play
            await send_reply(interaction, await play_race(services, caller, self.race_id))


class Races(commands.Cog):
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot
        self._loop: asyncio.Task[None] | None = None
        self._editing: dict[int, asyncio.Lock] = {}  # a lock per race whose message changes

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start the loop once connected (READY comes again after a reconnect: once)."""
        if self._loop is None:
            self._loop = asyncio.create_task(self._every_tick(), name="wordlebot-races")

    async def cog_unload(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    async def _every_tick(self) -> None:
        while True:
            try:
                await self.run_due()
            except Exception:
                log.exception("the races' loop failed; it runs again")
            await asyncio.sleep(TICK)

    @in_servers
    @app_commands.command(name="race", description="Race others here on the same word, each "
                                                    "on a private board")  # fmt: skip
    @app_commands.describe(game="What to race on", mode="hard: the rule applies to everyone",
                           **WORDS)  # fmt: skip
    @app_commands.choices(language=LANGUAGES)
    async def race(self, interaction: discord.Interaction[Any], game: GameChoice = "wordle",
                   mode: Literal["normal", "hard"] = "normal", language: str | None = None,
                   length: Length | None = None) -> None:  # fmt: skip
        work = command_work(interaction, "race", game=game, mode=mode, language=language,
                            length=length)  # fmt: skip
        reply = await in_time(interaction, work)
        if "race" not in reply.extra:
            return await refuse(interaction, reply.text)
        board: RaceBoard = reply.extra["race"]
        message = fitted(interaction, scoreboard(board))
        message_id: int | None
        if interaction.response.is_done():
            message_id = (await interaction.edit_original_response(**message)).id
        else:
            message_id = (await interaction.response.send_message(**message)).message_id
        if message_id is not None:  # the lobby's message: the scoreboard edits it
            await bot_of(interaction).services.races.set_message(board.race.id, message_id)

    @in_servers
    @app_commands.command(name="raceboard", description="This server's racers: wins, podiums, "
                                                         "mean place")  # fmt: skip
    @app_commands.guild_only()
    async def raceboard(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "raceboard")  # names as mentions; the bot pings nobody

    # -- finishes, the clock, the messages ---------------------------------------------

    @commands.Cog.listener()
    async def on_game_over(self, game: GameView) -> None:
        if game.kind.endswith(":race"):
            await self.show(await self.bot.services.races.game_over(game.game_id))

    async def run_due(self) -> None:
        for outcome in await self.bot.services.races.run_due():
            await self.show(outcome)

    async def show(self, outcome: RaceOutcome) -> None:
        """Edit the race message to the scoreboard; post the podium once it ended. Edits of
        a race go one at a time, each of the race as it stands: of two finishes at once,
        the edit of the first could otherwise reach Discord last and leave the message
        showing a race still running."""
        if not outcome.changed or outcome.board is None:
            return
        race = outcome.board.race
        async with self._editing.setdefault(race.id, asyncio.Lock()):
            try:
                board = await self.bot.services.races.board(race.id)
            except StorageBusy:  # the database away for a moment: the board this change made
                board = outcome.board
            message = scoreboard(board)
            if race.message_id is not None:
                target = self.bot.get_partial_messageable(race.channel_id, guild_id=race.guild_id)
                try:
                    await target.get_partial_message(race.message_id).edit(**message)
                except discord.HTTPException as exc:
                    log.warning("race %d: its message could not be edited (%s)", race.id,
                                exc.status)  # fmt: skip
        if outcome.ended:
            self._editing.pop(race.id, None)
            try:
                await post_in_channel(self.bot, race.guild_id, race.channel_id,
                                      message["content"], allowed_mentions=NONE)  # fmt: skip
            except Exception:
                log.exception("race %d: its podium could not be posted", race.id)


async def setup(bot: WordleBot) -> None:
    bot.add_dynamic_items(RaceButton)
    await bot.add_cog(Races(bot))
