"""/hardmode: is hard mode harder? The stored study's answer, its key numbers and picture."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.replies import perform

GAMES = [app_commands.Choice(name="Wordle", value="wordle"),
         app_commands.Choice(name="Primel", value="primel")]  # fmt: skip


class Study(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="hardmode", description="Is hard mode harder? Six players' numbers and a chart"
    )
    @app_commands.describe(
        game="The game the study played (Wordle by default)",
        share="Post it to the channel instead of only to you",
    )
    @app_commands.choices(game=GAMES)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def hardmode(self, interaction: discord.Interaction[Any], game: str = "wordle",
                       share: bool = False) -> None:  # fmt: skip
        await perform(interaction, "hardmode", game=game, share=share)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Study(bot))
