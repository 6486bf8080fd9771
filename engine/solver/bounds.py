"""Cheap upper bounds on a guess's entropy and parts, to skip guesses that cannot make the top.

A guess's pattern is the combination of its letter groups' tiles (see ``engine.matrix``):
each group's tiles depend only on its positions, its letter and the answer. Entropy is
subadditive, so H(pattern) <= sum over groups of H(group's tiles); and the distinct patterns
are at most the product of each group's distinct tiles. Each group's histogram over the
remaining candidates is shared by every guess containing the same group; so bounds for all
12,972 guesses cost a few hundred histograms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from engine.solver.measures import count_parts
from engine.solver.position import groups
from engine.variants import Variant


@dataclass(frozen=True, eq=False)
class GroupIndex:
    """The distinct (positions, letter) groups of a guess list, and which each guess has."""

    values: npt.NDArray[np.unsignedinteger]  # (answers, groups): each group's tile value
    of_guess: npt.NDArray[np.intp]  # (guesses, length): group ids, ``groups`` where none
    of_position: npt.NDArray[np.int32]  # ``of_guess`` transposed: a contiguous row a position
    # Each group's tile against each answer as a cell of one small count table: the
    # group's cells are ``starts[k]`` on, one for each tile it can show (see _tile_cells).
    cells: npt.NDArray[np.unsignedinteger]  # (answers, groups)
    starts: npt.NDArray[np.intp]  # (groups,)
    n_cells: int


@cache
def group_index(variant: Variant) -> GroupIndex:
    """A view of :func:`~engine.solver.position.groups`: the same table, held once, and
    its tiles as count-table cells."""
    found = groups(variant)
    cells, starts, n_cells = _tile_cells(variant, found.keys)
    return GroupIndex(
        found.tiles[:-1].T, found.of_guess, np.ascontiguousarray(found.of_guess.T, np.int32),
        cells, starts, n_cells,
    )  # fmt: skip


def _tile_cells(
    variant: Variant, keys: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.unsignedinteger], npt.NDArray[np.intp], int]:
    """A group's tile against an answer is fixed by which of its s positions the answer
    has its letter at (greens) and how often, up to s, the answer holds the letter (the
    yellows handed out left to right): ``2**s * (s + 1)`` cells a group, each tile one cell
    (and the other way round), numbered from the group's start; built from the words, as
    numbering the tiles themselves would take a sort of the whole table."""
    answers = variant.answers.array  # (answers, length)
    masks, letters = np.divmod(keys, len(variant.alphabet))
    letters = letters.astype(answers.dtype)  # narrow: every step below is a table's size
    # positions[r, k]: the r-th position of group k (its first where it has fewer)
    bits = (masks[None, :] >> np.arange(variant.length)[:, None]) & 1  # (length, groups)
    sizes = bits.sum(axis=0)
    most = int(sizes.max()) if len(keys) else 0
    positions = np.argsort(-bits, axis=0, kind="stable")[: max(most, 1)]
    dtype = np.uint16 if most <= 12 else np.uint32
    greens = np.zeros((len(answers), len(keys)), dtype=dtype)  # answers-major, as kept
    for r in range(most):
        hit = (np.take(answers, positions[r], axis=1) == letters) & (sizes > r)
        greens |= hit.astype(dtype) << dtype(r)
    counts = np.zeros((len(answers), len(variant.alphabet)), dtype=np.uint8)
    for position in range(variant.length):
        counts[np.arange(len(answers)), answers[:, position]] += 1
    widths = (1 << sizes) * (sizes + 1)
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.intp)
    n_cells = int(widths.sum())
    if n_cells > 1 << 16:
        dtype = np.uint32
    cells = np.minimum(np.take(counts, letters, axis=1), sizes.astype(np.uint8)).astype(dtype)
    cells += greens * (sizes + 1).astype(dtype) + starts.astype(dtype)
    return cells, starts, n_cells


def entropy_upper_bounds(
    variant: Variant, candidates: npt.NDArray[np.intp]
) -> npt.NDArray[np.float64]:
    """An upper bound on the entropy (bits) of every guess over ``candidates``."""
    index = group_index(variant)
    n = len(candidates)
    c_log_c = np.zeros(n + 1)
    c_log_c[1:] = np.arange(1, n + 1) * np.log2(np.arange(1, n + 1))
    group_entropy = np.zeros(len(index.starts) + 1)  # the last: a guess's missing groups
    if len(index.starts) and n:
        counts = np.bincount(index.cells[candidates].ravel(), minlength=index.n_cells)
        sums = np.add.reduceat(c_log_c[counts], index.starts)
        group_entropy[:-1] = np.log2(n) - sums / n
    bounds: npt.NDArray[np.float64] = group_entropy.take(index.of_position).sum(axis=0)
    return bounds


def parts_ceilings(variant: Variant, candidates: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """An upper bound on the distinct patterns of every guess over ``candidates``."""
    index = group_index(variant)
    distinct = count_parts(index.values[candidates], 3**variant.length)  # (groups,)
    distinct = np.append(distinct, 1)  # a guess's missing groups show one value
    ceilings = np.full(len(index.of_guess), len(candidates), dtype=np.int64)
    product = distinct[index.of_guess[:, 0]]
    for i in range(1, index.of_guess.shape[1]):  # column by column: a short axis reduces slowly
        product = product * distinct[index.of_guess[:, i]]
    return np.minimum(product, ceilings)
