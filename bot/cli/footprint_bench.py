"""What serving every list costs: cache on disk, resident memory, first-hint, hint and
coaching CPU.

Each figure comes from a child process of its own with an empty cache folder (the first
hint is measured cold, and the cache written is what that process wrote). With
``--baseline DIR`` the same child runs a second time on another checkout (a worktree of
the code before, say), in the same run, so the two sets of figures share the machine's
load. This file runs as that child by its path (``python footprint_bench.py footprint
...``) with the checkout under test first on ``PYTHONPATH``, so it imports only what every
checkout has: the engine's hint, coach and game, and ``random_histories``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout this file belongs to


def _rss_mib() -> float:
    """Resident memory now, mapped cache pages included (VmRSS)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _cache_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def footprint(names: Sequence[str], seed: int = 0) -> dict[str, Any]:
    """In this process, for each list in turn: a first hint after one guess from the empty
    cache (its CPU seconds), a game played to its end with a hint before every guess, then
    that game coached, and a second game likewise (its coaching's CPU seconds too); and the
    cache bytes each list added and the memory after it."""
    from bot.cli.benchmarks import random_histories
    from engine.game import WordleGame
    from engine.solver.coach import coach
    from engine.solver.hints import hint
    from engine.variants import get_variant

    cache = Path(os.environ["WORDLEBOT_CACHE_DIR"])
    lists, written = {}, 0
    for name in names:
        variant = get_variant(name)
        history = random_histories(name, 1, seed)[0]
        begin = time.process_time()
        hint(variant, history)
        first = time.process_time() - begin
        coached = []
        for answer in (seed, seed + 1):  # the first coaching, then another game's
            game = WordleGame(variant, variant.answers.words[answer % len(variant.answers)])
            while not game.over:  # the player follows the hints: a game as the bot serves it
                game.guess(hint(variant, game.rows, top=1).suggestions[0].guess)
            begin = time.process_time()
            coach(variant, game.rows)
            coached.append(time.process_time() - begin)
        now = _cache_bytes(cache)
        lists[name] = {
            "first_hint_cpu_s": round(first, 3),
            "coach_cpu_s": round(coached[0], 3),
            "coach_again_cpu_s": round(coached[1], 3),
            "cache_mib": round((now - written) / 2**20, 1),
            "rss_mib_after": round(_rss_mib(), 1),
        }
        written = now
    return {"lists": lists, "cache_mib": round(written / 2**20, 1), "rss_mib": round(_rss_mib(), 1)}


def hints_cpu(name: str, count: int, seed: int = 0) -> dict[str, Any]:
    """CPU time of each hint (this thread's) over ``count`` random positions, and a digest
    of every pick, so two runs can be seen to suggest the same words."""
    import numpy as np

    from bot.cli.benchmarks import random_histories
    from engine.solver.hints import hint
    from engine.variants import get_variant

    variant = get_variant(name)
    histories = random_histories(name, count, seed)
    begin = time.process_time()
    hint(variant, histories[0])
    first = time.process_time() - begin
    spent, picks = [], []
    for history in histories:
        begin = time.thread_time()
        result = hint(variant, history)
        spent.append(time.thread_time() - begin)
        picks.append([s.guess for s in result.suggestions])
    ms = np.array(spent) * 1000
    return {
        "variant": name,
        "positions": len(histories),
        "first_cpu_s": round(first, 3),
        "cpu_p50_ms": round(float(np.percentile(ms, 50)), 2),
        "cpu_p99_ms": round(float(np.percentile(ms, 99)), 2),
        "cpu_max_ms": round(float(ms.max()), 2),
        "picks": hashlib.sha256(json.dumps(picks).encode()).hexdigest()[:16],
    }


def coach_cpu(name: str, games: int, seed: int = 0) -> dict[str, Any]:
    """CPU time of coaching ``games`` games in turn, from an empty cache: the first pays for
    the opening's figures (every guess scored against every answer), the next read them.
    Each game is hinted to its end, as the bot serves it; a digest of every verdict, so two
    runs can be seen to coach alike."""
    from engine.game import WordleGame
    from engine.solver.coach import coach
    from engine.solver.hints import hint
    from engine.variants import get_variant

    variant = get_variant(name)
    spent, verdicts = [], []
    for i in range(games):
        game = WordleGame(variant, variant.answers.words[(seed + i) % len(variant.answers)])
        while not game.over:
            game.guess(hint(variant, game.rows, top=1).suggestions[0].guess)
        begin = time.process_time()
        verdicts.append(coach(variant, game.rows).to_json())
        spent.append(round(time.process_time() - begin, 3))
    return {
        "variant": name,
        "coach_cpu_s": spent,
        "verdicts": hashlib.sha256(json.dumps(verdicts).encode()).hexdigest()[:16],
    }


def grid_cpu(name: str, grids: int, seed: int = 0) -> dict[str, Any]:
    """CPU time of reading ``grids`` hard-mode grids without their words, each to its end
    (a pasted share marked hard, given all the time it needs): three rows of random guesses
    against a random answer. The normal reading of each comes first, untimed (the matrix
    loaded), so the time is the hard-mode check's; a digest of every reading, so two runs
    can be seen to read alike."""
    import random

    from engine.pattern import score
    from engine.solver.coach import grid_candidates
    from engine.variants import get_variant

    variant = get_variant(name)
    rng = random.Random(seed)
    spent, readings = [], []
    for _ in range(grids):
        answer = rng.choice(variant.answers.words)
        rows = [score(rng.choice(variant.guesses.words), answer) for _ in range(3)]
        normal = grid_candidates(variant, rows)
        begin = time.process_time()
        hard = grid_candidates(variant, rows, hard=True)
        spent.append(round(time.process_time() - begin, 3))
        readings.append([normal.count, hard.count, hard.likely])
    return {
        "variant": name,
        "grid_cpu_s": spent,
        "answers_normal_hard": [r[:2] for r in readings],
        "readings": hashlib.sha256(json.dumps(readings).encode()).hexdigest()[:16],
    }


def run_child(checkout: Path, args: Sequence[str]) -> dict[str, Any]:
    """This file's ``args`` in a new process importing ``checkout``, with an empty cache."""
    with tempfile.TemporaryDirectory(prefix="wordlebot-footprint-") as cache:
        env = {**os.environ, "WORDLEBOT_CACHE_DIR": cache, "PYTHONPATH": str(checkout)}
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), *args],
            cwd=checkout, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the run on {checkout} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def paired(args: Sequence[str], baseline: Path | None) -> dict[str, Any]:
    """This code's figures and, with ``baseline``, the other checkout's, one after the other."""
    figures = {"this": run_child(ROOT, args)}
    if baseline is not None:
        figures["baseline"] = run_child(baseline, args)
    return figures


def main(argv: Sequence[str]) -> None:
    kind, *rest = argv
    if kind == "footprint":
        result = footprint(rest)
    elif kind == "coach":
        result = coach_cpu(rest[0], int(rest[1]))
    elif kind == "grid":
        result = grid_cpu(rest[0], int(rest[1]))
    else:
        result = hints_cpu(rest[0], int(rest[1]))
    print(json.dumps(result))


if __name__ == "__main__":  # the child: sys.path[0] is bot/cli; the checkout comes first
    sys.path.remove(str(Path(__file__).resolve().parent))
    main(sys.argv[1:])
