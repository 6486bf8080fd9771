"""Hints: what is left after a history, and the best next guesses with their measures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from engine.rules import Mode, Row
from engine.solver.greedy import possible_mask, rank_guesses
from engine.solver.measures import Measure, score_patterns
from engine.solver.position import Position, patterns_of
from engine.solver.tree import Node, guesses_needed
from engine.variants import Variant


@dataclass(frozen=True)
class Suggestion:
    guess: str
    entropy: float  # bits
    expected: float  # expected number of candidates left after it
    worst: int  # largest number of candidates it can leave
    possible: bool  # whether it can still be the answer
    expected_guesses: float | None  # to finish, counting it; known where the exact tree is
    chance: float | None = None  # that it is the answer, under an answer model


@dataclass(frozen=True)
class Hint:
    remaining: int
    candidates: list[str]
    suggestions: list[Suggestion]
    # Under an answer model (engine.solver.weighted): each candidate's chance, most likely
    # first; empty where every candidate is equally likely.
    probabilities: list[float] = field(default_factory=list)
    # What the suggestions are ranked by: "entropy" (and, under an answer model, expected
    # guesses), or "minimax" where the worst case is all (Absurdle's adversary leaves it).
    measure: str = Measure.ENTROPY.value

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def hint(
    variant: Variant,
    history: Sequence[Row],
    mode: Mode = Mode.NORMAL,
    top: int = 5,
    measure: Measure = Measure.ENTROPY,
    tree: Node | None = None,
) -> Hint:
    """Remaining candidates and the ``top`` guesses by ``measure``, as a player can use
    them: among near equals by entropy a possible answer first, then a common word
    (:func:`~engine.solver.greedy.rank_guesses`); never a word already played; the one word
    alone when one is left (see :func:`for_player`).

    ``tree`` is the exact search's tree from the start: where the history follows it, its
    guess leads the suggestions, with the expected number of guesses to finish.
    Raises :class:`~engine.solver.position.InconsistentHistory` when no answer fits.
    """
    position = Position.after(variant, history, mode)
    ranking = rank_guesses(position, measure, top=top + len(history), prefer=True)
    words = variant.guesses.words
    suggestions = [
        Suggestion(
            words[g],
            round(float(ranking.scores.entropy[i]), 4),
            round(float(ranking.scores.expected[i]), 4),
            int(ranking.scores.worst[i]),
            bool(ranking.possible[i]),
            None,
        )
        for i, g in enumerate(ranking.guesses.tolist())
    ]
    node = _follow(tree, position) if tree is not None else None
    if node is not None:
        suggestions = _lead_with_tree(node, position, suggestions)
    found = Hint(len(position.candidates), position.words, suggestions, measure=measure.value)
    return for_player(found, history, top)


def for_player(result: Hint, history: Sequence[Row], top: int) -> Hint:
    """``result`` as a hint a player can use: no word already played is suggested (it can
    tell nothing new), and with one candidate left the suggestion is that word alone (every
    other guess is worth 0 bits). ``result`` should rank ``top + len(history)`` guesses so
    that ``top`` remain."""
    played = {guess for guess, _ in history}
    kept = [s for s in result.suggestions if s.guess not in played]
    if result.remaining == 1:
        kept = [s for s in kept if s.guess == result.candidates[0]]
    return replace(result, suggestions=kept[:top])


def _follow(tree: Node, position: Position) -> Node | None:
    """The tree's node at ``position``, if every guess so far was the tree's."""
    node = tree
    words = position.variant.guesses.words
    for guess, pattern in position.history:
        if words[node.guess] != guess or pattern not in node.children:
            return None
        node = node.children[pattern]
    return node if node.size == len(position.candidates) else None


def _lead_with_tree(
    node: Node, position: Position, suggestions: list[Suggestion]
) -> list[Suggestion]:
    needed = guesses_needed(node, position)
    lost = len(position.candidates) - len(needed)  # strict mode: one past the limit each
    past = position.variant.max_guesses + 1 - len(position.history)
    expected = round((sum(needed.values()) + lost * past) / len(position.candidates), 4)
    word = position.variant.guesses.words[node.guess]
    rest = [s for s in suggestions if s.guess != word]
    mine = next((s for s in suggestions if s.guess == word), None)
    if mine is None:  # score the tree's guess alone
        variant = position.variant
        patterns = patterns_of(variant, np.array([node.guess]), position.candidates)
        scores = score_patterns(patterns, 3**variant.length)
        mine = Suggestion(
            word,
            round(float(scores.entropy[0]), 4),
            round(float(scores.expected[0]), 4),
            int(scores.worst[0]),
            bool(possible_mask(position, np.array([node.guess]))[0]),
            None,
        )
    return [Suggestion(**{**asdict(mine), "expected_guesses": expected}), *rest]
