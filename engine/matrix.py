"""The guesses x answers pattern matrix: built vectorised, cached on disk, memory-mapped.

How the build avoids per-cell work: split a guess into groups of positions holding the same
letter (``"speed"`` is ``{s}{p}{e,e}{d}``). A group's tiles depend only on the group's
positions, its letter and the answer, never on the rest of the guess, because greens and
yellows of one letter only compete with the same letter. So for every set of positions P
and every letter c we precompute ``table[P][c]``: the group's contribution to the pattern
against every answer (a row of ``len(answers)`` small integers). A guess's row of the matrix
is then the sum of one table row per group: a handful of row gathers and adds per guess,
done for blocks of guesses that share the same grouping.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from engine.words import WordList

ALGORITHM = "groups-v1"  # part of the cache key: bump when the file format or rule changes
_BLOCK = 256  # guesses per block: keeps the working set in cache


def pattern_dtype(length: int) -> type[np.unsignedinteger]:
    """The smallest unsigned type that holds ``3**length - 1`` (``uint8`` up to length 5)."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if 3**length - 1 <= np.iinfo(dtype).max:
            return dtype
    return np.uint64


def group_tables(
    answers: npt.NDArray[np.uint8], alphabet_size: int, dtype: type[np.unsignedinteger]
) -> npt.NDArray[np.unsignedinteger]:
    """``tables[P, c, a]``: the pattern value contributed by letter ``c`` guessed at the
    positions in bitmask ``P``, against answer ``a``."""
    n_answers, length = answers.shape
    weights = 3 ** np.arange(length - 1, -1, -1)
    letters = np.arange(alphabet_size, dtype=np.uint8)
    green = letters[:, None, None] == answers.T[None, :, :]  # [c, position, a]
    counts = green.sum(axis=1, dtype=np.int16)  # [c, a]: how often c occurs in answer a
    tables = np.zeros((1 << length, alphabet_size, n_answers), dtype=dtype)
    for mask in range(1, 1 << length):
        positions = [k for k in range(length) if mask >> k & 1]
        # Greens of this letter can only be at this group's positions; the rest is available.
        available = counts - green[:, positions, :].sum(axis=1, dtype=np.int16)
        value = np.zeros((alphabet_size, n_answers), dtype=np.int64)
        for k in positions:  # left to right, as the game hands out yellows
            is_green = green[:, k, :]
            is_yellow = ~is_green & (available > 0)
            available -= is_yellow
            value += weights[k] * (2 * is_green + is_yellow)
        tables[mask] = value
    return tables


def letter_groups(guesses: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """``groups[g, i]``: bitmask of the positions of guess g holding the same letter as
    position i. A group is led by its first position, where ``groups[g, i]`` has no lower bit."""
    length = guesses.shape[1]
    same = guesses[:, :, None] == guesses[:, None, :]
    groups: npt.NDArray[np.int64] = (same * (1 << np.arange(length))).sum(axis=2)
    return groups


def build_pattern_matrix(
    guesses: npt.NDArray[np.uint8], answers: npt.NDArray[np.uint8], alphabet_size: int
) -> npt.NDArray[np.unsignedinteger]:
    """Patterns of every guess (rows) against every answer (columns), from encoded words."""
    n_guesses, length = guesses.shape
    dtype = pattern_dtype(length)
    out = np.empty((n_guesses, answers.shape[0]), dtype=dtype)
    if n_guesses == 0:
        return out
    tables = group_tables(answers, alphabet_size, dtype)
    groups = letter_groups(guesses)
    shapes, shape_of = np.unique(groups, axis=0, return_inverse=True)
    shape_of = shape_of.ravel()
    for s, shape in enumerate(shapes):
        # A group is listed once, at its first position (where the lowest bit is that position).
        leaders = [i for i in range(length) if shape[i] & -shape[i] == 1 << i]
        rows = np.flatnonzero(shape_of == s)
        for start in range(0, len(rows), _BLOCK):
            block = rows[start : start + _BLOCK]
            first, *rest = leaders
            acc = tables[shape[first]].take(guesses[block, first], axis=0)
            for i in rest:
                acc += tables[shape[i]].take(guesses[block, i], axis=0)
            out[block] = acc
    return out


def cache_directory() -> Path:
    """Where built matrices live: ``$WORDLEBOT_CACHE_DIR`` or the user cache directory."""
    override = os.environ.get("WORDLEBOT_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir("wordlebot"))


def cache_path(guesses: WordList, answers: WordList, directory: Path | None = None) -> Path:
    key = hashlib.sha256(f"{ALGORITHM}:{guesses.sha256}:{answers.sha256}".encode()).hexdigest()
    return (directory or cache_directory()) / f"patterns-{key[:24]}.npy"


def pattern_matrix(
    guesses: WordList, answers: WordList, *, cache_dir: Path | None = None, use_cache: bool = True
) -> npt.NDArray[np.unsignedinteger]:
    """The matrix for two lists: memory-mapped from the cache, else built and saved there.

    A damaged or mismatched cache file is rebuilt, never trusted.
    """
    if guesses.alphabet != answers.alphabet or guesses.length != answers.length:
        raise ValueError("guesses and answers must share length and alphabet")
    shape = (len(guesses), len(answers))
    path = cache_path(guesses, answers, cache_dir)
    if use_cache:
        try:
            loaded: npt.NDArray[np.unsignedinteger] = np.load(path, mmap_mode="r")
            if loaded.shape == shape and loaded.dtype == pattern_dtype(guesses.length):
                return loaded
        except (OSError, ValueError):
            pass
    matrix = build_pattern_matrix(guesses.array, answers.array, len(guesses.alphabet))
    if use_cache:
        _save_atomically(path, matrix)
    return matrix


def _save_atomically(path: Path, matrix: npt.NDArray[np.unsignedinteger]) -> None:
    """Write beside the target and rename, so a reader never sees half a file.

    A read-only or full cache directory costs speed on the next start, nothing else.
    """
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.save(f, matrix)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
