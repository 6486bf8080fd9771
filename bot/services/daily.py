"""Daily puzzles: one answer per variant per date, the same for everyone.

One day for everyone: the puzzle changes at midnight in the deployment's zone
(``DAILY_TIMEZONE``, UTC by default), in every server and in direct messages, and streaks
count by that same day. Were each server's zone to draw its own boundary, a server far east
could play (and learn, by giving up) day D's answer hours before the others could play it.

From the deployment's draw day on (``draw_from``), each day's answer is drawn uniformly, by a
generator keyed by the deployment's secret seed, the variant and the day, from the answer
list minus the answers of the previous ``len(answers) // 2`` days. So no answer comes back
within that many days (1,157 for Wordle), and a player who knows every earlier answer (the
archive serves them all) still has at least half the list, each word as likely, for today
and for tomorrow. The draw day is recorded once per deployment, beside the seed: the first
day not yet served when this rule came in (``#0`` for a deployment that never served one).

Days before it keep the answers they were served: a position in a secret shuffle of the
answer list, one shuffle per pass through the list (a cycle), keyed by the seed and the
cycle's number, in which no position holds the word it held in an earlier cycle. That rule
let the archive narrow today's answer (a cycle's days never repeat a word, so on its last day
one word was left), which is why days from the draw day on no longer follow it.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import threading
import time
from array import array
from collections import Counter, deque
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo

from engine.variants import get_variant

EPOCH = date(2021, 6, 19)  # puzzle #0, as the original game counts


def shown_number(day: date) -> int:
    """The number the bot's own daily of ``day`` is shown with: its date, 20260301 (ISO
    8601's basic form). The NYT numbers its puzzles by day too (#1716 that day), with other
    answers: a number of the NYT's kind on our daily was taken for the NYT's puzzle. Eight
    digits are no NYT number for centuries, and a player reads the day off them."""
    return day.year * 10000 + day.month * 100 + day.day


def numbered_day(number: int) -> date | None:
    """The day a number names: our daily's shown number (20260301), or the count of days
    from puzzle #0 that named our dailies before (#1716, as stored games and old posts have
    it). None: neither."""
    if number >= shown_number(EPOCH):
        try:
            return date(number // 10000, number // 100 % 100, number % 100)
        except (ValueError, OverflowError):
            return None
    try:
        return EPOCH + timedelta(days=number)
    except OverflowError:
        return None


Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def started_clock(start: datetime) -> Clock:
    """A clock that reads ``start`` now and runs on at the real pace (CLOCK_START, tests
    only: an end-to-end test crosses a day boundary)."""
    start = start if start.tzinfo else start.replace(tzinfo=UTC)
    began = time.monotonic()
    return lambda: start + timedelta(seconds=time.monotonic() - began)


def no_repeat_days(variant_name: str) -> int:
    """How many days an answer stays out once drawn: half the list, so at least half is left."""
    return len(get_variant(variant_name).answers.words) // 2


class DailyPuzzles:
    def __init__(
        self, seed: str, zone: ZoneInfo, clock: Clock = system_clock, draw_from: date = EPOCH
    ) -> None:
        self._seed = seed
        self.zone = zone
        self.clock = clock  # tests set the time
        self.draw_from = draw_from  # the first day drawn; the days before keep their cycles

    def today(self) -> date:
        """The puzzle day now: the date in the deployment's zone, the same for everyone."""
        return self.clock().astimezone(self.zone).date()

    def key(self, purpose: str) -> bytes:
        """A secret of its own for ``purpose``, derived from the deployment's seed."""
        return _key(self._seed, purpose)

    @staticmethod
    def number(day: date) -> int:
        return (day - EPOCH).days

    def answer(self, variant_name: str, day: date) -> str:
        answers = get_variant(variant_name).answers.words
        if day < self.draw_from:
            return answers[_cycle_answer(self._seed, variant_name, self.number(day))]
        start = self.number(self.draw_from)
        return answers[_draws(self._seed, variant_name, start).index(self.number(day) - start)]


