"""Server settings for admins, each player's own data, and the owner's command sync. What
each slash command does is in :mod:`bot.commands.admin`; the permission checks Discord makes
stay here (the commands check the same themselves)."""

from __future__ import annotations

import io
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import COMMANDS, ChannelId, RoleId
from bot.commands.admin import INTERFACE
from bot.discord_bot import WordleBot, answer
from bot.i18n import N_, _
from bot.render.text import MESSAGE_LIMIT
from bot.services.kinds import native_name
from cogs.common import anywhere, bot_of, in_servers, in_time
from cogs.digest import DiscordRoles
from cogs.games import LANGUAGES as WORD_LANGUAGES
from cogs.games import Length
from cogs.replies import caller_of, command_work, perform, send_reply

log = logging.getLogger(__name__)

INTERFACE_CHOICES = [
    app_commands.Choice(name="Auto" if code == "auto" else
                        native_name(code.split("-")[0]), value=code)
    for code in INTERFACE
]  # fmt: skip

# Where the bot may not attach files (a server that never installed it), a long export cannot
# come as a file, nor whole in one message.
NO_FILES_HERE = N_(
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

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """A server the bot leaves (or is removed from, or that is deleted) keeps no page."""
        await self.bot.services.web.turn_off(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Nor does one that removed the bot while it was offline. READY lists every server
        of this process's shards, those in an outage too (as unavailable): a page of one of
        its shards' servers that is not listed goes."""
        count = self.bot.shard_count or 1
        shards = set(getattr(self.bot, "shard_ids", None) or range(count))  # a sharded bot's
        gone = await self.bot.services.web.keep_only(
            {g.id for g in self.bot.guilds}, lambda guild_id: (guild_id >> 22) % count in shards
        )
        if gone:
            log.info("web pages of %d servers the bot left while offline removed", len(gone))

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
                                         "(default 30)",
                           language="This server's Wordle words, and the digest's language",
                           length="This server's Wordle length (default 5)",
                           achievements="Announce players' achievements in the channel, or "
                                        "tell each player privately (default)",
                           web="A web page of this server's boards: on, a new link, or off",
                           web_index="Let search engines index the web page "
                                     "(default: no)")  # fmt: skip
    @app_commands.choices(language=WORD_LANGUAGES)
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
        language: str | None = None, length: Length | None = None,
        achievements: Literal["private", "public"] | None = None,
        web: Literal["on", "new-link", "off"] | None = None, web_index: bool | None = None,
    ) -> None:  # fmt: skip
        await perform(
            interaction, "settings server", timezone=timezone, hints_in_daily=hints_in_daily,
            season_days=season_days, fail_score=fail_score,
            daily_role=None if daily_role is None else RoleId(daily_role.id),
            daily_role_channel=None if daily_role_channel is None
            else ChannelId(daily_role_channel.id),
            daily_role_off=daily_role_off, coop_cooldown=coop_cooldown,
            role_pings=daily_role is None or daily_role.mentionable
            or interaction.app_permissions.mention_everyone, language=language, length=length,
            achievements=achievements, web=web, web_index=web_index,
        )  # fmt: skip

    @settings.command(name="me", description="Your own settings, wherever you play")
    @app_commands.describe(colours="Your boards, images and shares: green/yellow, or high-contrast "
                                   "orange/blue",
                           language="The bot's language for you (auto: Discord's)",
                           web_name="Your name on servers' web pages (off: an anonymous "
                                    "label)")  # fmt: skip
    @app_commands.choices(language=INTERFACE_CHOICES)
    async def my_settings(
        self, interaction: discord.Interaction[Any],
        colours: Literal["standard", "high-contrast"] | None = None, language: str | None = None,
        web_name: Literal["on", "off"] | None = None,
    ) -> None:  # fmt: skip
        work = command_work(interaction, "settings me", colours=colours, language=language,
                            web_name=web_name)  # fmt: skip
        reply = await in_time(interaction, work)
        known = getattr(interaction.client, "locales", None)
        if language is not None and isinstance(known, dict):  # this process follows at once
            known.pop(interaction.user.id, None)
        await send_reply(interaction, reply)

    @in_servers
    @app_commands.command(name="resetboard", description="Clear this server's leaderboard")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset_board(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "resetboard")

    @data.command(name="export", description="Everything the bot stores about you, as JSON")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        """A file where the bot may attach one, else inline if it fits one message."""
        services = bot_of(interaction).services
        reply = await in_time(interaction, COMMANDS["mydata export"].run(
            services, caller_of(interaction)))  # fmt: skip
        filename, text = reply.extra["document"]
        if interaction.app_permissions.attach_files:
            file = discord.File(io.BytesIO(text.encode()), filename=filename)
            await answer(interaction, reply.text, private=True, files=[file])
        else:
            inline = f"{reply.text}\n```json\n{text}\n```"
            await answer(interaction, inline if len(inline) <= MESSAGE_LIMIT else _(NO_FILES_HERE),
                         private=True)  # fmt: skip

    @data.command(name="delete", description="Delete everything the bot stores about you")
    @app_commands.describe(confirm="Type DELETE to confirm")
    async def delete(self, interaction: discord.Interaction[Any], confirm: str) -> None:
        """The winner's roles the bot gave them are taken back at once (their records go)."""
        door = DiscordRoles(self.bot, N_("The member deleted their data (/mydata delete)"))
        await perform(interaction, "mydata delete", confirm=confirm, door=door)

    @data.command(name="unshare", description="Remove a result you recorded from a share")
    @app_commands.describe(game="The game its share named, e.g. wordle",
                           puzzle="The puzzle number in the share")  # fmt: skip
    async def unshare(self, interaction: discord.Interaction[Any], game: str, puzzle: int) -> None:
        await perform(interaction, "mydata unshare", game=game, puzzle=puzzle)

    @commands.command(name="sync", hidden=True)
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[Any]) -> None:
        """Owner only (mention the bot: @bot sync): publish slash commands everywhere."""
        synced = await self.bot.tree.sync()
        await ctx.reply(f"Synced {len(synced)} commands globally.")


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(Admin(bot))
