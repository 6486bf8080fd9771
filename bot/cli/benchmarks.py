"""Benchmarks behind ``wordlebot bench``: printed figures, never timed unit tests.

Each benchmark returns a plain dict of figures; the CLI prints it as text or JSON.
Where there is a fair baseline, it is measured in the same run so ratios mean something on
a shared, noisy machine.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.matrix import cached, pattern_dtype, pattern_matrix
from engine.pattern import score
from engine.rules import Mode, Row
from engine.solver.bounds import group_index
from engine.solver.exact import (
    INF,
    ExactSearch,
    OpenerScan,
    OpenerTried,
    SearchSettings,
    preset,
)
from engine.solver.greedy import common_mask, rank_guesses
from engine.solver.hints import hint
from engine.solver.measures import Measure
from engine.solver.position import Position, by_answer
from engine.solver.strategies import strategy_tree
from engine.solver.tree import DEPTH_CAP, Node, guesses_needed, paths
from engine.variants import Variant, get_variant


def plain_numpy_matrix(
    guesses: npt.NDArray[np.uint8], answers: npt.NDArray[np.uint8]
) -> npt.NDArray[np.unsignedinteger]:
    """The straightforward vectorised two-pass rule, block by block: the baseline to beat."""
    n, length = guesses.shape
    out = np.empty((n, answers.shape[0]), dtype=pattern_dtype(length))
    a = answers[None, :, :]
    weights = 3 ** np.arange(length - 1, -1, -1, dtype=np.int64)
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
        tile = 2 * green.astype(np.int64) + yellow
        out[start : start + 512] = (tile * weights).sum(axis=2)
    return out


def _timed(fn: Any, repeat: int) -> tuple[list[float], Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


BASELINE_CELLS = 50_000_000  # the plain baseline runs minutes beyond this: skipped


def bench_matrix(
    variant_name: str = "wordle", repeat: int = 3, baseline: bool = True
) -> dict[str, Any]:
    """The matrix in the real cache (loaded if there, else built into it: which, and how
    long), then cold builds into a scratch cache file and warm loads (memory map) of it."""
    variant = get_variant(variant_name)
    guesses, answers = variant.guesses, variant.answers
    was_cached = cached(guesses, answers) is not None
    begin = time.perf_counter()
    matrix = pattern_matrix(guesses, answers)
    cache_seconds = time.perf_counter() - begin
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)

        def build() -> Any:
            for leftover in scratch.iterdir():
                leftover.unlink()
            return pattern_matrix(guesses, answers, cache_dir=scratch)

        tracemalloc.start()  # numpy's allocations are traced; the mapped file's pages are not
        builds, built = _timed(build, repeat)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        if not np.array_equal(built, matrix):
            raise AssertionError("a fresh build differs from the cached matrix")
        del built
        loads, _ = _timed(lambda: pattern_matrix(guesses, answers, cache_dir=scratch), repeat)
    figures: dict[str, Any] = {
        "variant": variant.name,
        "shape": list(matrix.shape),
        "dtype": str(matrix.dtype),
        "size_mib": round(matrix.nbytes / 2**20, 1),
        "from_cache": was_cached,
        "cache_seconds": round(cache_seconds, 4),
        "build_seconds": round(statistics.median(builds), 4),
        "first_build_seconds": round(builds[0], 4),
        "load_seconds": round(statistics.median(loads), 5),
        "build_peak_mib": round(peak, 1),  # memory allocated while building, at most
    }
    if baseline and matrix.size <= BASELINE_CELLS:
        base_times, base = _timed(lambda: plain_numpy_matrix(guesses.array, answers.array), 1)
        if not np.array_equal(base, matrix):
            raise AssertionError("baseline and engine disagree")
        figures["baseline_seconds"] = round(base_times[0], 4)
        figures["speedup"] = round(base_times[0] / figures["build_seconds"], 1)
    return figures


def bench_play(
    variant_name: str,
    strategy: str,
    mode: Mode,
    answers: str = "all",
    seed: int = 0,
    width: int | None = None,
    cold: bool = False,
    progress: Callable[[int, int], None] | None = None,
    opener_scan: OpenerScan = "pruned",
    baseline: bool = True,
    root_width: int | None = None,
) -> dict[str, Any]:
    """Play every answer (or a seeded sample of N) with ``strategy``; figures of the games.

    A cold exact search also times choosing the opener: its whole search less a search
    given the opener it chose; and, as the baseline in the same run, the full opener scan
    (every first guess of the root's width, in the bound's order, none skipped). The hints'
    strategy (``hint``) has as its baseline plain greedy entropy on the same answers: what
    preferring possible answers and common words among near equals costs."""
    variant = get_variant(variant_name)
    targets: list[int] | None = None
    if answers != "all":
        count = int(answers)
        rng = np.random.default_rng(seed)
        targets = sorted(rng.choice(len(variant.answers), size=count, replace=False).tolist())
    _loaded(variant)  # the figures are for play, not loading
    searched = strategy == "optimal" and cold
    start_time = time.perf_counter()
    settings = preset(variant, mode)
    settings = replace(settings, width=width or settings.width,
                       root_width=root_width or settings.root_width)  # fmt: skip
    if searched:
        scan = _exact_search(variant, mode, settings, opener_scan, progress)
        start, root = Position.start(variant, mode), scan.root
    else:
        start, root = strategy_tree(variant, strategy, mode, targets, width=width,
                                    progress=progress)  # fmt: skip
    needed = guesses_needed(root, start)
    seconds = time.perf_counter() - start_time
    wanted = targets if targets is not None else range(len(variant.answers))
    # not in the tree: lost by an exact tree that counts losses, else past any depth grown
    lost = variant.max_guesses + 1 if strategy == "optimal" and settings.losses else DEPTH_CAP + 1
    counts = [needed.get(a, lost) for a in wanted]
    distribution = {str(k): v for k, v in sorted(Counter(counts).items())}
    figures: dict[str, Any] = {
        "variant": variant.name,
        "strategy": strategy,
        "mode": mode.value,
        "opener": variant.guesses.words[root.guess],
        "games": len(counts),
        "total": int(sum(counts)),
        "mean": round(sum(counts) / len(counts), 4),
        "max": max(counts),
        "failures": sum(1 for c in counts if c > variant.max_guesses),
        "distribution": distribution,
        "seconds": round(seconds, 3),
    }
    if searched:
        figures |= _opener_figures(variant, mode, settings, scan, opener_scan, baseline)
    if strategy == "hint":
        figures["common"] = _common_share(variant, root, start, wanted)
        if baseline:
            figures |= _plain_entropy(variant, mode, targets, counts)
    return figures


def _common_share(variant: Variant, root: Node, start: Position, wanted: Sequence[int]) -> float:
    """The share of the guesses played before each win that are common words (on the answer
    list): how often a player following the strategy is shown a word they know."""
    rows = paths(root, start)
    played = [guess for answer in wanted for guess, _ in rows.get(answer, [])[:-1]]
    return round(float(np.mean(common_mask(variant)[played])), 4) if played else 1.0


def _loaded(variant: Variant) -> None:
    """Load what play reads, as a running bot has it: the group index, and every page of
    both memory-mapped pattern matrices read once (else the first search to touch a page pays
    its loading, and whatever runs after it in the same process does not)."""
    group_index(variant)
    if variant.keeps_matrix:
        for matrix in (by_answer(variant), variant.matrix):
            np.asarray(matrix).max()


def _plain_entropy(
    variant: Variant, mode: Mode, targets: list[int] | None, counts: list[int]
) -> dict[str, Any]:
    """Greedy entropy with exact ties only, on the same answers as the hints' strategy."""
    start, root = strategy_tree(variant, "entropy", mode, targets)
    needed = guesses_needed(root, start)
    wanted = targets if targets is not None else range(len(variant.answers))
    plain = [needed.get(a, DEPTH_CAP + 1) for a in wanted]
    return {"baseline": {
        "strategy": "entropy",
        "opener": variant.guesses.words[root.guess],
        "total": int(sum(plain)),
        "mean": round(sum(plain) / len(plain), 4),
        "failures": sum(1 for c in plain if c > variant.max_guesses),
        "common": _common_share(variant, root, start, wanted),
        "cost": round((sum(counts) - sum(plain)) / len(plain), 4),  # mean guesses, hint less plain
    }}  # fmt: skip


