"""Races in Discord: /race posts a lobby (Join, Start) that becomes the live scoreboard (Play)
and ends with the podium; each player plays on a private board (the games cog's board, Guess
button and form). /raceboard ranks the server's racers.

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

from bot.discord_bot import WordleBot, answer, fitted, turned_away
from bot.render.text import race_text
from bot.services import GameView, Outcome
from bot.services.races import NEED_CHANNEL, RaceBoard, RaceOutcome
from cogs.common import (
    answers_failures,
    board_message,
    bot_of,
    in_servers,
    in_time,
    palette_of,
    place_of,
    player_of,
    post_in_channel,
    refuse,
)
from cogs.replies import buttons

log = logging.getLogger("wordlebot.races")
TICK = 5.0  # seconds between looks at lobbies and time limits that are due
LIMIT = 2000  # characters in one Discord message
GameChoice = Literal["wordle", "primel", "dordle", "quordle", "octordle"]
NONE = discord.AllowedMentions.none()  # the scoreboard names players, pinging nobody
LABELS = {"join": ("Join", discord.ButtonStyle.success),
          "start": ("Start", discord.ButtonStyle.primary),
          "play": ("Play", discord.ButtonStyle.success)}  # fmt: skip


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def scoreboard(board: RaceBoard) -> dict[str, Any]:
    """The race message: its text (players as mentions, pinging nobody) and buttons."""
    text = race_text(board, lambda r: f"<@{r.player_id}>", _when)
    if len(text) > LIMIT:
        text = race_text(board, lambda r: f"<@{r.player_id}>", _when, grids=False)[:LIMIT]
    race = board.race
    actions = {"lobby": ("join", "start"), "running": ("play",)}.get(race.status, ())
    view = discord.ui.View(timeout=None) if actions else None
    for action in actions:
        assert view is not None
        view.add_item(RaceButton(action, race.id))
    return {"content": text, "view": view, "allowed_mentions": NONE}


class RaceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:race:(?P<action>join|start|play):(?P<race>[0-9]+)",
):
    """A race message's button; its custom id carries the race only."""

    def __init__(self, action: str, race_id: int) -> None:
        label, style = LABELS[action]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"wb:race:{action}:{race_id}"))  # fmt: skip
        self.action, self.race_id = action, race_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> RaceButton:  # fmt: skip
        return cls(match["action"], int(match["race"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return not await turned_away(interaction)

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        races = bot_of(interaction).services.races
        player = player_of(interaction)
        if self.action == "play":  # deferred privately first: a slow moment stays private
            await interaction.response.defer(ephemeral=True, thinking=True)
            board = await races.play(self.race_id, player, place_of(interaction))
            return await send_board(interaction, board)
        work = (races.join if self.action == "join" else races.start)(self.race_id, player)
        outcome = await in_time(interaction, work, update=True)
        if not outcome.ok or outcome.board is None:
            return await refuse(interaction, outcome.message or "That race is over")
        message = fitted(interaction, scoreboard(outcome.board))
        if interaction.response.is_done():
            await interaction.edit_original_response(**message)
        else:
            await interaction.response.edit_message(**message)
        if self.action == "join":  # a private note beside the updated scoreboard
            await answer(interaction, outcome.message or "You're in", private=True)
        else:  # the host's board at once; the others press Play
            await send_board(interaction, await races.play(self.race_id, player,
                                                           place_of(interaction)))  # fmt: skip


async def send_board(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """The player's own race board, privately, or the refusal."""
    if not outcome.ok or outcome.game is None:
        return await refuse(interaction, outcome.message or "That race is over")
    palette = await palette_of(interaction, outcome.game.player_id)
    message = await board_message(outcome.game, buttons(outcome.game), palette)
    files = message.pop("attachments")
    await answer(interaction, files=files, private=True, **message)


class Races(commands.Cog):
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot
        self._loop: asyncio.Task[None] | None = None

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
    @app_commands.describe(game="What to race on", mode="hard: the rule applies to everyone")
    async def race(self, interaction: discord.Interaction[Any], game: GameChoice = "wordle",
                   mode: Literal["normal", "hard"] = "normal") -> None:  # fmt: skip
        if interaction.guild_id is None or interaction.channel_id is None:
            return await refuse(interaction, NEED_CHANNEL)
        races = bot_of(interaction).services.races
        work = races.create(player_of(interaction), interaction.guild_id,
                            interaction.channel_id, game, mode)  # fmt: skip
        outcome = await in_time(interaction, work)
        if not outcome.ok or outcome.board is None:
            return await refuse(interaction, outcome.message or NEED_CHANNEL)
        message = fitted(interaction, scoreboard(outcome.board))
        if interaction.response.is_done():
            message_id = (await interaction.edit_original_response(**message)).id
        else:
            message_id = (await interaction.response.send_message(**message)).message_id
        if message_id is not None:  # the lobby's message: the scoreboard edits it
            await races.set_message(outcome.board.race.id, message_id)

    @in_servers
    @app_commands.command(name="raceboard", description="This server's racers: wins, podiums, "
                                                         "mean place")  # fmt: skip
    @app_commands.guild_only()
    async def raceboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        standings = await bot_of(interaction).services.races.standings(interaction.guild_id)
        lines = [f"{rank}. <@{s.player_id}>: {s.wins} win{'s' * (s.wins != 1)}, {s.podiums} "
                 f"podium{'s' * (s.podiums != 1)}, mean place {s.mean_place:.2f} "
                 f"({s.races} race{'s' * (s.races != 1)})"
                 for rank, s in enumerate(standings, 1)]  # fmt: skip
        text = "**Races here**\n" + "\n".join(lines) if lines else "Nobody has raced here: /race"
        await interaction.response.send_message(text, allowed_mentions=NONE)

    # -- finishes, the clock, the messages ---------------------------------------------

    @commands.Cog.listener()
    async def on_game_over(self, game: GameView) -> None:
        if game.kind.endswith(":race"):
            await self.show(await self.bot.services.races.game_over(game.game_id))

    async def run_due(self) -> None:
        for outcome in await self.bot.services.races.run_due():
            await self.show(outcome)

    async def show(self, outcome: RaceOutcome) -> None:
        """Edit the race message to the new scoreboard; post the podium once it ended."""
        if not outcome.changed or outcome.board is None:
            return
        race = outcome.board.race
        message = scoreboard(outcome.board)
        if race.message_id is not None:
            target = self.bot.get_partial_messageable(race.channel_id, guild_id=race.guild_id)
            try:
                await target.get_partial_message(race.message_id).edit(**message)
            except discord.HTTPException as exc:
                log.warning("race %d: its message could not be edited (%s)", race.id, exc.status)
        if outcome.ended:
            try:
                await post_in_channel(self.bot, race.guild_id, race.channel_id,
                                      message["content"], allowed_mentions=NONE)  # fmt: skip
            except Exception:
                log.exception("race %d: its podium could not be posted", race.id)


async def setup(bot: WordleBot) -> None:
    bot.add_dynamic_items(RaceButton)
    await bot.add_cog(Races(bot))
