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

from engine.solver.measures import count_chunks, count_parts
from engine.solver.position import groups
from engine.variants import Variant


@dataclass(frozen=True, eq=False)
class GroupIndex:
    """The distinct (positions, letter) groups of a guess list, and which each guess has."""

    values: npt.NDArray[np.unsignedinteger]  # (answers, groups): each group's tile value
    of_guess: npt.NDArray[np.intp]  # (guesses, length): group ids, ``groups`` where none


@cache
def group_index(variant: Variant) -> GroupIndex:
    """A view of :func:`~engine.solver.position.groups`: the same table, held once."""
    found = groups(variant)
    values = found.tiles[:-1].T  # (answers, groups)
    return GroupIndex(values, found.of_guess)


def entropy_upper_bounds(
    variant: Variant, candidates: npt.NDArray[np.intp]
) -> npt.NDArray[np.float64]:
    """An upper bound on the entropy (bits) of every guess over ``candidates``."""
    index = group_index(variant)
    values = index.values[candidates]  # (n, groups)
    n, n_groups = values.shape
    c_log_c = np.zeros(n + 1)
    c_log_c[1:] = np.arange(1, n + 1) * np.log2(np.arange(1, n + 1))
    group_entropy = np.zeros(n_groups + 1)  # the last: a guess's missing groups
    for start, counts in count_chunks(values, 3**variant.length):
        group_entropy[start : start + len(counts)] = np.log2(n) - c_log_c[counts].sum(axis=1) / n
    bounds: npt.NDArray[np.float64] = group_entropy[index.of_guess].sum(axis=1)
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
