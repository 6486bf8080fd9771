"""Word lists: loading, validation, and the uint8 encoding the engine computes on.

A list is read once, checked (length, alphabet, duplicates) and kept as a tuple of words
plus an ``(n, length)`` ``uint8`` array of alphabet indices, the form every vectorised
computation in the engine uses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"


class WordListError(ValueError):
    """A word list breaks a rule; the message names the file and line."""


@dataclass(frozen=True, eq=False)
class WordList:
    """An ordered list of distinct words of one length over one alphabet."""

    name: str
    words: tuple[str, ...]
    length: int
    alphabet: str
    source: str

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.words)

    @cached_property
    def index(self) -> dict[str, int]:
        """Position of each word, for O(1) look-ups."""
        return {word: i for i, word in enumerate(self.words)}

    @cached_property
    def array(self) -> npt.NDArray[np.uint8]:
        """The words as alphabet indices, shape ``(len(self), length)``."""
        return encode(self.words, self.alphabet, self.length)

    @cached_property
    def sha256(self) -> str:
        """Checksum of the canonical text (one word a line), the key of every disk cache."""
        text = "".join(word + "\n" for word in self.words)
        return hashlib.sha256(text.encode("ascii")).hexdigest()

    @classmethod
    def from_words(
        cls, name: str, words: Iterable[str], length: int, alphabet: str, source: str = ""
    ) -> WordList:
        """Validate ``words`` and build a list; errors name ``source`` and the 1-based line."""
        source = source or f"<{name}>"
        seen: dict[str, int] = {}
        for line_no, word in enumerate(words, start=1):
            where = f"{source}:{line_no}"
            if len(word) != length:
                found = len(word)
                raise WordListError(f"{where}: {word!r} has {found} characters, expected {length}")
            bad = next((ch for ch in word if ch not in alphabet), None)
            if bad is not None:
                raise WordListError(f"{where}: {word!r} contains {bad!r}, not in {alphabet!r}")
            if word in seen:
                raise WordListError(f"{where}: {word!r} repeats line {seen[word]}")
            seen[word] = line_no
        return cls(name, tuple(seen), length, alphabet, source)


def load_wordlist(path: Path, length: int, alphabet: str, name: str | None = None) -> WordList:
    """Read a plain-text list, one word a line; a trailing newline is optional."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if lines and lines[-1] == "":
        lines.pop()
    return WordList.from_words(name or path.stem, lines, length, alphabet, source=str(path))


def require_subset(answers: WordList, guesses: WordList) -> None:
    """Every answer must be a legal guess, or a player could never type the word that wins."""
    for line_no, word in enumerate(answers.words, start=1):
        if word not in guesses:
            raise WordListError(
                f"{answers.source}:{line_no}: answer {word!r} is not in {guesses.source}"
            )


def encode(words: Iterable[str], alphabet: str, length: int) -> npt.NDArray[np.uint8]:
    """Words as an ``(n, length)`` array of indices into ``alphabet``."""
    table = np.full(128, 255, dtype=np.uint8)
    table[np.frombuffer(alphabet.encode("ascii"), dtype=np.uint8)] = np.arange(
        len(alphabet), dtype=np.uint8
    )
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    codes = table[raw].reshape(-1, length)
    if (codes == 255).any():
        raise ValueError(f"a word has a character outside {alphabet!r}")
    return codes
