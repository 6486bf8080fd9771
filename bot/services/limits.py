"""The limit on playing and asking for hints: five actions in ten seconds for each player,
whichever way they come (a slash command, its button or form, the game window), counted in
the process that serves them. The services hold it so that every front end counts against
the same one (cogs/cooldowns.py, bot/web/activity.py).

Each player's count is discord.py's ``Cooldown`` rule (a window that opens with the first
action, ``rate`` actions in it), written here so the services need nothing of discord.py;
players are kept in order of last use, so idle ones are dropped from the front cheaply
(discord.py's own mapping scanned every key on each call: a fifth of the event loop under load).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from bot.i18n import _, format_number

PLAY_RATE, PLAY_SECONDS = 5, 10.0


class Bucket:
    """One player's window: when it opened, the actions left in it, the last action."""

    __slots__ = ("_last", "_tokens", "_window", "per", "rate")

    def __init__(self, rate: int, per: float) -> None:
        self.rate, self.per = rate, per
        self._window, self._tokens, self._last = 0.0, rate, 0.0

    def update_rate_limit(self, now: float) -> float | None:
        """Count one action at ``now``: None if allowed, else the seconds to wait."""
        self._last = now
        if now > self._window + self.per:
            self._tokens = self.rate
        if self._tokens == self.rate:  # the first action opens a window
            self._window = now
        self._tokens -= 1
        return self.per - (now - self._window) if self._tokens < 0 else None


class Limit:
    """At most ``rate`` actions per ``per`` seconds for each key (a player's id)."""

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.per, self.clock = rate, per, clock
        self.buckets: OrderedDict[int, Bucket] = OrderedDict()

    def retry_after(self, key: int) -> float | None:
        """Count one action for ``key``: None if allowed, else the seconds to wait."""
        now = self.clock()
        while self.buckets:  # the least recently used first: drop those past their window
            oldest = next(iter(self.buckets.values()))
            if now <= oldest._last + self.per:
                break
            self.buckets.popitem(last=False)
        bucket = self.buckets.pop(key, None) or Bucket(self.rate, self.per)
        self.buckets[key] = bucket  # now the most recently used
        return bucket.update_rate_limit(now)


def slow_down(wait: float) -> str:
    """The refusal past the limit."""
    return _("Slow down: try again in {seconds} s.").format(seconds=format_number(wait))
