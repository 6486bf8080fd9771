"""Pasted results and coaching: /analyze, the message menu "Analyze Wordle result", /coach,
/sharechannel and the share channels' listener. What the commands do is in
:mod:`bot.commands.analysis` (the menu runs /analyze's command on the message).

The message menu works on anyone's message without the message-content intent (Discord
sends the message with the interaction). Used on one's own message, it also records the
share to one's stats. Replies are private unless the player asks to share them.
"""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import COMMANDS
from bot.discord_bot import answer
from bot.i18n import _, use_locale
from bot.services.analysis import MAX_PASTE
from bot.services.deletion import MARKS
from bot.services.shares import (
    CHANGED,
    MAX_MESSAGE,
    Moment,
    Recording,
    posting_day,
    record_app_results,
    record_shares,
)
from cogs.common import anywhere, bot_of, in_servers, refuse, think
from cogs.replies import caller_of, perform, send_reply
from engine.app_results import WORDLE_APP_ID, parse_app_results
from engine.shares import parse_shares

log = logging.getLogger(__name__)
QUERY_LIMIT = 100  # members a name query returns at most: that many, and it may miss some
QUERY_TIMEOUT = 5.0  # seconds for Discord to answer one


def posted_at(message: discord.Message) -> datetime:
    """When a message was posted, as far as its shares go: its last edit, if any (a message
    edited into a share days later is a share of that day), or its creation (its id's time:
    neither can be forged)."""
    return message.edited_at or message.created_at


def moment_of(message: discord.Message, services: Any) -> Moment:
    """When a message was posted (:func:`posted_at`): a player who deleted their data since
    is not credited with it (nor with a recap's line of a day begun before they did)."""
    return Moment(posted_at(message), services.daily.key(MARKS))


def shared_text(message: discord.Message) -> str:
    """What a message shares: its own text, then the text of what it forwards (Discord puts
    a forward's copy of the original in ``message_snapshots``, its own ``content`` empty). A
    forward is its forwarder's post: it counts for them, on the day they forwarded it."""
    texts = [message.content, *(s.content for s in message.message_snapshots)]
    return "\n".join(t for t in texts if t)


async def members_named(message: discord.Message) -> list[tuple[int, str]]:
    """The members of the recap's server, now, who have a display name the recap gives as a
    plain @name (and those it mentions, by their names), each asked of Discord (a member
    query by name, no members intent needed) and looked up in the cache. A name whose query
    fails or may have missed some finds nobody: its uniqueness is unknown. Only members who
    had joined when the recap was posted count."""
    if message.guild is None:
        return []
    guild = message.guild
    names = sorted({r.name.casefold() for r in parse_app_results(
        message.content[:MAX_MESSAGE]).results if r.name})[:25]  # fmt: skip
    found = {p.id: p.display_name for p in message.mentions
             if p.display_name.casefold() not in names}  # fmt: skip
    queried = await asyncio.gather(*(_members_by_name(guild, name) for name in names))
    for name, people in zip(names, queried, strict=True):
        for person in [] if people is None else [*people, *guild.members]:
            joined = person.joined_at
            if person.display_name.casefold() == name and (
                joined is None or joined <= posted_at(message)
            ):
                found[person.id] = person.display_name
    return list(found.items())


async def _members_by_name(guild: discord.Guild, name: str) -> list[discord.Member] | None:
    """The members whose user name or nickname starts with ``name`` (Discord's query), or
    None when that is unknown (no answer, or as many as the query returns)."""
    try:
        people = await asyncio.wait_for(
            guild.query_members(query=name[:100], limit=QUERY_LIMIT, cache=False), QUERY_TIMEOUT
        )
    except (TimeoutError, discord.ClientException, RuntimeError):  # RuntimeError: no gateway
        log.info("could not ask for the members named %r in guild %s", name[:100], guild.id)
        return None
    return None if len(people) >= QUERY_LIMIT else people


