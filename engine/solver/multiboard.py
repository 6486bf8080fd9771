"""Cross-board strategies for multi-board games, and a seeded simulator.

A strategy sees each unsolved board's remaining candidates and the last turn's patterns,
and picks one guess for all boards. The four from the Quordle strategy write-up play the
best single-board word (greedy entropy) for one board: the first unsolved (left to right),
a random one, the one with the fewest greens last turn, or the one with the most. Ours
(see :func:`finish` and :func:`expected_cost`) finish any board that is down to one word,
and otherwise weigh information on every board against the chance of solving one now.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.multiboard import BOARDS, guess_limit
from engine.pattern import tiles, winning
from engine.rules import Mode
from engine.solver.greedy import best_guess
from engine.solver.measures import Measure, sort_key
from engine.solver.position import (
    Position,
    answer_rows,
    guess_row,
    pattern_row,
    patterns_of,
    tie_order,
)
from engine.variants import Variant, get_variant


@dataclass
class Boards:
    """What a strategy knows: each board's candidates (None once solved), last patterns."""

    variant: Variant
    candidates: list[npt.NDArray[np.intp] | None]
    last: list[int | None]
    rng: random.Random

    def open(self) -> list[int]:
        return [b for b, c in enumerate(self.candidates) if c is not None]


Strategy = Callable[[Boards], int]


def _board_best(boards: Boards, board: int) -> int:
    cands = boards.candidates[board]
    assert cands is not None
    return _best_for(boards.variant.name, cands.tobytes())


@lru_cache(maxsize=50_000)
def _best_for(variant_name: str, key: bytes) -> int:
    variant = get_variant(variant_name)
    cands = np.frombuffer(key, dtype=np.intp)
    return best_guess(Position(variant, Mode.NORMAL, (), cands), Measure.ENTROPY)


def _greens(pattern: int | None, length: int) -> int:
    return -1 if pattern is None else tiles(pattern, length).count(2)


def left_to_right(boards: Boards) -> int:
    return _board_best(boards, boards.open()[0])


def random_board(boards: Boards) -> int:
    return _board_best(boards, boards.rng.choice(boards.open()))


def fewest_greens(boards: Boards) -> int:
    n = boards.variant.length
    return _board_best(boards, min(boards.open(), key=lambda b: _greens(boards.last[b], n)))


def most_greens(boards: Boards) -> int:
    n = boards.variant.length
    return _board_best(boards, max(boards.open(), key=lambda b: _greens(boards.last[b], n)))


@lru_cache(maxsize=512)
def _entropy_of(variant_name: str, key: bytes) -> npt.NDArray[np.float64]:
    """Entropy of every allowed guess over one board's candidates (cached: the boards after
    the opener recur from game to game)."""
    variant = get_variant(variant_name)
    cands = np.frombuffer(key, dtype=np.intp)
    pool = np.arange(len(variant.guesses), dtype=np.intp)
    return -sort_key(patterns_of(variant, pool, cands), Measure.ENTROPY, 3**variant.length)


SOLVE_BONUS = 2.0  # bits a guess is worth per board it may solve outright (measured: 1-5)
COST_BITS = 0.5  # guesses per missing bit, in the expected-cost strategy


def _single(boards: Boards) -> int | None:
    """A board down to one word: guess it."""
    for b in boards.open():
        cands = boards.candidates[b]
        if cands is not None and len(cands) == 1:
            return int(answer_rows(boards.variant)[cands[0]])
    return None


def _per_board(
    boards: Boards,
) -> list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], int]]:
    """For each open board: every guess's entropy, its chance of solving it, and its size."""
    variant, rows = boards.variant, answer_rows(boards.variant)
    out = []
    for b in boards.open():
        cands = boards.candidates[b]
        assert cands is not None
        chance = np.zeros(len(variant.guesses))
        chance[rows[cands]] = 1.0 / len(cands)
        out.append((_entropy_of(variant.name, cands.tobytes()), chance, len(cands)))
    return out


def _best(variant: Variant, score: npt.NDArray[np.float64]) -> int:
    """The highest score; ties by the fixed order."""
    return int(np.lexsort((tie_order(variant), -np.round(score, 9)))[0])


def finish(boards: Boards) -> int:
    """Finish a board that is down to one word; else the most information summed over the
    boards, counting each board the guess may solve outright as ``SOLVE_BONUS`` bits."""
    single = _single(boards)
    if single is not None:
        return single
    score = sum(
        (h + SOLVE_BONUS * p for h, p, _ in _per_board(boards)),
        np.zeros(len(boards.variant.guesses)),
    )
    return _best(boards.variant, score)


