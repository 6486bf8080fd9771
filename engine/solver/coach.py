"""Hints from a shared grid, and post-game coaching.

Expected guesses to finish (EG) a position of n candidates after guess g, by the heuristic
used everywhere here:

    EG(g) = 1 + (1/n) * sum over buckets b other than the win of |b| * F(|b|)
    F(1) = 1,   F(k) = 1 + log2(k) / (2 + 0.23 * log2(k))   for k >= 2

F is fitted to the exact search: F(2) = 1.45 (exactly 1.5), F(2315) = 3.45 (exactly 3.42).
Where the position is small (at most ``EXACT_LIMIT`` candidates), the played and the best
guess are also given their exact EG from the exact search.

Skill of a turn (the opener is not scored), with EG_avg the mean EG over the allowed pool:

    skill = 99 * clamp((EG_avg - EG(played)) / (EG_avg - EG(best)), 0, 1)

Luck of a turn: the share of outcomes (weighted by probability) that would have left more
candidates than the one that came up, counting ties as half:

    luck = 99 * (sum of |b| over buckets larger than the actual
                 + half the sum over buckets of the actual's size) / n
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.matrix import _save_atomically, cache_directory
from engine.pattern import score, winning
from engine.rules import Mode, Row
from engine.solver.exact import INF, ExactSearch, SearchSettings
from engine.solver.measures import count_chunks
from engine.solver.position import (
    Position,
    built_patterns,
    groups,
    hard_mode_allows,
    pattern_row,
    patterns_of,
    patterns_over,
)
from engine.variants import Variant

EXACT_LIMIT = 40


def finish_cost(k: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """F(k): expected guesses to finish k candidates (heuristic, see the module doc)."""
    bits = np.log2(np.maximum(k, 1))
    return np.where(k <= 1, 1.0, 1 + bits / (2 + 0.23 * bits))


def expected_guesses(position: Position, pool: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """EG of every guess in ``pool`` at ``position`` (heuristic)."""
    n = len(position.candidates)
    total, wins = np.empty(len(pool)), np.empty(len(pool))
    sizes = np.arange(n + 1, dtype=np.float64)
    size_cost = sizes * finish_cost(sizes)  # a bucket of k costs size_cost[k]: read, not computed
    for first, patterns in _pool_blocks(position, pool):
        for start, counts in count_chunks(patterns, 3**position.variant.length):
            at = first + start
            total[at : at + len(counts)] = size_cost[counts].sum(axis=1)
        wins[first : first + patterns.shape[1]] = (  # 1: a candidate
            patterns == winning(position.variant.length)
        ).sum(axis=0)
    eg: npt.NDArray[np.float64] = 1 + (total - wins) / n
    return eg


@lru_cache(maxsize=64)
def opening_eg(variant: Variant, mode: Mode) -> npt.NDArray[np.float64]:
    """:func:`expected_guesses` of the whole pool at the start: the same for every game, and
    most of a coaching's work on a long list (seconds), so kept in memory and in the cache
    folder (a float a guess)."""
    start = Position.start(variant, mode)
    key = f"{OPENING_FORMAT}:{variant.guesses.sha256}:{variant.answers.sha256}:{mode}"
    path = cache_directory() / f"opening-{hashlib.sha256(key.encode()).hexdigest()[:24]}.npy"
    try:
        found: npt.NDArray[np.float64] = np.load(path)
        if found.shape == start.pool.shape and found.dtype == np.float64:
            return found
    except (OSError, ValueError):
        pass
    eg = expected_guesses(start, start.pool)
    _save_atomically(path, eg)
    return eg


OPENING_FORMAT = "opening-eg-v1"  # part of the cache key: bump when EG changes

# What the coach worked out at the positions it saw last is kept (functools' caches, keyed by
# the rows played from the start): the ranking of each position (its best guess's row, that
# guess's EG, the pool's mean EG) and, where it is small, the exact costs of a guess played
# there and of the best. A day's answer is every player's and a few openers are most
# players', so positions recur across a day's games (a digest coaches every game of every
# server): each is worked out once, not once a game. A few dozen bytes an entry.
KEPT = 8192


@lru_cache(maxsize=KEPT)
def _ranking(variant: Variant, mode: Mode, history: tuple[Row, ...]) -> tuple[int, float, float]:
    """The best guess after ``history`` (the row of the first best by EG), its EG and the
    mean EG of the pool there."""
    position = Position.after(variant, history, mode)
    pool = position.pool
    eg = opening_eg(variant, mode) if not history else expected_guesses(position, pool)
    best_index = int(np.lexsort((np.arange(len(pool)), np.round(eg, 9)))[0])
    return int(pool[best_index]), float(eg[best_index]), float(eg.mean())


@lru_cache(maxsize=KEPT)
def _exact_costs(variant: Variant, mode: Mode, history: tuple[Row, ...], played: int, best: int,
                 depth: int) -> tuple[float, float]:  # fmt: skip
    """The exact costs after ``history`` of the guess ``played`` and of ``best`` (rows)."""
    position = Position.after(variant, history, mode)
    search = ExactSearch(variant, mode, SearchSettings(8, 8, losses=mode is Mode.STRICT))
    return search.guess_cost(position, played, depth), search.guess_cost(position, best, depth)


_POOL_BLOCK = 1024  # guesses whose patterns a large list builds at once: a few MiB, in cache


def _pool_blocks(
    position: Position, pool: npt.NDArray[np.intp]
) -> Iterator[tuple[int, npt.NDArray[np.unsignedinteger]]]:
    """The pool's ``(candidates, guesses)`` patterns, whole from a cached matrix, else built a
    block of guesses at a time (a large list's whole block is hundreds of MiB)."""
    variant = position.variant
    if variant.keeps_matrix:
        yield 0, patterns_of(variant, pool, position.candidates)
        return
    found = groups(variant)
    tiles = np.ascontiguousarray(found.tiles[:, position.candidates])  # taken once
    for first in range(0, len(pool), _POOL_BLOCK):
        yield first, patterns_over(tiles, found.of_guess[pool[first : first + _POOL_BLOCK]])


@dataclass(frozen=True)
class Turn:
    guess: str
    pattern: int
    before: int
    after: int
    best: str
    expected: float  # EG of the played guess
    best_expected: float
    exact: bool  # whether the two EG figures are exact
    skill: int | None  # None for the opener
    luck: int
    rollout: str | None = None  # the rollout agent's guess where it differs (engine.agents)


@dataclass(frozen=True)
class Coaching:
    turns: list[Turn]
    skill: int | None
    luck: int
    won: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def coach(variant: Variant, history: Sequence[Row], mode: Mode = Mode.NORMAL) -> Coaching:
    """Turn by turn: candidates before and after, the best guess, skill and luck."""
    position = Position.start(variant, mode)
    turns = []
    for i, (guess, pattern) in enumerate(history):
        best, best_eg, average = _ranking(variant, mode, position.history)
        played_row = variant.guesses.index.get(guess)
        played_eg = float(expected_guesses(position, np.array([played_row]))[0]) if (
            played_row is not None) else average  # fmt: skip
        exact = False
        n = len(position.candidates)
        if n <= EXACT_LIMIT and played_row is not None:
            depth = variant.max_guesses - i
            played_exact, best_exact = _exact_costs(
                variant, mode, position.history, played_row, best, depth
            )
            if played_exact < INF and best_exact < INF:
                played_eg, best_eg, exact = played_exact / n, best_exact / n, True
                if played_eg < best_eg:
                    best, best_eg = played_row, played_eg
        skill = None if i == 0 else skill_of(average, best_eg, played_eg)
        luck = _luck(position, guess, pattern)
        after = position.play(guess, pattern)
        turns.append(Turn(guess, pattern, n, len(after.candidates), variant.guesses.words[best],
                          round(played_eg, 3), round(best_eg, 3), exact, skill, luck))  # fmt: skip
        position = after
    skills = [t.skill for t in turns if t.skill is not None]
    won = bool(history) and history[-1][1] == winning(variant.length)
    skill = round(sum(skills) / len(skills)) if skills else None
    luck = round(sum(t.luck for t in turns) / len(turns)) if turns else 0
    return Coaching(turns, skill, luck, won)


def skill_of(average: float, best: float, played: float) -> int:
    """A turn's skill, 0 to 99: where the guess played stands between the average guess
    (0) and the best (99), by expected guesses to finish."""
    spread = average - best
    share = 1.0 if spread <= 0 else min(1.0, max(0.0, (average - played) / spread))
    return round(99 * share)


def _luck(position: Position, guess: str, pattern: int) -> int:
    patterns = pattern_row(position.variant, guess)[position.candidates]
    values, sizes = np.unique(patterns, return_counts=True)
    actual = int(sizes[values == pattern][0]) if (values == pattern).any() else 0
    n = len(position.candidates)
    worse = sizes[sizes > actual].sum() + 0.5 * sizes[sizes == actual].sum()
    return round(float(99 * worse / n))


@dataclass(frozen=True)
class GridReading:
    count: int
    likely: list[str]  # the most likely answers first
    complete: bool = True  # False: the hard-mode check ran out of time (count may be high)


def grid_candidates(
    variant: Variant, patterns: Sequence[int], hard: bool = False, top: int = 10, *,
    budget: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> GridReading:  # fmt: skip
    """Answers consistent with a grid of patterns alone (no words): each row's pattern must
    come from some allowed guess against the answer; in hard mode, from a sequence of guesses
    that obeys the rule. Ranked by how many guesses could give each row.

    The hard-mode check can take minutes on a long grid: with ``budget`` (seconds of
    ``clock``) it stops when the time is up, keeps the answers it did not reach, and says so
    (``complete`` False)."""
    alive = np.ones(len(variant.answers), dtype=bool)
    weight = np.zeros(len(variant.answers))
    for hits in _hits(variant, patterns):
        alive &= hits > 0
        weight += np.log(np.maximum(hits, 1))
    candidates, complete = np.flatnonzero(alive), True
    if hard:
        column = _column_reader(variant)
        candidates, complete = hard_survivors(variant, candidates, patterns, column, budget, clock)
    order = candidates[np.argsort(-weight[candidates], kind="stable")]
    words = [variant.answers.words[a] for a in order[:top]]
    return GridReading(len(candidates), words, complete)


_GUESS_BLOCK = 4096  # guesses per block where a large list's patterns are built


def _hits(variant: Variant, patterns: Sequence[int]) -> npt.NDArray[np.int64]:
    """``hits[i, a]``: how many allowed guesses give ``patterns[i]`` against answer ``a``; a
    list without a cached matrix builds it a block of guesses at a time."""
    hits = np.zeros((len(patterns), len(variant.answers)), dtype=np.int64)
    if variant.keeps_matrix:
        blocks: Iterable[npt.NDArray[np.unsignedinteger]] = [np.asarray(variant.matrix).T]
    else:
        everyone = np.arange(len(variant.answers), dtype=np.intp)
        blocks = (
            built_patterns(variant, np.arange(g0, min(g0 + _GUESS_BLOCK, len(variant.guesses))),
                           everyone)
            for g0 in range(0, len(variant.guesses), _GUESS_BLOCK)
        )  # fmt: skip
    for block in blocks:  # (answers, guesses)
        for i, p in enumerate(patterns):
            hits[i] += (block == p).sum(axis=1)
    return hits


def _column_reader(variant: Variant) -> Callable[[int], npt.NDArray[np.unsignedinteger]]:
    """Every guess's pattern against one answer."""
    if variant.keeps_matrix:
        matrix = np.asarray(variant.matrix)
        return lambda a: matrix[:, a]
    found = groups(variant)

    def column(a: int) -> npt.NDArray[np.unsignedinteger]:
        out: npt.NDArray[np.unsignedinteger] = patterns_over(found.tiles[:, [a]], found.of_guess)[0]
        return out

    return column


def hard_survivors(
    variant: Variant, candidates: npt.NDArray[np.intp], patterns: Sequence[int],
    column: Callable[[int], npt.NDArray[np.unsignedinteger]], budget: float | None,
    clock: Callable[[], float],
) -> tuple[npt.NDArray[np.intp], bool]:  # fmt: skip
    """The candidates a hard-mode sequence of guesses could give ``patterns`` against
    (:func:`hard_path`; ``column(a)``: every guess's pattern against answer ``a``), checked
    in the order given until ``budget`` seconds of ``clock`` are spent; those not reached
    keep the benefit of the doubt. And whether every one was checked."""
    rows = list(patterns)
    deadline = None if budget is None else clock() + budget
    kept, complete = [], True
    for a in candidates.tolist():
        if complete and deadline is not None and clock() > deadline:
            complete = False  # out of time: the rest are kept unchecked
        if not complete or hard_path(variant, column(a), rows):
            kept.append(a)
    return np.array(kept, dtype=np.intp), complete


def hard_path(
    variant: Variant, column: npt.NDArray[np.unsignedinteger], patterns: list[int],
    budget: int = 400,
) -> bool:  # fmt: skip
    """Is there a sequence of guesses giving these patterns that obeys hard mode? ``column``
    holds every guess's pattern against the answer. The guesses giving each row are tried in
    list order, the rule checked on all of them at once; past ``budget`` tried (allowed or
    not), the benefit of the doubt."""
    words = variant.guesses.words
    tried = 0

    def extend(history: list[Row], i: int) -> bool:
        nonlocal tried
        if i == len(patterns):
            return True
        giving = np.flatnonzero(column == patterns[i])
        last = -1
        for k in np.flatnonzero(hard_mode_allows(variant, history, giving)).tolist():
            tried += k - last  # this one and the refused ones since the last allowed
            last = k
            if tried > budget:
                return True  # too many to check: the benefit of the doubt
            word = words[giving[k]]
            if extend([*history, (word, patterns[i])], i + 1):
                return True
        tried += len(giving) - 1 - last  # the refused ones after the last allowed
        return tried > budget

    return extend([], 0)


@dataclass(frozen=True)
class BoardsCoaching:
    """A multi-board game coached board by board: each board's rows (its guesses up to the
    one that solved it) as if they were a game of their own. A guess aimed at another board
    is weighed on this one too: that is the price of playing several boards at once."""

    answers: list[str]
    boards: list[Coaching]
    solved_at: list[int | None]  # the guess that solved each board

    @property
    def skill(self) -> int | None:
        skills = [b.skill for b in self.boards if b.skill is not None]
        return round(sum(skills) / len(skills)) if skills else None


def coach_boards(
    variant: Variant, answers: Sequence[str], guesses: Sequence[str], mode: Mode = Mode.NORMAL
) -> BoardsCoaching:
    """Coach each board of a multi-board game on its own rows."""
    boards, solved_at = [], []
    for answer in answers:
        rows: list[Row] = []
        for guess in guesses:
            rows.append((guess, score(guess, answer)))
            if guess == answer:
                break
        boards.append(coach(variant, rows, mode))
        solved_at.append(len(rows) if answer in guesses else None)
    return BoardsCoaching(list(answers), boards, solved_at)


@dataclass(frozen=True)
class WorstCaseTurn:
    guess: str
    before: int  # words the adversary could still choose from
    after: int  # the bucket it kept: the guess's worst case
    best: str  # the guess with the smallest worst case here
    best_after: int
    skill: int | None  # None on the winning guess (nothing left to choose)


@dataclass(frozen=True)
class WorstCaseCoaching:
    """An Absurdle game coached by its worst cases: the adversary keeps the largest bucket,
    so a guess is as good as the bucket it leaves, and there is no luck to measure."""

    turns: list[WorstCaseTurn]
    won: bool

    @property
    def skill(self) -> int | None:
        skills = [t.skill for t in self.turns if t.skill is not None]
        return round(sum(skills) / len(skills)) if skills else None


def coach_worst_case(
    variant: Variant, history: Sequence[Row], mode: Mode = Mode.NORMAL
) -> WorstCaseCoaching:
    """Turn by turn: the words left before and after, and the minimax guess (the smallest
    largest bucket); skill 0 to 99 is where the played guess's worst case stands between the
    pool's average worst case (0) and the best (99)."""
    position = Position.start(variant, mode)
    turns = []
    win = winning(variant.length)
    for guess, pattern in history:
        n = len(position.candidates)
        after = position.play(guess, pattern)
        if pattern == win and n == 1:  # the last word, guessed: nothing to choose
            turns.append(WorstCaseTurn(guess, 1, 0, guess, 0, None))
            break
        pool = position.pool
        worst = np.concatenate([
            counts.max(axis=1) for _, block in _pool_blocks(position, pool)
            for _, counts in count_chunks(block, 3**variant.length)])  # fmt: skip
        best_index = int(np.lexsort((np.arange(len(pool)), worst))[0])
        best, best_worst = variant.guesses.words[int(pool[best_index])], int(worst[best_index])
        played = len(after.candidates)
        skill = skill_of(float(worst.mean()), best_worst, played)
        if played <= best_worst:  # as good as the best: the guess played is named
            best, best_worst = guess, played
        turns.append(WorstCaseTurn(guess, n, played, best, best_worst, skill))
        position = after
    won = bool(history) and history[-1][1] == win
    return WorstCaseCoaching(turns, won)
