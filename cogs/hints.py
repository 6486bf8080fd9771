"""/hint: private help for the game in progress, or for a history typed from elsewhere."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import refuse
from cogs.games import COOLDOWN, format_hint, send_hint
from engine.aio import hint_async
from engine.history import HistoryError, parse_history
from engine.pattern import PatternError
from engine.rules import Mode
from engine.solver.position import InconsistentHistory
from engine.variants import get_variant


class Hints(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description="Private help: for your game, or a history")
    @app_commands.describe(history="A game played elsewhere: crane 01002 slate 00202, or squares")
    @COOLDOWN
    async def hint(self, interaction: discord.Interaction[Any],
                   history: app_commands.Range[str, 1, 400] | None = None) -> None:  # fmt: skip
        if history is None:
            return await send_hint(interaction)
        try:
            rows = parse_history(history, get_variant("wordle-nyt"))
        except (HistoryError, PatternError) as exc:
            return await refuse(interaction, str(exc))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await hint_async("wordle", rows, Mode.NORMAL)
        except InconsistentHistory as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        await interaction.followup.send(format_hint(result), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hints(bot))
