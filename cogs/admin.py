"""Server settings for admins, each player's own data, and the owner's command sync."""

from __future__ import annotations

import dataclasses
import io
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot import WordleBot, answer
from bot.render.palette import palette_named
from bot.render.text import squares_of
from bot.services import deletion, shares
from cogs.common import anywhere, bot_of, in_servers, refuse
from cogs.reminders import daily_role_setting

# Where the bot may not attach files (a server that never installed it), a long export cannot
# come as a file, nor whole in one message.
NO_FILES_HERE = (
    "The bot cannot attach files here, and your data is too long for one message: "
    "use /mydata export in a direct message with the bot"
)


async def in_a_server(interaction: discord.Interaction[Any]) -> bool:
    """A server's settings are made in that server (the check Discord cannot make for a
    subcommand of a command offered everywhere)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


class Admin(commands.Cog):
    data = anywhere(
        app_commands.Group(name="mydata", description="Your data: download it or delete it")
    )
    # Offered everywhere for /settings me; /settings server checks its place and permission.
    # (No default permission: Discord would hide /settings me from everyone else too.)
    settings = anywhere(
        app_commands.Group(name="settings", description="Your own settings, or this server's")
    )

    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.leader_jobs.append(self.purge_marks)

    async def cog_unload(self) -> None:
        self.bot.leader_jobs.remove(self.purge_marks)

    async def purge_marks(self) -> None:
        """The marks deletions left for a day that has ended go (bot/services/deletion.py)."""
        await self.bot.services.games.purge_marks()

    @settings.command(name="server", description="This server's settings (Manage Server)")
    @app_commands.describe(timezone="This server's time zone, e.g. Europe/Paris (its digest "
                                    "comes after its midnight; the daily changes at one time "
                                    "for everyone)",
                           hints_in_daily="Allow /hint during daily games",
                           season_days="Length of a leaderboard season in days (default 28)",
                           fail_score="What a lost game counts as on the average board "
                                      "(default 7)",
                           daily_role="A role pinged once a day when the daily opens",
                           daily_role_channel="Where the daily role is pinged (default: here)",
                           daily_role_off="Stop pinging the daily role",
                           coop_cooldown="Seconds each player waits between co-op guesses "
                                         "(default 30)")  # fmt: skip
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.check(in_a_server)
    async def server_settings(
        self, interaction: discord.Interaction[Any], timezone: str | None = None,
        hints_in_daily: bool | None = None,
        season_days: app_commands.Range[int, 1, 366] | None = None,
        fail_score: app_commands.Range[int, 1, 20] | None = None,
        daily_role: discord.Role | None = None,
        daily_role_channel: discord.TextChannel | None = None, daily_role_off: bool = False,
        coop_cooldown: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:  # fmt: skip
        storage = bot_of(interaction).services.storage
        assert interaction.guild_id is not None
        current = await storage.guild_settings(interaction.guild_id)
        if timezone is not None:
            try:
                ZoneInfo(timezone)
            except (ZoneInfoNotFoundError, ValueError):
                return await refuse(interaction, f"Unknown time zone {timezone[:40]!r}: "
                                                 "use a name like Europe/Paris")  # fmt: skip
        role_note = await daily_role_setting(interaction, daily_role, daily_role_channel,
                                             daily_role_off)  # fmt: skip
        if role_note is None:
            return
        changes = {"timezone": timezone, "hints_in_daily": hints_in_daily,
                   "season_days": season_days, "fail_score": fail_score}  # fmt: skip
        updated = dataclasses.replace(
            current, **{k: v for k, v in changes.items() if v is not None}
        )
        await storage.save_guild_settings(updated)
        coop = bot_of(interaction).services.coop
        if coop_cooldown is not None:
            await coop.set_cooldown(interaction.guild_id, coop_cooldown)
        cooldown = await coop.cooldown(interaction.guild_id)
        zone = bot_of(interaction).services.daily.zone
        await interaction.response.send_message(
            f"Server time zone: {updated.timezone or 'not set'}. The daily changes at midnight "
            f"{zone.key} for everyone, so nobody can learn an answer before others can play it. "
            f"Hints in daily games: {'on' if updated.hints_in_daily else 'off'}. Seasons of "
            f"{updated.season_days} days (a new length counts from the next result). A lost "
            f"game counts as {updated.fail_score} on the average board. Co-op: one guess every "
            f"{cooldown} s per player.{role_note}",
            ephemeral=True,
        )

    @settings.command(name="me", description="Your own settings, wherever you play")
    @app_commands.describe(colours="Your boards, images and shares: green/yellow, or high-contrast "
                                   "orange/blue")  # fmt: skip
    async def my_settings(
        self, interaction: discord.Interaction[Any],
        colours: Literal["standard", "high-contrast"] | None = None,
    ) -> None:  # fmt: skip
        storage = bot_of(interaction).services.storage
        if colours is not None:
            await storage.set_palette(interaction.user.id, interaction.user.display_name, colours)
        palette = palette_named(colours or await storage.palette(interaction.user.id))
        named = ("orange: right place, blue: elsewhere" if palette.high_contrast
                 else "green: right place, yellow: elsewhere")  # fmt: skip
        await interaction.response.send_message(
            f"Your colours: {palette.name} {squares_of('210', palette)} ({named}). Your boards, "
            "their images and your shares use them; /settings me colours changes them.",
            ephemeral=True,
        )

    @in_servers
    @app_commands.command(name="resetboard", description="Clear this server's leaderboard")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset_board(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        removed = await bot_of(interaction).services.reset_guild_board(interaction.guild_id)
        await interaction.response.send_message(
            f"Leaderboard cleared ({removed} entries). Players keep their own stats.",
            ephemeral=True,
        )

    @data.command(name="export", description="Everything the bot stores about you, as JSON")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        text = await bot_of(interaction).services.export_player(interaction.user.id)
        if interaction.app_permissions.attach_files:
            file = discord.File(io.BytesIO(text.encode()), filename="wordlebot.json")
            return await answer(interaction, "Your data:", private=True, files=[file])
        inline = f"Your data:\n```json\n{text}\n```"
        await answer(interaction, inline if len(inline) <= 2000 else NO_FILES_HERE, private=True)

    @data.command(name="delete", description="Delete everything the bot stores about you")
    @app_commands.describe(confirm="Type DELETE to confirm")
    async def delete(self, interaction: discord.Interaction[Any], confirm: str) -> None:
        if confirm != deletion.CONFIRM:
            return await refuse(interaction, deletion.NOT_CONFIRMED)
        deleted = await bot_of(interaction).services.delete_player(interaction.user.id)
        await interaction.response.send_message(
            deletion.DELETED if deleted else deletion.NOTHING, ephemeral=True
        )

    @data.command(name="unshare", description="Remove a result you recorded from a share")
    @app_commands.describe(game="The game its share named, e.g. wordle",
                           puzzle="The puzzle number in the share")  # fmt: skip
    async def unshare(self, interaction: discord.Interaction[Any], game: str, puzzle: int) -> None:
        storage = bot_of(interaction).services.storage
        said = await shares.unshare(storage, interaction.user.id, game, puzzle)
        await answer(interaction, said, private=True)

    @commands.command(name="sync", hidden=True)
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[Any]) -> None:
        """Owner only (mention the bot: @bot sync): publish slash commands everywhere."""
        synced = await self.bot.tree.sync()
        await ctx.reply(f"Synced {len(synced)} commands globally.")


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(Admin(bot))