@dataclass(frozen=True)
class _Scan:
    """One cold exact search: its tree, the root's first guesses, and its seconds."""

    total: int
    root: Node
    openers: list[OpenerTried]
    seconds: float
    cpu_seconds: float


def _exact_search(
    variant: Variant,
    mode: Mode,
    settings: SearchSettings,
    opener_scan: OpenerScan,
    progress: Callable[[int, int], None] | None = None,
    first: int | None = None,
) -> _Scan:
    search = ExactSearch(variant, mode, settings, progress=progress, opener_scan=opener_scan)
    begin, cpu = time.perf_counter(), time.process_time()
    total, root = search.solve(first=None if first is None else [first])
    seconds, cpu = time.perf_counter() - begin, time.process_time() - cpu
    return _Scan(total, root, search.openers, seconds, cpu)


def _opener_figures(
    variant: Variant,
    mode: Mode,
    settings: SearchSettings,
    scan: _Scan,
    opener_scan: OpenerScan,
    baseline: bool,
) -> dict[str, Any]:
    """Seconds spent choosing the opener: the search less one given the opener it chose."""
    known = _exact_search(variant, mode, settings, opener_scan, first=scan.root.guess)
    if known.total != scan.total:
        raise AssertionError("the opener alone does not reach the scan's total")
    words = variant.guesses.words
    figures: dict[str, Any] = {
        "opener_scan": opener_scan,
        "search_seconds": round(scan.seconds, 3),
        "opener_known_seconds": round(known.seconds, 3),
        "opener_seconds": round(scan.seconds - known.seconds, 3),
        "openers": [  # total None: not searched, or searched and cut (at least the best)
            {
                "guess": words[o.guess],
                "floor": o.floor,
                "searched": o.total is not None,
                "total": o.total if o.total is not None and o.total < INF else None,
            }
            for o in scan.openers
        ],
    }
    if baseline and opener_scan != "full":
        full = _exact_search(variant, mode, settings, "full")
        if (full.total, full.root.guess) != (scan.total, scan.root.guess):
            raise AssertionError("the pruned and the full opener scan disagree")
        figures["baseline"] = {
            "opener_scan": "full",
            "search_seconds": round(full.seconds, 3),
            "opener_seconds": round(full.seconds - known.seconds, 3),
        }
    if baseline and mode in (Mode.NORMAL, Mode.HARD):
        figures["reference"] = _reference_figures(variant, mode, settings, scan)
    return figures


