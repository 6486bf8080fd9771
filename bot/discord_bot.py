"""The Discord bot: a ``commands.Bot`` whose ``setup_hook`` opens the services, loads the
cogs, registers the persistent buttons and warms the engine off the event loop.

Errors are handled in one place (:meth:`WordleBot.on_app_command_error`): a refusal a person
caused is answered privately in plain words; anything unexpected is logged with the
interaction id and answered with a short apology.
"""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot.commands.model import guides
from bot.discord_requests import budget_trace
from bot.i18n import N_, _, negotiate, set_locale, use_locale
from bot.i18n.translator import CatalogTranslator
from bot.render.guide import guide_text
from bot.render.palette import palette_named
from bot.render.text import MESSAGE_LIMIT
from bot.services import Player, Services, open_services
from bot.services.kinds import KINDS
from bot.settings import NO_TOKEN, Settings
from bot.storage import StorageBusy
from bot.web.server import WebServer, start_if_set
from engine.aio import TREE_MODES, build_trees, warm
from engine.rules import Mode

log = logging.getLogger("wordlebot")
CAPACITY = 400  # interactions handled at once; past it, new ones are turned away at once
GUIDE = "wordlebot-guide"  # interaction.extras: whether this is its player's first command
ARRIVED = "wordlebot-arrived"  # interaction.extras: the loop's time when it was admitted
LOCALE_SECONDS = 60.0  # how long a player's chosen language is trusted before a re-read
# How long the read of a chosen language may hold an interaction (before its handler, inside
# Discord's 3 s): past it, or with the database down, the last one known or Discord's serves.
LOCALE_WAIT_SECONDS = 0.5
BUSY = N_("The bot is very busy right now: try again in a moment.")
# Set in ``interaction.extras`` while a public "thinking..." stands in the channel
# (cogs.common.think): a refusal that follows deletes it, so that refusals stay private.
PUBLIC_THINKING = "wordlebot-public-thinking"
# Set in ``interaction.extras`` once the deferred "thinking..." has been edited into the answer:
# what follows is a message of its own.
ANSWERED = "wordlebot-answered"


def fitted(interaction: discord.Interaction[Any], message: dict[str, Any]) -> dict[str, Any]:
    """``message`` (send or edit keywords) as the bot may show it where ``interaction`` came
    from (its ``app_permissions``; Discord refuses the rest with a 403): without Attach Files
    its files stay behind, with an embed's picture of them; without Embed Links an embed
    becomes text. A board still reads as its emoji rows."""
    allowed = interaction.app_permissions
    embeds = [e for e in [message.pop("embed", None), *(message.pop("embeds", None) or [])] if e]
    if not allowed.attach_files:
        for key in ("file", "files", "attachments"):
            if message.get(key):
                del message[key]
                if key == "attachments":  # an edit: the message keeps none
                    message[key] = []
        for embed in embeds:
            if (embed.image.url or "").startswith("attachment://"):
                embed.set_image(url=None)
    if embeds and not allowed.embed_links:
        parts = [message.get("content") or "", *map(embed_text, embeds)]
        message["content"] = "\n\n".join(p for p in parts if p)[:MESSAGE_LIMIT]
        message["embeds"] = []
    elif embeds:
        message["embeds"] = embeds
    return message


def embed_text(embed: discord.Embed) -> str:
    """An embed's words as plain text: the title in bold, the description, each field."""
    parts = [f"**{embed.title}**" if embed.title else "", embed.description or ""]
    parts += [f"**{field.name}**\n{field.value}" for field in embed.fields]
    return "\n".join(p for p in parts if p)