def counts_at_all(message: discord.Message) -> bool:
    """Whether a message may hold something a share channel counts: text (its own or a
    forward's) from a member, or the Wordle app's recap (no other bot's post counts)."""
    from_app = message.author.id == WORDLE_APP_ID
    return (from_app or not message.author.bot) and bool(shared_text(message))


async def count_post(bot: commands.Bot, message: discord.Message,
                     guild_id: int) -> Recording | None:  # fmt: skip
    """Count a message of a share channel of server ``guild_id``, as posted when it was
    posted: what the share channels' listener does live and /import does with history, one
    path for both. None: the message holds nothing that counts (no share, another bot's
    post). Refused lines are in the poster's language (theirs if they chose one, else the
    server's), for the listener to tell them."""
    if not counts_at_all(message):
        return None
    services = bot.services  # type: ignore[attr-defined]
    storage = services.storage
    posted = posting_day(posted_at(message), services.daily.zone)
    if message.author.id == WORDLE_APP_ID:
        done = Recording()
        done.notes = await record_app_results(
            storage, guild_id, message.content, posted, await members_named(message),
            age=services.daily.clock() - posted_at(message), outcomes=done.outcomes,
            moment=moment_of(message, services),
        )  # fmt: skip
    else:
        shares = parse_shares(shared_text(message)[:MAX_PASTE]).shares  # no reading needed
        if not shares:
            return None
        today = posted == services.daily.today()  # today's boards that show the poster
        showing = await services.live_boards.showing(message.author.id) if today else set()
        with use_locale(await poster_locale(bot, message.author.id, guild_id)):
            done = await record_shares(storage, message.author.id, message.author.display_name,
                                       shares, scope=guild_id, posted=posted,
                                       moment=moment_of(message, services))  # fmt: skip
        if set(done.outcomes) & CHANGED:  # a correction here leaves another server's board
            services.live_boards.shown_again(showing)
    if done.notes and posted == services.daily.today():  # today's live board shows it
        services.live_boards.changed(guild_id, posted.isoformat())
    return done


async def poster_locale(bot: commands.Bot, player_id: int, guild_id: int) -> str | None:
    """No interaction says a poster's language: theirs if they chose one, else the
    server's."""
    chosen = getattr(bot, "chosen_locale", None)
    server = getattr(bot, "server_locale", None)
    mine = await chosen(player_id) if chosen is not None else None
    return mine or (await server(guild_id) if server is not None else None)


async def thinking_first(interaction: discord.Interaction[Any], path: str, **options: Any) -> None:
    """Run a command that says when its slow part begins (see :mod:`bot.commands.analysis`):
    "thinking...", in public or privately as its answer will be, then the answer (a document
    as a file beside it)."""

    async def thinking(private: bool) -> None:
        await think(interaction, public=not private)

    services = bot_of(interaction).services
    reply = await COMMANDS[path].run(services, caller_of(interaction), thinking=thinking,
                                     **options)  # fmt: skip
    if "document" not in reply.extra:
        return await send_reply(interaction, reply)
    filename, text = reply.extra["document"]
    document = discord.File(io.BytesIO(text.encode()), filename=filename)
    await answer(interaction, reply.text, private=reply.private, files=[document])


