"""/hint: private help for the game in progress, or for a history typed from elsewhere."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import anywhere
from cogs.cooldowns import PLAY
from cogs.replies import perform


class Hints(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @anywhere
    @app_commands.command(name="hint", description="Private help: for your game, or a history")
    @app_commands.describe(history="A game played elsewhere: crane 01002 slate 00202, or squares")
    @PLAY
    async def hint(self, interaction: discord.Interaction[Any],
                   history: app_commands.Range[str, 1, 400] | None = None) -> None:  # fmt: skip
        await perform(interaction, "hint", private_wait=True, history=history)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hints(bot))
