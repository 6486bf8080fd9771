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
:data:`HORIZONS` ahead: while digests and roles keep it full, the live boards' edits wait
(each board's next edit then shows every change made meanwhile: its window widens), and
reminders take what is left. Without the database (down a moment) a process goes on alone
at a fraction of the rate (:data:`ALONE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from enum import IntEnum

from bot.storage.request_pace import RequestPace

log = logging.getLogger("wordlebot.requests")

RATE = 46.0  # requests a second for the whole deployment (Discord allows 50)
BATCH = 8  # send times reserved per trip to the database (the day's work: a second's)
RETRY_SECONDS = 0.05  # before asking again when the schedule runs too far ahead
# A time reached this late (a busy loop) is given up: at 46 a second, sends up to 60 ms
# late keep any second within 50. After a few given up in a row one goes anyway, late:
# a process too busy to keep time still makes progress.
LATE, LATE_IN_A_ROW = 0.06, 3
ALONE = 0.25  # the share of the rate a process uses alone while the database is away
# Discord bans an address after 10,000 refusals in 10 minutes: past a tenth of that the
# live boards wait (they cause most requests, and a refusal is mostly a closed channel)
REFUSALS_WINDOW_MINUTES, REFUSALS_CALM = 10, 1_000
REFUSALS_READ_SECONDS = 10.0  # how often the deployment's count is written and read


class Priority(IntEnum):
    DAY = 0  # the day's digest, the winner's role, an admin told their digest stopped
    NORMAL = 1  # everything else: reminders, announcements, commands synced
    LIVE = 2  # the live boards' posts and edits


# How far ahead of now the shared schedule may run for a request to still take a time on it.
HORIZONS = {Priority.DAY: 60.0, Priority.NORMAL: 0.5, Priority.LIVE: 0.25}

# The live boards wait while any process has the day's work reserved, and this long after:
# a digest being made asks again within it (its image, its role), so the boards never slip
# in between and stretch the night.
HOLDS = 1.0

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
        self.clock = clock  # wall time, the schedule's (SQLite's) moments
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._wake: asyncio.Event | None = None
        self._dispatcher: asyncio.Task[None] | None = None
        self.sent: Counter[Priority] = Counter()  # requests let go, by priority
        self.waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds waited
        self.alone = False  # the database did not answer: paced alone
        self._said = False  # what it sent, logged at the stop
        self._late = 0  # times given up in a row, reached too late
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
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self.waiting, (priority, next(self._order), future))
        if self._dispatcher is None or self._dispatcher.done():
            self._wake = asyncio.Event()
            self._dispatcher = loop.create_task(self._dispatch(), name="request budget")
        assert self._wake is not None
        self._wake.set()
        began = time.monotonic()
        await future
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
            log.info("requests to Discord: %s sent; %d times given up, reached late; %.1f s "
                     "waited in all", ", ".join(f"{n} {p.name.lower()}" for p, n in
                                                sorted(self.sent.items())),
                     self.given_up, sum(self.waited.values()))  # fmt: skip
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
            most = max(BATCH, int(1.0 / self.spacing)) if top == Priority.DAY else BATCH
            count = min(most, sum(1 for p, _n, f in self.waiting if p == top and not f.done()))
            first = await self._reserve(count, top)
            if first is None:  # the schedule runs too far ahead for this priority
                await asyncio.sleep(RETRY_SECONDS)
                continue
            spacing = self.spacing / ALONE if self.alone else self.spacing
            for i in range(count):
                due = first + i * spacing  # by this process's clock
                await asyncio.sleep(max(0.0, due - self.clock()))
                if self.clock() - due > LATE and self._late < LATE_IN_A_ROW:
                    # This loop was held past the time: sent now it would crowd another
                    # process's second. The rest of the batch is given up; asked again.
                    self._late += 1
                    self.given_up += count - i
                    break
                if self._top() is None:
                    break  # its waiter was cancelled: the time goes unused
                self._late = 0
                heapq.heappop(self.waiting)[2].set_result(None)

    async def _reserve(self, count: int, priority: Priority) -> float | None:
        """The first of ``count`` times reserved, by this process's clock; None: refused."""
        asked = self.clock()
        try:
            got = await self.pace.reserve(count, self.spacing, HORIZONS[priority], asked,
                                          holds=HOLDS if priority == Priority.DAY else 0.0,
                                          yields=priority == Priority.LIVE)  # fmt: skip
        except Exception:
            if not self.alone:
                log.warning("the request budget is not shared while the database does not "
                            "answer: this process sends at %d%% of the rate",
                            ALONE * 100, exc_info=True)  # fmt: skip
            self.alone = True
            return self.clock()
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
