"""Decision trees: a strategy played against every answer at once.

A deterministic strategy is a tree: the root is the first guess, each pattern leads to the
next guess. Building it once plays all games (shared prefixes are computed once), so whole-
list benchmarks cost about as much as one search per distinct position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.pattern import winning
from engine.solver.position import Position, answer_rows, guess_row

Strategy = Callable[[Position], int]
"""Picks the next guess (a row of the guess list) for a position."""

DEPTH_CAP = 20  # a strategy that has not finished by then is broken, not slow


@dataclass
class Node:
    """A guess at a position, and where each non-winning pattern leads."""

    guess: int
    size: int
    children: dict[int, Node] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "guess": self.guess,
            "size": self.size,
            "children": {str(p): child.to_json() for p, child in self.children.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Node:
        children = {int(p): cls.from_json(c) for p, c in data["children"].items()}
        return cls(int(data["guess"]), int(data["size"]), children)


def build_tree(
    position: Position, strategy: Strategy, targets: Iterable[int] | None = None
) -> Node:
    """The strategy's tree from ``position``, explored only where ``targets`` (answer
    indices) lead; all of the remaining answers when it is None."""
    wanted = None if targets is None else np.fromiter(targets, dtype=np.intp)
    return _grow(position, strategy, wanted, 1)


def _grow(
    position: Position, strategy: Strategy, wanted: npt.NDArray[np.intp] | None, depth: int
) -> Node:
    variant = position.variant
    guess = strategy(position)
    node = Node(guess, len(position.candidates))
    if depth >= DEPTH_CAP:
        return node
    patterns = guess_row(variant, guess)[position.candidates]
    word = variant.guesses.words[guess]
    for pattern, members in split(position.candidates, patterns):
        if pattern == winning(variant.length):
            continue
        if wanted is not None and not np.isin(members, wanted).any():
            continue
        if len(members) == 1:  # one answer left: every strategy guesses it
            node.children[pattern] = Node(int(answer_rows(variant)[members[0]]), 1)
            continue
        child = Position(variant, position.mode, (*position.history, (word, pattern)), members)
        node.children[pattern] = _grow(child, strategy, wanted, depth + 1)
    return node


def split(
    candidates: npt.NDArray[np.intp], patterns: npt.NDArray[np.unsignedinteger]
) -> list[tuple[int, npt.NDArray[np.intp]]]:
    """The buckets: each pattern with its candidates (in their order), by pattern."""
    if len(patterns) == 0:
        return []
    order = np.argsort(patterns, kind="stable")
    ordered, members = patterns[order], candidates[order]
    cuts = (np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist()
    starts, ends = [0, *cuts], [*cuts, len(ordered)]
    return [
        (p, members[a:b]) for a, b, p in zip(starts, ends, ordered[starts].tolist(), strict=True)
    ]


def paths(root: Node, position: Position) -> dict[int, list[tuple[int, int]]]:
    """For each answer the tree reaches: its (guess, pattern) rows, ending with the win."""
    variant = position.variant
    win = winning(variant.length)
    out: dict[int, list[tuple[int, int]]] = {}

    def walk(node: Node, candidates: npt.NDArray[np.intp], rows: list[tuple[int, int]]) -> None:
        patterns = guess_row(variant, node.guess)[candidates]
        for answer, pattern in zip(candidates.tolist(), patterns.tolist(), strict=True):
            if pattern == win:
                out[answer] = [*rows, (node.guess, win)]
        for pattern, child in node.children.items():
            walk(child, candidates[patterns == pattern], [*rows, (node.guess, pattern)])

    walk(root, position.candidates, [])
    return out


def guesses_needed(root: Node, position: Position) -> dict[int, int]:
    """Guesses each reachable answer takes; answers the tree never solves are absent."""
    return {answer: len(rows) for answer, rows in paths(root, position).items()}
