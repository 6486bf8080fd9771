"""Exact search: the decision tree with the fewest total guesses over all answers.

``cost(S, d)`` is the least total number of guesses that solves every answer in the set S,
each within d more guesses. For a guess g splitting S into buckets,
``cost = |S| + sum of cost(bucket, d - 1)`` over the buckets g does not win outright.
With ``losses`` (strict mode, where no tree finds every Wordle answer within the limit) an
answer still unfound when the guesses run out costs one more, as if found the guess after:
``cost(S, 0) = |S|`` instead of impossible. The bounds below hold wherever a guess is left
(a bucket with none costs its size).

The search is depth-first with memoised positions. At each node it tries only the ``width``
most promising guesses (ordered by a lower bound, then by expected remaining) and prunes with
lower bounds: a bucket of c answers costs at least 2c - 1 (one guess that is an answer and
splits the rest into singletons), so a guess with p parts, w of them won outright, costs at
least ``3|S| - p - w``. Shortcuts prove small nodes optimal without scanning every guess:
an answer that splits S completely costs 2|S| - 1; nothing outside S can beat 2|S|.

Before a guess's buckets are searched, each gets its floor (see ``_floor``): what the memo
knows, what the answers inside it can do, the bound above over its whole pool, and for the
larger ones a look one guess ahead over the guesses the search would try there. Their sum
cuts most guesses that cannot win before any of their buckets is searched. At the
root the same floors order the first guesses: the pruned scan searches the lowest first and
stops once no other first guess's floor is below the best total found; the full scan (the
search as it was) tries every one of the ``root_width`` in the order of the bound alone.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.pattern import tiles, winning
from engine.rules import Mode, Row
from engine.solver.bounds import parts_ceilings
from engine.solver.measures import best_inside, count_parts, rank_by_parts, squares
from engine.solver.position import (
    BuiltByAnswer,
    Position,
    allowed_pool,
    answer_major,
    answer_rows,
    tie_order,
)
from engine.solver.tree import Node
from engine.stopping import Stop, check
from engine.variants import Variant

INF = 1 << 40
_RANK_FROM = 3  # a bucket this large has its pool ranked for its floor before any is searched
_CEILINGS_FROM = 48  # candidates: from here a ceiling on parts skips most of a pool's columns
_BATCH_PATTERNS = 3**6  # up to this many patterns the buckets' best answers are counted at once
_SPLITS_KEPT = 600_000  # indices' worth (about 10 MB) of splits a solve keeps: all of a
# normal search's (430,000); strict mode, trying every candidate at every node, 11 million
EVERY = 100_000  # a width no pool reaches: every guess the mode allows is tried

HardKey = tuple[int, ...]
"""What hard mode has revealed: each position's green letter (its alphabet index + 1, or 0),
then each letter's least count in every later guess. Rows merge by the larger of each."""

OpenerScan = Literal["pruned", "full"]
Buckets = list[tuple[npt.NDArray[np.intp], HardKey | None]]


@dataclass(frozen=True)
class SearchSettings:
    """How wide the search looks. ``width`` (K) guesses per node; ``root_width`` first
    guesses; ``wide`` guesses at the nodes below the root with at least ``wide_depth``
    guesses left, where one choice shapes a large subtree."""

    width: int = 8
    root_width: int = 8
    wide: int = 0
    wide_depth: int = 0
    losses: bool = False  # a lost answer costs one guess past the limit, as if found then

    def key(self) -> str:
        lost = "-L" if self.losses else ""
        return f"K{self.width}-R{self.root_width}-W{self.wide}-D{self.wide_depth}{lost}"


PRESETS = {
    Mode.NORMAL: SearchSettings(width=8, root_width=8),  # 7,920: the optimum
    Mode.HARD: SearchSettings(width=8, root_width=3, wide=100, wide_depth=4),  # 8,122: optimum
    # strict mode cannot find every answer in six (the -ATCH words, guessed one at a time);
    # its pools are the remaining answers, small enough to try every one: 8,145, the optimum
    # over them
    Mode.STRICT: SearchSettings(width=EVERY, root_width=32, losses=True),
}
VARIANT_PRESETS = {  # where a variant needs its own to reach the best known total
    ("wordle-nyt-era", Mode.NORMAL): SearchSettings(8, 8, wide=30, wide_depth=4),  # 11,219
}


