"""Greedy strategies: rank every guess in the pool by one measure of its buckets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from engine.solver.bounds import entropy_upper_bounds
from engine.solver.measures import Measure, Scores, entropies, rank, score_patterns, sort_key
from engine.solver.position import (
    Position,
    answer_rows,
    by_answer,
    groups,
    patterns_of,
    patterns_over,
    tie_order,
)
from engine.variants import Variant

_PRUNE_FROM = 64  # candidates: from here, or where pairs of them are many (below), the
_PRUNE_PAIRS = 1 << 24  # candidates^2 x guesses: few candidates score every guess fast
_PRUNE_POOL = 4096  # guesses: a small pool (strict mode) is cheaper to score whole
_SEED = 128  # guesses scored in the first round, by best bound: their top-th sets the bar
_SLACK = 1e-9  # added to a bound so that rounding in its sum never puts it below the entropy
# Bits: what a hint counts "near equal". Ranking with ``prefer``, a guess that can still be
# the answer gains this much entropy, and a common word (one on the answer list) as much
# again: a possible answer beats a guess it trails by less than NEAR bits (2 * NEAR if that
# guess is a rare word), a common word a rare one it trails by less than NEAR. Measured over
# the whole list with ``wordlebot bench play --strategy hint`` (docs/performance.md).
NEAR = 0.05
# Bits: how far a common word may trail a rare one and still lead, in the other languages.
# Their allowed lists hold every form the dictionary spells (Polish 7: 122,275 words for
# 2,181 answers), mostly words few players know, which NEAR let lead the hints (KORNA,
# ORSEINA, CERINTO as openers). Measured per list as NEAR is (docs/performance.md).
NEAR_COMMON = 0.2
# Expected guesses: the same for hints under an answer model (engine.solver.weighted), which
# rank by expected guesses to finish, already counting the chance of winning now: a common
# word beats a rare one it trails by less than this.
NEAR_GUESSES = 0.02


@dataclass(frozen=True)
class Ranking:
    """A pool's guesses (rows of the guess list) best first, with their scores."""

    guesses: npt.NDArray[np.intp]
    scores: Scores
    possible: npt.NDArray[np.bool_]


