"""The live daily board in Discord: admins choose its channel (:mod:`bot.commands.liveboard`);
each process posts and edits the boards of the games its players start and finish
(:mod:`bot.services.live_board` decides what and when)."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import ChannelId
from bot.discord_bot import WordleBot, answer
from bot.i18n import _, use_locale
from bot.render.live_board import live_board_text
from bot.services.digest import ChannelGone, NotSent
from bot.services.live_board import LiveBoard, MessageGone
from bot.services.request_budget import Priority, requests_as
from cogs.common import (
    CHANNEL_CLOSED,
    CHANNEL_DELETED,
    in_servers,
    in_time,
    mention,
    post_in_channel,
)
from cogs.replies import command_work, send_reply

log = logging.getLogger("wordlebot.live_board")
UNKNOWN_MESSAGE = 10008  # Discord's JSON error code for a message that is gone


def cannot_post(interaction: discord.Interaction[Any], channel: discord.TextChannel | None) -> bool:
    """Whether the bot surely may not post in the chosen channel: the interaction's own
    channel (Discord says what the bot may do there), or another whose permissions for the
    bot are known from the guild's cache; unknown: False (the post attempt tells)."""
    if channel is None or channel.id == interaction.channel_id:
        allowed = interaction.app_permissions
    else:
        me: discord.Member | None = channel.guild.me  # None: not cached
        if me is None:
            return False
        allowed = channel.permissions_for(me)
    return not (allowed.view_channel and allowed.send_messages)


@in_servers
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class LiveBoardCommands(
    commands.GroupCog, group_name="liveboard",
    group_description="Today's results, live, in one message",
):  # fmt: skip
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.services.live_boards.attach(self.post, self.edit, mine=self.bot.holds)

    async def cog_unload(self) -> None:
        self.bot.services.live_boards.detach()

    @app_commands.command(name="channel", description="Keep today's live board in a channel")
    @app_commands.describe(channel="Where the board goes (default: this channel)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def channel(self, interaction: discord.Interaction[Any],
                      channel: discord.TextChannel | None = None) -> None:  # fmt: skip
        chosen = None if channel is None else ChannelId(channel.id)
        reply = await in_time(interaction, command_work(interaction, "liveboard channel",
                                                        channel=chosen))  # fmt: skip
        await send_reply(interaction, reply)
        target = reply.extra.get("live")
        if target is None or interaction.guild_id is None:
            return
        # The board now, so that the admin learns at once if the bot may not post there:
        # from the permissions Discord gives, else from Discord's answer to the post.
        if cannot_post(interaction, channel):
            problem: str | None = CHANNEL_CLOSED
        else:
            try:
                problem = await self.bot.services.live_boards.show_now(interaction.guild_id)
            except discord.HTTPException:  # Discord failed otherwise: tried again in a while
                log.warning("the live board of guild %s was not shown", interaction.guild_id)
                problem = None
        if problem is not None:
            await answer(interaction, _("The live board cannot be shown in {channel}: {why}. "
                                        "Give the bot View Channel and Send Messages there; "
                                        "the board appears at the next finish.").format(
                channel=f"<#{target}>", why=_(problem)), private=True)  # fmt: skip

    @app_commands.command(name="off", description="Stop the live daily board")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def off(self, interaction: discord.Interaction[Any]) -> None:
        reply = await in_time(interaction, command_work(interaction, "liveboard off"))
        await send_reply(interaction, reply)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.bot.services.live_boards.deleted(payload.message_id)

    # -- what the service asks of Discord ----------------------------------------------

    async def _text(self, board: LiveBoard) -> str:
        with use_locale(await self.bot.server_locale(board.guild_id)):
            return live_board_text(board, name=mention)

    async def post(self, channel_id: int, board: LiveBoard) -> int:
        text = await self._text(board)
        none = discord.AllowedMentions.none()
        with requests_as(Priority.LIVE):  # last in the deployment's budget
            message = await post_in_channel(self.bot, board.guild_id, channel_id, text,
                                            allowed_mentions=none)  # fmt: skip
        return message.id

    async def edit(self, channel_id: int, message_id: int, board: LiveBoard) -> None:
        text = await self._text(board)
        target = self.bot.get_partial_messageable(channel_id, guild_id=board.guild_id)
        try:
            with requests_as(Priority.LIVE):
                await target.get_partial_message(message_id).edit(
                    content=text, allowed_mentions=discord.AllowedMentions.none()
                )
        except discord.NotFound as gone:
            if gone.code == UNKNOWN_MESSAGE:
                raise MessageGone() from None
            raise ChannelGone(CHANNEL_DELETED) from None
        except discord.Forbidden:
            raise ChannelGone(CHANNEL_CLOSED) from None
        except aiohttp.ClientConnectorError as exc:
            raise NotSent(str(exc)) from exc


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(LiveBoardCommands(bot))
