"""Collects every message of the interface into ``bot/locales/wordlebot.pot`` and, with
``--update``, merges it into each shipped catalog (creating the missing ones)::

    python -m bot.i18n.extract            # the template, from the tree and the code
    python -m bot.i18n.extract --update   # and every bot/locales/<locale>/.../wordlebot.po

Two sources, one template:

- the command tree, as discord.py asks the translator for it: the real bot is built (never
  connected), and each command's translated payload is requested through a translator that
  records every string with its place as msgctxt ("command name", "choice name" ...);
- the code under bot/ and cogs/, read by Babel's Python extractor: ``_()``, ``gettext``,
  ``ngettext``, ``pgettext``, ``npgettext`` and ``N_`` calls. A comment starting
  ``Translators:`` just above a call reaches the translators.

Updating keeps each translation whose English did not change, marks near matches fuzzy
(shown in English until a translator checks them and removes the flag) and drops entries
the code no longer uses.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import secrets
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from babel import Locale as BabelLocale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import Locale
from discord.app_commands import Choice, ContextMenu, Parameter, Translator, locale_str
from discord.app_commands.translator import TranslationContextTypes

from bot.i18n import DOMAIN, LOCALE_DIR, LOCALES, SOURCE, catalog_path, new_catalog
from bot.i18n.translator import MENU_NAME, message_context

ROOT = LOCALE_DIR.parent.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
CODE = ("bot", "cogs")  # where ``_()`` calls may be
COMMENT_TAG = "Translators:"
HEADER = """\
# The messages of wordlebot's interface; English is the source language.
# Made by `python -m bot.i18n.extract` (docs/development.md, "Translations"): never by hand."""
ISSUES = "the wordlebot issue tracker"
UPDATE_NOTE = """\
# Updated by `python -m bot.i18n.extract --update` (docs/development.md, "Translations"):
# translate the empty entries, check the fuzzy ones and remove their flag."""
NAME_RULE = "Discord: lower case, no spaces, 1-32 letters, digits, '-' or '_'"
# What the translator of each place must know: Discord refuses the whole tree over one
# name that breaks its rules (tests/test_command_tree.py checks every catalog).
NOTES = {
    "command name": NAME_RULE + ".",
    "group name": NAME_RULE + ".",
    "parameter name": NAME_RULE + "; unique among its command's options.",
    MENU_NAME: "Discord: 1-32 characters; spaces and capitals allowed.",
    "command description": "Discord: at most 100 characters.",
    "group description": "Discord: at most 100 characters.",
    "parameter description": "Discord: at most 100 characters.",
    "choice name": "Discord: at most 100 characters.",
}

Key = tuple[str | None, str | tuple[str, ...]]  # (msgctxt, msgid or singular and plural)


class _Recorder(Translator):
    """Translates nothing; notes each string discord.py asks for, and where it sits."""

    def __init__(self) -> None:
        self.found: dict[Key, list[str]] = {}
        self.parameter = ""  # the last one asked for: its choices come next

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        if locale is Locale.american_english:  # the same strings come for every locale
            places = self.found.setdefault((message_context(context), string.message), [])
            place = _place(context.data, self.parameter)
            if isinstance(context.data, Parameter):
                self.parameter = place
            if place not in places:
                places.append(place)
        return None


def _place(data: Any, parameter: str) -> str:
    """Where a tree string is shown: "/wordle daily", "/stats game", a menu's name; a
    choice, under its parameter."""
    if isinstance(data, Parameter):
        return f"/{data.command.qualified_name} {data.name}"
    if isinstance(data, Choice):
        return parameter
    if isinstance(data, ContextMenu):
        return f"the menu {data.name!r}"
    return f"/{data.qualified_name}"


async def tree_messages() -> dict[Key, list[str]]:
    """Every string of the command tree (menus included) with the places it is shown."""
    from bot.discord_bot import WordleBot
    from bot.settings import load_settings

    settings = load_settings(database_path=":memory:", daily_seed=secrets.token_hex(16))
    bot = WordleBot(settings, warm_engine=False)
    recorder = _Recorder()
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        for command in bot.tree.get_commands():
            await command.get_translated_payload(bot.tree, recorder)
    finally:
        await bot.close()
    return recorder.found


