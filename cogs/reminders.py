"""Reminders in Discord: players opt in (/remind on, /remind off), /missing lists who has not
played today (what each command does is in :mod:`bot.commands.reminders`); the process the
database elects sends each due reminder and the daily role's ping
(:mod:`bot.services.reminders` decides what and when, and claims each before sending).
Each message may ping only those it is for: its allowed_mentions name them."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import WordleBot
from bot.i18n import _, use_locale
from bot.services.daily import shown_number
from bot.services.reminders import DEFAULT_TIME
from bot.storage.reminders import DailyRole, Reminder
from cogs.common import in_servers, post_in_channel
from cogs.replies import perform

log = logging.getLogger("wordlebot.reminders")


class Reminders(commands.Cog):
    remind = in_servers(app_commands.Group(
        name="remind", description="A reminder when you have not played the daily", guild_only=True
    ))  # fmt: skip

    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """In a server only (Discord hides the commands elsewhere; a user install could
        still reach them): the reminders are a server's."""
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def cog_load(self) -> None:
        self.bot.leader_jobs.append(self.send_due)

    async def cog_unload(self) -> None:
        self.bot.leader_jobs.remove(self.send_due)

    @remind.command(name="on", description="Remind me here if I have not played the daily")
    @app_commands.describe(time=f"HH:MM, 24-hour, server time (default {DEFAULT_TIME})")
    async def on(self, interaction: discord.Interaction[Any], time: str = DEFAULT_TIME) -> None:
        await perform(interaction, "remind on", time=time)

    @remind.command(name="off", description="No more reminders in this server")
    async def off(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "remind off")

    @in_servers
    @app_commands.command(name="missing", description="Who asked for reminders and has not "
                                                      "played today's daily")  # fmt: skip
    @app_commands.guild_only()
    async def missing(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "missing")

    # -- the job -----------------------------------------------------------------------

    async def send_due(self) -> None:
        await self.bot.services.reminders.run_due(self.send_reminder, self.ping_role)

    async def send_reminder(self, reminder: Reminder, day: date) -> None:
        """The player's reminder, pinging that player only, in the server's language."""
        with use_locale(await self.bot.server_locale(reminder.guild_id)):
            await self._remind(reminder, day)

    async def _remind(self, reminder: Reminder, day: date) -> None:
        await self._post(
            reminder.guild_id, reminder.channel_id,
            f"<@{reminder.player_id}> "
            + _("Wordle #{number} is waiting for you: /wordle daily (/remind off stops these "
                "reminders)").format(number=shown_number(day)),
            discord.AllowedMentions(users=[discord.Object(reminder.player_id)], roles=False,
                                    everyone=False, replied_user=False),
        )  # fmt: skip

    async def ping_role(self, role: DailyRole, day: date) -> None:
        """The daily role's ping when the daily opens, pinging that role only, in the
        server's language."""
        with use_locale(await self.bot.server_locale(role.guild_id)):
            await self._ping(role, day)

    async def _ping(self, role: DailyRole, day: date) -> None:
        await self._post(
            role.guild_id, role.channel_id,
            f"<@&{role.role_id}> "
            + _("Wordle #{number} is open: /wordle daily").format(number=shown_number(day)),
            discord.AllowedMentions(roles=[discord.Object(role.role_id)], users=False,
                                    everyone=False, replied_user=False),
        )  # fmt: skip

    async def _post(self, guild_id: int, channel_id: int, text: str,
                    allowed: discord.AllowedMentions) -> None:  # fmt: skip
        """Send; Discord's refusals become what the service understands."""
        await post_in_channel(self.bot, guild_id, channel_id, text, allowed_mentions=allowed)


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(Reminders(bot))