class NoLosslessTree(ValueError):
    """No tree finds every answer within the guess limit (a search counting no losses)."""


# seconds of the search's own CPU (not of the clock: a search at low priority on a busy host
# waits its turn without losing its tree): a list whose search takes longer has no exact tree
TIME_LIMIT = 600.0
UNLIMITED = frozenset({"wordle", "wordle-nyt", "wordle-nyt-era", "primel"})  # no limit


def search_time_limit(variant: Variant) -> float | None:
    """How long the exact search of ``variant`` may run before it gives up (None: as long
    as it takes, for the built-in games, which finish in seconds)."""
    return None if variant.name in UNLIMITED else TIME_LIMIT


def preset(variant: Variant, mode: Mode) -> SearchSettings:
    """The search settings the exact tree of ``variant`` in ``mode`` is searched with."""
    return VARIANT_PRESETS.get((variant.name, mode), PRESETS[mode])


class SearchTimeout(Exception):
    """The search passed its time limit before it finished: no tree."""


@dataclass(frozen=True)
class Ranked:
    """A candidate set's most promising guesses (up to ``width``) with their bounds, and the
    least bound over its whole pool: no guess there can do better."""

    width: int
    guesses: npt.NDArray[np.intp]
    bounds: npt.NDArray[np.int64]
    lower: int


@dataclass(frozen=True)
class OpenerTried:
    """One first guess of the root's scan: its floor, and its total when searched (None when
    the scan stopped before it; INF when it cannot beat the best found before it)."""

    guess: int
    floor: int
    total: int | None


