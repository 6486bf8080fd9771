"""Reminders in Discord: players opt in (/remind on, /remind off), /missing lists who has not
played today; the process the database elects sends each due reminder and the daily role's
ping (:mod:`bot.services.reminders` decides what and when, and claims each before sending).
Each message may ping only those it is for: its allowed_mentions name them."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import WordleBot
from bot.services.daily import DailyPuzzles
from bot.services.reminders import (
    DEFAULT_TIME,
    BadTime,
    clock_time,
    parse_time,
)
from bot.storage.reminders import DailyRole, Reminder
from cogs.common import bot_of, in_servers, player_of, post_in_channel, refuse

log = logging.getLogger("wordlebot.reminders")
LIMIT = 2000  # characters in one Discord message


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
        assert interaction.guild_id is not None
        try:
            minute = parse_time(time[:20])
        except BadTime as exc:
            return await refuse(interaction, str(exc))
        if interaction.channel_id is None:
            return await refuse(interaction, "Use /remind on in the channel to be reminded in.")
        zone, today_too = await bot_of(interaction).services.reminders.remind(
            player_of(interaction), interaction.guild_id, interaction.channel_id, minute
        )
        await interaction.response.send_message(
            f"I will mention you here at {clock_time(minute)} ({zone.key}) on days you have "
            f"not played the Wordle daily by then, from {'today' if today_too else 'tomorrow'}. "
            "/remind off stops it.",
            ephemeral=True,
        )

    @remind.command(name="off", description="No more reminders in this server")
    async def off(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        stopped = await bot_of(interaction).services.reminders.stop(
            interaction.user.id, interaction.guild_id
        )
        await interaction.response.send_message(
            "Reminders are off." if stopped else "You had no reminder here.", ephemeral=True
        )

    @in_servers
    @app_commands.command(name="missing", description="Who asked for reminders and has not "
                                                      "played today's daily")  # fmt: skip
    @app_commands.guild_only()
    async def missing(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        services = bot_of(interaction).services
        players = await services.reminders.missing(interaction.guild_id)
        number = DailyPuzzles.number(services.daily.today())
        if not players:
            text = f"Everyone here with a reminder (/remind on) has played Wordle #{number}."
        else:
            text = f"Not played Wordle #{number} yet: " + ", ".join(
                f"<@{p.player_id}>" for p in players
            )
            if len(text) > LIMIT:
                text = text[: LIMIT - 20].rsplit(",", 1)[0] + ", and more"
        # Shown as names; nobody is pinged.
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )

    # -- the job -----------------------------------------------------------------------

    async def send_due(self) -> None:
        await self.bot.services.reminders.run_due(self.send_reminder, self.ping_role)

    async def send_reminder(self, reminder: Reminder, day: date) -> None:
        """The player's reminder, pinging that player only."""
        await self._post(
            reminder.guild_id, reminder.channel_id,
            f"<@{reminder.player_id}> Wordle #{DailyPuzzles.number(day)} is waiting for you: "
            "/wordle daily (/remind off stops these reminders)",
            discord.AllowedMentions(users=[discord.Object(reminder.player_id)], roles=False,
                                    everyone=False, replied_user=False),
        )  # fmt: skip

    async def ping_role(self, role: DailyRole, day: date) -> None:
        """The daily role's ping when the daily opens, pinging that role only."""
        await self._post(
            role.guild_id, role.channel_id,
            f"<@&{role.role_id}> Wordle #{DailyPuzzles.number(day)} is open: /wordle daily",
            discord.AllowedMentions(roles=[discord.Object(role.role_id)], users=False,
                                    everyone=False, replied_user=False),
        )  # fmt: skip

    async def _post(self, guild_id: int, channel_id: int, text: str,
                    allowed: discord.AllowedMentions) -> None:  # fmt: skip
        """Send; Discord's refusals become what the service understands."""
        await post_in_channel(self.bot, guild_id, channel_id, text, allowed_mentions=allowed)


async def daily_role_setting(
    interaction: discord.Interaction[Any], role: discord.Role | None,
    channel: discord.TextChannel | None, off: bool,
) -> str | None:  # fmt: skip
    """/settings daily_role [daily_role_channel] and daily_role_off (the settings command's
    options): apply them; the sentence the settings reply ends with, or None once refused
    (nothing changed)."""
    assert interaction.guild_id is not None
    refusal = None
    if off and role is not None:
        refusal = "Choose daily_role or daily_role_off, not both."
    elif channel is not None and role is None:
        refusal = "daily_role_channel goes with a daily_role."
    elif role is not None and role.is_default():
        refusal = "@everyone cannot be the daily role: pick a role people can join."
    if refusal is not None:
        await refuse(interaction, refusal)
        return None
    reminders = bot_of(interaction).services.reminders
    if off:
        await reminders.set_daily_role(interaction.guild_id, None)
    elif role is not None:
        where = channel.id if channel is not None else interaction.channel_id
        await reminders.set_daily_role(interaction.guild_id, role.id, where)
    current = await reminders.daily_role(interaction.guild_id)
    if current is None:
        return " No daily role is pinged."
    note = (f" Daily role: <@&{current.role_id}>, pinged in <#{current.channel_id}> when each "
            f"daily opens{', from tomorrow' if role is not None else ''}.")  # fmt: skip
    if role is not None and not (role.mentionable or interaction.app_permissions.mention_everyone):
        note += (" It will not ping anyone until the role allows anyone to mention it or the "
                 "bot has Mention All Roles.")  # fmt: skip
    return note


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(Reminders(bot))
