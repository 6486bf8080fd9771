"""Which guesses a game accepts: the word list, and hard mode as the NYT game applies it.

Every refusal is a :class:`Verdict` carrying the game's own words (``Not in word list``,
``2nd letter must be A``, ``Guess must contain R``), never an exception: a person typed it.
The words come with their :class:`Reason`: the English sentence as a template with named
fields, and the values, so a front end can say it in its reader's language (the engine
speaks English only: ``message``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.pattern import GREEN, GREY, score, tiles
from engine.variants import Variant
from engine.words import LETTERS, LookAlikeError

Row = tuple[str, int]
"""One line of a board: the guess and the pattern it received."""

# Every sentence a refusal is made of, in English with named fields (the front ends' message
# catalogs hold them as they are: keep both in step, tests/test_i18n_coverage.py checks).
# A sentence per unit ("letter", "digit"), so each language can agree its words with it.
USE_ONLY = {"letter": "Use only letters {alphabet}", "digit": "Use only digits {alphabet}"}
NOT_ENOUGH = {"letter": "Not enough letters", "digit": "Not enough digits"}
TOO_MANY = {"letter": "Too many letters", "digit": "Too many digits"}
MUST_BE = {"letter": "{position} letter must be {letter}",
           "digit": "{position} digit must be {letter}"}  # fmt: skip
CANT_BE = {"letter": "{position} letter can't be {letter}",
           "digit": "{position} digit can't be {letter}"}  # fmt: skip
# By how many times (more than four: the last, with {count}).
MUST_CONTAIN = {1: "Guess must contain {letter}", 2: "Guess must contain {letter} twice",
                3: "Guess must contain {letter} three times",
                4: "Guess must contain {letter} four times",
                0: "Guess must contain {letter} {count} times"}  # fmt: skip
CAN_CONTAIN_ONLY = {1: "Guess can contain {letter} only once",
                    2: "Guess can contain {letter} only twice",
                    3: "Guess can contain {letter} only three times",
                    4: "Guess can contain {letter} only four times",
                    0: "Guess can contain {letter} only {count} times"}  # fmt: skip
CANT_CONTAIN = "Guess can't contain {letter}"
FIT_EVERY_CLUE = "Guess must fit every clue so far"
ON_BOARD = "Board {board}: {reason}"  # a multi-board game's refusal, naming its board
# How an alphabet is named inside USE_ONLY: "A to Z", "A to Z and Ñ", "A, B and C".
RANGE = "{first} to {last}"
LIST_END = "{items} and {last}"
TEMPLATES = (
    *USE_ONLY.values(), *NOT_ENOUGH.values(), *TOO_MANY.values(), *MUST_BE.values(),
    *CANT_BE.values(), *MUST_CONTAIN.values(), *CAN_CONTAIN_ONLY.values(), CANT_CONTAIN,
    FIT_EVERY_CLUE, ON_BOARD, RANGE, LIST_END,
)  # fmt: skip


@dataclass(frozen=True)
class Ordinal:
    """A tile's place as a refusal says it ("2nd letter"): the number and the unit it
    counts, since in some languages the ordinal agrees with the unit's gender."""

    number: int
    unit: str = "letter"

    def __str__(self) -> str:
        return ordinal(self.number)


@dataclass(frozen=True)
class Alphabet:
    """The alphabet a refusal names ("A to Z and Ñ"): worded by :func:`alphabet_words`."""

    letters: str

    def __str__(self) -> str:
        return alphabet_words(self.letters)


