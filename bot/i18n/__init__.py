"""The interface's languages: message catalogs, the reader's locale, plurals and numbers.

English is the source language: every message is written in English in the code and looked
up, at the moment it is shown, in the catalog of the current locale (``bot/locales/<locale>/
LC_MESSAGES/wordlebot.po``, kept with Babel; docs/development.md, "Translations").

The current locale lives in a :class:`~contextvars.ContextVar`, as in Red-DiscordBot: whoever
handles an interaction sets it once (:func:`set_locale`, :func:`use_locale`) and every helper
below that calls :func:`_` follows, with no locale parameter. Each asyncio task, and each
``asyncio.to_thread`` call, runs in a copy of its creator's context, so a locale set in one
task never leaks into another.

Marking messages::

    from bot.i18n import N_, _, ngettext

    NO_GAME = N_("You have no game going: start one with /wordle.")  # marked, not translated
    ...
    refuse(_(NO_GAME))                                   # translated where it is shown
    _("Hard mode is on for {player}.").format(player=name)
    ngettext("{count} guess", "{count} guesses", n).format(count=format_number(n))

Placeholders are named ``str.format`` fields, so a translation may reorder them.

Catalogs are read from the .po files and compiled on first use (nothing compiled is kept in
the repository to drift from its source). The compiled catalog is kept in the cache folder
under the hash of its source, so a start reads it back rather than parsing the .po again, and
a changed .po is compiled anew.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import hashlib
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import date
from decimal import Decimal
from pathlib import Path

import babel
from babel import Locale
from babel.dates import format_skeleton
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.numbers import format_percent as _format_percent

SOURCE = "en"
# The locales we ship, as BCP 47 tags (Discord's spelling: "pt-BR"); English first.
LOCALES = ("en", "es", "pt-BR", "fr", "de", "it", "pl")
DOMAIN = "wordlebot"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"

# Each language's plural rule, as gettext writes it in a catalog's Plural-Forms header. Ours,
# not read from Babel's copy of CLDR, which changes under us: Babel 2.19 (CLDR 46) gives
# Spanish, French, Italian and Portuguese a third form for round millions ("1 millón de
# palabras"), so a catalog made or read by its table expected three forms where ours hold two,
# and every plural fell back to English. Counts this bot shows never reach a million; the
# two-form rules are gettext's own. tests/test_i18n.py holds each rule to CLDR's over 0..200.
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "es": (2, "(n != 1)"),
    "pt-BR": (2, "(n > 1)"),  # Brazilian: 0 and 1 are singular
    "fr": (2, "(n > 1)"),  # 0 and 1 are singular
    "de": (2, "(n != 1)"),
    "it": (2, "(n != 1)"),
    # one, few (2-4, 22-24 ... but not 12-14), many
    "pl": (3, "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"),
}

_current: ContextVar[str] = ContextVar("wordlebot_locale", default=SOURCE)


def reader_locale(header: str | None, default: str) -> str:
    """The first of the reader's languages (a browser's Accept-Language, by weight) that the
    bot speaks, else ``default``."""
    asked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")[:20]):
        tag, _semi, weight = part.strip().partition(";")
        try:
            q = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            continue
        if tag and tag != "*" and q > 0:
            asked.append((-q, index, tag.strip()))
    for _q, _index, tag in sorted(asked):
        language = tag.split("-")[0].lower()
        if any(shipped.split("-")[0].lower() == language for shipped in LOCALES):
            return negotiate(tag)
    return default


def negotiate(code: str | None) -> str:
    """The shipped locale for ``code``: a Discord locale ("es-ES", "es-419", "pt-BR",
    "en-GB"), a BCP 47 tag or a POSIX name ("pt_BR.UTF-8"). The same tag first, then the
    catalog of the same language ("es-419" reads "es", "pt-PT" reads "pt-BR"), else English."""
    if not code:
        return SOURCE
    tag = code.split(".")[0].split("@")[0].replace("_", "-").lower()
    for shipped in LOCALES:
        if shipped.lower() == tag:
            return shipped
    language = tag.split("-")[0]
    for shipped in LOCALES:
        if shipped.lower().split("-")[0] == language:
            return shipped
    return SOURCE


def catalog_path(locale: str) -> Path:
    """Where the catalog of a shipped ``locale`` lives (gettext spells regions "pt_BR")."""
    return LOCALE_DIR / locale.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(locale: str) -> _gettext.NullTranslations:
    """The compiled catalog of a shipped ``locale``: read from its .po file on first use.
    English, the source, translates nothing. Fuzzy and empty entries (a plural with one form
    empty) are left out, so they show in English until someone checks them; a catalog whose
    Plural-Forms is not the language's stops the start."""
    if locale == SOURCE:
        return _gettext.NullTranslations()
    if locale not in LOCALES:
        raise ValueError(f"no catalog for locale {locale!r} (shipped: {', '.join(LOCALES)})")
    path = catalog_path(locale)
    source = path.read_bytes()
    return _gettext.GNUTranslations(io.BytesIO(_compiled(locale, source, path)))


