"""The engine's refusals in the reader's language.

The engine speaks English only, and says why a guess was refused as data as well
(:class:`engine.rules.Reason`: its English sentence as a template with named fields, and the
values). Here the template is looked up in the catalog and each value worded in the current
locale: a tile's place by :func:`bot.i18n.ordinal`, numbers by :func:`bot.i18n.format_number`,
an alphabet as "A to Z and Ñ" in the catalog's words, a board's refusal inside its own.

Every sentence the engine can write is marked below, so the catalogs hold them
(tests/test_i18n_coverage.py checks the two lists stay in step).
"""

from __future__ import annotations

from bot.i18n import N_, _, format_number, ordinal
from engine.rules import Alphabet, Ordinal, Reason, alphabet_parts, listed

TEMPLATES = (
    N_("Use only letters {alphabet}"),
    N_("Use only digits {alphabet}"),
    N_("Not enough letters"),
    N_("Not enough digits"),
    N_("Too many letters"),
    N_("Too many digits"),
    # Translators: {position} is an ordinal ("2nd"), {letter} a letter of the game.
    N_("{position} letter must be {letter}"),
    # Translators: Primel; {position} is an ordinal ("2nd"), {letter} a digit of the game.
    N_("{position} digit must be {letter}"),
    N_("{position} letter can't be {letter}"),
    N_("{position} digit can't be {letter}"),
    N_("Guess must contain {letter}"),
    N_("Guess must contain {letter} twice"),
    N_("Guess must contain {letter} three times"),
    N_("Guess must contain {letter} four times"),
    N_("Guess must contain {letter} {count} times"),
    N_("Guess can contain {letter} only once"),
    N_("Guess can contain {letter} only twice"),
    N_("Guess can contain {letter} only three times"),
    N_("Guess can contain {letter} only four times"),
    N_("Guess can contain {letter} only {count} times"),
    N_("Guess can't contain {letter}"),
    N_("Guess must fit every clue so far"),
    # Translators: a multi-board game's refusal; {reason} is one of the sentences above.
    N_("Board {board}: {reason}"),
    # Translators: a range of an alphabet, inside "Use only letters {alphabet}".
    N_("{first} to {last}"),
    # Translators: the end of a list, inside "Use only letters {alphabet}": "A to Z and Ñ".
    N_("{items} and {last}"),
    # Translators: {character} is the typed character in quotes, {script} the name of its
    # script in English as Unicode names it (Cyrillic, Greek, fullwidth).
    N_("{character} ({script}) looks like a digit; type it with your keyboard's digits"),
    N_(
        "{character} ({script}) looks like a Latin letter; type it with your keyboard's "
        "Latin letters"
    ),
    # The word lists' own refusal (engine.variants: Variant.not_in_list).
    N_("Not in word list"),
    N_("Not a prime number"),
    N_("This game is over"),
)


def alphabet_text(alphabet: str) -> str:
    """The alphabet as a refusal names it, in the current locale: "A to Z and Ñ"."""
    return listed(
        alphabet_parts(alphabet),
        lambda first, last: _("{first} to {last}").format(first=first, last=last),
        lambda items, last: _("{items} and {last}").format(items=items, last=last),
    )


def _value(value: object) -> str:
    if isinstance(value, Reason):
        return reason_text(value)
    if isinstance(value, Ordinal):
        return ordinal(value.number, value.unit)
    if isinstance(value, Alphabet):
        return alphabet_text(value.letters)
    if isinstance(value, int):
        return format_number(value)
    return str(value)


def reason_text(reason: Reason) -> str:
    """``reason`` in the current locale (English: exactly the engine's message)."""
    return _(reason.template).format(**{key: _value(v) for key, v in reason.params.items()})


def refusal_text(message: str, reason: Reason | None) -> str:
    """An engine outcome's refusal in the current locale: by its reason when it has one."""
    return _(message) if reason is None else reason_text(reason)