def _reference_figures(
    variant: Variant, mode: Mode, settings: SearchSettings, scan: _Scan
) -> dict[str, Any]:
    """The plain numpy beam (``bot.cli.reference_beam``) given the opener the search chose,
    as wide as the search's preset: its tree checked, its seconds, and the whole cold search's
    CPU time as a share of its own."""
    from bot.cli.reference_beam import ReferenceBeam

    beam = ReferenceBeam(variant, mode, settings.width)
    begin, cpu = time.perf_counter(), time.process_time()
    total, root = beam.solve(variant.guesses.words[scan.root.guess])
    seconds, cpu = time.perf_counter() - begin, time.process_time() - cpu
    needed = guesses_needed(root, Position.start(variant, mode))
    if len(needed) != len(variant.answers) or sum(needed.values()) != total:
        raise AssertionError("the reference beam's tree does not solve every answer")
    return {
        "width": settings.width,
        "opener": variant.guesses.words[scan.root.guess],
        "total": total,
        "max": max(needed.values()),
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "search_cpu_seconds": round(scan.cpu_seconds, 3),
        "ratio": round(scan.cpu_seconds / cpu, 3),  # the whole cold search's CPU over the beam's
    }


def bar_chart(distribution: dict[str, int], width: int = 40) -> str:
    """The guess distribution as text bars, as the game's statistics screen draws it."""
    most = max(distribution.values())
    return "\n".join(
        f"{guesses:>3} {'#' * max(1, round(width * count / most))} {count}"
        for guesses, count in distribution.items()
    )


def bench_openers(variant_name: str = "wordle", top: int = 10) -> dict[str, Any]:
    """The best first guesses by each greedy measure, and the time to rank them all."""
    variant = get_variant(variant_name)
    start = Position.start(variant)
    rank_guesses(start, Measure.ENTROPY, top=1)  # warm: matrix loaded, transposed
    figures: dict[str, Any] = {"variant": variant.name, "measures": {}}
    for measure in Measure:
        begin = time.perf_counter()
        ranking = rank_guesses(start, measure, top=top)
        seconds = time.perf_counter() - begin
        figures["measures"][measure.value] = {
            "seconds": round(seconds, 4),
            "openers": [
                {
                    "guess": variant.guesses.words[g],
                    "entropy": round(float(ranking.scores.entropy[i]), 4),
                    "expected": round(float(ranking.scores.expected[i]), 3),
                    "worst": int(ranking.scores.worst[i]),
                    "parts": int(ranking.scores.parts[i]),
                }
                for i, g in enumerate(ranking.guesses.tolist())
            ],
        }
    return figures


