"""The on-screen keyboard: which keys, in which rows, and what the guesses revealed of each.

A variant's keys come from its own data when the engine has them (the ``keyboard`` rows of
``wordlists/languages.json``, as ``Variant.keyboard``); otherwise from :data:`LAYOUTS`, the
usual layout of the variant's language (AZERTY in French, QWERTZ in German), QWERTY for the
rest. Either way the rows keep only letters of the variant's alphabet, and letters of the
alphabet that no row holds are added in a last row: no letter is ever missing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.variants import UnknownVariantError, get_variant

if TYPE_CHECKING:
    from bot.services import GameView

UNUSED, ABSENT, PRESENT, CORRECT = 0, 1, 2, 3  # a key's best knowledge, worst to best
STATUS = {"2": CORRECT, "1": PRESENT, "0": ABSENT}  # from a tile's pattern digit

QWERTY = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
# Each language's usual layout, as its clones draw it; a letter a variant of that language
# does not use (an accent its lists fold away) is left out by :func:`keys`.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "en": QWERTY,
    "es": ("qwertyuiop", "asdfghjklñ", "zxcvbnm"),  # Spanish: Ñ right of L
    "pt": ("qwertyuiop", "asdfghjklç", "zxcvbnm"),  # Portuguese: Ç right of L
    "fr": ("azertyuiop", "qsdfghjklm", "wxcvbn"),  # AZERTY
    "de": ("qwertzuiopü", "asdfghjklöä", "yxcvbnmß"),  # QWERTZ; ß ends the last row
    "it": QWERTY,  # Italian keyboards are QWERTY; accented vowels sit beside, unused here
    "pl": (*QWERTY, "ąćęłńóśźż"),  # Polish programmer's QWERTY: AltGr letters in a row
}
DIGITS = ("0123456789",)  # Primel


def language_of(variant: str) -> str:
    """The language of a variant by its name: ``wordle-es-6`` is ``es``; any other name
    (``wordle``, ``wordle-nyt``, ``absurdle``) is English."""
    parts = variant.split("-")
    if len(parts) == 3 and parts[0] == "wordle" and parts[2].isdigit():
        return parts[1]
    return "en"


def keys(rows: Sequence[str], alphabet: str | None = None) -> tuple[str, ...]:
    """``rows`` as a keyboard of ``alphabet``: letters not in it left out, and the letters
    of it no row holds (in the alphabet's order) added as a last row. ``None`` keeps the
    rows as they are."""
    if alphabet is None:
        return tuple(rows)
    kept = [row for row in ("".join(k for k in row if k in alphabet) for row in rows) if row]
    placed = set("".join(kept))
    missing = "".join(letter for letter in alphabet if letter not in placed)
    return (*kept, missing) if missing else tuple(kept)


def layout(variant: str) -> tuple[str, ...]:
    """The keyboard rows of ``variant``: its own rows if the engine has them, else its
    language's usual layout, with every letter of its alphabet (:func:`keys`)."""
    if variant == "primel":
        return DIGITS
    try:
        found = get_variant(variant)
    except UnknownVariantError:  # a name the engine does not know: its language's layout
        return LAYOUTS.get(language_of(variant), QWERTY)
    rows = getattr(found, "keyboard", None) or LAYOUTS.get(language_of(variant), QWERTY)
    return keys(rows, found.alphabet)


def key_states(game: GameView, rows: Sequence[str] | None = None) -> list[list[tuple[str, int]]]:
    """Each key of ``rows`` (the game's own layout by default) with what the guesses
    revealed about it: correct beats present beats absent. A guessed letter with no key
    of its own (an accented letter the variant reads as its base letter) counts for the
    key of its base letter.

    A multi-board game has one keyboard for several answers, so a key shows only what holds
    on every unsolved board (every board once all are solved): absent where it is absent on
    each, right place where it is in the right place on each, elsewhere where it is in the
    word on each; a letter in some words and not in others is shown as not yet decided (as
    unused), since no single state is true of it."""
    rows = layout(game.variant) if rows is None else rows
    on_keys = set("".join(rows))
    if game.boards is None:
        known = _revealed(game.rows, on_keys)
    else:
        open_boards = [b for b in game.boards if not _solved(b)] or game.boards
        each = [_revealed(board, on_keys) for board in open_boards]
        letters = set().union(*each) if each else set()
        known = {key: _on_every([k.get(key, UNUSED) for k in each]) for key in letters}
    return [[(key, known.get(key, UNUSED)) for key in row] for row in rows]


def _revealed(played: Sequence[tuple[str, str]], on_keys: set[str]) -> dict[str, int]:
    """Each key's best knowledge from one board's rows."""
    known: dict[str, int] = {}
    for guess, digits in played:
        for letter, tile in zip(guess, digits, strict=True):
            key = letter if letter in on_keys else base_letter(letter)
            known[key] = max(known.get(key, UNUSED), STATUS[tile])
    return known


def _solved(board: Sequence[tuple[str, str]]) -> bool:
    return bool(board) and set(board[-1][1]) == {"2"}


def _on_every(states: Sequence[int]) -> int:
    """What holds of a key on every board, from its state on each."""
    if all(s == ABSENT for s in states):
        return ABSENT
    if all(s >= PRESENT for s in states):
        return min(states)  # right place only where it is on every board
    return UNUSED  # untried somewhere, or in some words and not in others


def base_letter(letter: str) -> str:
    """A letter without its accents: é is e, ñ is n (ł, which has no decomposition, stays)."""
    return unicodedata.normalize("NFD", letter)[0]
