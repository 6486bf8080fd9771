"""Which guesses a game accepts: the word list, and hard mode as the NYT game applies it.

Every refusal is a :class:`Verdict` carrying the game's own words (``Not in word list``,
``2nd letter must be A``, ``Guess must contain R``), never an exception: a person typed it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.pattern import GREEN, GREY, score, tiles
from engine.variants import Variant
from engine.words import LETTERS, LookAlikeError

Row = tuple[str, int]
"""One line of a board: the guess and the pattern it received."""

_TIMES = {1: "", 2: " twice", 3: " three times", 4: " four times"}


class Mode(StrEnum):
    """How strictly a guess must follow the clues so far.

    ``hard`` is the NYT rule: greens stay put and revealed letters are reused, as often as
    they were revealed. ``strict`` asks more: every guess must be a possible answer given all
    feedback (how Wordle Boss and Wordlegames.jl read hard mode).
    """

    NORMAL = "normal"
    HARD = "hard"
    STRICT = "strict"


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking a guess: the normalised word, and why it was refused if it was."""

    word: str
    message: str | None = None

    @property
    def allowed(self) -> bool:
        return self.message is None


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def normalise(text: str) -> str:
    """Trimmed and lower case: how a refusal echoes text that is no guess (a game over).
    A guess itself is read by :meth:`Variant.normalise`, which also folds and checks."""
    return text.strip().lower()


def upper(letter: str) -> str:
    """A letter as messages show it: upper case where that is one letter (``ß`` stays)."""
    shown = letter.upper()
    return shown if len(shown) == 1 else letter


def shout(word: str) -> str:
    """A word in upper case as boards and messages show it (``ß`` stays ``ß``)."""
    return "".join(map(upper, word))


def alphabet_words(alphabet: str) -> str:
    """The alphabet as a message names it: ``A to Z``, ``A to Z and Ñ``, ``A, B and C``."""
    first, last = alphabet[0], alphabet[-1]
    if ord(last) - ord(first) + 1 == len(alphabet) and alphabet == "".join(sorted(alphabet)):
        return f"{upper(first)} to {upper(last)}"
    extra = [upper(ch) for ch in alphabet if ch not in LETTERS]
    if set(LETTERS) <= set(alphabet):
        return _listed(["A to Z", *extra])
    return _listed([upper(ch) for ch in alphabet])


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def shape_problem(word: str, variant: Variant) -> str | None:
    """A message if ``word`` cannot be a guess of this variant at all (alphabet or length)."""
    if any(ch not in variant.alphabet for ch in word):
        return f"Use only {variant.unit}s {alphabet_words(variant.alphabet)}"
    if len(word) < variant.length:
        return f"Not enough {variant.unit}s"
    if len(word) > variant.length:
        return f"Too many {variant.unit}s"
    return None


def check_guess(
    variant: Variant, text: str, history: Sequence[Row] = (), mode: Mode = Mode.NORMAL
) -> Verdict:
    """Whether the game accepts ``text`` after ``history``, in the order the game checks:
    shape, word list, then the mode's rule."""
    try:
        word = variant.normalise(text)
    except LookAlikeError as exc:
        return Verdict(normalise(text)[: 2 * variant.length], str(exc))
    problem = shape_problem(word, variant)
    if problem is None and word not in variant.guesses:
        problem = variant.not_in_list
    if problem is None and mode is not Mode.NORMAL:
        problem = hard_mode_problem(word, history, variant.unit)
        if problem is None and mode is Mode.STRICT:
            problem = strict_mode_problem(word, history, variant.unit)
    if problem is not None and len(word) > 2 * variant.length:
        word = word[: 2 * variant.length]  # never echo a whole pasted essay back
    return Verdict(word, problem)


def revealed(history: Sequence[Row], length: int) -> tuple[dict[int, str], dict[str, int]]:
    """What feedback so far reveals: green letters by position, and for each letter the most
    times one row showed it (green or yellow), in the order the letters were first shown."""
    greens: dict[int, str] = {}
    minimum: dict[str, int] = {}
    for guess, pattern in history:
        row = tiles(pattern, length)
        shown = Counter(g for g, tile in zip(guess, row, strict=True) if tile != GREY)
        for i, (g, tile) in enumerate(zip(guess, row, strict=True)):
            if tile == GREEN:
                greens.setdefault(i, g)
            if tile != GREY:
                minimum[g] = max(minimum.get(g, 0), shown[g])
    return greens, minimum


def hard_mode_problem(word: str, history: Sequence[Row], unit: str = "letter") -> str | None:
    """The NYT hard-mode rule, greens first: ``2nd letter must be A``, ``Guess must contain R``."""
    greens, minimum = revealed(history, len(word))
    for i in sorted(greens):
        if word[i] != greens[i]:
            return f"{ordinal(i + 1)} {unit} must be {upper(greens[i])}"
    counts = Counter(word)
    for letter, needed in minimum.items():
        if counts[letter] < needed:
            times = _TIMES.get(needed, f" {needed} times")
            return f"Guess must contain {upper(letter)}{times}"
    return None


def strict_mode_problem(word: str, history: Sequence[Row], unit: str = "letter") -> str | None:
    """Beyond hard mode: a guess must fit every clue, so yellows move and greys stay out."""
    problem = hard_mode_problem(word, history, unit)
    if problem is not None:
        return problem
    counts = Counter(word)
    for guess, pattern in history:
        if score(guess, word) == pattern:
            continue
        row = tiles(pattern, len(word))
        for i, (g, tile) in enumerate(zip(guess, row, strict=True)):
            if tile != GREEN and word[i] == g:
                return f"{ordinal(i + 1)} {unit} can't be {upper(g)}"
        for g, tile in zip(guess, row, strict=True):
            if tile == GREY:
                allowed = sum(1 for h, t in zip(guess, row, strict=True) if h == g and t != GREY)
                if counts[g] > allowed:
                    if allowed == 0:
                        return f"Guess can't contain {upper(g)}"
                    times = _TIMES.get(allowed, f" {allowed} times") or " once"
                    return f"Guess can contain {upper(g)} only{times}"
        return "Guess must fit every clue so far"
    return None


def is_consistent(word: str, history: Sequence[Row]) -> bool:
    """Whether ``word`` could be the answer given every row of feedback."""
    return all(score(guess, word) == pattern for guess, pattern in history)
