"""One budget of requests to Discord for the whole deployment.

Discord lets a bot send 50 requests a second across all its processes together (the answers
to interactions aside), and bans its address for a while after 10,000 refused ones (401, 403,
429) in ten minutes. discord.py counts the first per process, so N processes could send
N x 50 a second. Here every request that is not an answer to an interaction takes a send time
on one schedule that the processes share through the database
(:mod:`bot.storage.request_pace`): ``rate`` a second, evenly spaced, so no second, however
it is cut, holds more than Discord allows (a send a little late on a busy loop included:
``rate`` stays a few under 50).

Why the database and not a REST proxy owning the buckets (the other usual design): the
processes already share the database for everything that must happen once, it needs no new
service to run, and one statement reserves several send times (:data:`BATCH`), a few round
trips a second at the full rate. What a proxy would add, per-route buckets across processes,
matters little here: a server's requests come from the process holding its shard, and
discord.py keeps each route's bucket from Discord's headers.

Priorities: who waits goes in order of :class:`Priority` within a process, and across
processes a request takes a time only while the shared schedule runs at most its
:data:`HORIZONS` ahead, and not while work it yields to holds the schedule (:data:`YIELDS`):
the digests first, then the winners' roles, then the rest; while digests and roles keep the
schedule full, the live boards' edits wait (each board's next edit then shows every change
made meanwhile: its window widens), and reminders take what is left. Without the database
(down a moment) a process goes on alone at a fraction of the rate (:data:`ALONE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from enum import IntEnum

from bot.storage.request_pace import RequestPace

log = logging.getLogger("wordlebot.requests")

RATE = 48.0  # requests a second for the whole deployment (Discord allows 50)
MOST = 49  # in any second, cut anywhere, sends included that a busy loop made a little late
BATCH = 8  # send times reserved per trip to the database (the day's work: a second's)
RETRY_SECONDS = 0.05  # before asking again when the schedule runs too far ahead
# A process whose loop reaches its times too late, a few in a row, reserves empty times after
# each request (a pad, doubled while still too late, halved once on time): a late send then
# crowds no one's second, and a process too busy to keep time still makes progress.
LATE_IN_A_ROW = 3
LATE_AT_LEAST = 0.01  # seconds a send may be late whatever the rate
ALONE = 0.25  # the share of the rate a process uses alone while the database is away
# ... once it has not answered for this long: a moment's contention (a lock held under load)
# is waited out, since a process alone adds its share to what the others send
ALONE_AFTER = 1.0
# Discord bans an address after 10,000 refusals in 10 minutes: past a tenth of that the
# live boards wait (they cause most requests, and a refusal is mostly a closed channel)
REFUSALS_WINDOW_MINUTES, REFUSALS_CALM = 10, 1_000
REFUSALS_READ_SECONDS = 10.0  # how often the deployment's count is written and read


class Priority(IntEnum):
    DAY = 0  # the day's digests, an admin told their digest stopped
    ROLE = 1  # the winners' roles moved, once the deployment's digests are out
    NORMAL = 2  # everything else: reminders, announcements, commands synced
    LIVE = 3  # the live boards' posts and edits


# How far ahead of now the shared schedule may run for a request to still take a time on it.
HORIZONS = {Priority.DAY: 60.0, Priority.ROLE: 60.0, Priority.NORMAL: 0.5, Priority.LIVE: 0.25}

# The work that holds the schedule while any process has times of it reserved, and this long
# after (a digest being made asks again within it: its image, the next server's), and the
# work that waits for it: the roles after every process's digests, the live boards after both,
# so neither slips in between and stretches the night.
HOLDS = 1.0
HOLDS_FOR = {Priority.DAY: "busy", Priority.ROLE: "busy roles"}  # the rows that hold
YIELDS = {Priority.ROLE: (Priority.DAY,), Priority.LIVE: (Priority.DAY, Priority.ROLE)}

PRIORITY: ContextVar[Priority] = ContextVar("request_priority", default=Priority.NORMAL)


@contextlib.contextmanager
def requests_as(priority: Priority) -> Iterator[None]:
    """The requests made in this block (this task and those it starts) go at ``priority``."""
    token = PRIORITY.set(priority)
    try:
        yield
    finally:
        PRIORITY.reset(token)


class RequestBudget:
    """A process's door to the shared schedule: :meth:`turn` returns when a request may go."""

    def __init__(self, pace: RequestPace, rate: float = RATE,
                 clock: Callable[[], float] = time.time) -> None:  # fmt: skip
        self.pace = pace
        self.spacing = 1.0 / rate
        # a send this late still keeps every second within MOST (at a rate near 50, a little);
        # below the default rate, no later than at it: the difference is headroom (the
        # network's delays), not a longer allowance
        self.late = max(MOST / max(rate, RATE) - 1, LATE_AT_LEAST)
        self.clock = clock  # wall time, the schedule's (SQLite's) moments
        self.waiting: list[tuple[int, int, asyncio.Future[float]]] = []
        self._order = itertools.count()
        self._wake: asyncio.Event | None = None
        self._dispatcher: asyncio.Task[None] | None = None
        self.sent: Counter[Priority] = Counter()  # requests let go, by priority
        self.waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds waited
        self.alone = False  # the database did not answer: paced alone
        self._unanswered: float | None = None  # since when the database has not answered
        self._said = False  # what it sent, logged at the stop
        self._late = 0  # times given up in a row, reached too late
        self._pad = 0  # empty times reserved after each request while this loop runs late
        self.padded = 0  # requests sent with empty times after them
        self.given_up = 0  # times reserved and not used, reached too late
        # The database's clock less this process's (PostgreSQL's schedule is in its time),
        # measured as NTP does over the quickest round trip of the last minute
        self.offset, self._trip, self._offset_at = 0.0, float("inf"), float("-inf")
        self._refused = 0  # refusals not yet added to the deployment's count
        self._refusals = 0  # the deployment's last ten minutes, as last read
        self._refusals_read = float("-inf")

    async def turn(self, priority: Priority | None = None) -> None:
        """Wait until a request at ``priority`` (the block's :func:`requests_as`, else
        NORMAL) may be sent."""
        priority = PRIORITY.get() if priority is None else priority
        loop, began, order = asyncio.get_running_loop(), time.monotonic(), next(self._order)
        while True:
            future: asyncio.Future[float] = loop.create_future()
            heapq.heappush(self.waiting, (priority, order, future))
            if self._dispatcher is None or self._dispatcher.done():
                self._wake = asyncio.Event()
                self._dispatcher = loop.create_task(self._dispatch(), name="request budget")
            assert self._wake is not None
            self._wake.set()
            latest = await future  # the latest moment its time still allows
            now = self.clock()
            if now <= latest:
                break
            self._too_late(now - latest + self.late, 1)  # woken too late: in its place again
        self.sent[priority] += 1
        self.waited[priority] += time.monotonic() - began

    def refused(self) -> None:
        """Discord refused a request (401, 403, or a 429 not of a shared bucket)."""
        self._refused += 1

    @property
    def refusals(self) -> int:
        """The deployment's refusals in the last ten minutes, as last read."""
        return self._refusals

    async def close(self) -> None:
        """Stop; said once in the log: what this process sent (the services may be closed
        twice)."""
        if sum(self.sent.values()) and not self._said:
            self._said = True
            log.info("requests to Discord: %s sent; %d times given up, reached late, %d sent "
                     "padded; %.1f s waited in all", ", ".join(f"{n} {p.name.lower()}" for p, n
                                                               in sorted(self.sent.items())),
                     self.given_up, self.padded, sum(self.waited.values()))  # fmt: skip
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._dispatcher
        for _p, _n, future in self.waiting:
            future.cancel()
        self.waiting.clear()

    # -- the dispatcher ----------------------------------------------------------------

    def _top(self) -> Priority | None:
        while self.waiting and self.waiting[0][2].done():  # cancelled while waiting
            heapq.heappop(self.waiting)
        return Priority(self.waiting[0][0]) if self.waiting else None

    async def _dispatch(self) -> None:
        assert self._wake is not None
        while True:
            top = self._top()
            if top is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._count_refusals()
            if top == Priority.LIVE and self._refusals >= REFUSALS_CALM:
                await asyncio.sleep(REFUSALS_READ_SECONDS)
                continue
            # the day's work reserves what waits (up to a second's), so that the schedule
            # runs ahead past the others' horizons while it lasts
            most = max(BATCH, int(1.0 / self.spacing)) if top in HOLDS_FOR else BATCH
            count = min(most, sum(1 for p, _n, f in self.waiting if p == top and not f.done()))
            pad = self._pad  # the empty times this batch holds (its requests': one then)
            if pad:
                count = 1
            first = await self._reserve(count + pad, top)
            if first is None:  # the schedule runs too far ahead for this priority
                await asyncio.sleep(RETRY_SECONDS)
                continue
            spacing = self.spacing / ALONE if self.alone else self.spacing
            for i in range(count):
                due = first + i * spacing  # by this process's clock
                await asyncio.sleep(max(0.0, due - self.clock()))
                late = self.clock() - due
                allowed = self.late + pad * spacing
                if late > allowed:
                    # This loop was held past the time: sent now it would crowd another
                    # process's second. The time goes unused; the request takes the next.
                    self._too_late(late, 1)
                    continue
                if self._top() is None:
                    break  # its waiter was cancelled: the time goes unused
                self._late = 0
                self.padded += pad > 0
                if late <= self.late:
                    self._pad //= 2
                heapq.heappop(self.waiting)[2].set_result(due + allowed)

    def _too_late(self, late: float, times: int) -> None:
        """``times`` reserved go unused, the first reached ``late`` seconds after it: a few
        in a row, and the next requests are padded with empty times to cover as much."""
        self.given_up += times
        self._late += 1
        if self._late >= LATE_IN_A_ROW:
            self._pad = min(int(1.0 / self.spacing),
                            max(2 * self._pad, math.ceil(late / self.spacing)))  # fmt: skip

    async def _reserve(self, count: int, priority: Priority) -> float | None:
        """The first of ``count`` times reserved, by this process's clock; None: refused, or
        the database did not answer (a moment: :data:`ALONE_AFTER`)."""
        asked = self.clock()
        try:
            got = await self.pace.reserve(
                count, self.spacing, HORIZONS[priority], asked,
                hold=(HOLDS_FOR[priority], HOLDS) if priority in HOLDS_FOR else None,
                yields=[HOLDS_FOR[p] for p in YIELDS.get(priority, ())],
            )  # fmt: skip
        except Exception:
            self._unanswered = self._unanswered or time.monotonic()
            if time.monotonic() - self._unanswered < ALONE_AFTER:
                return None  # asked again in a moment
            if not self.alone:
                log.warning("the request budget is not shared while the database does not "
                            "answer: this process sends at %d%% of the rate",
                            ALONE * 100, exc_info=True)  # fmt: skip
            self.alone = True
            return self.clock()
        self._unanswered = None
        if self.alone:
            log.info("the request budget is shared again")
            self.alone = False
        if got is None:
            return None
        first, their_now = got
        if self.pace.own_clock:  # the database's clock: how far it is from ours
            answered = self.clock()
            self._offset(their_now - (asked + answered) / 2, answered - asked, answered)
        return first - self.offset

    def _offset(self, offset: float, trip: float, now: float) -> None:
        """Keep the offset measured over the quickest round trip (the surest), taking a
        newer one once the kept is a minute old (clocks drift)."""
        if trip <= self._trip or now - self._offset_at > 60:
            self.offset, self._trip, self._offset_at = offset, trip, now

    async def tally(self) -> int:
        """Add this process's refusals to the deployment's count; returns the count of the
        last ten minutes, every process's."""
        minute = int(self.clock() // 60)
        if self._refused:
            count = self._refused
            await self.pace.refused(minute, count)
            self._refused -= count
        self._refusals = await self.pace.refusals(minute - REFUSALS_WINDOW_MINUTES + 1)
        if self._refusals >= REFUSALS_CALM:
            log.error("Discord refused %d requests in the last %d minutes (it bans the "
                      "address at 10,000): the live boards wait", self._refusals,
                      REFUSALS_WINDOW_MINUTES)  # fmt: skip
        return self._refusals

    async def _count_refusals(self) -> None:
        now = time.monotonic()
        if now - self._refusals_read < REFUSALS_READ_SECONDS:
            return
        self._refusals_read = now
        with contextlib.suppress(Exception):  # the database away: next time
            await self.tally()
