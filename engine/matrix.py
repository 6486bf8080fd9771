"""The guesses x answers pattern matrix: built vectorised, cached on disk, memory-mapped.

How the build avoids per-cell work: split a guess into groups of positions holding the same
letter (``"speed"`` is ``{s}{p}{e,e}{d}``). A group's tiles depend only on the group's
positions, its letter and the answer, never on the rest of the guess, because greens and
yellows of one letter only compete with the same letter. So for every group (set of
positions P, letter c) that some guess of the list holds, we compute its contribution to the
pattern against every answer once (a row of small integers); a guess's row of the matrix is
then the sum of one such row per group, a handful of row gathers and adds per guess.

Memory stays bounded at any length: only the groups the guesses hold get a row (a few
thousand at 11 letters, never all ``2**length`` position sets), answers are taken a block
at a time, and the matrix itself is written straight into its cache file and memory-mapped
from there, so a matrix larger than memory is never whole in it.

The pattern type is the smallest unsigned integer that holds ``3**length - 1``: ``uint8`` up
to 5 letters (242), ``uint16`` up to 10 (59,048), ``uint32`` from 11 (177,146). A matrix
takes ``guesses x answers x (1, 2 or 4)`` bytes: 12,972 x 2,315 English words 29 MiB, but
100,000 x 5,000 eleven-letter words 1.9 GiB (kept on disk, mapped; keep a shipped list under
1 GiB by its allowed list: ``guesses x answers <= 268M`` at 11 letters, ``537M`` at 6 to 10).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import platformdirs

from engine.stopping import Stop, check
from engine.words import WordList

try:
    import fcntl

    LOCKABLE = True
except ImportError:  # Windows: no flock; stale files are told by their age alone
    LOCKABLE = False

ALGORITHM = "groups-v1"  # part of the cache key: bump when the file format or rule changes
_BLOCK = 256  # guesses per block: keeps the working set in cache
_GROUP_ROWS_BYTES = 64 << 20  # the groups' rows of one block of answers stay below this
_TRANSPOSE_BLOCK = 2048  # guesses per block when writing the answers-major copy
# A temporary file no live writer holds locked is a dead writer's once this old (seconds):
# the lock is taken just after the file is made, and this covers that instant. Where
# nothing can be locked, age alone tells, after a day.
STALE_UNLOCKED, STALE_UNLOCKABLE = 60.0, 86_400.0
# A list whose matrix would pass this many bytes keeps none: its patterns are built from
# its letter groups' table when a solver asks for them (``engine.solver.position``). Below
# it the matrix is cached and mapped (a hint reads it a little faster, and the exact search
# of English and Primel reads it whole); above it the two copies on disk and in memory cost
# more than building the few patterns a hint scores. Measured: docs/performance.md.
MATRIX_BYTES_LIMIT = 32 << 20


def pattern_dtype(length: int) -> type[np.unsignedinteger]:
    """The smallest unsigned type that holds ``3**length - 1``: ``uint8`` up to length 5,
    ``uint16`` up to 10, ``uint32`` from 11 (to 20)."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if 3**length - 1 <= np.iinfo(dtype).max:
            return dtype
    return np.uint64


def keeps_matrix(guesses: WordList, answers: WordList) -> bool:
    """Whether these lists' matrix is small enough to cache (see :data:`MATRIX_BYTES_LIMIT`)."""
    itemsize = np.dtype(pattern_dtype(guesses.length)).itemsize
    return len(guesses) * len(answers) * itemsize <= MATRIX_BYTES_LIMIT


