"""The members of the Wordle family the engine knows, and where their words come from.

A :class:`Variant` is data: language, word length, alphabet, guess limit, the two lists
(answers, allowed guesses), how typed letters fold into playing ones, how words are spelled
on the board and the keyboard's rows. Look one up with :func:`get_variant`; lists are read
on first use and shared by every caller in the process.

Beside the built-in games (``wordle`` and its NYT siblings, ``primel``), every language of
``wordlists/languages.json`` brings one variant per length, ``wordle-<lang>-<length>``
(``wordle-es-6``), read from ``wordlists/<lang>/<length>-answers.txt`` and
``-allowed.txt`` and the optional ``-display.tsv`` (``playform<TAB>display``). English five
letters stays ``wordle`` (:func:`variant_name`). A :class:`Registry` reads one such
directory; the module's functions use the shipped one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.words import (
    DIGITS,
    LETTERS,
    WordList,
    WordListError,
    load_wordlist,
    normalise,
    require_subset,
)
from wordlists import DIRECTORY as WORDLISTS

if TYPE_CHECKING:
    import numpy.typing as npt

    from engine.stopping import Stop

QWERTY = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
NO_LANGUAGE = "zxx"  # BCP 47 for "no linguistic content": Primel's numbers


@dataclass(frozen=True, eq=False)
class Variant:
    """One game of the family: its rules' numbers and its vocabulary."""

    name: str
    title: str
    length: int
    alphabet: str
    max_guesses: int
    answers: WordList
    guesses: WordList
    unit: str = "letter"  # what a tile holds, for messages: "2nd letter must be A"
    not_in_list: str = "Not in word list"
    language: str = "en"  # BCP 47 primary tag of the words (``zxx``: none, Primel)
    display: Mapping[str, str] = field(default_factory=dict)  # playform -> board spelling
    fold: Mapping[str, str] = field(default_factory=dict)  # typed letter -> playing letter
    keyboard: tuple[str, ...] = QWERTY  # rows, top first

    def __post_init__(self) -> None:
        for words in (self.answers, self.guesses):
            if (words.length, words.alphabet) != (self.length, self.alphabet):
                raise ValueError(f"{words.source} does not match variant {self.name}")
        require_subset(self.answers, self.guesses)
        if any(letter not in self.alphabet for into in self.fold.values() for letter in into):
            raise ValueError(f"variant {self.name}: a fold maps to a letter outside its alphabet")

    def normalise(self, text: str) -> str:
        """Typed text in playing form: trimmed, NFC, lower case, folded; raises
        :class:`~engine.words.LookAlikeError` for a letter of another script."""
        return normalise(text, self.alphabet, self.fold)

    def shown(self, word: str) -> str:
        """How ``word`` (playing form) is spelled on the board."""
        return self.display.get(word, word)

    @cached_property
    def keeps_matrix(self) -> bool:
        """Whether the solvers read a cached matrix (small lists) or build the patterns they
        need from the words (large lists, see ``engine.matrix.MATRIX_BYTES_LIMIT``)."""
        from engine.matrix import keeps_matrix

        return keeps_matrix(self.guesses, self.answers)

    @cached_property
    def matrix(self) -> npt.NDArray[np.unsignedinteger]:
        """The guesses x answers pattern matrix, from the disk cache when it is there (a
        large list's is gigabytes: the solvers never ask for it, see :attr:`keeps_matrix`)."""
        from engine.matrix import pattern_matrix

        return pattern_matrix(self.guesses, self.answers)

    @cached_property
    def matrix_by_answer(self) -> npt.NDArray[np.unsignedinteger]:
        """The matrix transposed, ``(answers, guesses)``, cached and mapped like it."""
        from engine.matrix import answer_major

        return answer_major(self.guesses, self.answers, self.matrix)

    def build_matrices(self, stop: Stop | None = None) -> None:
        """Have both matrices now, read from the cache or built into it, asking ``stop``
        between blocks (a build takes up to tens of seconds: :mod:`engine.stopping`). A list
        that keeps no matrix has none to build: its search builds what it reads."""
        from engine.matrix import answer_major, pattern_matrix

        if not self.keeps_matrix:
            return
        # What the cached properties above would hold, filled here with a stop to ask
        if "matrix" not in self.__dict__:
            self.__dict__["matrix"] = pattern_matrix(self.guesses, self.answers, stop=stop)
        if "matrix_by_answer" not in self.__dict__:
            self.__dict__["matrix_by_answer"] = answer_major(
                self.guesses, self.answers, self.matrix, stop=stop
            )

    def __repr__(self) -> str:
        return f"Variant({self.name!r}, {len(self.answers)} answers, {len(self.guesses)} guesses)"


