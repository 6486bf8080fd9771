"""The members of the Wordle family the engine knows, and where their words come from.

A :class:`Variant` is data: word length, alphabet, guess limit and the two lists (answers,
allowed guesses). Look one up with :func:`get_variant`; lists are read on first use and
shared by every caller in the process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

import numpy as np

from engine.words import DIGITS, LETTERS, WordList, load_wordlist, require_subset
from wordlists import DIRECTORY as WORDLISTS

if TYPE_CHECKING:
    import numpy.typing as npt


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

    def __post_init__(self) -> None:
        for words in (self.answers, self.guesses):
            if (words.length, words.alphabet) != (self.length, self.alphabet):
                raise ValueError(f"{words.source} does not match variant {self.name}")
        require_subset(self.answers, self.guesses)

    @cached_property
    def matrix(self) -> npt.NDArray[np.unsignedinteger]:
        """The guesses x answers pattern matrix, from the disk cache when it is there."""
        from engine.matrix import pattern_matrix

        return pattern_matrix(self.guesses, self.answers)

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
        not_in_list="Not a prime number",
    )  # fmt: skip


_FACTORIES = {
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

VARIANT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


class UnknownVariantError(ValueError):
    pass


@cache
def get_variant(name: str) -> Variant:
    """The variant called ``name`` (see :data:`VARIANT_NAMES`)."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise UnknownVariantError(
            f"Unknown variant {name!r}; choose one of {', '.join(VARIANT_NAMES)}"
        ) from None
    return factory()
