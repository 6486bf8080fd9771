"""/challenge: a player's own word for others to play privately, with a Play button whose
custom id names the stored challenge (never the word), and a message that shows each
player's result in colours only as they finish. What the command and the button do is
:mod:`bot.commands.together`'s (the console's /challenge and /play run it too); this cog
shows it."""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import UserId
from bot.commands.together import play_challenge
from bot.discord_bot import WordleBot, fitted
from bot.i18n import _, pgettext
from bot.render.text import challenge_text
from bot.services import GameView
from bot.services.challenges import MAX_GUESSES, ChallengeBoard
from cogs.common import GREY, Admitted, answers_failures, bot_of, in_servers, in_time, refuse
from cogs.games import LANGUAGES, WORDS, Length
from cogs.replies import caller_of, command_work, send_reply

log = logging.getLogger("wordlebot.challenges")
NO_MENTIONS = discord.AllowedMentions.none()


class PlayButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"wb:challenge:play:(?P<challenge>[0-9]+)",
):
    """The challenge's Play button: its custom id carries the challenge's id only, so it works
    after a restart and tells nothing of the word."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(discord.ui.Button(
            label=pgettext("button", "Play"), style=discord.ButtonStyle.success,
            custom_id=f"wb:challenge:play:{challenge_id}",
        ))  # fmt: skip
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PlayButton:
        return cls(int(match["challenge"]))

    @answers_failures
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The player's own board, privately: the normal Guess button and form. Deferred
        privately first, so however slow the database, nothing of it lands in public."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await play_challenge(bot_of(interaction).services, caller_of(interaction),
                                     self.challenge_id)  # fmt: skip
        await send_reply(interaction, reply)


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
                           game="Wordle (a word) or Primel (a 5-digit prime)",
                           language=WORDS["language"],
                           length="Letters a word (default: your word's)")  # fmt: skip
    @app_commands.choices(language=LANGUAGES)
    async def challenge(
        self, interaction: discord.Interaction[Any], word: str, player: discord.User | None = None,
        guesses: int = 6, game: Literal["wordle", "primel"] = "wordle",
        language: str | None = None, length: Length | None = None,
    ) -> None:  # fmt: skip
        if player is not None and player.bot:
            return await refuse(interaction, _("Bots do not take challenges: name a player"))
        target = None if player is None else UserId(player.id, player.display_name)
        work = command_work(interaction, "challenge", word=word, player=target, guesses=guesses,
                            game=game, language=language, length=length)  # fmt: skip
        reply = await in_time(interaction, work)
        if "challenge" not in reply.extra:
            return await refuse(interaction, reply.text)
        board: ChallengeBoard = reply.extra["challenge"]
        message: dict[str, Any] = {
            "embed": discord.Embed(description=challenge_text(board), colour=GREY),
            "view": play_view(board.challenge.id),
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
        await bot_of(interaction).services.challenges.attach(board.challenge.id, message_id)

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
