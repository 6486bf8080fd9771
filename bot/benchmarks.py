"""Benchmarks behind ``wordlebot bench``: printed figures, never timed unit tests.

Each benchmark returns a plain dict of figures; the CLI prints it as text or JSON.
Where there is a fair baseline, it is measured in the same run so ratios mean something on
a shared, noisy machine.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.matrix import build_pattern_matrix, pattern_matrix
from engine.variants import get_variant


def plain_numpy_matrix(
    guesses: npt.NDArray[np.uint8], answers: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint8]:
    """The straightforward vectorised two-pass rule, block by block: the baseline to beat."""
    n, length = guesses.shape
    out = np.empty((n, answers.shape[0]), dtype=np.uint8)
    a = answers[None, :, :]
    for start in range(0, n, 512):
        g = guesses[start : start + 512, None, :]
        green = g == a
        used = green.copy()
        yellow = np.zeros_like(green)
        for i in range(length):
            for j in range(length):
                free = ~green[:, :, i] & ~yellow[:, :, i] & ~used[:, :, j]
                hit = (g[:, :, i] == a[:, :, j]) & free
                yellow[:, :, i] |= hit
                used[:, :, j] |= hit
        tile = 2 * green.astype(np.uint8) + yellow
        out[start : start + 512] = (tile * 3 ** np.arange(length - 1, -1, -1, dtype=np.uint8)).sum(
            axis=2, dtype=np.uint8
        )
    return out


def _timed(fn: Any, repeat: int) -> tuple[list[float], Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def bench_matrix(
    variant_name: str = "wordle", repeat: int = 3, baseline: bool = True
) -> dict[str, Any]:
    """Cold build (no cache) and warm load (memory map of the cached file) of the matrix."""
    variant = get_variant(variant_name)
    guesses, answers = variant.guesses, variant.answers
    size = len(variant.alphabet)
    builds, matrix = _timed(
        lambda: build_pattern_matrix(guesses.array, answers.array, size), repeat
    )
    with tempfile.TemporaryDirectory() as tmp:
        pattern_matrix(guesses, answers, cache_dir=Path(tmp))  # write the cache file
        loads, loaded = _timed(
            lambda: pattern_matrix(guesses, answers, cache_dir=Path(tmp)), repeat
        )
        if not np.array_equal(loaded, matrix):
            raise AssertionError("cached matrix differs from the built one")
        del loaded
    figures: dict[str, Any] = {
        "variant": variant.name,
        "shape": list(matrix.shape),
        "build_seconds": round(statistics.median(builds), 4),
        "first_build_seconds": round(builds[0], 4),
        "load_seconds": round(statistics.median(loads), 5),
    }
    if baseline:
        base_times, base = _timed(lambda: plain_numpy_matrix(guesses.array, answers.array), 1)
        if not np.array_equal(base, matrix):
            raise AssertionError("baseline and engine disagree")
        figures["baseline_seconds"] = round(base_times[0], 4)
        figures["speedup"] = round(base_times[0] / figures["build_seconds"], 1)
    return figures
