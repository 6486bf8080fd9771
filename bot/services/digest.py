"""The daily digest: yesterday's dailies in a server, posted once to the channel its admins
chose, shortly after the server's day ends.

When a digest is due. The puzzle day is one for everyone (``DAILY_TIMEZONE``, see
:mod:`bot.services.daily`); a server's own day ends at midnight in its time zone
(``/settings server timezone``, daylight saving included; the deployment's zone when unset). The
digest of puzzle day D is due once both have ended, plus a few minutes for the last
guesses: at the server's midnight after D, or at the end of puzzle D if that comes later
(a server far east of ``DAILY_TIMEZONE`` waits until nobody can play D any more, so the
digest never shows a day still being played). A digest missed while the bot was down is
posted when it comes back, as long as it is still the latest one due (within the next day).

Closed first: the digest of a day that has ended first closes that day's dailies still
going (:mod:`bot.services.closing`: they count as losses), so it never shows a game of its day
as open, nor the day's answer while someone could still play it; a digest that still finds
one open is not posted (its claim is given back for the next run).

Exactly once: :meth:`DigestService.run_due` claims a server's day in the database before
sending, as a lease that records the step reached (:mod:`bot.storage.digests`); every process
runs it, its own servers first, and no two can hold a day. A process that stops midway
(killed, or stopped past its drain) leaves the lease to lapse: the next run, in any process,
resumes at the step reached. The post carries a nonce of the server and day
(:func:`post_nonce`) that Discord enforces, so a post sent again after an unknown outcome
returns the first message instead of a second one (within Discord's few minutes:
:data:`NONCE_WINDOW`; past them the digest is not sent again).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from itertools import groupby
from typing import TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.i18n import _, negotiate, use_locale
from bot.services.analysis import coach_game
from bot.services.closing import ClosingService
from bot.services.daily import EPOCH, DailyPuzzles, shown_number
from bot.services.kinds import (
    DAILY_KINDS,
    DEFAULT_LANGUAGE,
    NotShipped,
    kind_for,
    kind_name,
    parse,
    shown_title,
)
from bot.services.request_budget import Priority, requests_as
from bot.services.skill import COACH_POOL
from bot.services.winner_role import RoleDoor, Say, crown
from bot.storage import Storage
from bot.storage.digests import LEASE, DayResult, DayStart, DigestChannel, Lease
from bot.storage.periods import season_of
from bot.storage.shares import COUNTED_GAMES
from engine.game import WordleGame
from engine.pattern import to_digits
from engine.solver.coach import Coaching

log = logging.getLogger("wordlebot.digest")

# The dailies played here, then the multi-board games whose shares count (not played here).
DIGEST_KINDS = tuple(dict.fromkeys([*DAILY_KINDS, *(f"{game}:daily" for game in COUNTED_GAMES)]))
SETTLE = timedelta(minutes=5)  # after a day ends, before its digest: the last guesses land
STREAK_LOOKBACK = 366  # days read back for a group streak (a longer one shows as 366+)
# The highlight coaches the day's first games (about 0.16 s each), in the coaching worker:
# digests after midnight never queue in front of a player's /analyze, nor a board image.
COACHED_GAMES = 10
# How long after a post was first sent its nonce surely holds: Discord checks a nonce "in the
# past few minutes" (Create Message, enforce_nonce). Past that a post whose outcome is
# unknown is not sent again: at most once, never twice.
NONCE_WINDOW = timedelta(minutes=2)
CLAIMED, SENDING, POSTED = "claimed", "sending", "posted"  # a lease's steps (then done)
AT_ONCE = 8  # digests a process makes at a time


def post_nonce(guild_id: int, day: date) -> str:
    """The nonce of a server's digest of ``day``: the same in every process and every try,
    25 characters (Discord's limit), so Discord returns a post already made instead of
    making it twice."""
    key = f"wordlebot-digest:{guild_id}:{day.isoformat()}".encode()
    return "digest" + hashlib.blake2b(key, digest_size=10).hexdigest()[:19]


@dataclass(frozen=True)
class Member:
    player_id: int
    name: str


@dataclass(frozen=True)
class Highlight:
    member: Member
    turn: int  # 1-based
    guess: str
    value: int  # skill or luck, 0..99


@dataclass(frozen=True)
class GameDigest:
    kind: str
    title: str  # "wordlebot Wordle #20260301"
    streak: int  # consecutive days, ending with this one, on which someone here finished
    # "3/6" -> players, best first, failures last; the crowned have a line of their own (a
    # share with their score follows it).
    scores: list[tuple[str, list[Member]]]
    unfinished: list[Member]
    grids: list[tuple[Member, list[str]]]  # each finished game's rows as pattern digits
    length: int
    limit: int
    skilful: Highlight | None = None
    luckiest: Highlight | None = None
    # The bot's answer of that day, for a daily it hosts ("" for the other games' shares):
    # a digest is only made once its day is over, when the answer may be told.
    answer: str = ""
    variant: str = ""
    # 👑, and the winner's role: the best won game played with the bot that day, in the
    # server's own Wordle only (one crown a server a day: a lone player on a daily nobody
    # else plays wins nothing). A pasted share can be typed by anyone, so it is listed with
    # its score, never crowned.
    crowned: list[Member] = field(default_factory=list)
    # The shares typed here for this kind, in a section of their own after every game played
    # with the bot (never crowned, never on top); its streak 0 when the kind's games played
    # here show the streak already.
    shared: bool = False


@dataclass(frozen=True)
class Podium:
    """A season's final top three by wins (tied players share a place)."""

    season: int
    first: date
    last: date
    places: list[tuple[int, Member, int]]  # rank, player, wins

    @property
    def title(self) -> str:
        """ "Season 61 (2026-02-21 to 2026-03-20)", in the current locale (where shown)."""
        return _("Season {number} ({first} to {last})").format(
            number=self.season, first=self.first, last=self.last
        )


@dataclass(frozen=True)
class Digest:
    guild_id: int
    day: date
    games: list[GameDigest]
    podium: Podium | None = None  # on the last day of a season

    @property
    def empty(self) -> bool:
        return not self.games and self.podium is None


class ChannelGone(Exception):
    """The digest's channel is deleted or the bot may not post there: the digest is turned
    off and the admin who chose the channel is told."""


class NotSent(Exception):
    """Sending failed before anything reached Discord (no connection): try again later."""


Post = Callable[[DigestChannel, Digest], Awaitable[int]]  # sends; returns the message id
Warn = Callable[[DigestChannel, str], Awaitable[None]]  # tells the admin
Crowning = tuple[DigestChannel, Lease, Digest]  # a digest posted whose roles are to move
T = TypeVar("T")


def zone_of(name: str | None, default: ZoneInfo) -> ZoneInfo:
    try:
        return ZoneInfo(name) if name else default
    except (ZoneInfoNotFoundError, ValueError):
        return default


class DigestService:
    def __init__(self, storage: Storage, daily: DailyPuzzles, settle: timedelta = SETTLE,
                 lease: timedelta = LEASE) -> None:  # fmt: skip
        self.storage = storage
        self.daily = daily  # its clock is the digest's (and its leases'): tests set it there
        self.settle = settle
        self.lease = lease
        self.holder = secrets.token_hex(8)  # this process, in the leases it holds
        # closes a day's dailies before the day is read: the service the closing job runs,
        # so the live board is told of each (Services shares it)
        self.closing = ClosingService(storage, daily)

    def due_day(self, timezone: str | None, now: datetime | None = None) -> date:
        """The latest puzzle day whose digest is due now for a server in ``timezone``."""
        settled = (now or self.daily.clock()) - self.settle
        puzzle_today = settled.astimezone(self.daily.zone).date()
        local_today = settled.astimezone(zone_of(timezone, self.daily.zone)).date()
        return min(puzzle_today, local_today) - timedelta(days=1)

    def day_problem(self, day: date, timezone: str | None) -> str | None:
        """Why ``day`` has no digest to show, or None: digests are of days from puzzle #0
        to the latest that is over (a later day's would show answers still in play)."""
        latest = self.due_day(timezone)
        if EPOCH <= day <= latest:
            return None
        return _("No digest for {day}: give a day from {first} (puzzle #0) to {last}").format(
            day=day, first=EPOCH, last=latest
        )

    async def digest(self, guild_id: int, day: date) -> Digest:
        """The digest of ``day`` in a server (0: direct messages), for every daily game
        someone finished there that day. A day that has ended has its dailies still going
        closed first (as losses)."""
        if day < self.daily.today():
            await self.closing.close_dailies(day + timedelta(days=1))
        digests = self.storage.digests
        all_finished = await digests.finished(guild_id, day.isoformat(), DIGEST_KINDS)
        all_started = await digests.unfinished(guild_id, day.isoformat(), DIGEST_KINDS)
        crowning = await self.crown_kind(guild_id)
        games, shares = [], []
        for kind in DIGEST_KINDS:
            finished = all_finished.get(kind)
            if not finished:
                continue
            started = all_started.get(kind, [])
            days = await digests.days_played(guild_id, kind, day.isoformat(), STREAK_LOOKBACK)
            played = [r for r in finished if r.state]
            shared = [r for r in finished if not r.state]
            if played:
                games.append(await self._game(kind, day, played, started, days, kind == crowning))
            if shared:  # never crowned: anyone can type a share
                game = await self._game(kind, day, shared, [], [] if played else days, False)
                shares.append(replace(game, shared=True, answer=""))  # not our puzzle's
        return Digest(guild_id, day, games + shares, await self._podium(guild_id, day))

    async def crown_kind(self, guild_id: int) -> str:
        """The one daily whose best game takes the server's crown (👑 and the winner's role):
        the server's own Wordle daily, in the language and length its admins chose
        (``/settings server``; English five letters by default). One prize a server a day,
        which everyone there is asked to play, so nobody wins it alone on a game nobody
        else plays."""
        settings = await self.storage.guild_settings(guild_id)
        try:
            game = kind_for("wordle", settings.language or DEFAULT_LANGUAGE, settings.word_length)
        except NotShipped:  # a list no longer shipped: the original's
            game = "wordle"
        return f"{game}:daily"

    async def _podium(self, guild_id: int, day: date) -> Podium | None:
        """The Wordle daily season's podium, when ``day`` ends the server's season: its wins
        played with the bot (a share, typed by anyone, takes no place on it)."""
        length = (await self.storage.guild_settings(guild_id)).season_days
        season = season_of(day, length)
        if day != season.last:
            return None
        rows = await self.storage.digests.wins_played(
            guild_id, DIGEST_KINDS[0], season.first.isoformat(), season.last.isoformat(), 10
        )
        places = []
        for player_id, name, wins in rows:
            rank = 1 + sum(1 for _p, _n, more in rows if more > wins)  # tied share a place
            if rank <= 3:
                places.append((rank, Member(player_id, name), wins))
        if not places:
            return None
        return Podium(season.number, season.first, season.last, places)

    async def _game(self, kind: str, day: date, finished: list[DayResult],
                    started: list[DayStart], days: list[str],
                    crowns: bool) -> GameDigest:  # fmt: skip
        spec = kind_name(kind)
        streak = 0  # days are newest first: count back from this one while none is missing
        while streak < len(days) and days[streak] == (day - timedelta(days=streak)).isoformat():
            streak += 1

        def score(r: DayResult) -> tuple[int, str]:
            return (r.guesses, f"{r.guesses}/{spec.limit}") if r.won else (99, f"X/{spec.limit}")

        played_here = sorted((r for r in finished if r.state), key=lambda r: score(r)[0])
        best = [r for r in played_here
                if crowns and r.won and r.guesses == played_here[0].guesses]  # fmt: skip

        def line(r: DayResult) -> tuple[int, str, bool]:  # the crowned first among equals
            return (*score(r), r not in best)

        ordered = sorted(finished, key=lambda r: (line(r), r.player_id))
        scores = [(label, [Member(r.player_id, r.name) for r in group])
                  for (_rank, label, _crowned), group in groupby(ordered, key=line)]  # fmt: skip
        grids = [(Member(r.player_id, r.name), grid_digits(r)) for r in ordered]
        played_here = [r for r in ordered if r.state]
        skilful, luckiest = await self._highlights(played_here[:COACHED_GAMES])
        hosted = kind.endswith(":daily") and spec.daily
        return GameDigest(
            kind, day_title(shown_title(spec), day, finished), streak, scores,
            [Member(s.player_id, s.name) for s in started], grids,
            max((len(d) for _member, rows in grids for d in rows), default=5), spec.limit, skilful,
            luckiest, self.daily.answer(spec.variant, day) if hosted else "", spec.variant,
            [Member(r.player_id, r.name) for r in ordered if r in best],
        )  # fmt: skip

    async def _highlights(
        self, results: list[DayResult]
    ) -> tuple[Highlight | None, Highlight | None]:
        """The day's most skilful guess and its luckiest, from the coach."""
        skilful: Highlight | None = None
        luckiest: Highlight | None = None
        for r in results:
            report = await coach_game(r.state, COACH_POOL, rollout=False)
            if not isinstance(report, Coaching):  # a daily is Wordle or Primel: always one
                continue
            member = Member(r.player_id, r.name)
            for i, turn in enumerate(report.turns, 1):
                if turn.skill is not None and (skilful is None or turn.skill > skilful.value):
                    skilful = Highlight(member, i, turn.guess, turn.skill)
                if luckiest is None or turn.luck > luckiest.value:
                    luckiest = Highlight(member, i, turn.guess, turn.luck)
        return skilful, luckiest

    async def _open_games(self, guild_id: int, day: str) -> bool:
        """Whether a daily of ``day`` (or before) is still going in the server."""
        after = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
        still_open = await self.storage.open_dailies(DAILY_KINDS, after)
        return any(g.scope == guild_id for g in still_open)

    # -- the job -----------------------------------------------------------------------

    async def run_due(
        self, post: Post, warn: Warn, now: datetime | None = None, *,
        door: RoleDoor | None = None, say: Say | None = None,
        mine: Callable[[int], bool] | None = None, at_once: int = AT_ONCE,
    ) -> list[Digest]:  # fmt: skip
        """Post every digest that is due and not done nor held by another process; returns
        those posted. Each is leased (:mod:`bot.storage.digests`) and resumed where a stopped
        process left it. A day with no finished daily posts nothing. A channel that is gone
        turns the server's digest off and tells its admin. A digest not built, or not sent
        (whatever the reason: its nonce makes a second send return the first message), gives
        its lease back and the next run tries again. With ``door``, a day posted (or found
        empty) then moves the winner's role to its crowned players
        (:mod:`bot.services.winner_role`; ``say`` says its problems).

        Every process of a deployment runs this: ``mine`` says which servers are its own
        (its shards'), done first; then any other still due, in an order of its own, so a
        process that died leaves nothing undone and the living ones do not all reach for the
        same server. ``at_once`` digests are made at a time, so none waits on another
        server's slow channel (the deployment's request budget paces what they send)."""
        digests = self.storage.digests
        due = {c: self.due_day(c.timezone, now).isoformat() for c in await digests.channels()}
        taken = await digests.taken(min(due.values(), default="9999"), self.daily.clock())
        todo = [(c, day) for c, day in due.items() if (c.guild_id, day) not in taken]
        todo.sort(key=lambda item: (not (mine is None or mine(item[0].guild_id)),
                                    hashlib.blake2b(f"{self.holder}{item[0].guild_id}".encode(),
                                                    digest_size=4).digest()))  # fmt: skip
        posted: list[Digest] = []
        crowns: list[Crowning] = []  # posted (or empty), their leases kept: the roles next

        async def posting(item: tuple[DigestChannel, str]) -> None:
            digest = await self._run_one(*item, post, warn, crowns if door and say else None)
            if digest is not None:
                posted.append(digest)

        async def crowning(item: Crowning) -> None:
            channel, lease, digest = item
            await self._crown(channel, digest, door, say)
            await digests.done(lease)

        # The posts first, then the roles: the deployment's budget also holds every
        # process's roles until all the digests are out (bot/services/request_budget.py).
        async with self._holding(crowns):
            try:
                await each(todo, posting, at_once)
                with requests_as(Priority.ROLE):
                    await each(crowns, crowning, at_once)
            except BaseException:  # a stop: the roles not moved go to the next run, any process's
                with contextlib.suppress(Exception):
                    for _channel, lease, _digest in crowns:  # (those done stay done)
                        await digests.release(lease, self.daily.clock())
                raise
        return posted

    async def _run_one(self, channel: DigestChannel, day: str, post: Post, warn: Warn,
                       crowns: list[Crowning] | None) -> Digest | None:  # fmt: skip
        digests = self.storage.digests
        lease = await digests.claim(channel.guild_id, day, channel.channel_id, self.holder,
                                    self.daily.clock(), self.lease)  # fmt: skip
        if lease is None:
            return None  # another runner holds it, or finished it meanwhile
        async with self._renewing(lease):
            try:
                return await self._resume(lease, channel, post, warn, crowns)
            except BaseException:  # a stop (cancelled past the drain), a database gone
                with contextlib.suppress(Exception):
                    await digests.release(lease, self.daily.clock())
                raise

    @contextlib.asynccontextmanager
    async def _holding(self, crowns: list[Crowning]) -> AsyncIterator[None]:
        """Keep the leases of the digests whose roles wait (``crowns``, as it fills), all in
        one statement every third of a lease."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(self.lease.total_seconds() / 3)
                if crowns:
                    with contextlib.suppress(Exception):  # the database away: next time
                        now = self.daily.clock()
                        await self.storage.digests.renew_held(self.holder, now, now + self.lease)

        renewing = asyncio.create_task(renew())
        try:
            yield
        finally:
            renewing.cancel()

    @contextlib.asynccontextmanager
    async def _renewing(self, lease: Lease) -> AsyncIterator[None]:
        """Hold ``lease`` while the block runs: renewed every third of its length."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(self.lease.total_seconds() / 3)
                until = self.daily.clock() + self.lease
                try:
                    if not await self.storage.digests.renew(lease, until):
                        log.warning("digest of guild %s for %s: taken over by another process",
                                    lease.guild_id, lease.day)  # fmt: skip
                        return
                except Exception:  # the database did not answer: try again next time
                    log.warning("digest of guild %s for %s: lease not renewed", lease.guild_id,
                                lease.day)  # fmt: skip

        renewing = asyncio.create_task(renew())
        try:
            yield
        finally:
            renewing.cancel()

    async def _resume(self, lease: Lease, channel: DigestChannel, post: Post, warn: Warn,
                      crowns: list[Crowning] | None) -> Digest | None:  # fmt: skip
        """Take a leased digest from its step to posted, and to done unless its roles are to
        move (``crowns``: added there, the lease kept); the digest posted, if this run did."""
        digests, day = self.storage.digests, lease.day
        if lease.step == SENDING and lease.sent_at is not None:
            sent = datetime.fromisoformat(lease.sent_at)
            if self.daily.clock() - sent > NONCE_WINDOW:  # at most once, rather than twice
                log.error("digest of guild %s for %s: sent at %s with no answer, too long ago "
                          "for its nonce to hold; not sent again", lease.guild_id, day,
                          lease.sent_at)  # fmt: skip
                await digests.done(lease)
                return None
        try:  # built in the server's language, as it is posted (again when resumed)
            settings = await self.storage.guild_settings(channel.guild_id)
            with use_locale(negotiate(settings.language)):
                digest = await self.digest(channel.guild_id, date.fromisoformat(day))
        except Exception:
            await digests.release(lease, self.daily.clock())
            log.exception("digest of guild %s for %s not built; will retry",
                          channel.guild_id, day)  # fmt: skip
            return None
        if await self._open_games(channel.guild_id, day):  # not all closed: not yet
            await digests.release(lease, self.daily.clock())
            log.warning("digest of guild %s for %s waits: a game of that day is open",
                        channel.guild_id, day)  # fmt: skip
            return None
        if not digest.empty and lease.step != POSTED:
            if not await digests.sending(lease, self.daily.clock()):
                return None  # taken over
            try:
                message_id = await post(channel, digest)
            except ChannelGone as gone:
                await digests.set_channel(channel.guild_id, None, None)
                await digests.done(lease)
                why = _(str(gone))  # cogs mark the reasons they raise ChannelGone with
                await warn(channel, _("The daily digest is off: {why}. Choose a channel again "
                                      "with /digest channel.").format(why=why))  # fmt: skip
                return None
            except NotSent:  # nothing reached Discord this time
                if lease.step == CLAIMED:
                    await digests.unsent(lease)
                await digests.release(lease, self.daily.clock())
                log.warning("digest of guild %s for %s not sent; will retry",
                            channel.guild_id, day)  # fmt: skip
                return None
            except Exception:  # it may have reached Discord: its nonce makes a retry safe
                await digests.release(lease, self.daily.clock())
                log.exception("digest of guild %s for %s: no answer; tried again with its "
                              "nonce", channel.guild_id, day)  # fmt: skip
                return None
            if not await digests.posted(lease, message_id):
                return None  # taken over: the taker moves the role
        if crowns is None:
            await digests.done(lease)
        else:
            crowns.append((channel, lease, digest))
        return None if digest.empty or lease.step == POSTED else digest

    async def _crown(self, channel: DigestChannel, digest: Digest, door: RoleDoor | None,
                     say: Say | None) -> None:  # fmt: skip
        """The winner's role to the day's crowned (👑: games played with the bot, never a
        share): never the digest's undoing."""
        if door is None or say is None:
            return
        winners = {m.player_id for game in digest.games for m in game.crowned}
        try:  # what it says, it says in the server's language
            settings = await self.storage.guild_settings(channel.guild_id)
            with use_locale(negotiate(settings.language)):
                await crown(self.storage, door, say, channel, digest.day.isoformat(), winners)
        except Exception:
            log.exception("winner's role of guild %s for %s not moved", channel.guild_id,
                          digest.day)  # fmt: skip


async def each(items: list[T], work: Callable[[T], Awaitable[None]], at_once: int) -> None:
    """``work`` on every item, ``at_once`` at a time."""
    queue = iter(items)

    async def worker() -> None:
        for item in queue:
            await work(item)

    async with asyncio.TaskGroup() as group:
        for _ in range(min(at_once, len(items))):
            group.create_task(worker())


def day_title(title: str, day: date, results: list[DayResult]) -> str:
    """ "wordlebot Wordle #20260301" for our daily; a shared game's own name and number."""
    if any(r.state for r in results):
        return f"wordlebot {title} #{shown_number(day)}"
    numbers = [r.puzzle for r in results if r.puzzle is not None]
    number = max(set(numbers), key=numbers.count) if numbers else DailyPuzzles.number(day)
    return f"{title} #{number}"


def grid_digits(result: DayResult) -> list[str]:
    """A result's grid, a row of pattern digits per guess; a multi-board share's boards side
    by side, a space between them (a board already solved leaves spaces)."""
    if result.grid is not None:
        try:
            boards = [[to_digits(int(p), 5) for p in board.split(",") if p]
                      for board in result.grid.split("|")]  # fmt: skip
        except ValueError:  # the Wordle app's results have no grid
            return []
        height = max((len(b) for b in boards), default=0)
        return [" ".join(b[r] if r < len(b) else " " * 5 for b in boards) for r in range(height)]
    game = parse(result.state)
    if not isinstance(game, WordleGame):
        return []
    return [to_digits(pattern, game.variant.length) for _guess, pattern in game.rows]
