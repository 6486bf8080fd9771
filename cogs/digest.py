"""The daily digest in Discord: admins choose its channel and the winner's role
(:mod:`bot.commands.digest`); the process the database elects posts each server's digest when
it is due (:mod:`bot.services.digest` decides what and when, and claims each day before it is
sent), then moves the winner's role (:mod:`bot.services.winner_role`) through this cog."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import ChannelId, RoleId
from bot.discord_bot import WordleBot
from bot.i18n import N_, _, use_locale
from bot.render.alt_text import digest_alt_text
from bot.render.images import digest_png
from bot.render.text import MESSAGE_LIMIT, digest_text
from bot.services.digest import Digest, post_nonce
from bot.services.request_budget import Priority, requests_as
from bot.services.winner_role import MemberGone, RoleRefused
from bot.storage.digests import DigestChannel
from cogs.common import in_servers, mention, post_in_channel
from cogs.replies import perform

log = logging.getLogger("wordlebot.digest")
UNKNOWN_ROLE = 10011  # Discord's JSON error code


def role_problem(me: discord.Member, role: discord.Role) -> str | None:
    """Why the bot (``me``) cannot give ``role``, as Discord decides: a key of
    :data:`bot.services.winner_role.PROBLEMS`, or None."""
    if role.is_default():
        return "everyone"
    if role.managed:
        return "managed"
    if not me.guild_permissions.manage_roles:
        return "manage_roles"
    if role >= me.top_role:
        return "above"
    return None


def chooser_problem(member: discord.Member | discord.User, role: discord.Role) -> str | None:
    """Why ``member`` may not make ``role`` the winner's role: "yours" unless they could give
    it by hand, as Discord lets a member give a role (Manage Roles in the server, from their
    roles, not a channel's overwrites, where that bit means Manage Permissions; and below
    their own highest role; the server's owner any). The bot gives no more than who chose
    it could: else a member with Manage Server alone could name a moderator's role the
    winner's role, and win it."""
    if not isinstance(member, discord.Member):  # no member of a server: nothing to give
        return "yours"
    if member.guild.owner_id == member.id:
        return None
    # @everyone (what discord.py's default_role returns, typed as never None) is missing when
    # the server's roles are not known here (a server command comes to the process holding
    # it: never, in practice)
    if member.guild.get_role(member.guild.id) is None:
        return "yours"
    allowed = member.guild_permissions
    if not (allowed.manage_roles or allowed.administrator):
        return "yours"
    return "yours" if role >= member.top_role else None


def choice_problem(interaction: discord.Interaction[Any], role: discord.Role) -> str | None:
    """Why ``role`` cannot be the winner's role, chosen by who runs ``interaction``: what
    they may give first, then what the bot may."""
    problem = chooser_problem(interaction.user, role)
    if problem is not None:
        return problem
    guild = interaction.guild
    if isinstance(guild, discord.Guild) and guild.me is not None:
        return role_problem(guild.me, role)
    if not interaction.app_permissions.manage_roles:
        return "manage_roles"  # the server is not in this process's cache
    return None


class DiscordRoles:
    """The winner's role in Discord (:class:`bot.services.winner_role.RoleDoor`): what the
    digest, /digest off and /mydata delete change, by Discord's HTTP API (any server,
    whichever process holds its gateway). ``taking``: why it takes the role back, in the
    server's audit log (marked for the catalogs)."""

    def __init__(
        self, bot: WordleBot, taking: str = N_("A new day's winners (daily digest)")
    ) -> None:
        self.bot = bot
        self.taking = taking

    async def problem(self, guild_id: int, role_id: int) -> str | None:
        """Checked before each digest's changes: permissions and roles move meanwhile."""
        guild = self.bot.get_guild(guild_id)
        if guild is None or guild.me is None:
            return None  # another process's server: Discord's answer will say
        role = guild.get_role(role_id)
        return "unknown" if role is None else role_problem(guild.me, role)

    async def give(self, guild_id: int, player_id: int, role_id: int) -> None:
        try:
            reason = _("The day's winner (daily digest)")
            await self.bot.http.add_role(guild_id, player_id, role_id, reason=reason)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_ROLE:
                raise RoleRefused("unknown") from None
            raise MemberGone from None
        except discord.Forbidden:
            raise RoleRefused("refused") from None

    async def take(self, guild_id: int, player_id: int, role_id: int) -> None:
        try:
            reason = _(self.taking)
            await self.bot.http.remove_role(guild_id, player_id, role_id, reason=reason)
        except discord.NotFound:  # the member left, or the role is gone: nothing to take
            raise MemberGone from None
        except discord.Forbidden:
            raise RoleRefused("refused") from None


@in_servers
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class DigestCommands(
    commands.GroupCog, group_name="digest", group_description="Yesterday's results, each day"
):
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot
        self.roles = DiscordRoles(bot)
        self.stopping = DiscordRoles(bot, N_("The daily digest stopped giving this role"))

    async def cog_load(self) -> None:
        self.bot.jobs.append(self.post_due)  # every process: its servers first, then any

    async def cog_unload(self) -> None:
        self.bot.jobs.remove(self.post_due)

    @app_commands.command(name="channel", description="Post the daily digest in a channel")
    @app_commands.describe(channel="Where the digest goes (default: this channel)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def channel(self, interaction: discord.Interaction[Any],
                      channel: discord.TextChannel | None = None) -> None:  # fmt: skip
        await perform(interaction, "digest channel",
                      channel=None if channel is None else ChannelId(channel.id))  # fmt: skip

    @app_commands.command(name="off", description="Stop posting the daily digest")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def off(self, interaction: discord.Interaction[Any]) -> None:
        await perform(interaction, "digest off", door=self.stopping)

    @app_commands.command(name="role", description="A role for each day's winners (none: stop)")
    @app_commands.describe(role="Given to the day's winners, taken back at the next digest")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction[Any],
                   role: discord.Role | None = None) -> None:  # fmt: skip
        problem = None if role is None else choice_problem(interaction, role)
        chosen = None if role is None else RoleId(role.id)
        await perform(interaction, "digest role", role=chosen, role_problem=problem,
                      door=self.stopping)  # fmt: skip

    # -- the job -----------------------------------------------------------------------

    async def post_due(self) -> None:
        with requests_as(Priority.DAY):  # the posts first in the budget (then the roles)
            await self.bot.services.digests.run_due(self.post, self.warn, door=self.roles,
                                                    say=self.say, mine=self.bot.holds)  # fmt: skip

    async def post(self, channel: DigestChannel, digest: Digest) -> int:
        """Send one digest, in the server's language; Discord's refusals become what the
        service understands."""
        with use_locale(await self.bot.server_locale(channel.guild_id)):
            return await self._post(channel, digest)

    async def _post(self, channel: DigestChannel, digest: Digest) -> int:
        text = digest_text(digest, name=mention)
        files = []
        if digest.games:  # a podium alone has no grids
            png = await asyncio.to_thread(digest_png, digest)
            files.append(discord.File(io.BytesIO(png), filename="digest.png",
                                      description=digest_alt_text(digest)))  # fmt: skip
        if len(text) > MESSAGE_LIMIT:  # a big server: the start in the message, all attached
            files.append(discord.File(io.BytesIO(text.encode()), filename="digest.txt"))
            start = text[: MESSAGE_LIMIT - 40].rsplit("\n", 1)[0]
            text = start + "\n" + _("(the whole digest is attached)")
        # discord.py sends a nonce with enforce_nonce: Discord then returns the message a try
        # before made (a stopped process's, an unanswered one's) instead of a second one.
        message = await post_in_channel(
            self.bot, channel.guild_id, channel.channel_id, text, files=files,
            allowed_mentions=discord.AllowedMentions.none(),
            nonce=post_nonce(digest.guild_id, digest.day),
        )  # fmt: skip
        return message.id

    async def warn(self, channel: DigestChannel, text: str) -> None:
        """Tell the admin who chose the channel, in a direct message."""
        if channel.admin_id is None:
            return
        try:
            user = await self.bot.fetch_user(channel.admin_id)
            with use_locale(await self.bot.server_locale(channel.guild_id)):
                said = _("{warning} (server {server})").format(
                    warning=text, server=channel.guild_id
                )
            await user.send(said)
        except discord.HTTPException:
            log.warning("could not tell the admin of guild %s that the digest is off",
                        channel.guild_id)  # fmt: skip

    async def say(self, channel: DigestChannel, text: str) -> None:
        """A problem with the winner's role, in the digest's channel."""
        try:
            await post_in_channel(self.bot, channel.guild_id, channel.channel_id, text,
                                  allowed_mentions=discord.AllowedMentions.none())  # fmt: skip
        except Exception:
            log.warning("could not tell guild %s about its winner's role", channel.guild_id)


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(DigestCommands(bot))
