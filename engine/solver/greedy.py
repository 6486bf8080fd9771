"""Greedy strategies: rank every guess in the pool by one measure of its buckets."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.solver.bounds import entropy_upper_bounds
from engine.solver.measures import Measure, Scores, rank, score_patterns, sort_key
from engine.solver.position import Position, answer_rows, by_answer, patterns_of, tie_order

_PRUNE_FROM = 64  # candidates: below this, scoring every guess is already cheap
_PRUNE_POOL = 4096  # guesses: a small pool (strict mode) is cheaper to score whole
_SHORTLIST_CHUNK = 128


@dataclass(frozen=True)
class Ranking:
    """A pool's guesses (rows of the guess list) best first, with their scores."""

    guesses: npt.NDArray[np.intp]
    scores: Scores
    possible: npt.NDArray[np.bool_]


def possible_mask(position: Position, guesses: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Which of ``guesses`` could still be the answer."""
    rows = answer_rows(position.variant)[position.candidates]
    return np.isin(guesses, rows)


def rank_guesses(position: Position, measure: Measure, top: int | None = None) -> Ranking:
    """Score the pool over the remaining candidates and order it by ``measure``.

    For the ``top`` few by entropy in a large pool, only guesses whose entropy bound can
    reach the top are scored exactly; the result is the same as scoring them all.
    """
    pool, patterns, order, possible = _ordered(position, measure, top)
    scores = score_patterns(patterns[:, order], 3**position.variant.length)  # for the few
    return Ranking(pool[order], scores, possible[order])


def _ordered(
    position: Position, measure: Measure, top: int | None
) -> tuple[
    npt.NDArray[np.intp],
    npt.NDArray[np.unsignedinteger],
    npt.NDArray[np.intp],
    npt.NDArray[np.bool_],
]:
    """The pool scored by one measure: (pool, its patterns, best-first order, possible)."""
    pool = position.pool
    large = len(position.candidates) >= _PRUNE_FROM and len(pool) >= _PRUNE_POOL
    if measure is Measure.ENTROPY and top is not None and large:
        pool = _entropy_shortlist(position, pool, top)
    patterns = patterns_of(position.variant, pool, position.candidates)
    key = sort_key(patterns, measure, 3**position.variant.length)
    possible = possible_mask(position, pool)
    order = rank(key, possible, tie_order(position.variant)[pool], top)
    return pool, patterns, order, possible


def _entropy_shortlist(
    position: Position, pool: npt.NDArray[np.intp], top: int
) -> npt.NDArray[np.intp]:
    """The guesses of ``pool`` that may be among the ``top`` by entropy: scored exactly in
    order of their upper bound until the next bound falls below the top-th exact entropy."""
    variant = position.variant
    bounds = entropy_upper_bounds(variant, position.candidates)[pool]
    order = np.argsort(-bounds, kind="stable")
    rows = by_answer(variant)[position.candidates]
    exact: list[npt.NDArray[np.float64]] = []
    taken = 0
    while taken < len(order):
        chunk = pool[order[taken : taken + _SHORTLIST_CHUNK]]
        exact.append(score_patterns(rows[:, chunk], 3**variant.length).entropy)
        taken += len(chunk)
        found = np.concatenate(exact)
        if len(found) >= top and taken < len(order):
            threshold = np.partition(found, len(found) - top)[len(found) - top]
            if bounds[order[taken]] < threshold - 1e-9:
                break
    return np.sort(pool[order[:taken]])


def best_guess(position: Position, measure: Measure) -> int:
    """The strategy's next guess, as a row of the guess list."""
    if len(position.candidates) <= 2:
        # One or two left: guessing a candidate is best by every measure, and the tie-break
        # (possible first, then list order) picks the earlier one.
        return int(answer_rows(position.variant)[position.candidates].min())
    pool, _, order, _ = _ordered(position, measure, top=1)
    return int(pool[order[0]])
