"""Word lists: loading, validation, the uint8 encoding the engine computes on, and how
typed text becomes a word of a list.

A list is read once, checked (length, alphabet, duplicates) and kept as a tuple of words
plus an ``(n, length)`` ``uint8`` array of alphabet indices, the form every vectorised
computation in the engine uses. An alphabet is any string of distinct Unicode characters
(at most 255: ``a``-``z``, ``ñ``, ``ß``, ``ł``, digits...).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Mapping
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
        return hashlib.sha256(text.encode("utf-8")).hexdigest()  # ASCII lists: as before

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
    if len(alphabet) > 255 or len(set(alphabet)) != len(alphabet):
        raise ValueError(f"an alphabet holds up to 255 distinct characters, not {alphabet!r}")
    points = np.frombuffer(alphabet.encode("utf-32-le"), dtype=np.uint32)
    order = np.argsort(points)
    raw = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32)
    if len(raw) % length:
        raise ValueError(f"a word is not {length} characters long")
    found = np.minimum(np.searchsorted(points[order], raw), len(points) - 1)
    if (points[order][found] != raw).any():
        raise ValueError(f"a word has a character outside {alphabet!r}")
    codes: npt.NDArray[np.uint8] = order[found].astype(np.uint8).reshape(-1, length)
    return codes


# The refusal of a look-alike character, by what the character is, a digit or a letter,
# whatever the game (English, with named fields: a front end translates it, see
# engine.rules.Reason).
LOOK_ALIKE = {
    "digit": "{character} ({script}) looks like a digit; type it with your keyboard's digits",
    "Latin letter": "{character} ({script}) looks like a Latin letter; type it with your "
    "keyboard's Latin letters",
}


class LookAlikeError(ValueError):
    """Typed text holds a character of another script that looks like one of the game's
    (a Cyrillic or Greek letter, a fullwidth one); the message names it, for the player.
    ``template`` and ``params`` are the message as data, for a front end to translate."""

    def __init__(self, template: str, **params: str) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


_SCRIPTS_OF_OWN_KIND = {"LATIN", "DIGIT"}  # the game's own kinds: refused by shape, not here


def normalise(text: str, alphabet: str, fold: Mapping[str, str] | None = None) -> str:
    """Typed text as a word in playing form: trimmed, NFC, lower case, folded.

    Lower case keeps a letter the alphabet holds (German ``ß``) and casefolds the others
    (``ß`` becomes ``ss`` where the alphabet has no ``ß``); ``fold`` then maps typed letters
    to playing letters (Termo's ``ç`` to ``c``). A character that only looks like one of the
    game's (another script, fullwidth or mathematical forms) raises :class:`LookAlikeError`;
    anything else outside the alphabet is left for the caller's shape check to name.
    """
    fold = fold or {}
    word = []
    for ch in unicodedata.normalize("NFC", text.strip()):
        lower = ch.lower()
        if lower not in alphabet and lower not in fold:
            folded = ch.casefold()
            if all(c in alphabet or c in fold for c in folded):
                lower = folded
        word.append("".join(fold.get(c, c) for c in lower))
    result = unicodedata.normalize("NFC", "".join(word))
    for ch in result:
        if ch not in alphabet:
            kind = _look_alike_kind(ch)
            if kind is not None:  # named for what it is: a fullwidth 1 is a digit in Wordle too
                own = "digit" if ch.isdigit() else "Latin letter"
                raise LookAlikeError(LOOK_ALIKE[own], character=repr(ch), script=kind)
    return result


def _look_alike_kind(ch: str) -> str | None:
    """The script or form of a letter or digit from outside the game's kinds, else None."""
    if not ch.isalnum():
        return None
    name = unicodedata.name(ch, "")
    kind = name.split(" ", 1)[0]
    if not kind or kind in _SCRIPTS_OF_OWN_KIND or ch.isascii():
        return None
    return kind.lower() if kind in {"FULLWIDTH", "MATHEMATICAL"} else kind.title()
