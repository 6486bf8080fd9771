"""Greedy strategies: rank every guess in the pool by one measure of its buckets."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.solver.measures import Measure, Scores, rank, score_patterns
from engine.solver.position import Position, answer_rows, patterns_of, tie_order


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
    """Score the whole pool over the remaining candidates and order it by ``measure``."""
    pool = position.pool
    patterns = patterns_of(position.variant, pool, position.candidates)
    scores = score_patterns(patterns, 3**position.variant.length)
    possible = possible_mask(position, pool)
    order = rank(scores, measure, possible, tie_order(position.variant)[pool], top)
    picked = Scores(
        scores.pool_size,
        scores.entropy[order],
        scores.expected[order],
        scores.worst[order],
        scores.parts[order],
    )
    return Ranking(pool[order], picked, possible[order])


def best_guess(position: Position, measure: Measure) -> int:
    """The strategy's next guess, as a row of the guess list."""
    if len(position.candidates) <= 2:
        # One or two left: guessing a candidate is best by every measure, and the tie-break
        # (possible first, then list order) picks the earlier one.
        return int(answer_rows(position.variant)[position.candidates].min())
    return int(rank_guesses(position, measure, top=1).guesses[0])
