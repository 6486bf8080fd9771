"""Hint latency under the NYT answer model, printed beside ``wordlebot bench hints``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.cli.benchmarks import hint_latency, random_histories
from engine.answer_model import nyt_model
from engine.solver.weighted import model_hint


def bench_model_hints(
    count: int = 100, seed: int = 0, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Latency of an NYT-model hint (top 5, 14,855 weighted candidates) for random positions
    after one or two guesses: NYT-era answers, any NYT-allowed guesses."""
    model = nyt_model()
    histories = random_histories("wordle-nyt-era", count, seed)
    begin = time.perf_counter()
    model_hint(model, histories[0])  # warm: the prior and the pattern tables
    warm = time.perf_counter() - begin
    figures = hint_latency(lambda h: model_hint(model, h), histories, progress)
    return {"positions": figures.pop("positions"), "first_ms": round(warm * 1000, 1), **figures}
