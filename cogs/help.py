"""/help: the commands grouped by what a player wants to do (bot.render.help, the list the
console shows too), privately."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import anywhere, bot_of, in_time
from cogs.replies import command_work, send_reply


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What the bot does, by what you want to do")
    @anywhere
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """Where the bot has Activities on, the list ends with Play in the window."""
        reply = await in_time(interaction, command_work(interaction, "help"))
        if bot_of(interaction).settings.activity:
            reply = dataclasses.replace(reply, extra={**reply.extra, "window": True})
        await send_reply(interaction, reply)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
