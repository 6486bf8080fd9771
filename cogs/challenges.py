"""/challenge: a player's own word for others to play privately, with a Play button whose
custom id names the stored challenge (never the word), and a message that shows each
player's result in colours only as they finish."""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import WordleBot, answer, fitted, turned_away
from bot.render.text import challenge_text
from bot.services import GameView, Player
from bot.services.challenges import MAX_GUESSES, NOT_FOUND
from cogs.common import (
    GREY,
    answers_failures,
    board_message,
    bot_of,
    in_servers,
    in_time,
    palette_of,
    place_of,
    player_of,
    refuse,
)
from cogs.replies import buttons

log = logging.getLogger("wordlebot.challenges")
NO_MENTIONS = discord.AllowedMentions.none()


class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:challenge:play:(?P<challenge>[0-9]+)",
):
    """The challenge's Play button: its custom id carries the challenge's id only, so it works
    after a restart and tells nothing of the word."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="Play", style=discord.ButtonStyle.success,
            custom_id=f"wb:challenge:play:{challenge_id}",
        ))  # fmt: skip
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> PlayButton:
        return cls(int(match["challenge"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return not await turned_away(interaction)

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The player's own board, privately: the normal Guess button and form. Deferred
        privately first, so however slow the database, nothing of it lands in public."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await bot_of(interaction).services.challenges.play(
            player_of(interaction), self.challenge_id, place_of(interaction)
        )
        if not outcome.ok or outcome.game is None:
            return await refuse(interaction, outcome.message or NOT_FOUND)
        palette = await palette_of(interaction, outcome.game.player_id)
        message = await board_message(outcome.game, buttons(outcome.game), palette)
        files = message.pop("attachments")
        await answer(interaction, files=files, private=True, **message)


def play_view(challenge_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(challenge_id))
    return view


class Challenges(commands.Cog):
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot

    @in_servers
    @app_commands.command(name="challenge", description="Set a word of your own for others")
    @app_commands.describe(word="Your word (only you see it)", player="Only this player may play",
                           guesses=f"Guesses allowed, 1 to {MAX_GUESSES} (default 6)",
                           game="Wordle (a word) or Primel (a 5-digit prime)")  # fmt: skip
    async def challenge(
        self, interaction: discord.Interaction[Any], word: str, player: discord.User | None = None,
        guesses: int = 6, game: Literal["wordle", "primel"] = "wordle",
    ) -> None:  # fmt: skip
        if interaction.guild_id is None or interaction.channel_id is None:
            return await refuse(interaction, "Challenges need a channel: use /challenge in a "
                                             "server")  # fmt: skip
        if player is not None and player.bot:
            return await refuse(interaction, "Bots do not take challenges: name a player")
        services = bot_of(interaction).services
        target = None if player is None else Player(player.id, player.display_name)
        created = await in_time(interaction, services.challenges.create(
            player_of(interaction), interaction.guild_id, interaction.channel_id, word,
            game=game, guesses=guesses, target=target,
        ))  # fmt: skip
        if created.challenge is None:
            return await refuse(interaction, created.message or "No challenge was made")
        board = await services.challenges.board(created.challenge)
        message: dict[str, Any] = {
            "embed": discord.Embed(description=challenge_text(board), colour=GREY),
            "view": play_view(created.challenge.id),
            "content": None if player is None else player.mention,  # tell them: a ping
            "allowed_mentions": NO_MENTIONS if player is None else discord.AllowedMentions(
                everyone=False, roles=False, users=[player]),
        }  # fmt: skip
        message = fitted(interaction, message)
        if interaction.response.is_done():
            sent = await interaction.edit_original_response(**message)
            message_id = sent.id
        else:
            response = await interaction.response.send_message(**message)
            message_id = response.message_id or (await interaction.original_response()).id
        await services.challenges.attach(created.challenge.id, message_id)

    @commands.Cog.listener()
    async def on_game_over(self, game: GameView) -> None:
        """A challenge's player finished: the message shows their result (colours only)."""
        if not game.kind.endswith(":custom"):
            return
        challenges = self.bot.services.challenges
        stored = await self.bot.services.storage.game(game.game_id)
        challenge_id = None if stored is None else (stored.puzzle or "").removeprefix("custom:")
        challenge = await challenges.get(int(challenge_id)) if challenge_id else None
        if challenge is None or challenge.message_id is None:
            return
        text = challenge_text(await challenges.board(challenge))
        message = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        ).get_partial_message(challenge.message_id)
        try:
            await message.edit(embed=discord.Embed(description=text, colour=GREY),
                               allowed_mentions=NO_MENTIONS)  # fmt: skip
        except discord.HTTPException as exc:  # deleted, or the bot may no longer see it
            log.info("challenge %d: its message was not updated (%s)", challenge.id, exc.status)


async def setup(bot: WordleBot) -> None:
    bot.add_dynamic_items(PlayButton)
    await bot.add_cog(Challenges(bot))
