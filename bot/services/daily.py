"""Daily puzzles: one answer per variant per date, the same for everyone.

One day for everyone: the puzzle changes at midnight in the deployment's zone
(``DAILY_TIMEZONE``, UTC by default), in every server and in direct messages, and streaks
count by that same day. Were each server's zone to draw its own boundary, a server far east
could play (and learn, by giving up) day D's answer hours before the others could play it.

The answer for a date is a position in a secret shuffle of the answer list: the shuffle is
seeded from the deployment's secret seed (a setting, or generated once and kept in the
database), so the schedule cannot be read off the code, and no answer repeats until every
answer has been used. Each pass through the list (a cycle) has a shuffle of its own, keyed by
the seed and the cycle's number, in which no position holds the word it held in any earlier
cycle: were the order to repeat, today's answer would be the archive's puzzle one cycle back
(#N - len(answers)), and tomorrow's the one after it. Cycle 0 is the first shuffle, as it
always was, so no day already played changes its answer.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import time
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


class DailyPuzzles:
    def __init__(self, seed: str, zone: ZoneInfo, clock: Clock = system_clock) -> None:
        self._seed = seed
        self.zone = zone
        self.clock = clock  # tests set the time

    def today(self) -> date:
        """The puzzle day now: the date in the deployment's zone, the same for everyone."""
        return self.clock().astimezone(self.zone).date()

    def key(self, purpose: str) -> bytes:
        """A secret of its own for ``purpose``, derived from the deployment's seed."""
        return hmac.new(self._seed.encode(), purpose.encode(), hashlib.sha256).digest()

    @staticmethod
    def number(day: date) -> int:
        return (day - EPOCH).days

    def answer(self, variant_name: str, day: date) -> str:
        answers = get_variant(variant_name).answers.words
        cycle, position = divmod(self.number(day), len(answers))
        # Days before #0 (never served) read the first cycle, as they always did.
        return answers[
            _cycle_order(self._seed, variant_name, len(answers), max(cycle, 0))[position]
        ]


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