def random_histories(variant_name: str, count: int, seed: int) -> list[list[Row]]:
    """Positions a player reaches after one or two guesses: a random answer, and one or two
    random allowed words scored against it."""
    variant = get_variant(variant_name)
    rng = np.random.default_rng(seed)
    words, answers = variant.guesses.words, variant.answers.words
    histories = []
    for _ in range(count):
        answer = answers[rng.integers(len(answers))]
        guesses = [words[rng.integers(len(words))] for _ in range(int(rng.integers(1, 3)))]
        histories.append([(g, score(g, answer)) for g in guesses if g != answer] or [])
    return [h for h in histories if h]


def bench_hints(variant_name: str = "wordle", count: int = 1000, seed: int = 0,
                progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:  # fmt: skip
    """Latency of a hint (top 5 by entropy) for random positions after one or two guesses."""
    variant = get_variant(variant_name)
    histories = random_histories(variant_name, count, seed)
    hint(variant, histories[0])  # warm
    return {"variant": variant.name, **hint_latency(lambda h: hint(variant, h), histories,
                                                      progress)}  # fmt: skip


def hint_latency(ask: Callable[[Any], Any], histories: list[Any],
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:  # fmt: skip
    """Latency of ``ask`` (a hint, whose ``remaining`` is counted) over ``histories``."""
    latencies, sizes = [], []
    for history in histories:
        begin = time.perf_counter()
        result = ask(history)
        latencies.append(time.perf_counter() - begin)
        sizes.append(result.remaining)
        if progress is not None:
            progress(len(latencies), len(histories))
    ms = np.array(latencies) * 1000
    return {
        "positions": len(histories),
        "p50_ms": round(float(np.percentile(ms, 50)), 2),
        "p99_ms": round(float(np.percentile(ms, 99)), 2),
        "max_ms": round(float(ms.max()), 2),
        "median_candidates": int(np.median(sizes)),
        "max_candidates": int(max(sizes)),
    }


def _rss_mib() -> float:
    """Resident memory now (Linux's /proc; elsewhere the peak, from getrusage)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


SOAK_KINDS = ("wordle", "primel", "absurdle", "dordle", "quordle", "octordle")


async def _bench_soak(games: int, kinds: Sequence[str], every: int, seed: int,
                      report: Callable[[str], None]) -> dict[str, Any]:  # fmt: skip
    import asyncio
    import random

    from bot.services import Player, open_services
    from bot.settings import load_settings

    rng = random.Random(seed)
    figures: dict[str, Any] = {"games_per_kind": games, "kinds": {}}
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(database_path=str(Path(tmp) / "soak.sqlite3"),
                                 daily_seed="50ak-0f1e2d3c4b5a69788796a5b4c3d2e1f0")  # fmt: skip
        services = await open_services(settings)
        player_id = 1
        for kind in kinds:
            words = get_variant("primel" if kind == "primel" else "wordle").guesses.words
            samples: list[float] = []
            begin = time.perf_counter()

            async def one_game(player: Player, kind: str = kind,
                               words: Sequence[str] = words) -> None:  # fmt: skip
                scope = player.id % 7 + 1
                await services.games.start(player, scope, kind)
                for _ in range(3):
                    await services.games.guess(player, scope, rng.choice(words))
                await services.games.give_up(player, scope)

            for done in range(0, games, 50):  # 50 players at a time, each a new player
                batch = [Player(player_id + i, f"p{player_id + i}") for i in range(50)]
                player_id += 50
                await asyncio.gather(*(one_game(p) for p in batch[: games - done]))
                if (done + 50) % every == 0 or done + 50 >= games:
                    samples.append(round(_rss_mib(), 1))
                    report(f"  {kind}: {min(done + 50, games)} games, RSS {samples[-1]} MiB, "
                           f"held {services.games.memory_held()}")  # fmt: skip
            warm = samples[len(samples) // 4]  # after warm-up: word lists, matrices, caches
            figures["kinds"][kind] = {
                "rss_mib": samples,
                "growth_after_warmup_mib": round(samples[-1] - warm, 1),
                "seconds": round(time.perf_counter() - begin, 1),
            }
        figures["held_at_end"] = services.games.memory_held()
        await services.close()
    return figures


def bench_soak(games: int = 4000, kinds: Sequence[str] = SOAK_KINDS, every: int = 1000,
               seed: int = 0, report: Callable[[str], None] = print) -> dict[str, Any]:  # fmt: skip
    """Play ``games`` games of each kind, each by a new player, through the services on a file
    database, printing the process's resident memory every ``every`` games: it should stay
    flat after warm-up (caches bounded by what they hold, not by players ever seen)."""
    import asyncio

    return asyncio.run(_bench_soak(games, kinds, every, seed, report))
