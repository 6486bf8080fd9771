"""A position: what is known after some rows, as the remaining candidates and a guess pool."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.matrix import build_pattern_matrix, group_keys, group_table, pattern_dtype
from engine.rules import Mode, Row, revealed
from engine.stopping import Stop, check
from engine.variants import Variant
from engine.words import encode


class InconsistentHistory(ValueError):
    """No answer fits the feedback; ``row`` is the first row after which nothing fits."""

    def __init__(self, row: int, guess: str) -> None:
        super().__init__(f"No answer fits: nothing is left after row {row} ({guess.upper()})")
        self.row = row


@cache
def answer_rows(variant: Variant) -> npt.NDArray[np.intp]:
    """Row of each answer in the guess list (answers are always allowed guesses)."""
    index = variant.guesses.index
    return np.array([index[w] for w in variant.answers.words], dtype=np.intp)


@cache
def tie_order(variant: Variant) -> npt.NDArray[np.intp]:
    """The fixed order that breaks remaining ties: answer-list words first, then the other
    allowed words, each in list order (the original game's two lists, one after the other)."""
    is_answer = np.zeros(len(variant.guesses), dtype=bool)
    is_answer[answer_rows(variant)] = True
    order = np.empty(len(variant.guesses), dtype=np.intp)
    order[np.lexsort((np.arange(len(is_answer)), ~is_answer))] = np.arange(len(is_answer))
    return order


@cache
def by_answer(variant: Variant) -> npt.NDArray[np.unsignedinteger]:
    """The pattern matrix transposed, ``(answers, guesses)``, so that selecting candidates
    is a cheap take of contiguous rows (memory-mapped from the cache like the matrix).
    Only for a list that keeps its matrix (:attr:`Variant.keeps_matrix`); a large list's
    solvers read :func:`answer_major` instead."""
    return variant.matrix_by_answer


@dataclass(frozen=True, eq=False)
class Groups:
    """A list's patterns in parts: each letter group's tiles against every answer, and the
    groups of each guess (see ``engine.matrix``). A guess's pattern against an answer is
    the sum of its groups' values there, so any block of the matrix is a few row gathers."""

    tiles: npt.NDArray[np.unsignedinteger]  # (groups + 1, answers): the last row is 0
    of_guess: npt.NDArray[np.intp]  # (guesses, length): group ids, the zero row if none
    keys: npt.NDArray[np.int64]  # (groups,): ``mask * alphabet size + letter`` each


@cache
def groups(variant: Variant) -> Groups:
    size = len(variant.alphabet)
    keys, ids = group_keys(variant.guesses.array, size)
    dtype = pattern_dtype(variant.length)
    tiles = np.zeros((len(keys) + 1, len(variant.answers)), dtype=dtype)
    tiles[:-1] = group_table(variant.answers.array, size, keys, dtype)
    return Groups(tiles, ids, keys)


def built_patterns(
    variant: Variant, pool: npt.NDArray[np.intp], candidates: npt.NDArray[np.intp]
) -> npt.NDArray[np.unsignedinteger]:
    """``(candidates, pool)`` patterns built from the group table, no matrix needed: the
    cost is the block's cells times the word length."""
    found = groups(variant)
    return patterns_over(np.ascontiguousarray(found.tiles[:, candidates]), found.of_guess[pool])


def patterns_over(
    tiles: npt.NDArray[np.unsignedinteger], of_guess: npt.NDArray[np.intp]
) -> npt.NDArray[np.unsignedinteger]:
    """Patterns of the guesses with group ids ``of_guess`` against the answers whose group
    tiles are the columns of ``tiles`` (:class:`Groups`), as ``(answers, guesses)``: the
    transposed view of a guess-major array (each guess's patterns contiguous, as sorting
    them wants; whole rows of ``tiles`` are gathered, the fastest way to build them)."""
    out = tiles.take(of_guess[:, 0], axis=0)
    for i in range(1, of_guess.shape[1]):
        out += tiles.take(of_guess[:, i], axis=0)
    return out.T


class BuiltByAnswer:
    """Reads as the answers-major matrix does (``m[s]``, ``m[s, g]``, ``m[np.ix_(s, pool)]``,
    numpy's rules), each read built from the group table: for a large list's few small
    reads (coaching's exact figures), where a whole matrix would cost far more."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.shape = (len(variant.answers), len(variant.guesses))
        self.dtype = np.dtype(pattern_dtype(variant.length))

    def __getitem__(self, key: Any) -> Any:
        found = groups(self.variant)
        if not isinstance(key, tuple):  # whole rows
            return np.ascontiguousarray(
                patterns_over(np.ascontiguousarray(found.tiles[:, key]), found.of_guess)
            )
        rows, columns = np.broadcast_arrays(*(np.asarray(k) for k in key))
        ids = found.of_guess[columns]
        out = found.tiles[ids[..., 0], rows]
        for i in range(1, ids.shape[-1]):
            out += found.tiles[ids[..., i], rows]
        return out[()] if out.ndim == 0 else out


def answer_major(variant: Variant, *, whole: bool = False, stop: Stop | None = None) -> Any:
    """What reads as the answers-major matrix: the cached one where the list keeps it; for
    a large list, built in memory (``whole``: the exact search reads every cell many times;
    ``stop`` is asked between blocks) or read by read (:class:`BuiltByAnswer`)."""
    if variant.keeps_matrix:
        return np.asarray(by_answer(variant))
    if whole:  # answers-major, filled a block of guesses at a time: never two copies
        found = groups(variant)
        out = np.empty((len(variant.answers), len(variant.guesses)), dtype=found.tiles.dtype)
        for g0 in range(0, len(variant.guesses), _WHOLE_BLOCK):
            check(stop)
            out[:, g0 : g0 + _WHOLE_BLOCK] = patterns_over(
                found.tiles, found.of_guess[g0 : g0 + _WHOLE_BLOCK]
            )
        return out
    return BuiltByAnswer(variant)


_WHOLE_BLOCK = 4096  # guesses built at once into a whole answers-major matrix


def patterns_of(
    variant: Variant, pool: npt.NDArray[np.intp], candidates: npt.NDArray[np.intp]
) -> npt.NDArray[np.unsignedinteger]:
    """``(candidates, pool)`` patterns: whole answer rows when the pool is large, whole
    guess rows when it is small (strict mode's pool is the candidates themselves); built
    from the words for a list that keeps no matrix."""
    if not variant.keeps_matrix:
        return built_patterns(variant, pool, candidates)
    if len(pool) * 4 < len(variant.guesses):
        by_guess = np.asarray(variant.matrix)[pool][:, candidates]
        return np.ascontiguousarray(by_guess.T)
    rows = by_answer(variant)[candidates]
    return rows if len(pool) == len(variant.guesses) else rows[:, pool]


def guess_row(variant: Variant, guess: int) -> npt.NDArray[np.unsignedinteger]:
    """Patterns of the guess of row ``guess`` against every answer."""
    if variant.keeps_matrix:
        return np.asarray(variant.matrix[guess])
    found = groups(variant)
    row: npt.NDArray[np.unsignedinteger] = found.tiles[found.of_guess[guess]].sum(
        axis=0, dtype=found.tiles.dtype
    )
    return row


@cache
def letter_counts(variant: Variant) -> npt.NDArray[np.uint8]:
    """``counts[g, c]``: occurrences of alphabet letter ``c`` in guess ``g``."""
    array = variant.guesses.array
    counts = np.zeros((len(array), len(variant.alphabet)), dtype=np.uint8)
    for i in range(variant.length):
        counts[np.arange(len(array)), array[:, i]] += 1
    return counts


def pattern_row(variant: Variant, guess: str) -> npt.NDArray[np.unsignedinteger]:
    """Patterns of ``guess`` against every answer: a matrix row, or built for an outside word
    (a guess from the NYT's longer list, say)."""
    row = variant.guesses.index.get(guess)
    if row is not None:
        return guess_row(variant, row)
    word = encode([guess], variant.alphabet, variant.length)
    built: npt.NDArray[np.unsignedinteger] = build_pattern_matrix(
        word, variant.answers.array, len(variant.alphabet)
    )[0]
    return built


@dataclass(frozen=True, eq=False)
class Position:
    """Remaining candidates (answer indices) after ``history``, and the guesses ``mode`` allows."""

    variant: Variant
    mode: Mode
    history: tuple[Row, ...]
    candidates: npt.NDArray[np.intp]

    @classmethod
    def start(cls, variant: Variant, mode: Mode = Mode.NORMAL) -> Position:
        return cls(variant, mode, (), np.arange(len(variant.answers), dtype=np.intp))

    @classmethod
    def after(cls, variant: Variant, history: Sequence[Row], mode: Mode = Mode.NORMAL) -> Position:
        """The position after ``history``; raises :class:`InconsistentHistory` if nothing fits."""
        position = cls.start(variant, mode)
        for guess, pattern in history:
            position = position.play(guess, pattern)
        return position

    def play(self, guess: str, pattern: int) -> Position:
        row = pattern_row(self.variant, guess)
        left = self.candidates[row[self.candidates] == pattern]
        if len(left) == 0:
            raise InconsistentHistory(len(self.history) + 1, guess)
        return Position(self.variant, self.mode, (*self.history, (guess, pattern)), left)

    @property
    def words(self) -> list[str]:
        return [self.variant.answers.words[i] for i in self.candidates]

    @cached_property
    def pool(self) -> npt.NDArray[np.intp]:
        """Guess rows allowed here: all (normal), the NYT hard-mode rule's (hard), or the
        remaining candidates only (strict)."""
        if self.mode is Mode.STRICT:
            return answer_rows(self.variant)[self.candidates]
        if self.mode is Mode.HARD and self.history:
            return hard_mode_pool(self.variant, self.history)
        return np.arange(len(self.variant.guesses), dtype=np.intp)


def hard_mode_pool(variant: Variant, history: Sequence[Row]) -> npt.NDArray[np.intp]:
    """Every guess the NYT hard-mode rule allows after ``history``, vectorised."""
    return allowed_pool(variant, *revealed(history, variant.length))


def hard_mode_allows(
    variant: Variant, history: Sequence[Row], among: npt.NDArray[np.intp]
) -> npt.NDArray[np.bool_]:
    """Which of the guess rows ``among`` the NYT hard-mode rule allows after ``history``: what
    :func:`engine.rules.check_guess` says of each of them, for these rows alone."""
    return _keeps(variant, *revealed(history, variant.length), among)


def allowed_pool(
    variant: Variant, greens: Mapping[int, str], minimum: Mapping[str, int]
) -> npt.NDArray[np.intp]:
    """Every guess keeping the ``greens`` in place and each letter at least ``minimum`` times."""
    return np.flatnonzero(_keeps(variant, greens, minimum, slice(None)))


def _keeps(
    variant: Variant, greens: Mapping[int, str], minimum: Mapping[str, int],
    rows: npt.NDArray[np.intp] | slice,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Whether each guess of ``rows`` keeps the ``greens`` and each letter ``minimum`` times."""
    array, code = variant.guesses.array[rows], variant.alphabet.index
    ok = np.ones(len(array), dtype=bool)
    for i, letter in greens.items():
        ok &= array[:, i] == code(letter)
    if minimum:
        counts = letter_counts(variant)[rows]
        for letter, needed in minimum.items():
            ok &= counts[:, code(letter)] >= needed
    return ok