def letter_groups(guesses: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """``groups[g, i]``: bitmask of the positions of guess g holding the same letter as
    position i. A group is led by its first position, where ``groups[g, i]`` has no lower bit."""
    length = guesses.shape[1]
    same = guesses[:, :, None] == guesses[:, None, :]
    groups: npt.NDArray[np.int64] = (same * (1 << np.arange(length))).sum(axis=2)
    return groups


def group_keys(
    guesses: npt.NDArray[np.uint8], alphabet_size: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """The groups the guesses hold, as sorted keys ``mask * alphabet_size + letter``, and
    ``ids[g, i]``: the key's index for the group led at position i of guess g, or
    ``len(keys)`` where position i leads no group."""
    length = guesses.shape[1]
    groups = letter_groups(guesses)
    leads = (groups & -groups) == (1 << np.arange(length))
    flat = np.where(leads, groups * alphabet_size + guesses, -1)
    keys, inverse = np.unique(flat, return_inverse=True)
    inverse = inverse.reshape(flat.shape)
    if len(keys) and keys[0] == -1:
        keys, inverse = keys[1:], inverse - 1
    ids = np.where(flat >= 0, inverse, len(keys)).astype(np.intp)
    return keys, ids


def group_table(
    answers: npt.NDArray[np.uint8],
    alphabet_size: int,
    keys: npt.NDArray[np.int64],
    dtype: type[np.unsignedinteger],
) -> npt.NDArray[np.unsignedinteger]:
    """``table[k, a]``: the pattern value contributed by group ``keys[k]`` (its letter at its
    positions, see :func:`group_keys`) against answer ``a``."""
    n_answers, length = answers.shape
    weights = 3 ** np.arange(length - 1, -1, -1)
    letters = np.arange(alphabet_size, dtype=np.uint8)
    green_all = letters[:, None, None] == answers.T[None, :, :]  # [c, position, a]
    counts_all = green_all.sum(axis=1, dtype=np.int16)  # [c, a]: how often c occurs in a
    table = np.empty((len(keys), n_answers), dtype=dtype)
    masks, key_letters = np.divmod(keys, alphabet_size)
    for mask in np.unique(masks).tolist():
        rows = np.flatnonzero(masks == mask)
        green, counts = green_all[key_letters[rows]], counts_all[key_letters[rows]]
        positions = [k for k in range(length) if mask >> k & 1]
        # Greens of this letter can only be at this group's positions; the rest is available.
        available = counts - green[:, positions, :].sum(axis=1, dtype=np.int16)
        value = np.zeros((len(rows), n_answers), dtype=np.int64)
        for k in positions:  # left to right, as the game hands out yellows
            is_green = green[:, k, :]
            is_yellow = ~is_green & (available > 0)
            available -= is_yellow
            value += weights[k] * (2 * is_green + is_yellow)
        table[rows] = value
    return table


def build_pattern_matrix(
    guesses: npt.NDArray[np.uint8],
    answers: npt.NDArray[np.uint8],
    alphabet_size: int,
    out: npt.NDArray[np.unsignedinteger] | None = None,
    stop: Stop | None = None,
) -> npt.NDArray[np.unsignedinteger]:
    """Patterns of every guess (rows) against every answer (columns), from encoded words,
    written into ``out`` when given (a memory map of the cache file, say); ``stop`` is asked
    between blocks (:mod:`engine.stopping`)."""
    n_guesses, length = guesses.shape
    n_answers = answers.shape[0]
    dtype = pattern_dtype(length)
    if out is None:
        out = np.empty((n_guesses, n_answers), dtype=dtype)
    if n_guesses == 0 or n_answers == 0:
        return out
    keys, ids = group_keys(guesses, alphabet_size)
    row_bytes = (len(keys) + 1) * np.dtype(dtype).itemsize
    answer_block = max(256, _GROUP_ROWS_BYTES // row_bytes)
    for a0 in range(0, n_answers, answer_block):
        a1 = min(a0 + answer_block, n_answers)
        values = np.zeros((len(keys) + 1, a1 - a0), dtype=dtype)  # last row: no group
        values[:-1] = group_table(answers[a0:a1], alphabet_size, keys, dtype)
        for g0 in range(0, n_guesses, _BLOCK):
            check(stop)
            block = ids[g0 : g0 + _BLOCK]
            acc = values.take(block[:, 0], axis=0)
            for i in range(1, length):
                acc += values.take(block[:, i], axis=0)
            out[g0 : g0 + _BLOCK, a0:a1] = acc
    return out


def cache_directory() -> Path:
    """Where built matrices live: ``$WORDLEBOT_CACHE_DIR`` or the user cache directory."""
    override = os.environ.get("WORDLEBOT_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir("wordlebot"))


def cache_path(
    guesses: WordList, answers: WordList, directory: Path | None = None, *, by_answer: bool = False
) -> Path:
    """The cache file of the matrix (``by_answer``: of its answers-major copy)."""
    key = hashlib.sha256(f"{ALGORITHM}:{guesses.sha256}:{answers.sha256}".encode()).hexdigest()
    kind = "answers" if by_answer else "patterns"
    return (directory or cache_directory()) / f"{kind}-{key[:24]}.npy"


def cached(
    guesses: WordList, answers: WordList, *, cache_dir: Path | None = None, by_answer: bool = False
) -> npt.NDArray[np.unsignedinteger] | None:
    """The matrix (or its answers-major copy) memory-mapped from the cache, if it is there
    and whole; a damaged or mismatched file is never trusted."""
    shape = (len(answers), len(guesses)) if by_answer else (len(guesses), len(answers))
    path = cache_path(guesses, answers, cache_dir, by_answer=by_answer)
    try:
        loaded: npt.NDArray[np.unsignedinteger] = np.load(path, mmap_mode="r")
    except (OSError, ValueError):
        return None
    return (
        loaded if loaded.shape == shape and loaded.dtype == pattern_dtype(guesses.length) else None
    )


def pattern_matrix(
    guesses: WordList,
    answers: WordList,
    *,
    cache_dir: Path | None = None,
    use_cache: bool = True,
    stop: Stop | None = None,
) -> npt.NDArray[np.unsignedinteger]:
    """The matrix for two lists: memory-mapped from the cache, else built into the cache
    file (so it is never whole in memory) and mapped from there.

    A damaged or mismatched cache file is rebuilt; an unwritable cache costs memory and a
    build on the next start, nothing else.
    """
    if guesses.alphabet != answers.alphabet or guesses.length != answers.length:
        raise ValueError("guesses and answers must share length and alphabet")
    shape = (len(guesses), len(answers))
    if use_cache:
        found = cached(guesses, answers, cache_dir=cache_dir)
        if found is not None:
            return found
        path = cache_path(guesses, answers, cache_dir)
        size = len(guesses.alphabet)
        written = _write_atomically(
            path,
            shape,
            pattern_dtype(guesses.length),
            lambda out: build_pattern_matrix(guesses.array, answers.array, size, out, stop),
        )
        if written is not None:
            return written
    return build_pattern_matrix(guesses.array, answers.array, len(guesses.alphabet), stop=stop)


def answer_major(
    guesses: WordList,
    answers: WordList,
    matrix: npt.NDArray[np.unsignedinteger],
    *,
    cache_dir: Path | None = None,
    use_cache: bool = True,
    stop: Stop | None = None,
) -> npt.NDArray[np.unsignedinteger]:
    """``matrix`` transposed, ``(answers, guesses)`` and contiguous, so that selecting the
    remaining candidates takes whole rows; cached and mapped like the matrix itself."""
    if use_cache:
        found = cached(guesses, answers, cache_dir=cache_dir, by_answer=True)
        if found is not None:
            return found
        path = cache_path(guesses, answers, cache_dir, by_answer=True)

        def transpose(out: npt.NDArray[np.unsignedinteger]) -> None:
            for g0 in range(0, len(guesses), _TRANSPOSE_BLOCK):
                check(stop)
                out[:, g0 : g0 + _TRANSPOSE_BLOCK] = matrix[g0 : g0 + _TRANSPOSE_BLOCK].T

        written = _write_atomically(path, matrix.shape[::-1], matrix.dtype.type, transpose)
        if written is not None:
            return written
    return np.ascontiguousarray(np.asarray(matrix).T)


def _write_atomically(
    path: Path,
    shape: tuple[int, ...],
    dtype: type[np.unsignedinteger],
    fill: Callable[[npt.NDArray[np.unsignedinteger]], object],
) -> npt.NDArray[np.unsignedinteger] | None:
    """Fill a new ``.npy`` file beside ``path`` through a memory map, rename it into place
    (a reader never sees half a file) and map it; None if the cache cannot hold it. A fill
    that raises (:class:`~engine.stopping.Stopped`) leaves no file behind."""
    if 0 in shape:
        return None
    try:
        with atomic_write(path) as (fd, tmp):
            out = np.lib.format.open_memmap(tmp, mode="w+", dtype=dtype, shape=shape)
            if hasattr(os, "posix_fallocate"):  # a full disk fails here, not as SIGBUS mid-fill
                os.posix_fallocate(fd, 0, os.path.getsize(tmp))
            fill(out)
            out.flush()
            del out
        loaded: npt.NDArray[np.unsignedinteger] = np.load(path, mmap_mode="r")
        return loaded
    except (OSError, ValueError):
        return None


def _save_atomically(path: Path, matrix: npt.NDArray[Any]) -> None:
    """Write beside the target and rename, so a reader never sees half a file.

    A read-only or full cache directory costs speed on the next start, nothing else.
    """
    with (
        contextlib.suppress(OSError),
        atomic_write(path) as (fd, _),
        open(fd, "wb", closefd=False) as f,
    ):
        np.save(f, matrix)


@contextlib.contextmanager
def atomic_write(path: Path) -> Iterator[tuple[int, str]]:
    """A new file beside ``path`` (its descriptor and name) to write, renamed onto ``path``
    once the block ends, removed if it raises. It is locked for as long as this writer
    lives: the kernel drops the lock however the process ends (a kill too), so
    :func:`remove_stale_files` tells a dead writer's file from a live one's, in
    another process or on another host sharing the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".tmp")
    try:
        if LOCKABLE:
            with contextlib.suppress(OSError):  # a folder without locks: age alone tells there
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield fd, tmp
        if not LOCKABLE:  # Windows renames no open file (and there is no lock to keep)
            os.close(fd)
            fd = -1
        os.replace(tmp, path)
    finally:
        if fd >= 0:
            os.close(fd)
        Path(tmp).unlink(missing_ok=True)  # renamed: nothing there


# Files earlier versions kept in the cache folder and this one no longer reads: removed at
# start, as nothing else would (the model coach's openers, a file per puzzle's model).
RETIRED = ("model-opening-*.npy",)


def remove_stale_files(directory: Path | None = None) -> list[Path]:
    """Remove what writers killed mid-write left in the cache folder (a matrix's is tens of
    MiB, and nothing else would ever remove it), and the kinds of file no longer read
    (:data:`RETIRED`), and return them. Only temporary files that are surely dead: a live
    writer, in this process or another, holds its file locked; an unlocked one is removed
    once :data:`STALE_UNLOCKED` seconds old (from its last change), or where files cannot
    be locked (Windows, a share without locks) once :data:`STALE_UNLOCKABLE` old."""
    removed = []
    folder = directory or cache_directory()
    with contextlib.suppress(OSError):
        for tmp in folder.glob("*.tmp"):
            with contextlib.suppress(OSError):
                if _stale(tmp):
                    tmp.unlink()
                    removed.append(tmp)
        for pattern in RETIRED:
            for old in folder.glob(pattern):
                with contextlib.suppress(OSError):  # another process may remove it first
                    old.unlink()
                    removed.append(old)
    return removed


def _stale(tmp: Path) -> bool:
    age = time.time() - tmp.stat().st_mtime
    if age <= STALE_UNLOCKED:
        return False
    if not LOCKABLE:
        return age > STALE_UNLOCKABLE
    fd = os.open(tmp, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # a live writer holds it
    except OSError:  # a folder without locks: age alone tells
        return age > STALE_UNLOCKABLE
    finally:
        os.close(fd)
    return True
