"""A rate limit per client: a token bucket each, refilled at a steady rate, so a person
clicking through pages never meets it and a scraper is slowed to the rate. Per process: each
web process counts its own clients (behind one proxy, one process serves them all)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

KEPT = 10_000  # clients remembered; past it, those whose bucket is full again are forgotten


@dataclass
class Bucket:
    tokens: float
    at: float  # when ``tokens`` was counted


class RateLimit:
    def __init__(self, per_minute: float, burst: int = 20,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.rate = per_minute / 60  # tokens a second
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}

    def take(self, client: str) -> float:
        """Take a token for ``client``: 0 if it may go on, else the seconds until it may."""
        now = self.clock()
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= KEPT:
                self._forget_rested(now)
            bucket = self.buckets[client] = Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def _forget_rested(self, now: float) -> None:
        full = [c for c, b in self.buckets.items()
                if b.tokens + (now - b.at) * self.rate >= self.burst]  # fmt: skip
        for client in full or list(self.buckets):
            del self.buckets[client]


def retry_after(seconds: float) -> str:
    """Retry-After's whole seconds, at least one."""
    return str(max(1, math.ceil(seconds)))
