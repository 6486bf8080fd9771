"""Bucket counts and the four greedy measures, for many guesses at once.

A guess splits the remaining candidates into buckets by pattern. Everything a greedy
strategy needs is a function of the bucket sizes, so one ``(guesses, patterns)`` count table,
built with ``np.bincount``, serves every measure.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

_CHUNK = 256  # guesses per bincount call: keeps the count table in cache
_TABLE_CELLS = 1 << 17  # counts a bincount call fills at most (wide patterns: fewer guesses),
_CHUNK_LEAST = 16  # but never fewer guesses than this
_SORTED_CELLS = 1 << 18  # patterns sorted at once by entropies: a few MiB, in cache
_ROW_SORT_FROM = 8  # candidates: from here entropies sorts each guess's patterns as a row
_SMALL_POOL = 64  # below this many candidates, pairwise sharing beats a count table
_FIRST_SEEN_UNDER = 56  # candidates: below this, counting first sightings beats a count table
_PAIRS_UP_TO = 12  # candidates: up to this many, squares compare every pair at once
_SQUARES_CHUNK = 32  # guesses per squares table: 32 x 243 counts stay in the first cache
_SORT_UP_TO = 512  # guesses: this few sort their columns faster than either
_BYTES_SUM, _TOP_BYTE = np.uint64(0x0101010101010101), np.uint64(56)  # 8 marks' sum: top byte
_PLAIN_UP_TO = 3**6  # patterns: count tables indexed by the pattern itself up to 6 letters,
_PLAIN_IF_DENSE = 3**8  # and up to 8 where the candidates are many enough to fill them


class Measure(StrEnum):
    """How a greedy strategy ranks a guess by its buckets over the remaining answers."""

    ENTROPY = "entropy"  # most bits of information (higher is better)
    EXPECTED = "expected"  # smallest expected remaining pool: sum of squared sizes / pool size
    MINIMAX = "minimax"  # smallest worst bucket; of equal worst, the smaller expected pool
    PARTS = "parts"  # most distinct patterns


def compact(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> tuple[npt.NDArray[np.integer], int]:
    """Patterns, and how many values they may take, in a form whose bucket counts stay small.

    Up to 6 letters (729 patterns) the patterns themselves, and up to 8 where the candidates
    are many enough to fill a table. Beyond, a count table of
    ``3**length`` columns per guess would be mostly empty (3^11 = 177,147 against a few
    thousand candidates), so each column is relabelled by rank, ``0 .. n - 1``, among the
    candidates' distinct patterns: the buckets, their sizes and every measure stay the same,
    only the labels change.
    """
    n = by_candidate.shape[0]
    width = compact_width(n, n_patterns)
    if width == n_patterns:
        return by_candidate, n_patterns
    order = np.argsort(by_candidate, axis=0, kind="stable")
    ordered = np.take_along_axis(by_candidate, order, axis=0)
    starts = np.ones(ordered.shape, dtype=np.intp)
    starts[0] = 0
    starts[1:] = ordered[1:] != ordered[:-1]
    labels = np.empty(ordered.shape, dtype=np.intp)
    np.put_along_axis(labels, order, np.cumsum(starts, axis=0), axis=0)
    return labels, width


def compact_width(n: int, n_patterns: int) -> int:
    """How many labels :func:`compact` gives ``n`` candidates' patterns."""
    if n_patterns <= _PLAIN_UP_TO or (n_patterns <= _PLAIN_IF_DENSE and n_patterns <= 4 * n):
        return n_patterns
    return max(n, 1)


