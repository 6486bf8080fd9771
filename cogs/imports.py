"""/import in Discord: an admin has a share channel's history read and counted
(:mod:`bot.commands.imports` checks and claims it, :mod:`bot.services.imports` walks it).

Here is the Discord side: a page of history (``GET /channels/{id}/messages``, 100 messages a
request; discord.py waits out Discord's rate limits), each message counted by the share
channels' own function (:func:`cogs.analysis.count_post`), and the progress in one channel
message the bot posts where /import was used, edited as it goes (an interaction's token
lasts 15 minutes, an import may last longer; the message's id is kept with the checkpoint,
so a process that takes an import over edits the same message). An import left running by
a process that stopped is taken over by the process that runs the background jobs once its
lease has run out (:data:`bot.services.imports.LEASE`), or by the admin's next /import.

Reading history needs View Channel and Read Message History in the channel, and the
message-content intent (privileged) to see what members posted.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import ChannelId
from bot.discord_bot import WordleBot, answer
from bot.i18n import N_, _, use_locale
from bot.services.imports import LEASE, PAGE, HistoryClosed, ImportRun, Page, stamp
from bot.storage.imports import Checkpoint
from cogs.analysis import count_post
from cogs.common import in_servers, in_time
from cogs.replies import command_work, send_reply

log = logging.getLogger("wordlebot.imports")
HISTORY_PERMISSIONS = ("view_channel", "read_message_history")  # what reading history needs

UNSEEN = N_(
    "The bot may not post in this channel (it needs View Channel and Send Messages), so the "
    "import's progress will not show here. It runs all the same: /import again says how far "
    "it got."
)


class Imports(commands.Cog):
    def __init__(self, bot: WordleBot) -> None:
        self.bot = bot
        # This process, as the checkpoints name their owner.
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.walks: dict[tuple[int, int], asyncio.Task[None]] = {}

    async def cog_load(self) -> None:
        self.bot.leader_jobs.append(self.take_over_stale)

    async def cog_unload(self) -> None:
        """At a clean stop (before the database closes): the walks stop where their
        checkpoint is, and are let go, so the next process carries them on at once."""
        self.bot.leader_jobs.remove(self.take_over_stale)
        walks = list(self.walks.values())
        for walk in walks:
            walk.cancel()
        await asyncio.gather(*walks, return_exceptions=True)
        if walks:
            try:
                await self.bot.services.storage.imports.release(self.owner)
            except Exception:  # the lease lets them go within a minute anyway
                log.warning("could not let go of the running imports", exc_info=True)

    @in_servers
    @app_commands.command(
        name="import", description="Count the shares in a share channel's past messages"
    )
    @app_commands.describe(
        since="The first day to read, YYYY-MM-DD (a year back at most)",
        channel="A share channel (default: this one)",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def import_history(self, interaction: discord.Interaction[Any],
                             since: app_commands.Range[str, 1, 40],
                             channel: discord.TextChannel | None = None) -> None:  # fmt: skip
        reads_posts = self.bot.settings.message_content_intent
        target = interaction.channel_id if channel is None else channel.id
        missing = [] if target is None else unreadable(interaction, target)
        work = command_work(interaction, "import", since=since,
                            channel=None if channel is None else ChannelId(channel.id),
                            owner=self.owner, reads_posts=reads_posts,
                            missing=missing)  # fmt: skip
        reply = await in_time(interaction, work)
        await send_reply(interaction, reply)
        checkpoint = reply.extra.get("import")
        if checkpoint is not None:
            where = checkpoint.progress_channel_id or interaction.channel_id
            may = interaction.app_permissions
            if where == interaction.channel_id and not (may.view_channel and may.send_messages):
                await answer(interaction, _(UNSEEN), private=True)  # else it would show nothing
                where = None  # and no post for Discord to refuse
            self.start(checkpoint, where)

    # -- the walk ----------------------------------------------------------------------

    def start(self, checkpoint: Checkpoint, where: int | None) -> None:
        key = (checkpoint.guild_id, checkpoint.channel_id)
        if key in self.walks and not self.walks[key].done():
            return
        self.walks[key] = asyncio.create_task(self.walk(checkpoint, where),
                                              name=f"import-{checkpoint.channel_id}")  # fmt: skip

    async def walk(self, checkpoint: Checkpoint, where: int | None) -> None:
        services = self.bot.services
        progress = Progress(self.bot, checkpoint, where, self.owner)
        run = ImportRun(
            services.storage, checkpoint, self.owner, services.daily.clock, services.daily.zone,
            fetch=lambda after: self.page(checkpoint, after),
            count=lambda message: self.count(checkpoint, message), show=progress.show,
        )  # fmt: skip
        try:
            with use_locale(await self.bot.server_locale(checkpoint.guild_id)):
                outcome = await run.run()
            log.info("import of channel %s: %s", checkpoint.channel_id, outcome)
        except asyncio.CancelledError:
            raise
        except Exception:  # left running: taken over once its lease runs out
            log.exception("an import stopped; it carries on later")
        finally:
            self.walks.pop((checkpoint.guild_id, checkpoint.channel_id), None)

    async def page(self, checkpoint: Checkpoint, after: int) -> Page:
        """The next messages after ``after``, oldest first: one request."""
        where = (checkpoint.channel_id, checkpoint.guild_id)
        channel = self.bot.get_channel(where[0]) or self.bot.get_partial_messageable(
            where[0], guild_id=where[1]
        )
        if not isinstance(channel, discord.abc.Messageable):
            raise HistoryClosed(_("{channel} holds no messages to read.")
                                .format(channel=f"<#{checkpoint.channel_id}>"))  # fmt: skip
        try:
            messages = [m async for m in channel.history(
                limit=PAGE, after=discord.Object(after), oldest_first=True)]  # fmt: skip
        except discord.NotFound:
            raise gone(checkpoint) from None
        except discord.Forbidden:
            raise closed(checkpoint) from None
        if not messages and not await self.may_read(checkpoint):
            raise closed(checkpoint)
        return sorted(((m.id, m) for m in messages), key=lambda pair: pair[0])

    async def may_read(self, checkpoint: Checkpoint) -> bool:
        """Whether the bot may still read the channel's history. An empty page is its end, or
        Read Message History taken away during the walk: Discord then serves the history as
        empty (200), not as an error. The channel is read fresh from Discord (its overwrites
        now; the roles as the gateway keeps them)."""
        try:
            channel = await self.bot.fetch_channel(checkpoint.channel_id)
        except discord.NotFound:
            raise gone(checkpoint) from None
        except discord.Forbidden:
            return False
        if not isinstance(channel, discord.abc.GuildChannel) or channel.guild.me is None:
            return True  # nothing to check against: the empty page is the end
        allowed = channel.permissions_for(channel.guild.me)
        return all(getattr(allowed, name) for name in HISTORY_PERMISSIONS)

    async def count(self, checkpoint: Checkpoint, message: discord.Message) -> Sequence[str] | None:
        done = await count_post(self.bot, message, checkpoint.guild_id)
        return None if done is None else done.outcomes

    # -- the background job ------------------------------------------------------------

    async def take_over_stale(self) -> None:
        """Carry on the imports whose process stopped (killed, restarted): the process the
        deployment elects takes each over once its lease has run out."""
        services = self.bot.services
        imports = services.storage.imports
        now = services.daily.clock()
        for stale in await imports.stale(stamp(now - LEASE)):
            if (stale.guild_id, stale.channel_id) in self.walks:
                continue
            claimed, checkpoint = await imports.claim(
                stale.guild_id, stale.channel_id, since=stale.since, by=stale.started_by,
                owner=self.owner, now=stamp(now), stale_before=stamp(now - LEASE),
            )  # fmt: skip
            if claimed == "resumed" and checkpoint is not None:
                log.info("carrying on the import of channel %s", checkpoint.channel_id)
                self.start(checkpoint, checkpoint.progress_channel_id)


def gone(checkpoint: Checkpoint) -> HistoryClosed:
    """The end of a walk whose channel was deleted."""
    text = _("{channel} is gone: the import ends there.")
    return HistoryClosed(text.format(channel=f"<#{checkpoint.channel_id}>"))


def closed(checkpoint: Checkpoint) -> HistoryClosed:
    """The end of a walk the bot may not read on (View Channel or Read Message History)."""
    return HistoryClosed(_(
        "The bot may not read {channel}'s history: it needs View Channel and Read "
        "Message History there. The import ends; run /import again once it may."
    ).format(channel=f"<#{checkpoint.channel_id}>"))  # fmt: skip


def unreadable(interaction: discord.Interaction[Any], channel_id: int) -> list[str]:
    """What the bot lacks to read ``channel_id``'s history, of View Channel and Read Message
    History (discord.py's names): without the first Discord refuses the read (403), without
    the second it answers with no messages, as for a channel without a past. Known from the
    interaction where it was used, else from the server as the gateway told it (not known:
    nothing said missing; the walk still ends on a refusal)."""
    if channel_id == interaction.channel_id:
        allowed = interaction.app_permissions
    else:
        guild = interaction.guild
        channel = guild.get_channel(channel_id) if guild is not None else None
        if guild is None or channel is None or guild.me is None:
            return []
        allowed = channel.permissions_for(guild.me)
    return [name for name in HISTORY_PERMISSIONS if not getattr(allowed, name)]


class Progress:
    """The one message that shows an import's progress: posted once in ``where`` (its id
    kept with the checkpoint), then edited; posted again if it was deleted."""

    def __init__(self, bot: WordleBot, checkpoint: Checkpoint, where: int | None,
                 owner: str) -> None:  # fmt: skip
        self.bot, self.checkpoint, self.where, self.owner = bot, checkpoint, where, owner
        self.message_id = checkpoint.progress_message_id

    async def show(self, text: str) -> None:
        cp = self.checkpoint
        if self.where is None:
            return
        target = self.bot.get_partial_messageable(self.where, guild_id=cp.guild_id)
        try:
            if self.message_id is not None:
                try:
                    await target.get_partial_message(self.message_id).edit(content=text)
                    return
                except discord.NotFound:
                    self.message_id = None
            posted = await target.send(text)
        except discord.HTTPException as exc:  # no place to show it: the import goes on
            log.info("an import's progress could not be shown: %s", exc)
            return
        self.message_id = posted.id
        await self.bot.services.storage.imports.shown_in(cp.guild_id, cp.channel_id, self.owner,
                                                         self.where, posted.id)  # fmt: skip


async def setup(bot: WordleBot) -> None:
    await bot.add_cog(Imports(bot))
