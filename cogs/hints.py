"""/hint: private help for the game in progress, or for a history typed from elsewhere."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import answer
from cogs.common import anywhere, bot_of, player_of, scope_of
from cogs.cooldowns import PLAY
from cogs.games import format_hint, send_hint


class Hints(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @anywhere
    @app_commands.command(name="hint", description="Private help: for your game, or a history")
    @app_commands.describe(history="A game played elsewhere: crane 01002 slate 00202, or squares")
    @PLAY
    async def hint(self, interaction: discord.Interaction[Any],
                   history: app_commands.Range[str, 1, 400] | None = None) -> None:  # fmt: skip
        if history is None:
            return await send_hint(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await bot_of(interaction).services.games.hint_history(
            player_of(interaction), history, scope=scope_of(interaction)
        )
        text = outcome.message or "No hint" if outcome.hint is None else format_hint(outcome.hint)
        await answer(interaction, text, private=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hints(bot))