class Analysis(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.menu = app_commands.ContextMenu(
            name="Analyze Wordle result", callback=self.analyze_message
        )
        self.record_menu = app_commands.ContextMenu(
            name="Record results", callback=self.record_results
        )
        anywhere(self.menu)  # on any message the player can see, wherever they are
        in_servers(self.record_menu)  # the Wordle app's recaps count on a server's boards
        for menu in (self.menu, self.record_menu):
            bot.tree.add_command(menu)

    async def cog_unload(self) -> None:
        for menu in (self.menu, self.record_menu):
            self.bot.tree.remove_command(menu.name, type=menu.type)

    @app_commands.guild_only()
    async def record_results(self, interaction: discord.Interaction[Any],
                             message: discord.Message) -> None:  # fmt: skip
        """Record everyone's results from the official Wordle app's recap (Discord sends the
        message with the interaction: no message-content intent needed)."""
        if message.author.id != WORDLE_APP_ID:
            return await refuse(
                interaction,
                _(
                    "Only the Wordle app's own results messages "
                    "can be recorded: anyone could type one."
                ),
            )
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)  # members are asked
        services = bot_of(interaction).services
        daily = services.daily
        notes = await record_app_results(
            services.storage, interaction.guild_id, message.content,
            posting_day(posted_at(message), daily.zone), await members_named(message),
            age=daily.clock() - posted_at(message), moment=moment_of(message, services),
        )  # fmt: skip
        await answer(interaction, "\n".join(notes)[:1900], private=True)

    @anywhere
    @app_commands.command(name="analyze", description="Read a pasted share or history")
    @app_commands.describe(
        paste="What your game's Share button copied, or 'crane 01002 ...'",
        words="The words you played, to see what was left and the best next guess",
        share="Show the answer to the channel",
    )
    async def analyze(
        self,
        interaction: discord.Interaction[Any],
        paste: app_commands.Range[str, 1, 4000],
        words: app_commands.Range[str, 1, 200] | None = None,
        share: bool = False,
    ) -> None:
        await thinking_first(interaction, "analyze", paste=paste, words=words, share=share)

    async def analyze_message(self, interaction: discord.Interaction[Any],
                              message: discord.Message) -> None:  # fmt: skip
        """The same reading as /analyze, privately; on one's own message (a forward one
        made, too) its shares count for one's stats too, as posted that day."""
        own = message.author.id == interaction.user.id
        await thinking_first(interaction, "analyze", paste=shared_text(message),
                             posted_at=posted_at(message) if own else None)  # fmt: skip

    @in_servers
    @app_commands.command(name="sharechannel", description="Record shares posted in this channel")
    @app_commands.describe(enabled="True: record the shares posted here; False: stop")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def share_channel(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        reads_posts = bot_of(interaction).settings.message_content_intent
        await perform(interaction, "sharechannel", enabled=enabled, reads_posts=reads_posts)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.record_post(message)

    @commands.Cog.listener()
    async def on_message_edit(self, before: discord.Message, after: discord.Message) -> None:
        await self.record_post(after)  # an edited share replaces the earlier record

    async def record_post(self, message: discord.Message) -> None:
        """A share posted (or forwarded) in a chosen channel counts for its poster (what is
        refused is told them in a direct message), and the Wordle app's recap for everyone
        it lists (the app's own message only: a forward of it is a member's post)."""
        if message.guild is None or not counts_at_all(message):
            return
        storage = self.bot.services.storage  # type: ignore[attr-defined]
        if not await storage.is_share_channel(message.guild.id, message.channel.id):
            return
        done = await count_post(self.bot, message, message.guild.id)
        if done is not None and done.refused and message.author.id != WORDLE_APP_ID:
            with use_locale(await poster_locale(self.bot, message.author.id, message.guild.id)):
                await self.tell(message, done.refused)

    async def tell(self, message: discord.Message, lines: list[str]) -> None:
        """Tell a share's poster, privately, what of their message was not recorded."""
        where = getattr(message.channel, "mention", None) or _("a share channel")
        text = _("From your message in {channel}:").format(channel=where) + "\n" + "\n".join(lines)
        try:
            await message.author.send(text[:1900])
        except discord.HTTPException:  # direct messages closed: nobody else is told
            log.info("could not tell %s why a share was not recorded", message.author.id)

    @anywhere
    @app_commands.command(
        name="coach", description="How your last finished game went, turn by turn"
    )
    @app_commands.describe(share="Show the report to the channel (today's daily stays private)")
    async def coach(self, interaction: discord.Interaction[Any], share: bool = False) -> None:
        await thinking_first(interaction, "coach", share=share)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Analysis(bot))