def count_chunks(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> Iterator[tuple[int, npt.NDArray[np.int64]]]:
    """``(start, counts)`` for each chunk of guesses: ``counts[g, p]`` how many candidates
    give pattern ``p`` (or, beyond six letters, the ``p``-th distinct pattern: see
    :func:`compact`) to guess ``start + g``. A chunk at a time, so no table is ever whole."""
    n, guesses = by_candidate.shape
    width = compact_width(n, n_patterns)
    chunk = max(_CHUNK_LEAST, min(_CHUNK, _TABLE_CELLS // width))
    for start in range(0, guesses, chunk):
        block = by_candidate[:, start : start + chunk]
        k = block.shape[1]
        if width == n_patterns:
            index_type = np.uint16 if width * k < 1 << 16 else np.intp  # half the traffic
            offsets = np.arange(k, dtype=index_type) * width
            flat = np.add(block, offsets[None, :], dtype=index_type, casting="unsafe")
            flat = flat.ravel(order="K")  # counting needs no order: no copy
        else:  # counts need no labels in place: sort each guess's patterns, number the runs
            ordered = block.T.astype(np.uint32)  # 32-bit rows: numpy's SIMD sort
            ordered.sort(axis=1)
            runs = np.zeros(ordered.shape, dtype=np.intp)
            runs[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
            flat = (np.cumsum(runs, axis=1) + (np.arange(k) * width)[:, None]).ravel()
        yield start, np.bincount(flat, minlength=k * width).reshape(k, width)


def bucket_counts(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> npt.NDArray[np.int64]:
    """``counts[g, p]``: how many candidates give pattern ``p`` to guess ``g`` (beyond six
    letters, its ``p``-th distinct pattern), for a pool small enough to hold the table.

    ``by_candidate`` is ``(candidates, guesses)``: rows of the answers-major matrix.
    """
    chunks = [counts for _, counts in count_chunks(by_candidate, n_patterns)]
    if not chunks:
        return np.zeros((0, n_patterns), dtype=np.int64)
    return np.concatenate(chunks)


@dataclass(frozen=True)
class Scores:
    """The measures of each guess in a pool, over ``pool_size`` candidates."""

    pool_size: int
    entropy: npt.NDArray[np.float64]
    expected: npt.NDArray[np.float64]
    worst: npt.NDArray[np.int64]
    parts: npt.NDArray[np.int64]

    def sort_key(self, measure: Measure) -> npt.NDArray[np.float64]:
        """Smaller is better, for every measure (entropy is rounded so that equal bucket
        multisets tie exactly whatever order their terms were summed in)."""
        if measure is Measure.ENTROPY:
            return -np.round(self.entropy, 9)
        if measure is Measure.EXPECTED:
            return np.round(self.expected, 9)
        if measure is Measure.MINIMAX:
            return _worst_then_squares(
                self.worst, np.rint(self.expected * self.pool_size), self.pool_size
            )
        return -self.parts.astype(np.float64)


def sort_key(
    by_candidate: npt.NDArray[np.unsignedinteger], measure: Measure, n_patterns: int
) -> npt.NDArray[np.float64]:
    """``Scores.sort_key`` for one measure, computing only that measure (the hot path of
    greedy play: ranking needs one number per guess, display needs all four for a few)."""
    n, guesses = by_candidate.shape
    if n >= _SMALL_POOL or guesses == 0 or measure is Measure.PARTS:
        return score_patterns(by_candidate, n_patterns).sort_key(measure)
    share = _shares(by_candidate)
    key: npt.NDArray[np.float64]
    if measure is Measure.ENTROPY:
        log_share = np.log2(np.arange(1, n + 1, dtype=np.float64))
        key = -np.round(np.log2(n) - log_share[share - 1].sum(axis=0) / n, 9)
    elif measure is Measure.EXPECTED:
        key = np.round(share.sum(axis=0, dtype=np.int64) / n, 9)
    else:
        key = _worst_then_squares(share.max(axis=0), share.sum(axis=0, dtype=np.int64), n)
    return key


def _worst_then_squares(
    worst: npt.NDArray[np.integer], squares: npt.NDArray[np.integer | np.floating], n: int
) -> npt.NDArray[np.float64]:
    """Minimax's key: the worst bucket, ties broken by the sum of squared bucket sizes (the
    expected pool times n). Both are integers, squares at most n * n, so one float orders
    them exactly (n * n * n stays far below 2**53)."""
    key = worst.astype(np.float64) * (n * n + 1) + squares.astype(np.float64)
    return key


def score_counts(counts: npt.NDArray[np.int64]) -> Scores:
    """Measures from a ``(guesses, patterns)`` count table."""
    n = int(counts[0].sum()) if len(counts) else 0
    c_log_c = np.zeros(n + 1)
    c_log_c[1:] = np.arange(1, n + 1) * np.log2(np.arange(1, n + 1))
    entropy = np.log2(max(n, 1)) - c_log_c[counts].sum(axis=1) / max(n, 1)
    expected = (counts * counts).sum(axis=1) / max(n, 1)
    return Scores(n, entropy, expected, counts.max(axis=1), (counts > 0).sum(axis=1))


def _concatenate(parts: list[Scores], n: int) -> Scores:
    if len(parts) == 1:
        return parts[0]
    empty = np.zeros(0)
    return Scores(
        n,
        np.concatenate([p.entropy for p in parts]) if parts else empty,
        np.concatenate([p.expected for p in parts]) if parts else empty,
        np.concatenate([p.worst for p in parts]) if parts else empty.astype(np.int64),
        np.concatenate([p.parts for p in parts]) if parts else empty.astype(np.int64),
    )


def score_patterns(by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int) -> Scores:
    """Measures of each guess from its patterns, given as ``(candidates, guesses)``.

    Large pools count buckets with ``np.bincount``. Small ones avoid that mostly-empty
    ``(guesses, patterns)`` table: for each candidate j, ``share[j]`` is the size of the
    bucket j falls in, found by comparing pattern rows pairwise, and every measure is a sum
    over candidates: sum of squared sizes = sum_j share_j, sum c log c = sum_j log share_j,
    parts = sum_j 1 / share_j.
    """
    n, guesses = by_candidate.shape
    if n >= _SMALL_POOL or guesses == 0:
        return _concatenate(
            [score_counts(counts) for _, counts in count_chunks(by_candidate, n_patterns)], n
        )
    share = _shares(by_candidate)
    log_share = np.log2(np.arange(1, n + 1, dtype=np.float64))
    entropy = np.log2(n) - log_share[share - 1].sum(axis=0) / n
    expected = share.sum(axis=0, dtype=np.int64) / n
    inverse = 1.0 / np.arange(1, n + 1, dtype=np.float64)
    parts = np.rint(inverse[share - 1].sum(axis=0)).astype(np.int64)
    return Scores(n, entropy, expected, share.max(axis=0).astype(np.int64), parts)


def entropies(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> npt.NDArray[np.float64]:
    """Entropy (bits) alone of each guess, the fastest way for the table's shape: what the
    hints' shortlist scores thousands of guesses by.

    Where the patterns could fill a count table (``n_patterns <= 2n``) buckets are counted
    with ``np.bincount``; elsewhere each guess's patterns are sorted and the runs' lengths
    read off, so no mostly-empty table is built or read.
    """
    n, guesses = by_candidate.shape
    out = np.empty(guesses)
    if n == 0 or guesses == 0:
        out.fill(0.0)
        return out
    c_log_c = np.zeros(n + 1)
    c_log_c[1:] = np.arange(1, n + 1) * np.log2(np.arange(1, n + 1))
    if n_patterns <= 2 * n:
        for start, counts in count_chunks(by_candidate, n_patterns):
            out[start : start + len(counts)] = c_log_c[counts].sum(axis=1)
        return np.asarray(np.log2(n) - out / n, dtype=np.float64)
    itemsize = by_candidate.dtype.itemsize
    # Each guess's patterns are sorted as a row of 32-bit integers: numpy sorts those with
    # SIMD, row by row, two to four times faster than rows of 8 or 16 bits or one long sort
    # of them all. Below _ROW_SORT_FROM candidates a row is too short for that: a chunk of
    # guesses is sorted at once, each keyed by its guess in the high bits of one uint32
    # (the same order within each guess, so the same entropies to the last bit).
    by_row = n >= _ROW_SORT_FROM or itemsize > 2
    chunk = max(1, _SORTED_CELLS // n)
    if not by_row:
        chunk = min(chunk, 1 << (32 - 8 * itemsize))
    for start in range(0, guesses, chunk):
        block = by_candidate[:, start : start + chunk].T
        k = len(block)
        if by_row:
            ordered = block.astype(np.uint32)  # a copy, sorted in place
            ordered.sort(axis=1)
        else:
            key = np.left_shift(np.arange(k, dtype=np.uint32), 8 * itemsize)[:, None] | block
            ordered = np.sort(key.ravel()).reshape(k, n)
        new_run = np.ones(ordered.shape, dtype=bool)
        np.not_equal(ordered[:, 1:], ordered[:, :-1], out=new_run[:, 1:])
        runs = np.flatnonzero(new_run.ravel())  # each run's start; every row starts one
        lengths = np.diff(runs, append=ordered.size)
        first_runs = np.searchsorted(runs, np.arange(k) * n)
        out[start : start + k] = np.add.reduceat(c_log_c[lengths], first_runs)
    return np.asarray(np.log2(n) - out / n, dtype=np.float64)


def parts_and_squares(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Distinct patterns and sum of squared bucket sizes: what the reference beam counts
    (``bot/cli/reference_beam.py``), and the exact search's squares past a small table."""
    n, guesses = by_candidate.shape
    if n >= _SMALL_POOL or guesses == 0:
        parts, squares = np.zeros(guesses, dtype=np.int64), np.zeros(guesses, dtype=np.int64)
        for start, counts in count_chunks(by_candidate, n_patterns):
            parts[start : start + len(counts)] = (counts > 0).sum(axis=1)
            squares[start : start + len(counts)] = (counts * counts).sum(axis=1)
        return parts, squares
    share = _shares(by_candidate)
    inverse = 1.0 / np.arange(1, n + 1, dtype=np.float64)
    parts = np.rint(inverse[share - 1].sum(axis=0)).astype(np.int64)
    return parts, share.sum(axis=0, dtype=np.int64)


def squares(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> npt.NDArray[np.int64]:
    """Sum of squared bucket sizes of each guess, alone: what the exact search breaks ties
    of its bound by, over a few guesses. A few candidates compare every pair at once (a
    bucket of c holds c * c ordered pairs with equal patterns); more count each guess's
    buckets, a few guesses a time, in a table small enough to stay in cache."""
    n, guesses = by_candidate.shape
    if n <= _PAIRS_UP_TO:
        same = by_candidate[:, None, :] == by_candidate[None, :, :]
        return np.asarray(np.count_nonzero(same.reshape(n * n, guesses), axis=0), dtype=np.int64)
    if compact_width(n, n_patterns) != n_patterns:
        return parts_and_squares(by_candidate, n_patterns)[1]
    out = np.empty(guesses, dtype=np.int64)
    offsets = np.arange(_SQUARES_CHUNK, dtype=np.intp) * n_patterns
    for start in range(0, guesses, _SQUARES_CHUNK):
        block = by_candidate[:, start : start + _SQUARES_CHUNK]
        k = block.shape[1]
        flat = np.add(block, offsets[None, :k], dtype=np.intp).ravel()
        counts = np.bincount(flat, minlength=k * n_patterns).reshape(k, n_patterns)
        out[start : start + k] = np.einsum("gp,gp->g", counts, counts)
    return out


def rank_by_parts(
    by_candidate: npt.NDArray[np.unsignedinteger],
    won: npt.NDArray[np.bool_],
    tie: npt.NDArray[np.integer],
    top: int,
    n_patterns: int,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], int]:
    """The exact search's ranking of a pool over a few candidates: the ``top`` guesses with
    the lowest bound ``3n - parts - won`` (``won``: the guess can be the answer), ties broken
    by the sum of squared bucket sizes, then by ``tie``; their bounds; the lowest bound.

    A few passes over the pool, where a small set's parts cost about as much as one: parts
    plus won take at most n + 2 values, so their counts give the cut without a partition.
    """
    n = by_candidate.shape[0]
    score = count_parts(by_candidate, n_patterns) + won
    counts = np.bincount(score, minlength=n + 2)
    reaching = np.cumsum(counts[::-1])  # reaching[i]: the guesses scoring n + 1 - i or more
    cut = n + 1 - int(np.argmax(reaching >= min(top, len(score))))
    few = np.flatnonzero(score >= cut)
    bounds = 3 * n - score[few]
    paired = squares(np.take(by_candidate, few, axis=1), n_patterns)
    first = np.lexsort((tie[few], paired, bounds))[:top]
    lowest = 3 * n - (n + 1 - int(np.argmax(reaching > 0)))
    return few[first], bounds[first], lowest


def count_parts(
    by_candidate: npt.NDArray[np.unsignedinteger], n_patterns: int
) -> npt.NDArray[np.int64]:
    """Distinct patterns of each guess, alone: what the exact search ranks a whole pool by.

    A few guesses sort their columns and count the changes; a few candidates count the ones
    whose pattern no earlier candidate shares; more count buckets a chunk of guesses at a
    time, so no ``(guesses, patterns)`` table is ever whole.
    """
    n, guesses = by_candidate.shape
    if (guesses <= _SORT_UP_TO and n < 256) or n < 2:
        ordered = np.sort(by_candidate, axis=0)
        changes = np.count_nonzero(ordered[1:] != ordered[:-1], axis=0)
        return np.asarray(changes + min(n, 1), dtype=np.int64)
    if n < _FIRST_SEEN_UNDER:  # count the candidates an earlier one shares a pattern with
        shared = np.zeros(guesses, dtype=np.uint8)
        for j in range(1, n):
            shared += (by_candidate[:j] == by_candidate[j]).any(axis=0)
        return np.asarray(n - shared.astype(np.int64), dtype=np.int64)
    out = np.empty(guesses, dtype=np.int64)
    if compact_width(n, n_patterns) == n_patterns:  # mark the patterns seen, one byte each:
        # an eighth of a count table's traffic; each guess's row padded to whole 8-byte words,
        # whose marks are added eight at a time (times 0x0101..01, the top byte is their sum).
        # The marks' indices are numpy's own intp: a narrower index is widened on every store
        # (twice the time); chunks of about 64K marks keep them and the table in cache.
        stride = -(-n_patterns // 8) * 8
        chunk = int(np.clip(1 << max(((1 << 16) // n).bit_length() - 1, 0), 128, 512))
        seen = np.empty(chunk * stride, dtype=np.uint8)
        words = seen.view(np.uint64).reshape(chunk, stride // 8)
        offsets = np.arange(chunk, dtype=np.intp) * stride
        for start in range(0, guesses, chunk):
            block = by_candidate[:, start : start + chunk]
            k = block.shape[1]
            seen[: k * stride] = 0
            seen[np.add(block, offsets[None, :k], dtype=np.intp).ravel()] = 1
            marks = (words[:k] * _BYTES_SUM) >> _TOP_BYTE
            out[start : start + k] = marks.sum(axis=1)
        return out
    for start, counts in count_chunks(by_candidate, n_patterns):
        out[start : start + len(counts)] = np.count_nonzero(counts, axis=1)
    return out


def _shares(by_candidate: npt.NDArray[np.unsignedinteger]) -> npt.NDArray[np.uint8]:
    """``share[j, g]``: the size of the bucket candidate j falls in under guess g."""
    n, guesses = by_candidate.shape
    share = np.ones((n, guesses), dtype=np.uint8)
    for k in range(n - 1):
        same = by_candidate[k + 1 :] == by_candidate[k]
        share[k + 1 :] += same
        share[k] += same.sum(axis=0, dtype=np.uint8)
    return share


def rank(
    key: npt.NDArray[np.float64],
    possible: npt.NDArray[np.bool_],
    fixed_order: npt.NDArray[np.intp],
    top: int | None = None,
) -> npt.NDArray[np.intp]:
    """Indices into the pool, best (smallest ``key``) first. Ties prefer a guess that can
    still be the answer, then ``fixed_order`` (smaller first), so results are reproducible."""
    if top is not None and top < len(key):
        # Only the best few matter: sort just the guesses that can tie the top-th key.
        cut = np.partition(key, top - 1)[top - 1]
        few = np.flatnonzero(key <= cut)
        order = few[np.lexsort((fixed_order[few], ~possible[few], key[few]))]
        return order[:top]
    order = np.lexsort((fixed_order, ~possible, key))
    return order if top is None else order[:top]


def best_inside(
    matrix: npt.NDArray[np.unsignedinteger],
    answer_rows: npt.NDArray[np.intp],
    tie: npt.NDArray[np.integer],
    sets: list[npt.NDArray[np.intp]],
    n_patterns: int,
) -> list[tuple[int, int]]:
    """For each set of candidates (rows of the answers-major ``matrix``): the most parts an
    answer in it splits it into, and the first such answer in the ``tie`` order (a guess row).

    Every set at once, so a guess's buckets cost a few numpy calls rather than a few each:
    each answer's patterns over its own set are marked in a byte table, one row of
    ``n_patterns`` per answer, and its parts are the marks in its row.
    """
    if not sets:
        return []
    sizes = np.array([len(s) for s in sets], dtype=np.intp)
    members = np.concatenate(sets)
    total = len(members)
    starts = np.zeros(len(sets), dtype=np.intp)
    starts[1:] = np.cumsum(sizes)[:-1]
    of_set = np.repeat(np.arange(len(sets)), sizes)
    # every (candidate, answer) pair of the same set: answer k meets the candidates of its set
    meets = sizes[of_set]
    answer = np.repeat(np.arange(total), meets)
    first_pair = np.cumsum(meets) - meets
    candidate = starts[of_set][answer] + np.arange(len(answer)) - np.repeat(first_pair, meets)
    rows = answer_rows[members]
    patterns = matrix[members[candidate], rows[answer]].astype(np.intp)
    seen = np.zeros(total * n_patterns, dtype=bool)
    seen[answer * n_patterns + patterns] = True
    parts = np.count_nonzero(seen.reshape(total, n_patterns), axis=1)
    order = np.lexsort((tie[rows], -parts, of_set))  # each set's best answer, first in the tie
    firsts = order[starts]
    return list(zip(parts[firsts].tolist(), rows[firsts].tolist(), strict=True))