# Changed whenever what :func:`compile_catalog` makes of a .po changes: a cached catalog
# compiled the old way is then never read.
COMPILER = "1"


def _compiled(locale: str, source: bytes, path: Path) -> bytes:
    """The .mo of ``source`` (``path``'s text): from the cache folder when compiled before
    from the same text, by the same rule and Babel, else compiled and kept there (a cache
    that cannot be written only costs the next start the compilation again)."""
    from engine.matrix import atomic_write, cache_directory

    count, rule = PLURAL_FORMS[locale]
    key = hashlib.sha256(
        f"{COMPILER}:{babel.__version__}:{locale}:{count}:{rule}:".encode() + source
    ).hexdigest()
    cached = cache_directory() / f"catalog-{locale}-{key[:24]}.mo"
    try:
        return cached.read_bytes()
    except OSError:
        pass
    compiled = compile_catalog(locale, source, path)
    try:
        with atomic_write(cached) as (fd, _), open(fd, "wb", closefd=False) as out:
            out.write(compiled)
    except OSError:
        pass
    return compiled


def compile_catalog(locale: str, source: bytes, path: Path) -> bytes:
    """The .mo of a shipped ``locale``'s catalog text ``source`` (read from ``path``),
    checked: see :func:`translations`."""
    catalog = read_po(io.BytesIO(source), locale=locale.replace("-", "_"), domain=DOMAIN,
                      ignore_obsolete=True, abort_invalid=True)  # fmt: skip
    problems = plural_problems(catalog, locale)
    if problems:
        raise ValueError(f"{path}: " + "; ".join(problems))
    for message in list(catalog):  # a form left empty would show nothing at all
        if message.pluralizable and not all(message.string or ()):
            catalog.delete(message.id, message.context)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    return compiled.getvalue()


def new_catalog(locale: str, **fields: object) -> Catalog:
    """An empty catalog for a shipped ``locale`` with our plural rule in its header, whatever
    Babel's table says (:data:`PLURAL_FORMS`)."""
    if locale not in PLURAL_FORMS:
        raise ValueError(f"add {locale}'s plural rule to bot.i18n.PLURAL_FORMS first")
    count, rule = PLURAL_FORMS[locale]
    catalog = Catalog(locale=locale.replace("-", "_"), domain=DOMAIN, **fields)  # type: ignore[arg-type]
    catalog.mime_headers = [("Plural-Forms", f"nplurals={count}; plural={rule};")]
    return catalog


def plural_problems(catalog: Catalog, locale: str) -> list[str]:
    """Why ``catalog`` would count wrong in ``locale``: a Plural-Forms header other than
    ours (:data:`PLURAL_FORMS`)."""
    count, rule = PLURAL_FORMS[locale]
    if (catalog.num_plurals, catalog.plural_expr) == (count, rule):
        return []
    return [f"Plural-Forms is nplurals={catalog.num_plurals}; plural={catalog.plural_expr}"
            f", not nplurals={count}; plural={rule}"]  # fmt: skip


def current_locale() -> str:
    """The locale messages are being written in (English unless someone set it)."""
    return _current.get()


def set_locale(code: str | None) -> Token[str]:
    """Make the shipped locale nearest ``code`` current for the rest of this task (Red's
    ``set_contextual_locale``): where an interaction is handled, since each runs in its own
    task. For a block inside a task, :func:`use_locale`."""
    return _current.set(negotiate(code))


