"""/help: the commands grouped by what a player wants to do (bot.render.help, the list the
console shows too), privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import anywhere
from cogs.replies import perform


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What the bot does, by what you want to do")
    @anywhere
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "help")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
