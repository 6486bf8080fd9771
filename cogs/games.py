"""Wordle and Primel in Discord: the slash commands that play, and the guess form's
listener. What each command does is in :mod:`bot.commands.games`; the board and its buttons
are in :mod:`cogs.replies`."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import turned_away
from bot.services.kinds import LANGUAGES as LANGUAGE_LENGTHS
from bot.services.kinds import native_name
from cogs.common import answers_failures, anywhere, form_values
from cogs.cooldowns import PLAY
from cogs.replies import (
    MODAL_ID,
    GameButton,
    PickButton,
    ShareButton,
    WindowButton,
    buttons,
    perform,
    submitted_guess,
)

ModeChoice = Literal["normal", "hard", "strict"]
MODE = "hard: greens stay, yellows must be reused; strict: every guess could be the answer"
# Wordle's languages, by their own names; a length from the shortest to the longest list.
LANGUAGES = [app_commands.Choice(name=native_name(code), value=code) for code in LANGUAGE_LENGTHS]
Length = app_commands.Range[int, 4, 11]
WORDS = {"language": "The words' language (default: the server's, else yours)",
         "length": "Letters a word (default: 5 where the language has them)"}  # fmt: skip
__all__ = ["Games", "buttons"]


class Games(commands.Cog):
    wordle = anywhere(app_commands.Group(name="wordle", description="Play Wordle"))
    primel = anywhere(
        app_commands.Group(name="primel", description="Play Primel: guess the 5-digit prime")
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    @answers_failures
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A submitted guess form, whenever and wherever it was opened (see GuessModal)."""
        if interaction.type is not discord.InteractionType.modal_submit or not interaction.data:
            return
        match = MODAL_ID.fullmatch(str(interaction.data.get("custom_id", "")))
        if match is None:
            return  # not ours
        if await turned_away(interaction):
            return
        values = form_values(interaction.data)
        await submitted_guess(interaction, int(match["game"]), str(values[0] if values else ""))

    @wordle.command(name="daily", description="Today's Wordle: the same word for everyone")
    @app_commands.describe(mode=MODE, **WORDS)
    @app_commands.choices(language=LANGUAGES)
    async def wordle_daily(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal",
        language: str | None = None, length: Length | None = None,
    ) -> None:  # fmt: skip
        await perform(interaction, "wordle daily", mode=mode, language=language, length=length)

    @wordle.command(name="practice", description="A practice Wordle with a random word")
    @app_commands.describe(mode=MODE, **WORDS)
    @app_commands.choices(language=LANGUAGES)
    async def wordle_practice(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal",
        language: str | None = None, length: Length | None = None,
    ) -> None:  # fmt: skip
        await perform(interaction, "wordle practice", mode=mode, language=language, length=length)

    @primel.command(name="daily", description="Today's Primel")
    @app_commands.describe(mode=MODE)
    async def primel_daily(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await perform(interaction, "primel daily", mode=mode)

    @primel.command(name="practice", description="A practice Primel")
    @app_commands.describe(mode=MODE)
    async def primel_practice(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await perform(interaction, "primel practice", mode=mode)

    @wordle.command(name="archive", description="A past daily you have not played yet")
    @app_commands.describe(number="The puzzle's number (#0 was 2021-06-19)",
                           date="Or its date, YYYY-MM-DD", mode=MODE, **WORDS)  # fmt: skip
    @app_commands.choices(language=LANGUAGES)
    async def wordle_archive(
        self, interaction: discord.Interaction[Any], number: int | None = None,
        date: str | None = None, mode: ModeChoice = "normal", language: str | None = None,
        length: Length | None = None,
    ) -> None:  # fmt: skip
        await perform(interaction, "wordle archive", number=number, date=date, mode=mode,
                      language=language, length=length)  # fmt: skip

    @primel.command(name="archive", description="A past Primel daily you have not played yet")
    @app_commands.describe(number="The puzzle's number (#0 was 2021-06-19)",
                           date="Or its date, YYYY-MM-DD", mode=MODE)  # fmt: skip
    async def primel_archive(
        self, interaction: discord.Interaction[Any], number: int | None = None,
        date: str | None = None, mode: ModeChoice = "normal",
    ) -> None:  # fmt: skip
        await perform(interaction, "primel archive", number=number, date=date, mode=mode)

    @anywhere
    @app_commands.command(name="absurdle", description="Wordle against an adversary that dodges")
    @app_commands.describe(challenge="Get a target word and force the adversary to it", mode=MODE)
    async def absurdle(self, interaction: discord.Interaction[Any], challenge: bool = False,
                       mode: ModeChoice = "normal") -> None:  # fmt: skip
        await perform(interaction, "absurdle", challenge=challenge, mode=mode)

    @anywhere
    @app_commands.command(name="dordle", description="Two boards at once, 7 guesses")
    @app_commands.describe(mode=MODE)
    async def dordle(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await perform(interaction, "dordle", mode=mode)

    @anywhere
    @app_commands.command(name="quordle", description="Four boards at once, 9 guesses")
    @app_commands.describe(mode=MODE)
    async def quordle(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await perform(interaction, "quordle", mode=mode)

    @anywhere
    @app_commands.command(name="octordle", description="Eight boards at once, 13 guesses")
    @app_commands.describe(mode=MODE)
    async def octordle(
        self, interaction: discord.Interaction[Any], mode: ModeChoice = "normal"
    ) -> None:
        await perform(interaction, "octordle", mode=mode)

    @anywhere
    @app_commands.command(name="guess", description="Guess a word in your game")
    @app_commands.describe(word="Your guess")
    @PLAY
    async def guess(
        self, interaction: discord.Interaction[Any], word: app_commands.Range[str, 1, 100]
    ) -> None:
        await perform(interaction, "guess", word=word)

    @anywhere
    @app_commands.command(name="giveup", description="Give up your game and see the answer")
    async def giveup(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "giveup")


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(GameButton, PickButton, ShareButton, WindowButton)
    await bot.add_cog(Games(bot))
