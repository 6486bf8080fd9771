"""Hint latency and memory under the NYT answer model, printed beside ``wordlebot bench hints``.

The model is the one the bot answers with today: the NYT's puzzle of today's date, knowing
every answer before it (:func:`engine.answer_model.nyt_model`). The pruned hint the bot
gives and the reference that scores every guess are measured on the same positions in the
same run, and must give the same suggestions.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from bot.cli.benchmarks import hint_latency, random_histories
from engine.answer_model import AnswerModel, nyt_model
from engine.nyt_history import puzzle_number
from engine.rules import Row
from engine.solver.weighted import model_hint


def bench_model_hints(
    count: int = 100,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    baseline: bool = True,
) -> dict[str, Any]:
    """Latency and peak memory of an NYT-model hint (top 5 by EG, 14,855 weighted
    candidates) for random positions after one or two guesses (NYT-era answers, any
    NYT-allowed guesses), and of the hint before any guess (the same for everyone, computed
    once per model and kept); the reference (every guess scored) on the same positions."""
    model = nyt_model(puzzle_number(date.today()))
    histories = random_histories("wordle-nyt-era", count, seed)
    begin = time.perf_counter()
    model_hint(model, histories[0])  # warm: the prior and the pattern tables
    warm = time.perf_counter() - begin
    figures = hint_latency(lambda h: model_hint(model, h), histories, progress)
    figures = {"positions": figures.pop("positions"), "first_ms": round(warm * 1000, 1),
               **figures, "peak_mib": _peak_mib(model, histories, pruned=True),
               "opening": _opening(model, pruned=True)}  # fmt: skip
    if baseline:
        same = [model_hint(model, h).suggestions == model_hint(model, h, pruned=False).suggestions
                for h in histories[:10]]  # fmt: skip
        if not all(same):
            raise AssertionError("the pruned hint and the reference disagree")
        reference = hint_latency(lambda h: model_hint(model, h, pruned=False), histories)
        figures["baseline"] = {
            "p50_ms": reference["p50_ms"],
            "p99_ms": reference["p99_ms"],
            "max_ms": reference["max_ms"],
            "peak_mib": _peak_mib(model, histories, pruned=False),
            "opening": _opening(model, pruned=False),
        }
    return figures


def _peak_mib(model: AnswerModel, histories: Sequence[list[Row]], *, pruned: bool) -> float:
    """The most memory one hint allocates (numpy's allocations are traced), beyond what the
    process held before it: the model and its tables are loaded already."""
    peak = 0.0
    tracemalloc.start()
    try:
        for history in histories:
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            model_hint(model, history, pruned=pruned)
            peak = max(peak, tracemalloc.get_traced_memory()[1] - before)
    finally:
        tracemalloc.stop()
    return round(peak / 2**20, 1)


def _opening(model: AnswerModel, *, pruned: bool) -> dict[str, float]:
    """Seconds and peak memory of the hint before any guess, computed afresh (the bot
    computes it once per model: a day's, or a new answer learned)."""
    fresh = AnswerModel(model.variant, model.prior, model.base or model)  # nothing cached
    tracemalloc.start()
    try:
        begin = time.perf_counter()
        model_hint(fresh, [], pruned=pruned)
        seconds = time.perf_counter() - begin
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"seconds": round(seconds, 2), "peak_mib": round(peak / 2**20, 1)}
