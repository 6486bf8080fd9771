"""Hint latency under the NYT answer model, printed beside ``wordlebot bench hints``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bot.cli.benchmarks import random_histories
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
    latencies, sizes = [], []
    for history in histories:
        begin = time.perf_counter()
        result = model_hint(model, history)
        latencies.append(time.perf_counter() - begin)
        sizes.append(result.remaining)
        if progress is not None:
            progress(len(latencies), len(histories))
    ms = np.array(latencies) * 1000
    return {
        "positions": len(histories),
        "first_ms": round(warm * 1000, 1),
        "p50_ms": round(float(np.percentile(ms, 50)), 2),
        "p99_ms": round(float(np.percentile(ms, 99)), 2),
        "max_ms": round(float(ms.max()), 2),
        "median_candidates": int(np.median(sizes)),
        "max_candidates": int(max(sizes)),
    }
