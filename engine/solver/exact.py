"""Exact search: the decision tree with the fewest total guesses over all answers.

``cost(S, d)`` is the least total number of guesses that solves every answer in the set S,
each within d more guesses. For a guess g splitting S into buckets,
``cost = |S| + sum of cost(bucket, d - 1)`` over the buckets g does not win outright.

The search is depth-first with memoised positions. At each node it tries only the ``width``
most promising guesses (ordered by a lower bound, then by expected remaining) and prunes with
lower bounds: a bucket of c answers costs at least 2c - 1 (one guess that is an answer and
splits the rest into singletons), so a guess with p parts, w of them won outright, costs at
least ``3|S| - p - w``. Shortcuts prove small nodes optimal without scanning every guess:
an answer that splits S completely costs 2|S| - 1; nothing outside S can beat 2|S|.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.matrix import cache_directory
from engine.pattern import tiles, winning
from engine.rules import Mode, Row
from engine.solver.measures import parts_and_squares
from engine.solver.position import (
    Position,
    allowed_pool,
    answer_rows,
    by_answer,
    tie_order,
)
from engine.solver.tree import Node
from engine.variants import Variant

INF = 1 << 40
TREE_FORMAT = 1

HardKey = tuple[tuple[tuple[int, str], ...], tuple[tuple[str, int], ...]]
"""What hard mode has revealed: green (position, letter) pairs and minimum letter counts."""


@dataclass(frozen=True)
class SearchSettings:
    """How wide the search looks. ``width`` (K) guesses per node; ``root_width`` first
    guesses; ``wide`` guesses at the nodes below the root with at least ``wide_depth``
    guesses left, where one choice shapes a large subtree."""

    width: int = 8
    root_width: int = 8
    wide: int = 0
    wide_depth: int = 0

    def key(self) -> str:
        return f"K{self.width}-R{self.root_width}-W{self.wide}-D{self.wide_depth}"


PRESETS = {
    Mode.NORMAL: SearchSettings(width=8, root_width=8),  # 7,920: the optimum
    Mode.HARD: SearchSettings(width=8, root_width=3, wide=100, wide_depth=4),  # 8,122: optimum
}


@dataclass
class ExactSearch:
    """One search configuration; its memo table grows as positions are solved."""

    variant: Variant
    mode: Mode = Mode.NORMAL
    settings: SearchSettings = field(default_factory=SearchSettings)
    memo: dict[tuple[bytes, int, HardKey | None], tuple[int, int]] = field(default_factory=dict)
    progress: Callable[[int, int], None] | None = None  # (first guesses tried, to try)

    def __post_init__(self) -> None:
        if self.mode is Mode.STRICT:
            raise ValueError("the exact search plays normal or hard mode")
        self._matrix = by_answer(self.variant)
        self._answer_rows = answer_rows(self.variant)
        self._tie = tie_order(self.variant)
        self._win = winning(self.variant.length)
        self._patterns = 3**self.variant.length
        self._pools: dict[HardKey, npt.NDArray[np.intp]] = {}
        self._all = np.arange(len(self.variant.guesses), dtype=np.intp)
        self._root = (0, 0)  # (candidates, depth) of the position being solved

    # -- public ------------------------------------------------------------------------

    def solve(self, position: Position | None = None) -> tuple[int, Node]:
        """Total guesses and the tree from ``position`` (the start by default)."""
        position = position or Position.start(self.variant, self.mode)
        depth = self.variant.max_guesses - len(position.history)
        hard = self._hard_key(position.history) if self.mode is Mode.HARD else None
        self._root = (len(position.candidates), depth)
        total = self._cost(position.candidates, depth, hard, self.settings.root_width, INF)
        if total >= INF:
            raise ValueError("no tree solves every answer within the guess limit")
        return total, self._tree(position.candidates, depth, hard)

    def guess_cost(self, position: Position, guess: int, depth: int) -> int:
        """Total guesses to solve every candidate when ``guess`` is played now (exact within
        the settings' width), or ``INF`` when it cannot finish within ``depth``."""
        s = position.candidates
        hard = self._hard_key(position.history) if self.mode is Mode.HARD else None
        return self._try(s, self._matrix[s, guess], guess, depth, hard, INF)

    # -- the search --------------------------------------------------------------------

    def _cost(
        self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None, width: int, beta: int
    ) -> int:
        """The cost of solving ``s``, exact when below ``beta``; otherwise some value
        ``>= beta`` that the true cost is known to reach (the caller only needs to know that
        this subtree is too expensive)."""
        n = len(s)
        if n == 1:
            return 1
        if depth <= 1:
            return INF
        if n == 2:
            return 3
        key = (s.tobytes(), depth, hard)
        known = self.memo.get(key)
        if known is not None:
            value, guess = known
            if guess >= 0 or value >= beta:  # exact, or a bound that already cuts off
                return value
        best, guess = self._search(s, depth, hard, width, beta)
        self.memo[key] = (best, guess)  # guess -1: "at least best", searched below a cutoff
        return best

    def _search(
        self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None, width: int, beta: int
    ) -> tuple[int, int]:
        n = len(s)
        rows = self._matrix[s]  # (candidates, guesses)
        inside = self._answer_rows[s]
        parts_in, _ = parts_and_squares(rows[:, inside], self._patterns)
        ranked_in = inside[np.lexsort((self._tie[inside], -parts_in))]
        best_parts_in = int(parts_in.max())
        if best_parts_in == n:  # an answer that splits the rest into singletons
            return 2 * n - 1, int(ranked_in[0])
        if depth >= 3 and best_parts_in == n - 1:
            return 2 * n, int(ranked_in[0])  # one pair left costs 2n; nothing beats 2n now
        pool = self._all if hard is None else self._pool(hard)
        parts, squares = parts_and_squares(rows if hard is None else rows[:, pool], self._patterns)
        if depth == 2:  # every answer must be known after this guess: a complete split
            perfect = np.flatnonzero(parts == n)
            if len(perfect) == 0:
                return INF, int(ranked_in[0])
            return 2 * n, int(pool[perfect[np.argmin(self._tie[pool[perfect]])]])
        possible = np.isin(pool, inside)
        bound = 3 * n - parts - possible
        wide = self.settings.wide_depth <= depth < self.variant.max_guesses
        if wide:
            width = max(width, self.settings.wide)
        order = np.lexsort((self._tie[pool], squares, bound))[:width]
        best, best_guess = beta, -1
        report = self.progress if (n, depth) == self._root else None
        for tried, index in enumerate(order):
            if report is not None:
                report(tried, len(order))
            if bound[index] >= best:
                break  # sorted by bound: nothing later can do better
            g = int(pool[index])
            total = self._try(s, rows[:, g], g, depth, hard, best)
            if total < best:
                best, best_guess = total, g
        if report is not None:
            report(len(order), len(order))
        if best_guess < 0 and beta >= INF:
            return INF, int(ranked_in[0])  # nothing solves it within the depth: exact
        return best, best_guess

    def _try(
        self,
        s: npt.NDArray[np.intp],
        patterns: npt.NDArray[np.unsignedinteger],
        guess: int,
        depth: int,
        hard: HardKey | None,
        best: int,
    ) -> int:
        """Total cost of ``guess`` at this node, or anything >= ``best`` once it cannot win."""
        order = np.argsort(patterns, kind="stable")
        sorted_patterns = patterns[order]
        starts = np.flatnonzero(np.r_[True, sorted_patterns[1:] != sorted_patterns[:-1]])
        ends = np.r_[starts[1:], len(s)]
        buckets = [
            (int(sorted_patterns[a]), s[order[a:b]])
            for a, b in zip(starts.tolist(), ends.tolist(), strict=True)
            if sorted_patterns[a] != self._win
        ]
        buckets.sort(key=lambda item: -len(item[1]))
        total = len(s)
        rest = sum(2 * len(members) - 1 for _, members in buckets)
        if total + rest >= best:
            return INF
        for pattern, members in buckets:
            rest -= 2 * len(members) - 1
            child_hard = None if hard is None else self._after(hard, guess, pattern)
            budget = best - total - rest  # the child must cost less than this to matter
            total += self._cost(members, depth - 1, child_hard, self.settings.width, budget)
            if total + rest >= best:
                return INF
        return total

    # -- hard mode ---------------------------------------------------------------------

    def _hard_key(self, history: Sequence[Row]) -> HardKey:
        key: HardKey = ((), ())
        for guess, pattern in history:
            key = self._merge(key, guess, pattern)
        return key

    def _after(self, hard: HardKey, guess: int, pattern: int) -> HardKey:
        return self._merge(hard, self.variant.guesses.words[guess], pattern)

    def _merge(self, hard: HardKey, word: str, pattern: int) -> HardKey:
        greens = dict(hard[0])
        minimum = dict(hard[1])
        row = tiles(pattern, self.variant.length)
        shown: dict[str, int] = {}
        for i, (letter, tile) in enumerate(zip(word, row, strict=True)):
            if tile == 2:
                greens[i] = letter
            if tile:
                shown[letter] = shown.get(letter, 0) + 1
        for letter, count in shown.items():
            minimum[letter] = max(minimum.get(letter, 0), count)
        return tuple(sorted(greens.items())), tuple(sorted(minimum.items()))

    def _pool(self, hard: HardKey) -> npt.NDArray[np.intp]:
        pool = self._pools.get(hard)
        if pool is None:
            greens, minimum = hard
            pool = (
                allowed_pool(self.variant, dict(greens), dict(minimum)) if any(hard) else self._all
            )
            self._pools[hard] = pool
        return pool

    # -- the tree ----------------------------------------------------------------------

    def _tree(self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None) -> Node:
        n = len(s)
        if n <= 2:
            inside = self._answer_rows[s]
            guess = int(inside[np.argmin(self._tie[inside])])
        else:
            guess = self.memo[(s.tobytes(), depth, hard)][1]
        node = Node(guess, n)
        patterns = self._matrix[s, guess]
        for pattern in np.unique(patterns).tolist():
            if pattern == self._win:
                continue
            child_hard = None if hard is None else self._after(hard, guess, pattern)
            node.children[pattern] = self._tree(s[patterns == pattern], depth - 1, child_hard)
        return node


# -- the disk cache of found trees --------------------------------------------------------


def tree_path(
    variant: Variant, mode: Mode, settings: SearchSettings, directory: Path | None = None
) -> Path:
    lists = f"{variant.guesses.sha256}:{variant.answers.sha256}"
    key = f"tree-v{TREE_FORMAT}:{lists}:{mode}:{settings.key()}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return (directory or cache_directory()) / f"tree-{variant.name}-{mode}-{digest}.json"


def cached_optimal_tree(
    variant: Variant,
    mode: Mode,
    settings: SearchSettings | None = None,
    directory: Path | None = None,
) -> Node | None:
    """The tree if a search already stored it, without searching: for instant hints."""
    settings = settings or PRESETS[mode]
    try:
        path = tree_path(variant, mode, settings, directory)
        data: dict[str, Any] = json.loads(path.read_text())
        if data.get("format") == TREE_FORMAT:
            return Node.from_json(data["tree"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def optimal_tree(
    variant: Variant,
    mode: Mode = Mode.NORMAL,
    settings: SearchSettings | None = None,
    *,
    directory: Path | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, Node]:
    """The exact search's tree from the start, read from the disk cache when it is there.
    ``progress`` hears of each first guess tried while searching."""
    settings = settings or PRESETS[mode]
    path = tree_path(variant, mode, settings, directory)
    if use_cache:
        try:
            data: dict[str, Any] = json.loads(path.read_text())
            if data.get("format") == TREE_FORMAT:
                return int(data["total"]), Node.from_json(data["tree"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    total, root = ExactSearch(variant, mode, settings, progress=progress).solve()
    if use_cache:
        _write_json(path, {"format": TREE_FORMAT, "total": total, "tree": root.to_json()})
    return total, root


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
