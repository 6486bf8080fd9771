"""The entropy bounds' count-table cells: each group's tile against an answer is one cell,
and the bounds they give are the sums of the groups' own entropies, as from the tiles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.solver.bounds import entropy_upper_bounds, group_index
from engine.solver.position import groups
from engine.variants import get_variant

LISTS = ["wordle", "wordle-en-4", "primel", "wordle-pl-7", "wordle-en-11"]


@pytest.mark.parametrize("name", LISTS)
def test_each_groups_tiles_and_cells_match_one_to_one(name: str) -> None:
    variant = get_variant(name)
    index = group_index(variant)
    tiles = groups(variant).tiles[:-1].astype(np.int64)  # (groups, answers)
    cells = index.cells.T.astype(np.int64)
    assert cells.shape == tiles.shape
    # every group's cells lie in its own range of the count table
    ends = np.append(index.starts[1:], index.n_cells)
    assert ((cells >= index.starts[:, None]) & (cells < ends[:, None])).all()
    # one tile, one cell: the pairs are as many as the tiles of each group and as the cells
    pairs = np.unique(cells * 3**variant.length + tiles).size
    assert pairs == np.unique(cells).size
    assert pairs == sum(np.unique(row).size for row in tiles)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["wordle", "wordle-pl-7"]), st.data())
def test_bounds_are_the_sums_of_each_groups_entropy(name: str, data) -> None:
    variant = get_variant(name)
    found = groups(variant)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    n = data.draw(st.sampled_from([1, 2, 7, 60, 300, len(variant.answers)]))
    candidates = np.sort(rng.choice(len(variant.answers), size=n, replace=False))
    group_entropy = []
    for row in found.tiles[:, candidates]:  # the last: no group, 0 bits
        counts = np.unique(row, return_counts=True)[1] / n
        group_entropy.append(float(-(counts * np.log2(counts)).sum()))
    expected = np.array(group_entropy)[found.of_guess].sum(axis=1)
    assert np.allclose(entropy_upper_bounds(variant, candidates), expected, atol=1e-9)
