"""/define: a word's short definition from the dictionary shipped with the bot
(bot/commands/define.py), privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import anywhere
from cogs.games import LANGUAGES
from cogs.replies import perform


class Define(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="define", description="A word's short definition, with its source")
    @app_commands.describe(
        word="The word to look up", language="The word's language (default: yours, else English)"
    )
    @app_commands.choices(language=LANGUAGES)
    @anywhere
    async def define(self, interaction: discord.Interaction[Any], word: str,
                     language: str | None = None) -> None:  # fmt: skip
        await perform(interaction, "define", word=word, language=language)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Define(bot))