@dataclass(frozen=True)
class Reason:
    """Why a guess was refused, as data: ``template`` is the English sentence with named
    fields, ``params`` their values (text, a number, an :class:`Ordinal`, an
    :class:`Alphabet`, or another Reason: a board's). A front end translates the template
    and words each value in its reader's language; :attr:`message` is the English."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(**{key: str(value) for key, value in self.params.items()})

    def __str__(self) -> str:
        return self.message


def _unit_template(templates: Mapping[str, str], unit: str) -> str:
    """The sentence for ``unit``; a unit no sentence was written for says its name."""
    return templates.get(unit) or templates["letter"].replace("letter", unit)


def _times_template(templates: Mapping[int, str], count: int) -> str:
    return templates.get(count, templates[0])


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
    reason: Reason | None = None  # the message as data, for a front end to translate

    @property
    def allowed(self) -> bool:
        return self.message is None


def refused(word: str, reason: Reason) -> Verdict:
    return Verdict(word, reason.message, reason)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def normalise(text: str) -> str:
    """Trimmed and lower case: how a refusal echoes text that is no guess (a game over).
    A guess itself is read by :meth:`Variant.normalise`, which also folds and checks."""
    return text.strip().lower()


# Capitals that str.upper() spells in two letters: a tile holds one letter, and so does a
# message that names it.
CAPITALS = {"ß": "ẞ"}  # the capital sharp s (Unicode 5.1, German orthography since 2017)


def upper(letter: str) -> str:
    """A letter as tiles and messages show it: its capital, one letter for one (``ß`` is
    ``ẞ``, not ``SS``); a letter whose capital would be longer stays as it is."""
    shown = CAPITALS.get(letter) or letter.upper()
    return shown if len(shown) == len(letter) else letter


def shout(word: str) -> str:
    """A word in capitals as boards and messages show it, a letter for a letter: ``AUẞEN``,
    never ``AUSSEN`` (six letters in a row of five)."""
    return "".join(map(upper, word))


def alphabet_words(alphabet: str) -> str:
    """The alphabet as a message names it: ``A to Z``, ``A to Z and Ñ``, ``A, B and C``."""
    return listed(alphabet_parts(alphabet), lambda a, b: RANGE.format(first=a, last=b),
                  lambda items, end: LIST_END.format(items=items, last=end))  # fmt: skip


def alphabet_parts(alphabet: str) -> list[str | tuple[str, str]]:
    """The alphabet as a message names it, in parts: ranges (first, last) and single
    letters, as shown (upper case)."""
    first, last = alphabet[0], alphabet[-1]
    if ord(last) - ord(first) + 1 == len(alphabet) and alphabet == "".join(sorted(alphabet)):
        return [(upper(first), upper(last))]
    extra: list[str | tuple[str, str]] = [upper(ch) for ch in alphabet if ch not in LETTERS]
    if set(LETTERS) <= set(alphabet):
        return [("A", "Z"), *extra]
    return [upper(ch) for ch in alphabet]


def listed(
    parts: Sequence[str | tuple[str, str]], span: Callable[[str, str], str],
    end: Callable[[str, str], str],
) -> str:  # fmt: skip
    """Parts of an alphabet in words: each range by ``span``, the last joined by ``end``."""
    items = [p if isinstance(p, str) else span(*p) for p in parts]
    return items[0] if len(items) == 1 else end(", ".join(items[:-1]), items[-1])


def too_many(unit: str) -> Reason:
    return Reason(_unit_template(TOO_MANY, unit))


def shape_reason(word: str, variant: Variant) -> Reason | None:
    """Why ``word`` cannot be a guess of this variant at all (alphabet or length), or None."""
    if any(ch not in variant.alphabet for ch in word):
        return Reason(_unit_template(USE_ONLY, variant.unit),
                      {"alphabet": Alphabet(variant.alphabet)})  # fmt: skip
    if len(word) < variant.length:
        return Reason(_unit_template(NOT_ENOUGH, variant.unit))
    if len(word) > variant.length:
        return too_many(variant.unit)
    return None


def shape_problem(word: str, variant: Variant) -> str | None:
    """A message if ``word`` cannot be a guess of this variant at all (alphabet or length)."""
    reason = shape_reason(word, variant)
    return None if reason is None else reason.message


def check_guess(
    variant: Variant, text: str, history: Sequence[Row] = (), mode: Mode = Mode.NORMAL
) -> Verdict:
    """Whether the game accepts ``text`` after ``history``, in the order the game checks:
    shape, word list, then the mode's rule."""
    try:
        word = variant.normalise(text)
    except LookAlikeError as exc:
        return refused(normalise(text)[: 2 * variant.length], Reason(exc.template, exc.params))
    problem = shape_reason(word, variant)
    if problem is None and word not in variant.guesses:
        problem = Reason(variant.not_in_list)
    if problem is None and mode is not Mode.NORMAL:
        problem = hard_mode_reason(word, history, variant.unit)
        if problem is None and mode is Mode.STRICT:
            problem = strict_mode_reason(word, history, variant.unit)
    if problem is None:
        return Verdict(word)
    if len(word) > 2 * variant.length:
        word = word[: 2 * variant.length]  # never echo a whole pasted essay back
    return refused(word, problem)


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


def hard_mode_reason(word: str, history: Sequence[Row], unit: str = "letter") -> Reason | None:
    """The NYT hard-mode rule, greens first: ``2nd letter must be A``, ``Guess must contain R``."""
    greens, minimum = revealed(history, len(word))
    for i in sorted(greens):
        if word[i] != greens[i]:
            where = Ordinal(i + 1, unit)
            return Reason(_unit_template(MUST_BE, unit), {"position": where,
                                                          "letter": upper(greens[i])})  # fmt: skip
    counts = Counter(word)
    for letter, needed in minimum.items():
        if counts[letter] < needed:
            return Reason(_times_template(MUST_CONTAIN, needed),
                          {"letter": upper(letter), "count": needed})  # fmt: skip
    return None


def hard_mode_problem(word: str, history: Sequence[Row], unit: str = "letter") -> str | None:
    """:func:`hard_mode_reason` in English."""
    reason = hard_mode_reason(word, history, unit)
    return None if reason is None else reason.message


def strict_mode_reason(word: str, history: Sequence[Row], unit: str = "letter") -> Reason | None:
    """Beyond hard mode: a guess must fit every clue, so yellows move and greys stay out."""
    problem = hard_mode_reason(word, history, unit)
    if problem is not None:
        return problem
    counts = Counter(word)
    for guess, pattern in history:
        if score(guess, word) == pattern:
            continue
        row = tiles(pattern, len(word))
        for i, (g, tile) in enumerate(zip(guess, row, strict=True)):
            if tile != GREEN and word[i] == g:
                return Reason(_unit_template(CANT_BE, unit),
                              {"position": Ordinal(i + 1, unit), "letter": upper(g)})  # fmt: skip
        for g, tile in zip(guess, row, strict=True):
            if tile == GREY:
                allowed = sum(1 for h, t in zip(guess, row, strict=True) if h == g and t != GREY)
                if counts[g] > allowed:
                    if allowed == 0:
                        return Reason(CANT_CONTAIN, {"letter": upper(g)})
                    return Reason(_times_template(CAN_CONTAIN_ONLY, allowed),
                                  {"letter": upper(g), "count": allowed})  # fmt: skip
        return Reason(FIT_EVERY_CLUE)
    return None


def strict_mode_problem(word: str, history: Sequence[Row], unit: str = "letter") -> str | None:
    """:func:`strict_mode_reason` in English."""
    reason = strict_mode_reason(word, history, unit)
    return None if reason is None else reason.message


def is_consistent(word: str, history: Sequence[Row]) -> bool:
    """Whether ``word`` could be the answer given every row of feedback."""
    return all(score(guess, word) == pattern for guess, pattern in history)