def expected_cost(boards: Boards) -> int:
    """Finish a board that is down to one word; else the fewest expected guesses still
    needed, summed over boards: (1 - chance of solving it now) x (1 + bits still missing x
    ``COST_BITS``)."""
    single = _single(boards)
    if single is not None:
        return single
    cost = np.zeros(len(boards.variant.guesses))
    for h, p, n in _per_board(boards):
        cost += (1 - p) * (1 + COST_BITS * np.maximum(0.0, np.log2(n) - h))
    return _best(boards.variant, -cost)


STRATEGIES: dict[str, Strategy] = {
    "left": left_to_right,
    "random": random_board,
    "fewest-greens": fewest_greens,
    "most-greens": most_greens,
    "finish": finish,
    "expected-cost": expected_cost,
}
BEST = "finish"
WRITE_UP = ("left", "random", "fewest-greens", "most-greens")


def play(
    variant: Variant, answers: list[int], strategy: Strategy, rng: random.Random
) -> int | None:
    """Guesses to solve every board, or None when the limit is reached first."""
    boards = Boards(variant, [np.arange(len(variant.answers), dtype=np.intp)] * len(answers),
                    [None] * len(answers), rng)  # fmt: skip
    win = winning(variant.length)
    limit = guess_limit(len(answers))
    for turn in range(1, limit + 1):
        guess = strategy(boards)
        row = guess_row(variant, guess)
        for b in boards.open():
            pattern = int(row[answers[b]])
            boards.last[b] = pattern
            cands = boards.candidates[b]
            assert cands is not None
            boards.candidates[b] = None if pattern == win else cands[row[cands] == pattern]
        if not boards.open():
            return turn
    return None


def simulate(
    game: str, strategy: str, games: int, seed: int, variant_name: str = "wordle",
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Play ``games`` seeded games; figures: games, win_rate, mean (won games), distribution,
    seconds. ``progress`` hears of each game played."""
    variant = get_variant(variant_name)
    boards = BOARDS[game]
    rng = random.Random(seed)
    deals = [rng.sample(range(len(variant.answers)), boards) for _ in range(games)]
    start = time.perf_counter()
    results = []
    for i, deal in enumerate(deals):
        results.append(play(variant, deal, STRATEGIES[strategy], random.Random(seed * 7919 + i)))
        if progress is not None:
            progress(i + 1, games)
    seconds = time.perf_counter() - start
    won = [r for r in results if r is not None]
    counts = Counter("X" if r is None else str(r) for r in results)
    return {
        "game": game,
        "strategy": strategy,
        "games": games,
        "win_rate": round(len(won) / games, 4),
        "mean": round(sum(won) / len(won), 4) if won else None,
        "distribution": dict(sorted(counts.items(), key=lambda kv: (kv[0] == "X", kv[0].zfill(3)))),
        "seconds": round(seconds, 2),
    }


@dataclass(frozen=True)
class MultiHint:
    candidates: list[list[str]]  # per board; empty once solved
    guess: str  # the best joint guess (the ``finish`` strategy)


def multi_hint(
    variant: Variant,
    guesses: list[str],
    patterns: list[list[int | None]],
    n_boards: int | None = None,
) -> MultiHint:
    """Per-board candidates after ``guesses`` (``patterns[i][b]``: board b's pattern for
    guess i, None once solved) and the best next guess for all ``n_boards`` together (before
    the first guess too: every board open)."""
    if n_boards is None:
        if not patterns:
            raise ValueError("say how many boards there are before the first guess")
        n_boards = len(patterns[0])
    win = winning(variant.length)
    candidates: list[npt.NDArray[np.intp] | None] = [
        np.arange(len(variant.answers), dtype=np.intp) for _ in range(n_boards)
    ]
    for guess, row in zip(guesses, patterns, strict=True):
        scores = pattern_row(variant, guess)
        for b, pattern in enumerate(row):
            cands = candidates[b]
            if cands is None or pattern is None:
                continue
            candidates[b] = None if pattern == win else cands[scores[cands] == pattern]
    boards = Boards(variant, candidates, [None] * n_boards, random.Random(0))
    words = [[] if c is None else [variant.answers.words[i] for i in c] for c in candidates]
    best = finish(boards) if boards.open() else 0
    return MultiHint(words, variant.guesses.words[best])