@contextmanager
def use_locale(code: str | None) -> Iterator[str]:
    """Write in the locale nearest ``code`` inside the block (a digest in the server's
    language, a reply in the player's); yields the locale chosen."""
    token = set_locale(code)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current locale (itself when the catalog lacks it)."""
    return translations(_current.get()).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n``, by the catalog's Plural-Forms (Polish has
    three: 1 słowo, 2 słowa, 5 słów). Format the count in yourself: ``{count}``."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current locale, told apart by ``context`` from the same English
    words elsewhere (a button's "Share" and a verb in a sentence)."""
    return translations(_current.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context, as :func:`pgettext`."""
    return translations(_current.get()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs and returns it as it is: for module constants,
    translated with ``_(CONSTANT)`` where they are shown (the locale is not known at import)."""
    return message


def language_name(code: str) -> str:
    """A language's name in the reader's language ("Spanish", "español", "espagnol")."""
    names = _babel_locale(current_locale()).languages
    return str(names.get(code) or names.get(code.split("-")[0]) or code)


@functools.cache
def _babel_locale(locale: str) -> Locale:
    return Locale.parse(locale.replace("-", "_"))


def _with_digits(pattern: str, digits: int) -> str:
    """A CLDR number pattern ("#,##0.###", "#,##0\u00a0%") showing exactly ``digits``
    decimals, the locale's grouping and signs kept."""
    return re.sub(r"0(?:\.[0#]*)?", "0" + ("." + "0" * digits if digits > 0 else ""), pattern)


def format_number(value: float, digits: int = 0) -> str:
    """``value`` rounded to ``digits`` decimals, with the current locale's decimal mark and
    grouping: 12345.678 with 2 digits is "12,345.68" in English, "12.345,68" in German."""
    locale = _babel_locale(_current.get())
    pattern = _with_digits(locale.decimal_formats[None].pattern, digits)
    return format_decimal(_exact(value), format=pattern, locale=locale)


def format_percent(fraction: float, digits: int = 0) -> str:
    """``fraction`` (0.456) as a percentage in the current locale: "46%" in English, "46 %"
    (a no-break space) in French and German."""
    locale = _babel_locale(_current.get())
    pattern = _with_digits(locale.percent_formats[None].pattern, digits)
    return _format_percent(_exact(fraction), format=pattern, locale=locale)


def format_day(day: date, skeleton: str = "MMMd") -> str:
    """A day as the current locale writes it, in the parts ``skeleton`` names (CLDR's):
    "Mar 14" in English, "14 mars" in French, "14. März" in German."""
    return str(format_skeleton(skeleton, day, locale=_babel_locale(_current.get())))


def month_letters() -> list[str]:
    """The twelve months' one-letter names in the current locale (a chart's axis)."""
    names = _babel_locale(_current.get()).months["stand-alone"]["narrow"]
    return [str(names[m]) for m in range(1, 13)]


def _exact(value: float) -> Decimal | float:
    """A float as the exact number it holds, so it rounds as Python's own formatting does
    (``f"{2.305:.2f}"`` is "2.31": the float is a hair above 2.305; Babel would read its
    shortest text, "2.305", and round half to even, to "2.30")."""
    return Decimal(value) if isinstance(value, float) else value


# How each language writes a tile's place ("2nd letter"), by the gender its word for the unit
# has there: Spanish "2.ª letra" but "2.º dígito", French "1re lettre" but "1er chiffre".
_ORDINALS: dict[str, dict[str, str]] = {
    "es": {"letter": "{n}.ª", "digit": "{n}.º"},
    "pt-BR": {"letter": "{n}ª", "digit": "{n}º"},
    "it": {"letter": "{n}ª", "digit": "{n}ª"},  # la lettera, la cifra
    "fr": {"letter": "{n}e", "digit": "{n}e"},
    "de": {"letter": "{n}.", "digit": "{n}."},
    "pl": {"letter": "{n}.", "digit": "{n}."},
}
_FRENCH_FIRST = {"letter": "1re", "digit": "1er"}  # la lettre, le chiffre


def ordinal(n: int, unit: str = "letter") -> str:
    """``n`` as an ordinal number in the current locale, agreeing with ``unit`` ("letter",
    "digit") where the language asks: 2nd in English, 2.ª (letra) in Spanish, 2e in French,
    2. in German and Polish."""
    locale = _current.get()
    if locale == "fr" and n == 1:
        return _FRENCH_FIRST.get(unit, "1er")
    forms = _ORDINALS.get(locale)
    if forms is None:
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return forms.get(unit, forms["letter"]).format(n=n)