async def answer(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    private: bool,
    files: list[discord.File] | None = None,
    **message: Any,
) -> discord.Message | None:
    """The answer to an interaction, in the one way Discord means for each moment: the
    response itself; past a deferral ("thinking..."), an edit of that original response,
    seen as the deferral chose; a follow-up only for a second message (a private note after
    a public answer, an answer to a button whose board was updated). A private answer after
    a public "thinking..." deletes it first and follows up privately: refusals stay private.
    Returns the message, where discord.py gives it."""
    response = interaction.response
    if content is not None:
        message["content"] = content
    if files:
        message["files"] = files
    message = fitted(interaction, message)
    if not response.is_done():
        await response.send_message(ephemeral=private, **message)
        return None
    public_thinking = interaction.extras.pop(PUBLIC_THINKING, False)
    thinking = (response.type is discord.InteractionResponseType.deferred_channel_message
                and not interaction.extras.get(ANSWERED))  # fmt: skip
    if thinking and not (private and public_thinking):
        interaction.extras[ANSWERED] = True
        if "files" in message:
            message["attachments"] = message.pop("files")
        return await interaction.edit_original_response(**message)
    if thinking:  # public "thinking...", a private answer: it goes
        interaction.extras[ANSWERED] = True
        await interaction.delete_original_response()
    return await interaction.followup.send(ephemeral=private, wait=True, **message)


async def follow_reader(interaction: discord.Interaction[Any]) -> None:
    """Speak the reader's language for the rest of the task that handles ``interaction``:
    the language they chose (/settings me language), else the one their Discord shows, where
    we ship it, else English (bot.i18n keeps it in a context variable)."""
    chosen = getattr(interaction.client, "chosen_locale", None)
    mine = await chosen(interaction.user.id) if chosen is not None else None
    set_locale(negotiate(mine or interaction.locale.value))


async def turned_away(interaction: discord.Interaction[Any]) -> bool:
    """Past the bot's capacity, answer a private "busy" at once and say so: a quick no beats
    every player's reply drifting past Discord's window. Commands, buttons and modals alike
    call this first, in the task that handles the interaction: an admitted task is counted
    until it ends (a set, not a scan of every task, which cost a fifth of the event loop
    under load). An admitted interaction speaks its reader's language from here on."""
    interaction.extras.setdefault(ARRIVED, asyncio.get_running_loop().time())
    bot = interaction.client
    in_flight: set[asyncio.Task[Any]] | None = getattr(bot, "in_flight", None)
    task = asyncio.current_task()
    if in_flight is not None and task is not None and task not in in_flight:
        if len(in_flight) >= getattr(bot, "capacity", CAPACITY):
            with use_locale(str(interaction.locale)):  # the client's: nothing is read now
                busy = _(BUSY)
            await answer(interaction, busy, private=True)
            return True
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    await follow_reader(interaction)
    return False


class OptionRefused(app_commands.AppCommandError):
    """An option's value that its command cannot take: outside its choices, or not text at
    all (a lone surrogate). Discord's client never sends one; a hand-made request can."""

    def __init__(self, option: str, choices: list[str] | None = None) -> None:
        super().__init__(option)
        self.option = option
        self.choices = choices

    def message(self) -> str:
        if self.choices is None:
            return _("The option “{option}” takes text, and what was sent is not text.").format(
                option=self.option
            )
        return _("The option “{option}” takes one of: {choices}.").format(
            option=self.option, choices=", ".join(self.choices)
        )