def possible_mask(position: Position, guesses: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Which of ``guesses`` could still be the answer."""
    mask = np.zeros(len(position.variant.guesses), dtype=bool)
    mask[answer_rows(position.variant)[position.candidates]] = True
    return mask[guesses]


@cache
def common_mask(variant: Variant) -> npt.NDArray[np.bool_]:
    """Which guesses are common words: those on the answer list (the rest are allowed but
    rare, as the original game's two lists)."""
    mask = np.zeros(len(variant.guesses), dtype=bool)
    mask[answer_rows(variant)] = True
    return mask


def common_margin(variant: Variant) -> float:
    """Bits by which a common word beats a rare one: :data:`NEAR` on English's lists (and
    Primel's, where every guess is an answer), :data:`NEAR_COMMON` in the other languages."""
    return NEAR if variant.language in ("en", "zxx") else NEAR_COMMON


@cache
def common_bonus(variant: Variant) -> npt.NDArray[np.float64]:
    """Each guess's bonus in bits as a common word: :func:`common_margin` or nothing."""
    return np.where(common_mask(variant), common_margin(variant), 0.0)


def preferred(
    key: npt.NDArray[np.float64], possible: npt.NDArray[np.bool_], common: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """An entropy sort key (smaller is better) in which near equals go to a possible answer,
    then to a common word (``common``: each guess's :func:`common_bonus`; see :data:`NEAR`).
    Monotone in ``key``: a bound on the key stays a bound on this one."""
    bonus = NEAR * possible.astype(np.float64) + common
    return np.asarray(np.round(key - bonus, 9), dtype=np.float64)


def rank_guesses(
    position: Position, measure: Measure, top: int | None = None, *, prefer: bool = False
) -> Ranking:
    """Score the pool over the remaining candidates and order it by ``measure``.

    With ``prefer`` (entropy only: the other measures ignore it), guesses of near equal
    entropy are ordered as a player wants them: a possible answer first, then a common word
    (:func:`preferred`). For the ``top`` few by entropy in a large pool, only guesses whose
    entropy bound can reach the top are scored exactly; the result is the same as scoring
    them all.
    """
    guesses, patterns, possible = _ordered(position, measure, top, prefer)
    scores = score_patterns(patterns, 3**position.variant.length)  # for the few
    return Ranking(guesses, scores, possible)


def _ordered(
    position: Position, measure: Measure, top: int | None, prefer: bool = False
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.unsignedinteger], npt.NDArray[np.bool_]]:
    """The pool best first by one measure (``top`` of it, when given): its guess rows, their
    ``(candidates, guesses)`` patterns and whether each can still be the answer."""
    pool = position.pool
    n = len(position.candidates)
    # Without a matrix every pattern scored is built: pruning pays from three candidates.
    built = not position.variant.keeps_matrix
    many = n >= _PRUNE_FROM or (n > 2 and (built or n * n * len(pool) > _PRUNE_PAIRS))
    large = many and len(pool) >= _PRUNE_POOL
    prefer = prefer and measure is Measure.ENTROPY
    if measure is Measure.ENTROPY and top is not None and large:
        return _entropy_top(position, pool, top, prefer)
    patterns = patterns_of(position.variant, pool, position.candidates)
    key = sort_key(patterns, measure, 3**position.variant.length)
    possible = possible_mask(position, pool)
    if prefer:
        key = preferred(key, possible, common_bonus(position.variant)[pool])
    order = rank(key, possible, tie_order(position.variant)[pool], top)
    return pool[order], patterns[:, order], possible[order]


def _entropy_top(
    position: Position, pool: npt.NDArray[np.intp], top: int, prefer: bool = False
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.unsignedinteger], npt.NDArray[np.bool_]]:
    """The ``top`` of ``pool`` by entropy, as :func:`_ordered` gives them, scoring exactly
    only the guesses that can reach them.

    A ranking sorts by a key: entropy rounded to 9 places, then whether the guess can win,
    then the tie order. A guess's bound gives the best key it could have: its entropy bound
    capped at log2(n) (no guess splits n candidates better) with its own tie-breaks. The
    guesses whose best key beats the top-th key found so far are scored in rounds, best
    bounds first, each round four times the last, until none is left: ties included, the
    top is the one scoring every guess would give. (Where many guesses split the candidates
    perfectly, the cap makes their bounds equal and the tie order decides at once.)
    With ``prefer`` the keys, bounds included, are :func:`preferred`: still bounds.
    """
    variant = position.variant
    n = len(position.candidates)
    bound = entropy_upper_bounds(variant, position.candidates)[pool] + _SLACK
    bound_key = np.asarray(-np.round(np.minimum(bound, np.log2(n)), 9), dtype=np.float64)
    possible = possible_mask(position, pool)
    common = common_bonus(variant)[pool]
    if prefer:
        bound_key = preferred(bound_key, possible, common)
    ties = np.where(possible, 0, len(variant.guesses)) + tie_order(variant)[pool]  # smaller wins
    columns = _Columns(variant, position.candidates)
    best = np.zeros(0, dtype=np.intp)  # the top so far (indices into pool), and their keys
    best_keys = np.zeros(0)
    unseen = np.ones(len(pool), dtype=bool)
    size = _SEED
    while True:
        if len(best) < top:
            left = np.flatnonzero(unseen)
        else:
            bar, bar_tie = best_keys[-1], ties[best[-1]]
            beats = (bound_key < bar) | ((bound_key == bar) & (ties < bar_tie))
            left = np.flatnonzero(unseen & beats)
            columns.expect(len(left))
        if len(left) == 0:
            break
        if len(left) > size:
            left = np.sort(left[np.argpartition(bound_key[left], size)[:size]])
        unseen[left] = False
        keys = -np.round(entropies(columns(pool[left]), 3**variant.length), 9)
        if prefer:
            keys = preferred(keys, possible[left], common[left])
        every, every_keys = np.concatenate([best, left]), np.concatenate([best_keys, keys])
        order = np.lexsort((ties[every], every_keys))[:top]
        best, best_keys = every[order], every_keys[order]
        size *= 4
    return pool[best], columns(pool[best]), possible[best]


class _Columns:
    """Some guesses' patterns over the candidates, ``(candidates, guesses)``, read the
    cheaper way: whole guess rows of the matrix (a few guesses, or many candidates), or the
    candidates' rows of its answers-major copy, taken once, when many guesses will be read.
    Guesses are read fastest in increasing order. A list that keeps no matrix builds them
    from the candidates' rows of its group table."""

    def __init__(self, variant: Variant, candidates: npt.NDArray[np.intp]) -> None:
        self.variant, self.candidates = variant, candidates
        self.rows: npt.NDArray[np.unsignedinteger] | None = None
        self.group_rows = (
            None
            if variant.keeps_matrix
            else np.ascontiguousarray(groups(variant).tiles[:, candidates])
        )

    def expect(self, guesses: int) -> None:
        """About this many guesses will be read: take the candidates' rows if that is cheaper."""
        if self.rows is not None or self.group_rows is not None:
            return
        n, answers = len(self.candidates), len(self.variant.answers)
        if (answers - n) * guesses > n * len(self.variant.guesses):
            self.rows = by_answer(self.variant)[self.candidates]

    def __call__(self, guesses: npt.NDArray[np.intp]) -> npt.NDArray[np.unsignedinteger]:
        if self.group_rows is not None:
            return patterns_over(self.group_rows, groups(self.variant).of_guess[guesses])
        if self.rows is not None:  # fast while the guesses are in increasing order
            return np.take(self.rows, guesses, axis=1)
        whole = np.take(np.asarray(self.variant.matrix), guesses, axis=0)
        return np.take(whole, self.candidates, axis=1).T


def best_guess(position: Position, measure: Measure, *, prefer: bool = False) -> int:
    """The strategy's next guess, as a row of the guess list (``prefer``: as a hint's top
    pick, see :func:`rank_guesses`)."""
    if len(position.candidates) <= 2:
        # One or two left: guessing a candidate is best by every measure, and the tie-break
        # (possible first, then list order) picks the earlier one.
        return int(answer_rows(position.variant)[position.candidates].min())
    guesses, _, _ = _ordered(position, measure, top=1, prefer=prefer)
    return int(guesses[0])
