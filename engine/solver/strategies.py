"""Strategies by name, each giving the decision tree it plays from a position."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.rules import Mode
from engine.solver.exact import optimal_tree
from engine.solver.greedy import best_guess
from engine.solver.measures import Measure
from engine.solver.position import Position
from engine.solver.tree import Node, build_tree
from engine.variants import Variant

STRATEGIES: tuple[str, ...] = (*(m.value for m in Measure), "optimal")
DEFAULT_WIDTH = 8  # the exact search's guesses per node: enough for 7,920 on Wordle


def strategy_tree(
    variant: Variant,
    strategy: str,
    mode: Mode = Mode.NORMAL,
    targets: Iterable[int] | None = None,
    *,
    width: int = DEFAULT_WIDTH,
    cache_dir: Path | None = None,
) -> tuple[Position, Node]:
    """The start position and the tree ``strategy`` plays from it.

    Greedy trees are grown only where ``targets`` (answer indices) lead; the optimal tree is
    searched once (all answers) and then read from the disk cache.
    """
    start = Position.start(variant, mode)
    if strategy == "optimal":
        return start, optimal_tree(variant, mode, width, directory=cache_dir)[1]
    try:
        measure = Measure(strategy)
    except ValueError:
        choices = ", ".join(STRATEGIES)
        raise ValueError(f"Unknown strategy {strategy!r}; choose one of {choices}") from None
    return start, build_tree(start, lambda p: best_guess(p, measure), targets)
