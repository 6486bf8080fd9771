"""The yardstick of the exact search's speed: a plain numpy beam search given the opener.

What it is: the decision tree a competent numpy programmer writes first. At each position it
scores every allowed guess by the candidates it leaves expected (the sum of its buckets'
squared sizes over the candidates' rows of the pattern matrix), keeps the ``width`` best
(ties: a possible answer first, then list order), splits the candidates by each kept
guess's patterns, solves every bucket the same way, and keeps the guess with the smallest
total; where none of them finishes within the guesses left, it tries the next ``width`` in
the same order (hard mode needs it after SALET). Two candidates cost 3 (guess one, then the
other), one costs 1; a candidate with no guess left is impossible. A plain dict memoises a
position by its candidates, guesses left and (hard mode) what the rule has revealed; hard
mode's pool is the NYT rule's (:func:`engine.solver.position.hard_mode_pool`, the rule of
``engine.rules``). Nothing else: no lower bounds, no pruning, no shortcuts.

The squares are counted by the engine's own :func:`engine.solver.measures.parts_and_squares`
(the counting the exact search ranks with), so the ratio compares the searches, not the
counting: one plain ``np.bincount`` table of every guess's 243 buckets at each position
makes the beam five to ten times slower in normal mode (6.7 to 12.5 s given SALET), and
entropy instead of squares ranks no better (8,032 against 8,041) at four times that.

Why it is the yardstick: it looks at as many guesses per position as the engine's preset
(its ``width``; not the hard preset's 100 in the two levels below the root, which without
pruning would take hours) and builds a whole tree of about the same quality given the
opener. So the engine's whole cold search beside it, both given nothing but the lists, is
the price of choosing the opener and of proving what the beam merely assumes.
``wordlebot bench play --strategy optimal --cold`` times both in the same run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.pattern import winning
from engine.rules import Mode, Row, revealed
from engine.solver.measures import parts_and_squares
from engine.solver.position import answer_rows, by_answer, hard_mode_pool
from engine.solver.tree import Node
from engine.variants import Variant

IMPOSSIBLE = 1 << 40


class ReferenceBeam:
    """A beam search of ``width`` guesses per position over ``variant``'s whole lists."""

    def __init__(self, variant: Variant, mode: Mode = Mode.NORMAL, width: int = 8) -> None:
        if mode not in (Mode.NORMAL, Mode.HARD):
            raise ValueError("the reference beam plays normal and hard mode")
        self.variant, self.mode, self.width = variant, mode, width
        self.matrix = np.asarray(variant.matrix)  # (guesses, answers)
        self.by_answer = np.asarray(by_answer(variant))
        self.patterns = 3**variant.length
        self.win = winning(variant.length)
        self.is_answer = np.zeros(len(variant.guesses), dtype=bool)
        self.is_answer[answer_rows(variant)] = True
        self.everything = np.arange(len(variant.guesses))
        self.memo: dict[tuple[bytes, int, tuple[object, ...]], tuple[int, int]] = {}

    def solve(self, first: str) -> tuple[int, Node]:
        """Total guesses over every answer, and the tree, with ``first`` as the opener."""
        candidates = np.arange(len(self.variant.answers))
        opener, left = self.variant.guesses.index[first], self.variant.max_guesses
        total = self._play(candidates, opener, (), left)
        if total >= IMPOSSIBLE:
            raise ValueError("the beam finds no tree that solves every answer in time")
        return total, self._tree(candidates, opener, (), left)

    # -- the search ------------------------------------------------------------------------

    def _cost(self, candidates: npt.NDArray[np.intp], history: tuple[Row, ...], left: int) -> int:
        """Least total found for ``candidates`` with ``left`` guesses left."""
        n = len(candidates)
        if left == 0:
            return IMPOSSIBLE
        if n == 1:
            return 1
        if left == 1:
            return IMPOSSIBLE
        if n == 2:
            return 3
        key = (candidates.tobytes(), left, self._revealed(history))
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        best, best_guess = IMPOSSIBLE, -1
        ranked = self._ranked(candidates, history).tolist()
        for start in range(0, len(ranked), self.width):  # the next guesses while none finishes
            for guess in ranked[start : start + self.width]:
                total = self._play(candidates, guess, history, left)
                if total < best:
                    best, best_guess = total, guess
            if best < IMPOSSIBLE:
                break
        self.memo[key] = (best, best_guess)
        return best

    def _play(self, candidates: npt.NDArray[np.intp], guess: int, history: tuple[Row, ...],
              left: int) -> int:  # fmt: skip
        """Total when ``guess`` is played now: one guess for each candidate, then its bucket's."""
        total = len(candidates)
        word = self.variant.guesses.words[guess]
        for pattern, bucket in self._buckets(candidates, guess):
            total += self._cost(bucket, (*history, (word, pattern)), left - 1)
        return total

    def _ranked(
        self, candidates: npt.NDArray[np.intp], history: tuple[Row, ...]
    ) -> npt.NDArray[np.intp]:
        """The pool, those that leave the fewest candidates expected first (the least sum of
        squared bucket sizes), a possible answer first among equals, then list order."""
        pool = self._pool(history)
        rows = self.by_answer[candidates]  # (candidates, guesses)
        _, squares = parts_and_squares(
            rows if len(pool) == len(self.everything) else rows[:, pool], self.patterns
        )
        order = np.lexsort((pool, ~self.is_answer[pool], squares))
        return pool[order]

    def _buckets(
        self, candidates: npt.NDArray[np.intp], guess: int
    ) -> list[tuple[int, npt.NDArray[np.intp]]]:
        """Each pattern but the win, with the candidates it leaves."""
        patterns = self.matrix[guess, candidates]
        return [
            (p, candidates[patterns == p]) for p in np.unique(patterns).tolist() if p != self.win
        ]

    def _pool(self, history: tuple[Row, ...]) -> npt.NDArray[np.intp]:
        if self.mode is Mode.HARD and history:
            return hard_mode_pool(self.variant, history)
        return self.everything

    def _revealed(self, history: Sequence[Row]) -> tuple[object, ...]:
        if self.mode is not Mode.HARD:
            return ()
        greens, minimum = revealed(history, self.variant.length)
        return tuple(sorted(greens.items())), tuple(sorted(minimum.items()))

    # -- the tree --------------------------------------------------------------------------

    def _tree(self, candidates: npt.NDArray[np.intp], guess: int, history: tuple[Row, ...],
              left: int) -> Node:  # fmt: skip
        node = Node(guess, len(candidates))
        word = self.variant.guesses.words[guess]
        for pattern, bucket in self._buckets(candidates, guess):
            child = (*history, (word, pattern))
            guess_next = self._choice(bucket, child, left - 1)
            node.children[pattern] = self._tree(bucket, guess_next, child, left - 1)
        return node

    def _choice(self, candidates: npt.NDArray[np.intp], history: tuple[Row, ...], left: int) -> int:
        rows = answer_rows(self.variant)
        if len(candidates) <= 2:
            return int(rows[candidates[0]])
        return self.memo[(candidates.tobytes(), left, self._revealed(history))][1]
