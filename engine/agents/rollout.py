"""Approximation in value space with rollout (Bhambri, Bhattacharjee and Bertsekas,
"Reinforcement Learning Methods for Wordle", 2022).

The base policy is a greedy strategy of the solver (most parts by default). At a position
the rollout agent looks one guess ahead: for each of the ``top`` guesses the base measure
ranks best (and the ``top`` best that could still be the answer), it splits the candidates
into buckets and plays the base policy on from each bucket against every answer in it. The
game is deterministic once the answer is fixed, so one simulation per candidate gives the
base policy's cost exactly. A guess's cost is the total number of guesses over the
candidates, a game lost at the guess limit costing the guesses used plus ``loss_penalty``
(the environment's reward, negated). The cheapest guess is played; ties go to the guess the
base measure ranks first. Nothing is random, so the agent's decision in a position is the
same in every run.

The base policy's results from a position are kept as a profile, ``counts[k]``: how many of
its candidates it solves in k more guesses. Positions recur across the lookahead (a bucket
is often reached by several guesses), so the profiles are memoised; the guess limit applies
only when a profile is priced.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.pattern import winning
from engine.rules import Mode, revealed
from engine.solver.greedy import best_guess, rank_guesses
from engine.solver.measures import Measure, rank, sort_key
from engine.solver.position import Position, answer_rows, guess_row, patterns_of, tie_order
from engine.solver.tree import DEPTH_CAP, split

Profile = npt.NDArray[np.int64]


@dataclass(frozen=True)
class RolloutSettings:
    base: Measure = Measure.PARTS
    top: int = 10  # guesses looked at per position, and as many possible answers
    loss_penalty: float = 10.0

    def key(self) -> str:
        return f"{self.base}-k{self.top}-L{self.loss_penalty}"


class BasePolicy:
    """A greedy strategy and its memoised profiles."""

    def __init__(self, mode: Mode, measure: Measure) -> None:
        self.mode, self.measure = mode, measure
        self.memo: dict[tuple[bytes, object], Profile] = {}

    def key(self, position: Position) -> tuple[bytes, object]:
        hard = None
        if self.mode is Mode.HARD:  # the pool depends on what was revealed, not only what is left
            greens, minimum = revealed(position.history, position.variant.length)
            hard = (tuple(sorted(greens.items())), tuple(sorted(minimum.items())))
        return position.candidates.tobytes(), hard

    def profile(self, position: Position) -> Profile:
        """``counts[k]``: candidates the base policy solves in k more guesses (k up to the
        cap; ``counts[DEPTH_CAP]`` also holds any it has not solved by then)."""
        n = len(position.candidates)
        counts = np.zeros(DEPTH_CAP + 1, dtype=np.int64)
        if n <= 2:  # a candidate is guessed: it wins one, the other comes next
            counts[1 : n + 1] = 1
            return counts
        key = self.key(position)
        known = self.memo.get(key)
        if known is not None:
            return known
        guess = best_guess(position, self.measure)
        for _, members, child in children(position, guess):
            if child is None:
                counts[1] += len(members)
                continue
            below = self.profile(child)
            counts[2:] += below[1:-1]
            counts[-1] += below[-1]
        self.memo[key] = counts
        return counts


def children(
    position: Position, guess: int
) -> list[tuple[int, npt.NDArray[np.intp], Position | None]]:
    """Each bucket of ``guess``: its pattern, its candidates and the position it leads to
    (None for the win)."""
    variant = position.variant
    word = variant.guesses.words[guess]
    patterns = guess_row(variant, guess)[position.candidates]
    out: list[tuple[int, npt.NDArray[np.intp], Position | None]] = []
    for pattern, members in split(position.candidates, patterns):
        child = None
        if pattern != winning(variant.length):
            history = (*position.history, (word, pattern))
            child = Position(variant, position.mode, history, members)
        out.append((pattern, members, child))
    return out


class RolloutAgent:
    """Picks a guess by one-step lookahead over rollouts of the base policy."""

    def __init__(self, mode: Mode, settings: RolloutSettings = RolloutSettings(),
                 max_guesses: int | None = None) -> None:  # fmt: skip
        self.mode, self.settings, self.max_guesses = mode, settings, max_guesses
        self.base = BasePolicy(mode, settings.base)

    def shortlist(self, position: Position) -> npt.NDArray[np.intp]:
        """The guesses looked at: the base measure's best ``top`` of the pool, then its best
        ``top`` of those that could still be the answer (rows of the guess list)."""
        variant, top = position.variant, self.settings.top
        best = rank_guesses(position, self.settings.base, top=top).guesses
        possible = answer_rows(variant)[position.candidates]
        key = sort_key(patterns_of(variant, possible, position.candidates),
                       self.settings.base, 3**variant.length)  # fmt: skip
        order = rank(key, np.ones(len(possible), dtype=bool), tie_order(variant)[possible], top)
        extra = possible[order]
        return np.concatenate([best, extra[~np.isin(extra, best)]])

    def costs(self, position: Position, guesses: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """Total guesses over the candidates when each of ``guesses`` is played now and the
        base policy plays on (a loss priced as the guesses used plus the penalty)."""
        limit = self.max_guesses or position.variant.max_guesses
        left = limit - len(position.history) - 1  # guesses after this one
        steps = np.arange(DEPTH_CAP + 1, dtype=np.float64)
        price = np.where(steps <= left, steps, left + self.settings.loss_penalty)
        out = np.empty(len(guesses))
        for i, guess in enumerate(guesses.tolist()):
            total = float(len(position.candidates))
            for _, _, child in children(position, guess):
                if child is not None:
                    total += float(self.base.profile(child) @ price)
            out[i] = total
        return out

    def choose(self, position: Position) -> int:
        """The guess to play (a row of the guess list)."""
        if len(position.candidates) <= 2:
            return best_guess(position, self.settings.base)
        guesses = self.shortlist(position)
        return int(guesses[int(np.argmin(self.costs(position, guesses)))])