@dataclass
class ExactSearch:
    """One search configuration; its memo table grows as positions are solved."""

    variant: Variant
    mode: Mode = Mode.NORMAL
    settings: SearchSettings = field(default_factory=SearchSettings)
    memo: dict[tuple[bytes, int, HardKey | None], tuple[int, int]] = field(default_factory=dict)
    progress: Callable[[int, int], None] | None = None  # (first guesses tried, to try)
    opener_scan: OpenerScan = "pruned"
    openers: list[OpenerTried] = field(default_factory=list)  # the last solve's root scan
    time_limit: float | None = None  # seconds for each solve; past it, SearchTimeout
    stop: Stop | None = None  # asked at each node and look-ahead: True raises Stopped

    def __post_init__(self) -> None:
        # A plain array over the memory map: the same pages, without np.memmap's Python-level
        # indexing (a tenth of the search went to memmap.__getitem__ and its finalising). A
        # large list keeps no matrix: read by read here (a few small sets, as coaching asks),
        # built whole in memory for a solve (see solve).
        self._matrix = answer_major(self.variant)
        self._answer_rows = answer_rows(self.variant)
        self._tie = tie_order(self.variant)
        self._win = winning(self.variant.length)
        self._patterns = 3**self.variant.length
        self._pools: dict[HardKey, npt.NDArray[np.intp]] = {}
        self._revealed: dict[tuple[int, int], HardKey] = {}
        self._inside: dict[bytes, tuple[int, int]] = {}  # (best parts of an answer, it)
        self._ranks: dict[tuple[bytes, HardKey | None], Ranked] = {}
        self._split: dict[tuple[bytes, int, HardKey | None], Buckets] | None = None
        self._split_room = 0  # candidates more the splits may keep, while a solve runs
        self._all = np.arange(len(self.variant.guesses), dtype=np.intp)
        self._root = (0, 0)  # (candidates, depth) of the position being solved
        self._first: Sequence[int] | None = None
        self._deadline = math.inf

    # -- public ------------------------------------------------------------------------

    def solve(
        self, position: Position | None = None, first: Sequence[int] | None = None
    ) -> tuple[int, Node]:
        """Total guesses and the tree from ``position`` (the start by default); ``first``
        (guess rows) replaces the root's own choice of first guesses to try."""
        position = position or Position.start(self.variant, self.mode)
        if isinstance(self._matrix, BuiltByAnswer):  # a solve reads every cell many times
            self._matrix = answer_major(self.variant, whole=True, stop=self.stop)
        depth = self.variant.max_guesses - len(position.history)
        hard = self._hard_key(position.history) if self.mode is Mode.HARD else None
        self._root = (len(position.candidates), depth)
        self._first, self.openers = first, []
        self._split, self._split_room = {}, _SPLITS_KEPT  # each guess's buckets at each set
        if self.time_limit is not None:
            self._deadline = time.thread_time() + self.time_limit
        try:
            total = self._cost(position.candidates, depth, hard, self.settings.root_width, INF)
            if total >= INF:
                raise NoLosslessTree("no tree solves every answer within the guess limit")
            return total, self._tree(position.candidates, depth, hard)
        finally:
            self._first, self._deadline = None, math.inf
            self._split = None

    def guess_cost(self, position: Position, guess: int, depth: int) -> int:
        """Total guesses to solve every candidate when ``guess`` is played now (exact within
        the settings' width), or ``INF`` when it cannot finish within ``depth``."""
        s = position.candidates
        hard = self._hard_key(position.history) if self.mode is Mode.HARD else None
        return self._try(s, guess, depth, hard, INF)

    def floor(self, position: Position, look_ahead: bool = False) -> int:
        """A lower bound on the total from ``position``: never above what ``solve`` finds
        (``look_ahead``: rank its pool and look one guess ahead, as the search does)."""
        depth = self.variant.max_guesses - len(position.history)
        hard = self._hard_key(position.history) if self.mode is Mode.HARD else None
        width = self.settings.root_width if look_ahead else 0
        return self._floor(position.candidates, depth, hard, width)

    # -- the search --------------------------------------------------------------------

    def _cost(
        self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None, width: int, beta: int
    ) -> int:
        """The cost of solving ``s``, exact when below ``beta``; otherwise some value
        ``>= beta`` that the true cost is known to reach (the caller only needs to know that
        this subtree is too expensive)."""
        n = len(s)
        if (settled := self._settled(n, depth)) is not None:
            return settled
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
        self._check()
        n = len(s)
        parts_in, first_in = self._best_inside(s)
        if parts_in == n:  # an answer that splits the rest into singletons
            return 2 * n - 1, first_in
        if depth >= 3 and parts_in == n - 1:
            return 2 * n, first_in  # one pair left costs 2n; nothing beats 2n now
        if depth == 2:
            return self._last_split(s, hard, first_in)
        root = (n, depth) == self._root
        if root and self._first is not None:
            guesses = np.asarray(self._first, dtype=np.intp)
            floors = np.zeros(len(guesses), dtype=np.int64)
        else:
            ranked = self._ranked(s, hard, self._width(depth, width))
            guesses, floors = ranked.guesses, ranked.bounds
        order = np.arange(len(guesses))
        if root and self.opener_scan == "pruned":
            floors = np.maximum(
                floors, [self._guess_floor(s, g, depth, hard, INF) for g in guesses]
            )
            order = np.lexsort((order, floors))
        if root:
            self.openers = []
        best, best_guess, best_rank = beta, -1, -1  # a tie with beta is no better
        for tried, rank in enumerate(order.tolist()):
            if root and self.progress is not None:
                self.progress(tried, len(order))
            floor = int(floors[rank])
            if floor > best or (floor == best and rank > best_rank):
                break  # in floor order: nothing later can do better
            g = int(guesses[rank])
            bar = best + 1 if best_guess >= 0 and rank < best_rank else best  # ties: rank
            total = self._try(s, g, depth, hard, bar)
            if root:
                self.openers.append(OpenerTried(g, floor, total))
            if total < bar:
                best, best_guess, best_rank = total, g, rank
        if root:
            tried_guesses = {o.guess for o in self.openers}
            self.openers += [
                OpenerTried(int(g), int(f), None)
                for g, f in zip(guesses.tolist(), floors.tolist(), strict=True)
                if g not in tried_guesses
            ]
            if self.progress is not None:
                self.progress(len(order), len(order))
        if best_guess < 0 and beta >= INF:
            return INF, first_in  # nothing solves it within the depth: exact
        return best, best_guess

    def _check(self) -> None:
        if time.thread_time() > self._deadline:
            raise SearchTimeout(f"the exact search passed its {self.time_limit} s of CPU")
        check(self.stop)

    def _last_split(
        self, s: npt.NDArray[np.intp], hard: HardKey | None, first_in: int
    ) -> tuple[int, int]:
        """The cost of ``s`` with two guesses left, and its guess. Only here does a node copy
        its pool's columns; with more guesses left the ranking reads them, once per set."""
        n = len(s)
        pool = self._pool_at(s, hard)
        rows = self._matrix[s] if pool is self._all else self._matrix[np.ix_(s, pool)]
        if self.settings.losses:  # each bucket then costs 2c - 1: the bound
            possible = np.zeros(len(self.variant.guesses), dtype=bool)
            possible[self._answer_rows[s]] = True
            bound = 3 * n - count_parts(rows, self._patterns) - possible[pool]
            least = np.flatnonzero(bound == bound.min())
            return int(bound.min()), int(pool[least[np.argmin(self._tie[pool[least]])]])
        # every answer must be known after this guess: a complete split
        perfect = np.flatnonzero(count_parts(rows, self._patterns) == n)
        if len(perfect) == 0:
            return INF, first_in
        return 2 * n, int(pool[perfect[np.argmin(self._tie[pool[perfect]])]])

    def _settled(self, n: int, depth: int) -> int | None:
        """The cost of ``n`` answers where nothing needs searching (None elsewhere): two
        answers or fewer (guess one, then the other), or one guess left or none. The last
        guess wins one; each answer left then is lost: impossible, or with losses one more."""
        if depth <= 0:
            return n if self.settings.losses else INF
        if n == 1:
            return 1
        if depth == 1:
            return 2 * n - 1 if self.settings.losses else INF
        return 3 if n == 2 else None

    def _width(self, depth: int, width: int) -> int:
        if self.settings.wide_depth <= depth < self.variant.max_guesses:
            return max(width, self.settings.wide)
        return width

    def _ranked(self, s: npt.NDArray[np.intp], hard: HardKey | None, width: int) -> Ranked:
        """The ``width`` most promising guesses of the pool and their bounds, ordered by the
        bound ``3|S| - parts - won``, then sum of squared bucket sizes, then the tie order.
        Only the guesses that can reach the top have their squares counted. Kept: a floor
        asks for it before the search does."""
        key = (s.tobytes(), hard)
        known = self._ranks.get(key)
        if known is not None and known.width >= width:
            return known
        n = len(s)
        pool = self._pool_at(s, hard)
        rows = self._matrix[s] if pool is self._all else self._matrix[np.ix_(s, pool)]
        possible = np.zeros(len(self.variant.guesses), dtype=bool)
        possible[self._answer_rows[s]] = True
        won = possible if pool is self._all else possible[pool]
        if n < _CEILINGS_FROM and width < len(pool):  # a few passes over the pool, not a dozen
            tie = self._tie if pool is self._all else self._tie[pool]
            top, bounds, lower = rank_by_parts(rows, won, tie, width, self._patterns)
            ranked = Ranked(width, pool[top], bounds, lower)
            self._ranks[key] = ranked
            return ranked
        if n < _CEILINGS_FROM or len(pool) <= width:
            scored = np.arange(len(pool))
            bound = 3 * n - count_parts(rows, self._patterns) - won
        else:
            scored, bound = self._promising(s, rows, pool, won, width)
        if width < len(bound):
            few = np.flatnonzero(bound <= np.partition(bound, width - 1)[width - 1])
        else:
            few = np.arange(len(bound))
        paired = squares(np.take(rows, scored[few], axis=1), self._patterns)
        top = few[np.lexsort((self._tie[pool[scored[few]]], paired, bound[few]))][:width]
        ranked = Ranked(width, pool[scored[top]], bound[top], int(bound.min()))
        self._ranks[key] = ranked
        return ranked

    def _promising(
        self,
        s: npt.NDArray[np.intp],
        rows: npt.NDArray[np.unsignedinteger],
        pool: npt.NDArray[np.intp],
        won: npt.NDArray[np.bool_],
        width: int,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]:
        """The pool's columns whose bound may reach the ``width`` lowest, and their bounds:
        each guess's ceiling on parts gives a least bound; the columns with the lowest are
        scored, then any other whose least bound does not pass the width-th found."""
        n, k = len(s), width - 1
        least = 3 * n - parts_ceilings(self.variant, s)[pool] - won
        cut = np.partition(least, k)[k]
        scored = np.flatnonzero(least <= cut)
        bound = 3 * n - self._parts(rows, scored) - won[scored]
        more = np.flatnonzero((least > cut) & (least <= np.partition(bound, k)[k]))
        if len(more) == 0:
            return scored, bound
        extra = 3 * n - self._parts(rows, more) - won[more]
        return np.concatenate([scored, more]), np.concatenate([bound, extra])

    def _parts(
        self, rows: npt.NDArray[np.unsignedinteger], columns: npt.NDArray[np.intp]
    ) -> npt.NDArray[np.int64]:
        """The parts of ``columns`` of ``rows``: counted in place when they are most of them
        (copying them out costs a quarter of counting them; at the root, 12,766 of 12,972)."""
        if len(columns) * 5 > rows.shape[1] * 4:
            return count_parts(rows, self._patterns)[columns]
        return count_parts(np.take(rows, columns, axis=1), self._patterns)

    def _best_inside(self, s: npt.NDArray[np.intp]) -> tuple[int, int]:
        """The most parts an answer in ``s`` splits it into, and the first such answer (in
        the tie order). Answers left are always allowed, in hard mode too."""
        key = s.tobytes()
        known = self._inside.get(key)
        if known is None:
            inside = self._answer_rows[s]
            if len(s) > self._patterns + 1:  # more than any guess can split: no shortcut
                known = (0, int(inside[np.argmin(self._tie[inside])]))
            else:
                parts = count_parts(self._matrix[s[:, None], inside], self._patterns)
                best = int(parts.max())
                ties = inside[parts == best]
                known = (best, int(ties[np.argmin(self._tie[ties])]))
            self._inside[key] = known
        return known

    def _count_inside(self, buckets: Buckets, depth: int) -> None:
        """Learn at once the best answer inside each bucket whose floor will ask for it (three
        answers or more, not yet known): one batch for all, not a few numpy calls each."""
        if depth < 2 or self._patterns > _BATCH_PATTERNS:
            return
        keys, sets = [], []
        for members, h in buckets:
            if not 3 <= len(members) <= self._patterns + 1:
                continue
            key = members.tobytes()
            if key not in self._inside and (key, depth, h) not in self.memo:
                keys.append(key)
                sets.append(members)
        if len(sets) > 1:
            found = best_inside(self._matrix, self._answer_rows, self._tie, sets, self._patterns)
            self._inside.update(zip(keys, found, strict=True))

    def _floor(
        self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None, width: int = 0
    ) -> int:
        """A lower bound on ``cost(s, depth)``, from what is already known or cheap to learn:
        the memo; 2|S| - 1 when an answer splits S completely, else 2|S| (no guess does
        better); the pool-wide bound when this set's pool is ranked. With a ``width``, rank
        the pool now, as searching it with that width would, and look one guess ahead."""
        n = len(s)
        if (settled := self._settled(n, depth)) is not None:
            return settled
        members = s.tobytes()
        key = (members, depth, hard)
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        parts_in, _ = self._inside.get(members) or self._best_inside(s)
        if parts_in == n:
            return 2 * n - 1
        if depth >= 3 and parts_in == n - 1:
            return 2 * n
        if width and depth >= 3:
            ranked = self._ranked(s, hard, self._width(depth, width))
            floor = self._lookahead(s, depth, hard, ranked)
            self.memo[key] = (floor, -1)  # "at least": the search may still cut below it
            return floor
        known_rank = self._ranks.get((members, hard))
        return 2 * n if known_rank is None else max(2 * n, known_rank.lower)

    def _lookahead(
        self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None, ranked: Ranked
    ) -> int:
        """The least of the guesses the search will try here, each at |S| plus its buckets'
        floors: the search can find nothing cheaper. (A floor of this search, which tries
        only these; with every guess of the pool among them, a floor of the optimum.)"""
        best = INF
        for guess, bound in zip(ranked.guesses.tolist(), ranked.bounds.tolist(), strict=True):
            if bound >= best:
                break  # in bound order, and a guess's floor is at least its bound
            best = min(best, self._guess_floor(s, guess, depth, hard, limit=0))
        return best

    def _split_of(self, s: npt.NDArray[np.intp], guess: int, hard: HardKey | None) -> Buckets:
        """The buckets of ``guess`` at ``s``, split once in a solve."""
        key = (s.tobytes(), guess, hard)
        buckets = None if self._split is None else self._split.get(key)
        if buckets is None:
            buckets = self._buckets(s, self._matrix[s, guess], guess, hard)
            cost = len(s) + 10 * len(buckets)  # a bucket's array object weighs ~10 indices
            if self._split is not None and self._split_room >= cost:
                self._split[key] = buckets
                self._split_room -= cost
        return buckets

    def _buckets(
        self,
        s: npt.NDArray[np.intp],
        patterns: npt.NDArray[np.unsignedinteger],
        guess: int,
        hard: HardKey | None,
    ) -> Buckets:
        """The candidates each pattern but the win leaves, largest first, with what hard mode
        then knows (where it matters: three candidates or more)."""
        order = np.argsort(patterns, kind="stable")
        ordered, members = patterns[order], s[order]
        new = np.empty(len(s), dtype=bool)
        new[0], new[1:] = True, ordered[1:] != ordered[:-1]
        starts = np.flatnonzero(new)
        ends = np.append(starts[1:], len(s))
        kept = ordered[starts] != self._win
        starts, ends = starts[kept], ends[kept]
        largest = np.argsort(starts - ends, kind="stable")  # ties: in pattern order
        starts, ends = starts[largest], ends[largest]
        if hard is None:
            return [
                (members[a:b], None) for a, b in zip(starts.tolist(), ends.tolist(), strict=True)
            ]
        patterns_kept = ordered[starts].tolist()
        return [
            (members[a:b], None if b - a < 3 else self._after(hard, guess, p))
            for a, b, p in zip(starts.tolist(), ends.tolist(), patterns_kept, strict=True)
        ]

    def _guess_floor(
        self, s: npt.NDArray[np.intp], guess: int, depth: int, hard: HardKey | None, limit: int
    ) -> int:
        """A lower bound on the total when ``guess`` is played at ``s``, looking ahead in its
        buckets until it reaches ``limit`` (0: no look-ahead, the cheap floors alone)."""
        _, floors = self._floors(s, guess, depth, hard, limit)
        return min(INF, len(s) + sum(floors))

    def _floors(
        self,
        s: npt.NDArray[np.intp],
        guess: int,
        depth: int,
        hard: HardKey | None,
        limit: int,
    ) -> tuple[Buckets, list[int]]:
        """The buckets of ``guess`` and their floors: the cheap ones first, then the largest
        buckets' look-aheads, until |S| plus their sum reaches ``limit`` (where the caller
        stops: the guess cannot beat it)."""
        self._check()  # the root's floors look ahead for seconds before any node is searched
        buckets = self._split_of(s, guess, hard)
        lost = self.settings.losses and depth <= 1  # the buckets have no guess left
        floors = [len(members) if lost else 2 * len(members) - 1 for members, _ in buckets]
        total = len(s) + sum(floors)
        if 0 < limit <= total:
            return buckets, floors
        self._count_inside(buckets, depth - 1)
        for i, (members, h) in enumerate(buckets):
            if len(members) <= 2 and depth > 2:
                break  # largest first: the rest are settled, their cheap floors exact (1, 3)
            floor = self._floor(members, depth - 1, h)
            total, floors[i] = total + floor - floors[i], floor
        for i, (members, h) in enumerate(buckets):  # the largest buckets' pools, ranked
            if total >= limit or len(members) < _RANK_FROM:
                break
            floor = self._floor(members, depth - 1, h, self.settings.width)
            total, floors[i] = total + floor - floors[i], floor
        return buckets, floors

    def _try(
        self,
        s: npt.NDArray[np.intp],
        guess: int,
        depth: int,
        hard: HardKey | None,
        best: int,
    ) -> int:
        """Total cost of ``guess`` at this node, or anything >= ``best`` once it cannot win."""
        buckets, floors = self._floors(s, guess, depth, hard, best)
        total, rest = len(s), sum(floors)
        if total + rest >= best:
            return INF
        for (members, child_hard), floor in zip(buckets, floors, strict=True):
            rest -= floor
            budget = best - total - rest  # the child must cost less than this to matter
            total += self._cost(members, depth - 1, child_hard, self.settings.width, budget)
            if total + rest >= best:
                return INF
        return total

    # -- hard mode ---------------------------------------------------------------------

    def _hard_key(self, history: Sequence[Row]) -> HardKey:
        key: HardKey = (0,) * (self.variant.length + len(self.variant.alphabet))
        for word, pattern in history:
            key = tuple(map(max, key, self._reveal(word, pattern)))
        return key

    def _after(self, hard: HardKey, guess: int, pattern: int) -> HardKey:
        revealed = self._revealed.get((guess, pattern))
        if revealed is None:
            revealed = self._reveal(self.variant.guesses.words[guess], pattern)
            self._revealed[(guess, pattern)] = revealed
        return tuple(map(max, hard, revealed))

    def _reveal(self, word: str, pattern: int) -> HardKey:
        """What one row shows: its greens, and each letter's count among its coloured tiles."""
        alphabet = self.variant.alphabet
        greens = [0] * self.variant.length
        counts = [0] * len(alphabet)
        for i, (letter, tile) in enumerate(zip(word, tiles(pattern, len(word)), strict=True)):
            code = alphabet.index(letter)
            if tile == 2:
                greens[i] = code + 1
            if tile:
                counts[code] += 1
        return (*greens, *counts)

    def _pool_at(self, s: npt.NDArray[np.intp], hard: HardKey | None) -> npt.NDArray[np.intp]:
        """The guesses allowed at candidates ``s``: all (normal), those keeping what was
        revealed (hard), or the candidates themselves (strict)."""
        if self.mode is Mode.STRICT:
            return self._answer_rows[s]
        return self._all if hard is None else self._pool(hard)

    def _pool(self, hard: HardKey) -> npt.NDArray[np.intp]:
        pool = self._pools.get(hard)
        if pool is None:
            length, alphabet = self.variant.length, self.variant.alphabet
            greens = {i: alphabet[c - 1] for i, c in enumerate(hard[:length]) if c}
            minimum = {alphabet[j]: k for j, k in enumerate(hard[length:]) if k}
            pool = allowed_pool(self.variant, greens, minimum) if any(hard) else self._all
            self._pools[hard] = pool
        return pool

    # -- the tree ----------------------------------------------------------------------

    def _tree(self, s: npt.NDArray[np.intp], depth: int, hard: HardKey | None) -> Node:
        n = len(s)
        if n <= 2 or depth <= 1:
            inside = self._answer_rows[s]
            guess = int(inside[np.argmin(self._tie[inside])])
        else:
            guess = self.memo[(s.tobytes(), depth, hard)][1]
        node = Node(guess, n)
        if depth <= 1 or n == 1:  # no guess left for the rest (lost), or won
            return node
        if n == 2:  # the other one next
            other = s[0] if self._answer_rows[s[1]] == guess else s[1]
            node.children[int(self._matrix[other, guess])] = self._tree(s[s == other], 1, None)
            return node
        buckets = self._split_of(s, guess, hard)
        children = [(int(self._matrix[members[0], guess]), members, h) for members, h in buckets]
        for pattern, members, child_hard in sorted(children, key=lambda child: child[0]):
            node.children[pattern] = self._tree(members, depth - 1, child_hard)
        return node