def _key(seed: str, purpose: str) -> bytes:
    return hmac.new(seed.encode(), purpose.encode(), hashlib.sha256).digest()


class _Draws:
    """One variant's drawn days from the draw day on, each computed once, in order: day d
    needs the answers of the days before it. O(1) a day: the words out (the last
    ``no_repeat_days``) are a queue, the words in a list a drawn one leaves by swap-remove."""

    def __init__(self, seed: str, variant_name: str, start: int) -> None:
        size = len(get_variant(variant_name).answers.words)
        self._key = _key(seed, f"daily draw:{variant_name}")
        self._start = start
        self._window = no_repeat_days(variant_name)
        # The served days just before the draw day stay out too (never those before #0).
        self._out = deque(
            _cycle_answer(seed, variant_name, number)
            for number in range(max(start - self._window, 0), start)
        )
        self._times_out = Counter(self._out)  # the old cycles may repeat a word across a seam
        self._in = [index for index in range(size) if index not in self._times_out]
        self._drawn = array("I")  # the answers' indexes of days start, start + 1, ...
        self._lock = threading.Lock()  # hints may ask from a worker thread

    def index(self, offset: int) -> int:
        with self._lock:
            while len(self._drawn) <= offset:
                self._draw_next()
            return self._drawn[offset]

    def _draw_next(self) -> None:
        number = self._start + len(self._drawn)
        digest = hmac.digest(self._key, number.to_bytes(8, "big", signed=True), "sha256")
        pick = int.from_bytes(digest, "big") % len(self._in)  # 256 bits: no bias worth a bit
        drawn, self._in[pick] = self._in[pick], self._in[-1]
        self._in.pop()
        self._drawn.append(drawn)
        self._out.append(drawn)
        self._times_out[drawn] += 1
        if len(self._out) > self._window:
            back = self._out.popleft()
            self._times_out[back] -= 1
            if not self._times_out[back]:
                del self._times_out[back]
                self._in.append(back)


@cache
def _draws(seed: str, variant_name: str, start: int) -> _Draws:
    return _Draws(seed, variant_name, start)


def _cycle_answer(seed: str, variant_name: str, number: int) -> int:
    """The answer's index for day #``number`` under the cycles of shuffles (the days before
    the draw day): kept exactly as served."""
    size = len(get_variant(variant_name).answers.words)
    cycle, position = divmod(number, size)
    # Days before #0 (never served) read the first cycle, as they always did.
    return _cycle_order(seed, variant_name, size, max(cycle, 0))[position]


@cache
def _cycle_order(seed: str, variant_name: str, size: int, cycle: int) -> tuple[int, ...]:
    """The shuffle of one cycle: a fresh permutation, then each position that holds a word it
    held in an earlier cycle swapped with another position where the swap clears both."""
    if cycle == 0:
        return _shuffle(f"{seed}:{variant_name}", size)
    order = list(_shuffle(f"{seed}:{variant_name}:cycle {cycle}", size))
    if size <= 2 * cycle:  # too few words to be sure a swap exists (no real list)
        return tuple(order)
    earlier = [_cycle_order(seed, variant_name, size, c) for c in range(cycle)]
    held = [{before[position] for before in earlier} for position in range(size)]
    pick = random.Random(f"{seed}:{variant_name}:cycle {cycle}:swaps")
    for position in range(size):
        while order[position] in held[position]:
            other = pick.randrange(size)
            if order[other] not in held[position] and order[position] not in held[other]:
                order[position], order[other] = order[other], order[position]
    return tuple(order)


def _shuffle(key: str, size: int) -> tuple[int, ...]:
    digest = hashlib.sha256(key.encode()).digest()
    order = list(range(size))
    random.Random(int.from_bytes(digest, "big")).shuffle(order)
    return tuple(order)