def code_messages(root: Path = ROOT) -> Iterable[tuple[Key, str, int, list[str]]]:
    """``(key, file, line, translators' comments)`` for every marked message in the code."""
    for folder in CODE:
        found = extract_from_dir(
            root / folder,
            method_map=[("**.py", "python")],
            keywords=DEFAULT_KEYWORDS,
            comment_tags=(COMMENT_TAG,),
            strip_comment_tags=True,
        )
        for filename, line, message, comments, context in found:
            yield (context, message), f"{folder}/{filename}", line, list(comments)


def template(
    tree: dict[Key, list[str]], code: Iterable[tuple[Key, str, int, list[str]]]
) -> Catalog:
    """The .pot: the tree's strings first, in the tree's order, then the code's."""
    catalog = Catalog(project="wordlebot", domain=DOMAIN, charset="utf-8", fuzzy=False,
                      version=_version(), header_comment=HEADER,
                      copyright_holder="the wordlebot authors",
                      msgid_bugs_address=ISSUES)  # fmt: skip
    for (context, message), places in tree.items():
        notes = [", ".join(places)] + ([NOTES[context]] if context in NOTES else [])
        catalog.add(message, context=context, auto_comments=notes)
    for (context, message), filename, line, comments in code:
        catalog.add(message, context=context, locations=[(filename, line)],
                    auto_comments=comments)  # fmt: skip
    return catalog


def _version() -> str:
    try:
        return metadata.version("wordlebot")
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        return "unreleased"


def keys(catalog: Catalog) -> list[Key]:
    return [(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id]


def rendered(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, ignore_obsolete=True, include_previous=True)
    return out.getvalue()


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(rendered(catalog))


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale, domain=DOMAIN)


def ensure_catalogs() -> list[str]:
    """An empty catalog for each shipped locale that has none yet (a language just added to
    ``bot.i18n.LOCALES``): the bot loads every catalog at start, this script included."""
    created = []
    for locale in LOCALES:
        path = catalog_path(locale)
        if locale != SOURCE and not path.exists():
            tag = locale.replace("-", "_")
            language = BabelLocale.parse(tag).english_name
            header = f"# {language} messages of wordlebot's interface.\n" + UPDATE_NOTE
            write(new_catalog(locale, project="wordlebot", version=_version(), fuzzy=False,
                              header_comment=header, copyright_holder="the wordlebot authors",
                              msgid_bugs_address=ISSUES), path)  # fmt: skip
            created.append(f"created {path.relative_to(ROOT)}")
    return created


def update(pot: Catalog) -> list[str]:
    """Merge ``pot`` into every shipped catalog: what was done."""
    done = []
    for locale in LOCALES:
        if locale == SOURCE:
            continue
        path = catalog_path(locale)
        catalog = read(path, locale.replace("-", "_"))
        catalog.update(pot, update_creation_date=False)
        write(catalog, path)
        done.append(f"updated {path.relative_to(ROOT)}")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.i18n.extract",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--update", action="store_true", help="also merge the template into every catalog"
    )
    args = parser.parse_args(argv)
    for line in ensure_catalogs():
        print(line)
    pot = template(asyncio.run(tree_messages()), code_messages())
    if TEMPLATE.exists():
        pot.creation_date = read(TEMPLATE).creation_date  # dated by its last change only
    text = rendered(pot)
    if TEMPLATE.exists() and TEMPLATE.read_bytes() == text:
        print(f"{TEMPLATE.relative_to(ROOT)}: up to date ({len(keys(pot))} messages)")
    else:
        if TEMPLATE.exists():
            pot.creation_date = datetime.now(UTC)
            text = rendered(pot)
        TEMPLATE.write_bytes(text)
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(keys(pot))} messages")
    if args.update:
        print("\n".join(update(pot)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
