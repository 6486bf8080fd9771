"""The live daily board: one message a server and puzzle day, in the channel its admins chose
(/liveboard channel), edited as its players start and finish the dailies: who finished, in how
many (or X), and who is still playing. No grid while the day can be played: a dozen grids'
colours leave a handful of possible answers (docs/fair-play.md), so the grids (squares, never
a letter) are shown once the day is over and none of its games is going here
(:meth:`LiveBoardService.day_over` edits the day's boards then).

Shares typed in a channel are shown apart from the games played with the bot: a section of
their own after every game played here, marked as shares, never under the bot's puzzle's
heading (anyone can type ``Wordle 1,988 1/6``).

The day is the puzzle day, one for everyone (:mod:`bot.services.daily`): the results it shows
are that puzzle's, whatever the server's own time zone.

Edits are debounced per process (:class:`Debouncer`): a game that starts or ends marks its
server's board of its day; the first mark is shown at once and the marks that follow within
``window`` seconds become one edit at its end, so a burst of finishes costs two edits, and a
busy server one edit a window, well inside Discord's limits on editing a message. Each edit
renders the whole board from the database. The edits of several processes are not ordered:
one rendered before another process's change can land after that process's own edit and
hide the change. So each edit is followed by a second read, and a board that changed since
its render is edited again after the window: every change shows within a window or two,
unless the process stops (or loses Discord's answer) between an edit and that check; then
it shows at the board's next change. An edit Discord fails (a 5xx, a 429 past discord.py's
own retries) is tried again with a growing back-off, whether or not anything changes, until
the board shows the day as it is (:class:`Debouncer`).

One board a day across processes: its message is claimed in the database before it is
posted (:mod:`bot.storage.live_boards`). A board deleted in Discord is posted again by the
first edit that finds it gone, once; a new day starts a new message and the last one stays
as it was last shown. A player who deletes their data leaves today's boards at once: their
deletion marks each board that showed them (read in its transaction), as a finish would.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Generic, TypeVar

from bot.i18n import negotiate, use_locale
from bot.services.daily import DailyPuzzles, shown_number
from bot.services.digest import (
    DIGEST_KINDS,
    ChannelGone,
    Member,
    NotSent,
    day_title,
    grid_digits,
)
from bot.services.kinds import kind_name, shown_title
from bot.storage import Storage
from bot.storage.digests import DayResult

log = logging.getLogger("wordlebot.live_board")

WINDOW = 5.0  # seconds: at most one edit of a server's board in each
# A board whose update failed (Discord's 5xx, a 429 past discord.py's own retries, the
# database away) is tried again after a window, then twice as long each time up to
# RETRY_LONGEST seconds, for RETRY_FOR seconds at most: long past the day's close, which
# marks it again anyway.
RETRY_LONGEST, RETRY_FOR = 300.0, 86_400.0
KNOWN = 10_000  # boards remembered per process (a server's today's, mostly)
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class LiveResult:
    member: Member
    score: str  # "3/6", "X/6"; "3/6*" in hard (or strict) mode
    # each guess's pattern digits (a multi-board share: boards by spaces); none while the
    # day can be played
    rows: list[str]


@dataclass(frozen=True)
class LiveGame:
    kind: str
    title: str  # "wordlebot Wordle #20260301"
    finished: list[LiveResult]  # best first, losses last
    playing: list[Member]  # started and not finished
    shared: bool = False  # results typed as shares, not games played with the bot

    @property
    def hard(self) -> bool:
        return any(r.score.endswith("*") for r in self.finished)


@dataclass(frozen=True)
class LiveBoard:
    guild_id: int
    day: date
    games: list[LiveGame]  # the games played with the bot, then the shares
    closed: bool = False  # the day is over and nothing of it is going here: grids shown


class MessageGone(Exception):
    """The board's message was deleted (Discord's 10008 Unknown Message)."""


# What the front end does in Discord: post a board (returns its message id), edit one.
# Both raise ChannelGone (channel deleted, or closed to the bot), NotSent (nothing reached
# Discord); an edit raises MessageGone for a message deleted.
Post = Callable[[int, LiveBoard], Awaitable[int]]  # (channel, board) -> message id
Edit = Callable[[int, int, LiveBoard], Awaitable[None]]  # (channel, message, board)


class Debouncer(Generic[K]):
    """Runs ``flush(key)`` for each key marked: at once for a first mark, then at most once
    a ``window`` while marks keep coming (the marks of a window become one run). ``flush``
    returns True to be run again after the window (it could not finish its work yet), None
    when it showed nothing (no board there): no edit to space out, so no window. A flush
    that raises is run again, marked or not, after a back-off (see RETRY_LONGEST): a board
    whose last edit failed would otherwise stay stale once its day's last change is past.

    At most ``at_once`` flushes run at a time; a key waiting for its turn is flushed (its
    board read) only when its turn comes, its marks meanwhile folded into that one run: at
    midnight every server's board changes at once, and boards read then would wait for the
    request budget holding what they read, while their reads crowd the digests'."""

    def __init__(self, window: float, flush: Callable[[K], Awaitable[bool | None]],
                 at_once: int = 16) -> None:  # fmt: skip
        self.window = window
        self.flush = flush
        self.turns = asyncio.Semaphore(at_once)
        self.dirty: set[K] = set()
        self.tasks: dict[K, asyncio.Task[None]] = {}

    def mark(self, key: K) -> None:
        self.dirty.add(key)
        if key not in self.tasks:
            self.tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    async def _run(self, key: K) -> None:
        failing_since: float | None = None
        delay = self.window
        try:
            while key in self.dirty:
                try:
                    async with self.turns:
                        began = time.monotonic()
                        self.dirty.discard(key)
                        shown = await self.flush(key)
                except Exception:
                    if failing_since is None:
                        failing_since = began
                        log.exception("the live board %s was not updated: tried again", key)
                    if began - failing_since >= RETRY_FOR:
                        log.error("the live board %s is left until its next change: its "
                                  "updates failed for %.0f s", key, RETRY_FOR)  # fmt: skip
                        break
                    self.dirty.add(key)
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, RETRY_LONGEST)
                    continue
                if failing_since is not None:
                    log.info("the live board %s is updated again", key)
                    failing_since, delay = None, self.window
                if shown:
                    self.dirty.add(key)
                if shown is None:
                    continue
                await asyncio.sleep(max(0.0, self.window - (time.monotonic() - began)))
        finally:
            self.tasks.pop(key, None)

    def cancel(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()
        self.dirty.clear()


class LiveBoardService:
    def __init__(self, storage: Storage, daily: DailyPuzzles, window: float = WINDOW) -> None:
        self.storage = storage
        self.daily = daily
        self.debouncer: Debouncer[tuple[int, str]] = Debouncer(window, self._flush)
        self.post: Post | None = None
        self.edit: Edit | None = None
        # The boards this process posted or edited, by message id: a deletion seen on the
        # gateway re-creates one at once (one seen by no process is re-created at its next
        # edit, which finds it gone).
        self.known: dict[int, tuple[int, str]] = {}
        self.warned: set[tuple[int, str]] = set()  # (server, day) whose channel refused us
        # The servers whose boards this process shows the day's end in (its shards'): every
        # process closes the day and shows its own servers' grids, not all of them in one.
        self.mine: Callable[[int], bool] = lambda _guild_id: True

    def attach(self, post: Post, edit: Edit, mine: Callable[[int], bool] | None = None) -> None:
        """Where boards go (Discord's cog); without it, marks are ignored (the console).
        ``mine``: whether a server is this process's (its shards'); default every one."""
        self.post, self.edit = post, edit
        if mine is not None:
            self.mine = mine

    def detach(self) -> None:
        self.post = self.edit = None
        self.debouncer.cancel()

    def changed(self, scope: int, day: str) -> None:
        """A daily of ``day`` started or ended in ``scope``: its board will show it."""
        if self.post is not None and scope:
            self.debouncer.mark((scope, day))

    async def showing(self, player_id: int, day: str | None = None) -> set[int]:
        """The servers whose board of ``day`` (today by default) shows the player now
        (none where no board is shown: the console). Read before a change that can take the
        player's result of the day from one server to another (a share corrected in another
        server, a daily played or closed in another server in a share's place, a share taken
        back): :meth:`shown_again` (or :meth:`changed`) then edits each, so no board keeps a
        result that counts elsewhere."""
        if self.post is None:
            return set()
        day = day or self.daily.today().isoformat()
        return set(await self.storage.live_boards.showing(player_id, day))

    def shown_again(self, scopes: Iterable[int]) -> None:
        """Today's boards of ``scopes`` will show the change (see :meth:`showing`)."""
        today = self.daily.today().isoformat()
        for scope in scopes:
            self.changed(scope, today)

    def deleted(self, message_id: int) -> None:
        """A message was deleted: if it was a board of today, post it again."""
        key = self.known.pop(message_id, None)
        if key is not None and key[1] == self.daily.today().isoformat():
            self.changed(*key)

    async def board(self, guild_id: int, day: date) -> LiveBoard:
        """The board of ``day`` in a server, from the database: each daily someone here
        started or finished that day (the digest's reads, :mod:`bot.storage.digests`: three
        queries, whatever the number of kinds), then the shares counted here that day. The
        grids only once the day is closed: over, and none of its games going here."""
        digests = self.storage.digests
        all_finished = await digests.finished(guild_id, day.isoformat(), DIGEST_KINDS)
        all_started = await digests.unfinished(guild_id, day.isoformat(), DIGEST_KINDS)
        closed = day < self.daily.today() and not any(all_started.values())
        games, shares = [], []
        for kind in DIGEST_KINDS:
            finished = all_finished.get(kind, [])
            started = all_started.get(kind, [])
            spec = kind_name(kind)
            played = [r for r in finished if r.state]
            shared = [r for r in finished if not r.state]
            if played or started:
                if played:
                    title = day_title(shown_title(spec), day, played)
                else:
                    title = f"wordlebot {shown_title(spec)} #{shown_number(day)}"
                games.append(LiveGame(kind, title, _ranked(played, spec.limit, closed),
                                      [Member(s.player_id, s.name) for s in started]))  # fmt: skip
            if shared:
                title = day_title(shown_title(spec), day, shared)
                shares.append(LiveGame(kind, title, _ranked(shared, spec.limit, closed), [],
                                       shared=True))  # fmt: skip
        return LiveBoard(guild_id, day, games + shares, closed)

    async def day_over(self, day: date) -> int:
        """``day`` is over and its dailies closed: each of this process's servers' board of
        it is edited to show its grids (a board whose games are still going shows them once
        they close, as each close marks it). Returns how many boards were marked."""
        scopes = [scope for scope in await self.storage.live_boards.servers_with_board(
            day.isoformat()) if self.mine(scope)]  # fmt: skip
        for scope in scopes:
            self.changed(scope, day.isoformat())
        return len(scopes) if self.post is not None else 0

    async def show_now(self, guild_id: int) -> str | None:
        """Post (or update) today's board at once, as an admin sets its channel: None when
        it is in place, else Discord's refusal as ChannelGone's message (English; the
        front end translates it). Any other failure is raised, and tried again in the
        background as a failed edit is."""
        today = self.daily.today().isoformat()
        try:
            await self._show(guild_id, today, raising=True)
        except ChannelGone as gone:
            return str(gone)
        except Exception:
            self.changed(guild_id, today)
            raise
        return None

    async def _flush(self, key: tuple[int, str]) -> bool | None:
        if self.post is None or await self.storage.live_boards.channel(key[0]) is None:
            return None  # no board in this server: nothing shown, nothing to space out
        return await self._show(*key)

    async def _show(self, guild_id: int, day: str, *, raising: bool = False) -> bool:
        """Bring the server's board of ``day`` up to date; True to try again later."""
        if self.post is None or self.edit is None:
            return False
        boards = self.storage.live_boards
        channel = await boards.channel(guild_id)
        if channel is None:
            return False
        locale = negotiate((await self.storage.guild_settings(guild_id)).language)
        board = await self._read(guild_id, day, locale)
        stored = await boards.message(guild_id, day)
        today = day == self.daily.today().isoformat()
        if stored is None:
            if not today:  # a day over keeps the board it had; none is made for it now
                return False
            if not await boards.claim(guild_id, day, channel):
                return True  # another process is posting it: edit theirs next time
            return await self._post(guild_id, day, channel, board, raising)
        if stored.message_id is None:  # being posted by another process, or it died doing so
            if await boards.reclaim(guild_id, day, channel, None):
                return await self._post(guild_id, day, channel, board, raising)
            return True
        if stored.channel_id != channel:  # the channel changed today: a board there
            if today and await boards.reclaim(guild_id, day, channel, stored.message_id):
                return await self._post(guild_id, day, channel, board, raising)
            return False
        try:
            await self.edit(channel, stored.message_id, board)
        except MessageGone:
            self.known.pop(stored.message_id, None)
            if today and await boards.reclaim(guild_id, day, channel, stored.message_id):
                log.info("the live board of guild %s was deleted: posted again", guild_id)
                return await self._post(guild_id, day, channel, board, raising)
            return today  # another process posts it again: edit theirs next time
        except ChannelGone as gone:
            self._warn(guild_id, day, str(gone))
            if raising:
                raise
            return False
        except NotSent:
            return True
        self._know(stored.message_id, guild_id, day)
        # Another process's edit may have landed before this one and shown a change this
        # render missed: read again, and a board changed meanwhile is edited once more.
        return await self._read(guild_id, day, locale) != board

    async def _read(self, guild_id: int, day: str, locale: str) -> LiveBoard:
        with use_locale(locale):
            return await self.board(guild_id, date.fromisoformat(day))

    async def _post(self, guild_id: int, day: str, channel: int, board: LiveBoard,
                    raising: bool) -> bool:  # fmt: skip
        assert self.post is not None
        try:
            message_id = await self.post(channel, board)
        except ChannelGone as gone:
            await self.storage.live_boards.release(guild_id, day)
            self._warn(guild_id, day, str(gone))
            if raising:
                raise
            return False
        except NotSent:
            await self.storage.live_boards.release(guild_id, day)
            return True
        # Any other failure keeps the claim: the board may be in Discord; a claim with no
        # message is taken over after a minute (STALE).
        await self.storage.live_boards.posted(guild_id, day, message_id)
        self._know(message_id, guild_id, day)
        return False

    def _know(self, message_id: int, guild_id: int, day: str) -> None:
        if len(self.known) >= KNOWN and message_id not in self.known:
            self.known.clear()  # older boards: re-created at their next edit instead
        self.known[message_id] = (guild_id, day)

    def _warn(self, guild_id: int, day: str, why: str) -> None:
        if (guild_id, day) not in self.warned:
            if len(self.warned) >= KNOWN:
                self.warned.clear()
            self.warned.add((guild_id, day))
            log.warning("the live board of guild %s is not shown: %s", guild_id, why)


def _ranked(results: list[DayResult], limit: int, grids: bool) -> list[LiveResult]:
    """``results`` best first, losses last; their grids only if ``grids``."""
    ordered = sorted(results, key=lambda r: (r.guesses if r.won else 99, r.player_id))
    return [_live_result(r, limit, grids) for r in ordered]


def _live_result(result: DayResult, limit: int, grids: bool) -> LiveResult:
    score = f"{result.guesses}/{limit}" if result.won else f"X/{limit}"
    if result.state.get("mode") in ("hard", "strict"):  # strict keeps hard mode's rules too
        score += "*"
    rows = grid_digits(result) if grids else []
    return LiveResult(Member(result.player_id, result.name), score, rows)