def five_digit_primes() -> list[str]:
    """Primel's vocabulary: every prime from 10007 to 99991, by a sieve of Eratosthenes."""
    limit = 100_000
    sieve = np.ones(limit, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(limit**0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = False
    return [str(n) for n in np.flatnonzero(sieve) if n >= 10_000]


def _wordle(
    name: str, allowed_file: str, title: str, answers_file: str = "wordle-answers.txt"
) -> Variant:
    answers = load_wordlist(WORDLISTS / answers_file, 5, LETTERS)
    guesses = load_wordlist(WORDLISTS / allowed_file, 5, LETTERS)
    return Variant(name, title, 5, LETTERS, 6, answers, guesses)


def _primel() -> Variant:
    primes = WordList.from_words("primel", five_digit_primes(), 5, DIGITS, source="<primes>")
    return Variant(
        "primel", "Primel", 5, DIGITS, 6, primes, primes, unit="digit",
        not_in_list="Not a prime number", language=NO_LANGUAGE, keyboard=("1234567890",),
    )  # fmt: skip


_BUILT_IN = {
    # The original game's lists: every benchmark and every game played in the bot.
    "wordle": lambda: _wordle("wordle", "wordle-allowed.txt", "Wordle"),
    # The same answers with the NYT's later, longer allowed list: hints and coaching accept it
    # so that no guess a player really made in the NYT game is refused.
    "wordle-nyt": lambda: _wordle("wordle-nyt", "wordle-nyt-allowed.txt", "Wordle (NYT edition)"),
    # The NYT-era answer list (3,158) on the same guesses: benchmarks of the whole NYT game.
    "wordle-nyt-era": lambda: _wordle(
        "wordle-nyt-era",
        "wordle-nyt-allowed.txt",
        "Wordle (NYT-era answers)",
        "wordle-nyt-answers.txt",
    ),
    "primel": _primel,
}
MAX_GUESSES = 6  # every list of languages.json: six guesses at any length, as the clones


class UnknownVariantError(ValueError):
    pass


@dataclass(frozen=True)
class Language:
    """One entry of ``languages.json`` (see the brief in ``wordlists/README.md``)."""

    code: str  # BCP 47 primary tag
    name: str  # in the language itself
    english_name: str
    alphabet: str
    fold: Mapping[str, str]
    keyboard: tuple[str, ...]
    lengths: tuple[int, ...]
    clone: str = ""  # the language's best-known clone, whose rules the lists follow
    accents: str = ""  # one sentence on the accent rule

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Language:
        return cls(
            str(data["code"]),
            str(data["name"]),
            str(data.get("english_name", data["name"])),
            str(data["alphabet"]),
            {str(k): str(v) for k, v in dict(data.get("fold") or {}).items()},
            tuple(str(row) for row in data.get("keyboard") or QWERTY),
            tuple(int(n) for n in data.get("lengths") or ()),
            str(data.get("clone", "")),
            str(data.get("accents", "")),
        )


def variant_name(language: str, length: int) -> str:
    """The variant of a language and length: ``wordle`` for English five letters (the
    original game's lists), else ``wordle-<lang>-<length>``."""
    return "wordle" if (language, length) == ("en", 5) else f"wordle-{language}-{length}"


class Registry:
    """Every variant of one word-list directory: the built-in games, then one per language
    and length whose answers file is there. Names are known at once (a small JSON file and a
    few file checks); a variant's lists are read when it is first asked for."""

    def __init__(self, directory: Path = WORDLISTS) -> None:
        self.directory = directory
        self._variants: dict[str, Variant] = {}
        self._lock = threading.Lock()  # one Variant per name: solvers' caches key on it

    @cached_property
    def languages(self) -> dict[str, Language]:
        """The languages of ``languages.json`` by code; none where the file is absent."""
        path = self.directory / "languages.json"
        if not path.is_file():
            return {}
        entries = json.loads(path.read_text(encoding="utf-8"))
        return {lang.code: lang for lang in map(Language.from_json, entries) if lang.alphabet}

    @cached_property
    def _listed(self) -> dict[str, tuple[Language, int]]:
        found = {}
        for lang in self.languages.values():
            for length in lang.lengths:
                name = variant_name(lang.code, length)
                if name not in _BUILT_IN and self._path(lang.code, length, "answers.txt").is_file():
                    found[name] = (lang, length)
        return found

    @cached_property
    def names(self) -> tuple[str, ...]:
        return (*_BUILT_IN, *self._listed)

    def _path(self, code: str, length: int, suffix: str) -> Path:
        return self.directory / code / f"{length}-{suffix}"

    def get(self, name: str) -> Variant:
        """The variant called ``name`` (one of :attr:`names`)."""
        with self._lock:
            if name not in self._variants:
                if name in _BUILT_IN:
                    self._variants[name] = _BUILT_IN[name]()
                elif name in self._listed:
                    self._variants[name] = self._load(*self._listed[name])
                else:
                    raise UnknownVariantError(
                        f"Unknown variant {name!r}; choose one of {', '.join(self.names)}"
                    )
            return self._variants[name]

    def _load(self, lang: Language, length: int) -> Variant:
        name = variant_name(lang.code, length)
        answers, guesses = (
            load_wordlist(self._path(lang.code, length, f"{kind}.txt"), length, lang.alphabet)
            for kind in ("answers", "allowed")
        )
        display = self._display(lang.code, length, guesses)
        where = "" if lang.code == "en" else f"{lang.english_name}, "
        title = f"Wordle ({where}{length} letters)"
        return Variant(name, title, length, lang.alphabet, MAX_GUESSES, answers, guesses,
                       language=lang.code, display=display, fold=lang.fold,
                       keyboard=lang.keyboard)  # fmt: skip

    def _display(self, code: str, length: int, guesses: WordList) -> dict[str, str]:
        """Board spellings that differ from the playing form (Termo's accents)."""
        path = self._path(code, length, "display.tsv")
        if not path.is_file():
            return {}
        display = {}
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            play, _, shown = line.partition("\t")
            if play not in guesses or len(shown) != len(play):
                raise WordListError(f"{path}:{line_no}: {line!r} is not playform<TAB>display "
                                    "of an allowed word, letter for letter")  # fmt: skip
            display[play] = shown
        return display


REGISTRY = Registry()
VARIANT_NAMES: tuple[str, ...] = REGISTRY.names


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (see :func:`variant_names`)."""
    return REGISTRY.get(name)


def is_language_list(name: str) -> bool:
    """Whether ``name`` is one of the word lists of ``languages.json`` (``wordle-es-6``), not
    a built-in game."""
    return name in REGISTRY.names and name not in _BUILT_IN


def variant_names() -> tuple[str, ...]:
    """Every variant's name, built-in games first (:data:`VARIANT_NAMES` as the process
    started; this follows a registry installed later, as tests do)."""
    return REGISTRY.names