def refuse_bad_options(interaction: discord.Interaction[Any]) -> None:
    """Raise :class:`OptionRefused` for the first option the command cannot take. discord.py
    checks choices only for ``Choice`` annotations and passes ``Literal`` ones through."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    for parameter in command.parameters:
        value = getattr(interaction.namespace, parameter.display_name, None)
        if value is None:
            continue
        if isinstance(value, str) and not value.isascii():
            try:
                value.encode()
            except UnicodeEncodeError:
                raise OptionRefused(parameter.display_name) from None
        if parameter.choices and value not in {c.value for c in parameter.choices}:
            raise OptionRefused(parameter.display_name, [c.name for c in parameter.choices])


class Tree(app_commands.CommandTree["WordleBot"]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Shed load: past capacity a quick private "busy" beats every player's reply
        drifting past Discord's 3-second window. Then an option the command cannot take
        is refused in plain words (in the player's language, now read). Nothing here may
        raise StorageBusy: discord.py would only log it, and the player hear nothing (the
        language read falls back; the guide's check runs beside the command)."""
        if await turned_away(interaction):
            return False
        if interaction.type is discord.InteractionType.application_command:
            refuse_bad_options(interaction)
        command = interaction.command
        if interaction.type is discord.InteractionType.application_command and (
            command is None or guides(command.qualified_name)
        ):
            self.client.note_first_use(interaction)
        return True

    async def sync_payload(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        """The commands as published: discord.py's payload without ``dm_permission``, which
        Discord replaced by ``contexts`` (every command says where it is offered there:
        cogs.common's ``anywhere`` and ``in_servers``)."""
        commands = self._get_all_commands(guild=guild)
        translator = self.translator
        if translator:
            payload = [await c.get_translated_payload(self, translator) for c in commands]
        else:
            payload = [c.to_dict(self) for c in commands]
        for command in payload:
            command.pop("dm_permission", None)
        return payload

    async def sync(
        self, *, guild: discord.abc.Snowflake | None = None
    ) -> list[app_commands.AppCommand]:
        """discord.py's sync, sending :meth:`sync_payload`."""
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        payload = await self.sync_payload(guild=guild)
        http, app = self._http, self.client.application_id
        try:
            if guild is None:
                payload += entry_points(await http.get_global_commands(app))
                data = await http.bulk_upsert_global_commands(app, payload=payload)
            else:
                data = await http.bulk_upsert_guild_commands(app, guild.id, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                commands = self._get_all_commands(guild=guild)
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]


# What a bulk overwrite carries of the Entry Point command (its id keeps it as it is).
ENTRY_POINT_FIELDS = ("id", "type", "name", "name_localizations", "description",
                      "description_localizations", "contexts", "integration_types", "handler",
                      "default_member_permissions")  # fmt: skip


def entry_points(published: list[Any]) -> list[dict[str, Any]]:
    """The Entry Point command among the commands published (type 4: the game window's
    launcher, which Discord made when Activities were turned on, or one an admin edited),
    as a bulk overwrite must carry it: Discord refuses one that leaves it out ("You cannot
    remove this app's Entry Point command in a bulk update operation")."""
    return [{key: command[key] for key in ENTRY_POINT_FIELDS if key in command}
            for command in published if command.get("type") == 4]  # fmt: skip


EXTENSIONS = ("cogs.games", "cogs.hints", "cogs.stats", "cogs.admin", "cogs.analysis",
              "cogs.digest", "cogs.reminders", "cogs.coop", "cogs.races",
              "cogs.challenges", "cogs.study", "cogs.help", "cogs.define",
              "cogs.imports", "cogs.liveboard")  # fmt: skip
WARMED = ("wordle", "primel")  # the games ready before the first player (engine.aio.warm)
JOBS_TASK = "wordlebot-leader-jobs"  # runs as long as the bot
JOBS_RAN = "the background jobs ran"  # logged at DEBUG after each round
# Marked for the catalogs, translated where answered (the reader's locale, set for the task).
DATABASE_BUSY = N_("The game's database is busy; nothing was changed, try again in a moment.")
APOLOGY = N_("Sorry, something went wrong on our side. It has been logged; please try again.")


def needed_intents(settings: Settings) -> discord.Intents:
    """The least the features need. Interactions (every command, button and form) come
    whatever the intents. ``guilds``: the servers and channels the bot is in (where it may
    post a digest, a race, a reminder). ``guild_messages``: the messages posted in a server,
    for share channels (/sharechannel) to record shares, edited ones too. ``message_content``
    (privileged, MESSAGE_CONTENT_INTENT, off by default): the text of those messages, which
    share channels cannot read without; the message menus (Analyze, Record results) get
    their message with the interaction and need no intent."""
    intents = discord.Intents.none()
    intents.guilds = intents.guild_messages = True
    intents.message_content = settings.message_content_intent
    return intents


def first_start_trees() -> list[tuple[str, Mode]]:
    """The exact trees the first start searches in the background, in turn: English in every
    mode first (most hints), then every other language and length in normal mode, then in
    hard and strict mode (seconds each: docs/performance.md, "Trees where they pay")."""
    others = [name for name, spec in KINDS.items() if spec.base]
    return [("wordle", mode) for mode in TREE_MODES] + [
        (name, mode) for mode in TREE_MODES for name in others
    ]


def said_if_failed(task: asyncio.Task[Any]) -> None:
    """Log a background task's failure when it ends, not when it is collected (if ever)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("%s failed", task.get_name(), exc_info=task.exception())


class WordleBot(commands.Bot):
    services: Services

    def __init__(self, settings: Settings, *, warm_engine: bool = True, **shards: Any) -> None:
        intents = needed_intents(settings)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            owner_ids=set(settings.owner_ids) or None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=Tree,
            guild_ready_timeout=settings.guild_ready_seconds,
            http_trace=budget_trace(self._request_budget),  # the deployment's, shared
            **shards,
        )
        self.settings = settings
        self.capacity = CAPACITY
        self.in_flight: set[asyncio.Task[Any]] = set()  # interactions being handled
        # Jobs every process runs, every JOBS_INTERVAL_SECONDS, each doing its share of the
        # deployment's (closing the days that ended, the digests: claimed in the database,
        # each done once); cogs add theirs.
        self.jobs: list[Callable[[], Awaitable[None]]] = []
        # Jobs one process of the deployment runs for all, after those (reminders); cogs add
        # theirs.
        self.leader_jobs: list[Callable[[], Awaitable[None]]] = []
        self.warm_engine = warm_engine
        self.tree.error(self.on_app_command_error)
        self.locales: dict[int, tuple[float, str | None]] = {}  # chosen languages, for a while
        self.draining = False  # a stop began: no new round of the jobs
        self._job_round: asyncio.Task[None] | None = None  # the round running, if one is
        self._trees_task: asyncio.Task[None] | None = None  # the missing trees' search

    def _request_budget(self) -> Any:
        services = getattr(self, "services", None)
        return None if services is None else services.requests

    def holds(self, guild_id: int) -> bool:
        """Whether the server's shard is this process's (every server when not sharded):
        the process whose share of the midnight work it is first."""
        count, ids = self.settings.shard_count, self.settings.shard_ids
        return count is None or ids is None or (guild_id >> 22) % count in ids

    async def chosen_locale(self, player_id: int) -> str | None:
        """The interface language a player chose, read at most once a minute per player
        (another process's change shows within that minute; this process's at once). A read
        the database does not answer at once (down, locked) is no reason to leave a player
        unanswered: the language last read serves, else none (Discord's), and the next
        interaction reads again."""
        now = time.monotonic()
        known = self.locales.get(player_id)
        if known is None or known[0] < now - LOCALE_SECONDS:
            read = self.services.storage.player_locale(player_id)
            try:
                locale = await asyncio.wait_for(read, LOCALE_WAIT_SECONDS)
            except (StorageBusy, TimeoutError):
                log.debug("a player's language was not read in time: the last known serves")
                return None if known is None else known[1]
            if len(self.locales) > 50_000:
                self.locales.clear()
            known = self.locales[player_id] = (now, locale)
        return known[1]

    async def server_locale(self, guild_id: int) -> str:
        """The language of what the bot posts in a server with nobody asking (a digest, a
        reminder): the server's setting, else English."""
        return negotiate((await self.services.storage.guild_settings(guild_id)).language)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())  # before any sync: localised names
        if getattr(self, "services", None) is None:  # run_bot opens them before logging in
            self.services = await open_services(self.settings)
        self.jobs.append(self.close_ended_days)  # first: before the digest's
        self.leader_jobs.append(self.services.retention.job)  # what nobody reads goes
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # Servers' pages, on this loop (WEB_PORT; bot/web/); a port taken stops the start.
        self.web_server = await start_if_set(self.services, self.settings)
        if self.warm_engine:
            await warm(WARMED)
        self._jobs_task = asyncio.create_task(self._background_jobs(), name=JOBS_TASK)
        if self.settings.dev_guild_id is not None and not self.settings.sharded:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                await self.tree.sync(guild=guild)  # never a global sync at start
            except discord.Forbidden:  # 403 Missing Access: the app is not in that server
                log.error(
                    "DEV_GUILD_ID %s: the application is not in that server (or was invited "
                    "without the applications.commands scope), so its commands were not "
                    "synced there: invite it with the link `wordlebot invite` prints, or "
                    "unset DEV_GUILD_ID", self.settings.dev_guild_id,
                )  # fmt: skip
            else:
                log.info("commands synced to the development guild")
        else:
            await self._warn_if_never_synced()

    async def _background_jobs(self) -> None:
        """Every JOBS_INTERVAL_SECONDS a round of the jobs: this process's share of the
        deployment's (``jobs``), then, in the process the database elects (an advisory lock
        on PostgreSQL; a SQLite file has one process), the work one process does for all:
        the search of missing exact trees, once, and ``leader_jobs``. The others try to lead
        at each round, so a leader that dies is replaced; a leader that loses its lock stops
        until it wins it again. Exact trees already in the shared cache (WORDLEBOT_CACHE_DIR;
        `wordlebot tree --strategy optimal --out-cache`) are read, not searched."""
        db = self.services.storage.db
        leading = await self._lead(db, was=False)  # a lone process: its trees start at once
        await self.wait_until_ready()
        while not self.draining:
            # a task of its own, which a stop lets finish within its drain (a digest being
            # posted, a role being moved)
            self._job_round = asyncio.create_task(self._run_jobs(leading))
            await self._job_round
            await asyncio.sleep(self.settings.jobs_interval_seconds)
            leading = await self._lead(db, was=leading)

    async def _lead(self, db: Any, *, was: bool) -> bool:
        try:
            leading = bool(await db.lead())
        except Exception:  # the database away: no leader's work this round
            return False
        if leading and not was:
            log.info("this process runs the deployment's background jobs")
            if self.warm_engine and self.settings.build_trees and self._trees_task is None:
                self._trees_task = asyncio.create_task(build_trees(first_start_trees()))
                self._trees_task.add_done_callback(said_if_failed)
        return leading

    async def _run_jobs(self, leading: bool) -> None:
        for job in [*self.jobs, *(self.leader_jobs if leading else [])]:
            if self.draining:
                return
            try:
                await job()
            except StorageBusy:
                log.warning("a background job waits: the database did not answer")
            except Exception:
                log.exception("a background job failed; it runs again later")
        log.debug(JOBS_RAN)  # what a test counts to know the jobs ran again

    async def close_ended_days(self) -> None:
        """The job closing the games of puzzle days that have ended (every process: the
        closes are compare-and-sets), then marking this process's live boards of the day
        over."""
        await self.services.closing.run_due()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py's wait before an IDENTIFY but the first (Discord allows one per 5
        seconds), from IDENTIFY_SECONDS: the tests' stand-in has no such limit."""
        if not initial:
            await asyncio.sleep(self.settings.identify_seconds)

    async def _warn_if_never_synced(self) -> None:
        """Slash commands appear only once published: say how, if they never were."""
        if self.application_id is None:  # not logged in (tests drive the bot directly)
            return
        try:
            published = await self.tree.fetch_commands()
        except discord.HTTPException:
            return  # not worth failing the start over a check
        if not published:
            log.warning("No slash commands are published yet: run `wordlebot sync` once")

    async def close(self) -> None:
        """Let interactions in flight finish (a bounded drain), close the gateway, then the
        database (safe to call more than once)."""
        if not self.is_closed():
            self.draining = True  # no new round of jobs
            pending = self.in_flight - {asyncio.current_task()}
            jobs = {t for t in (self._job_round,) if t is not None and not t.done()}
            if pending or jobs:
                log.info("letting %d interactions%s finish before closing", len(pending),
                         " and the background jobs" if jobs else "")  # fmt: skip
                drain = self.settings.drain_seconds
                _, left = await asyncio.wait(pending | jobs, timeout=drain)
                if left:  # cancelled before the session and the database close under them
                    if left - jobs:
                        log.warning("%d interactions still running after %.0f s: cancelled",
                                    len(left - jobs), drain)  # fmt: skip
                    if left & jobs:  # a digest's lease is given back: the next start resumes
                        log.warning("the background jobs still running after %.0f s: "
                                    "cancelled", drain)  # fmt: skip
                    for task in left:
                        task.cancel()
                    await asyncio.wait(left, timeout=drain)
        for name in ("_jobs_task", "_trees_task"):
            job: asyncio.Task[Any] | None = getattr(self, name, None)
            if job is not None:
                job.cancel()
        trees: asyncio.Task[None] | None = getattr(self, "_trees_task", None)
        if trees is not None:  # its search's process ends before this one: nothing left
            await asyncio.wait({trees}, timeout=self.settings.drain_seconds)
        web_server: WebServer | None = getattr(self, "web_server", None)
        if web_server is not None:  # no page is read from a closed database
            await web_server.stop()
        await super().close()
        services = getattr(self, "services", None)
        if services is not None:
            await services.close()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await self.answer_failure(interaction, error)
        await self.send_guide(interaction)

    def note_first_use(self, interaction: discord.Interaction[Any]) -> None:
        """As a slash command or app menu starts: is it its player's first use of the bot?
        The services decide, once per player across every process (the database's
        compare-and-set), beside the command rather than before it: its answer waits on
        nothing here (a locked database held it past Discord's window). The guide follows
        the answer once decided; a database that does not answer leaves it for later."""
        user = interaction.user
        claim = self.services.guide.begin(Player(user.id, user.display_name))
        if claim is not None:
            interaction.extras[GUIDE] = claim

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: Any
    ) -> None:
        """After a command's answer: its player's first-game guide, if this was their first
        command (counted in flight, so a shutdown lets it go out)."""
        task = asyncio.current_task()
        if task is not None and interaction.extras.get(GUIDE):
            self.in_flight.add(task)
            task.add_done_callback(self.in_flight.discard)
        await self.send_guide(interaction)

    async def send_guide(self, interaction: discord.Interaction[Any]) -> None:
        """The first-game guide, privately, as a follow-up to the player's first command,
        in their language and colours (bot/render/guide.py); once (the mark is taken). Not
        sent, the mark goes back: the player's next command guides them."""
        claim: asyncio.Future[bool] | None = interaction.extras.pop(GUIDE, None)
        if claim is None:
            return
        try:
            if not await claim:
                return
        except Exception:
            log.warning("the first-game guide was not checked", exc_info=True)
            return
        player_id = interaction.user.id
        try:
            await follow_reader(interaction)  # their language as it is now (/settings me)
            palette = palette_named(await self.services.storage.palette(player_id))
            await answer(interaction, guide_text("discord", palette), private=True)
        except Exception as exc:  # the command was answered: a guide missed is no failure of it
            kept = "kept for the next command"
            try:
                await self.services.guide.not_given(player_id)
            except Exception:
                kept = "lost: its mark could not be taken back"
            log.warning("the first-game guide was not sent (%s): %r", kept, exc)

    async def answer_failure(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """What the player is told when handling their interaction failed, slash command,
        button or form alike: a refusal in plain words, or an apology (logged). Always
        privately: after a public deferral ("thinking..." in the channel) that goes first."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CommandOnCooldown):
            message = _("Slow down: try again in {seconds} s.").format(
                seconds=f"{error.retry_after:.0f}"
            )
        elif isinstance(error, app_commands.MissingPermissions):
            message = _("You need the Manage Server permission for that.")
        elif isinstance(error, app_commands.NoPrivateMessage):
            message = _("That works in a server, not in direct messages.")
        elif isinstance(error, app_commands.CheckFailure):
            message = _("You can't use that here.")
        elif isinstance(error, OptionRefused):
            message = error.message()
        elif isinstance(original, StorageBusy):
            log.warning("interaction %s refused: the database did not answer", interaction.id)
            message = _(DATABASE_BUSY)
        else:
            log.error("interaction %s failed", interaction.id, exc_info=error)
            message = _(APOLOGY)
        try:
            await answer(interaction, message, private=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)


class ShardedWordleBot(WordleBot, commands.AutoShardedBot):
    """The same bot holding some of the shards (SHARD_IDS of SHARD_COUNT): one of several
    processes on one PostgreSQL database. Commands are never synced at start here."""


def create_bot(settings: Settings, *, warm_engine: bool = True) -> WordleBot:
    if settings.sharded:
        shards = {"shard_ids": settings.shard_ids, "shard_count": settings.shard_count}
        return ShardedWordleBot(settings, warm_engine=warm_engine, **shards)
    return WordleBot(settings, warm_engine=warm_engine)


LOG_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"  # discord.py's, uncoloured
LOG_DATES = "%Y-%m-%d %H:%M:%S"


def without_voice_warnings(record: logging.LogRecord) -> bool:
    """discord.py warns at start that PyNaCl and davey are missing, so voice will not work:
    this bot has no voice, so an operator has nothing to do about it."""
    return not str(record.msg).endswith("voice will NOT be supported")


class Redact(logging.Filter):
    """Nothing secret reaches the log, even at DEBUG: interaction tokens (each a webhook
    credential for 15 minutes) in URLs and payloads, and the bodies of what is sent and
    received (a daily's letters, typed guesses, answers told privately)."""

    RULES = (
        (re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s'\"?]+"), r"\1<token>"),
        (re.compile(r"(['\"]token['\"]\s*:\s*['\"])[^'\"]*"), r"\1<token>"),
        (re.compile(r"^([A-Z]+ \S+) with .* has returned ", re.S), r"\1 with <body> has returned "),
        (re.compile(r" has received .*", re.S), " has received <body>"),
        (re.compile(r"(WebSocket Event: |^Received |dispatched with ).*", re.S), r"\1<payload>"),
    )

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = message
        for pattern, replacement in self.RULES:
            redacted = pattern.sub(replacement, redacted)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def configure(settings: Settings) -> None:
    """Logs to stderr by level, redacted; the API base URL when pointed at a stand-in."""
    # Colours only on a terminal: discord.py also colours any stream inside Docker, which
    # leaves escape codes in a log file or a log collector.
    plain = None if sys.stderr.isatty() else logging.Formatter(LOG_FORMAT, LOG_DATES, style="{")
    discord.utils.setup_logging(
        level=logging.getLevelName(settings.log_level), root=True,
        formatter=plain or discord.utils.MISSING,
    )  # fmt: skip
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact())
    logging.getLogger("discord.client").addFilter(without_voice_warnings)
    # aiosqlite's DEBUG lines are every statement with its parameters: stored answers, names.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLogger().level))
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


async def run_bot(settings: Settings) -> int:
    """Run until SIGINT/SIGTERM, then close the connection and the database cleanly."""
    if settings.discord_token is None:
        print(NO_TOKEN)
        return 1
    configure(settings)
    bot = create_bot(settings)
    bot.services = await open_services(settings)  # a database that cannot be used stops here
    loop = asyncio.get_running_loop()
    connection: asyncio.Future[None] | None = None

    async def stop() -> None:
        await bot.close()  # interactions in flight finish (bounded), then the database closes
        # With Discord gone, discord.py's reconnect loop sleeps out a back-off (up to minutes)
        # or waits on a connection before it looks at the closed flag: nothing else ends it.
        if connection is not None:
            connection.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(stop()))
    try:
        async with bot:
            connection = asyncio.ensure_future(bot.start(settings.discord_token.get_secret_value()))
            try:
                await connection
            except asyncio.CancelledError:
                if not bot.is_closed():  # not stop()'s: the run itself is being cancelled
                    raise
            await bot.close()  # finish what a signal began: the database closes before exit
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN): check it in the Developer Portal")
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error(
            "Discord refused the Message Content intent (MESSAGE_CONTENT_INTENT=true): switch "
            "it on in the Developer Portal (Bot > Privileged Gateway Intents), or set "
            "MESSAGE_CONTENT_INTENT=false"
        )
        return 1
    except discord.ConnectionClosed as exc:  # a close Discord says not to retry
        if exc.code == 4004:
            log.error("Discord refused the token (DISCORD_TOKEN, gateway close 4004): check "
                      "it in the Developer Portal")  # fmt: skip
        else:
            log.error("Discord closed the gateway for good (code %s)", exc.code)
        return 1
    except (OSError, discord.HTTPException) as exc:
        log.error("Could not reach Discord: %s", type(exc).__name__)
        return 1
    return 0


async def sync_commands(settings: Settings) -> int:
    """Publish the slash commands globally, once (never done at start)."""
    if settings.discord_token is None:
        print(NO_TOKEN)
        return 1
    configure(settings)
    bot = WordleBot(settings, warm_engine=False)
    async with bot:
        await bot.login(settings.discord_token.get_secret_value())
        synced = await bot.tree.sync()
    print(f"Synced {len(synced)} commands globally; Discord may take a while to show them.")
    return 0
