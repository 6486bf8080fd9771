"""The command tree in the reader's language: discord.py's ``app_commands.Translator`` over
the same catalogs as every other message (bot.i18n).

discord.py wraps each command and group name, description, parameter name and description
and choice name in a ``locale_str`` and asks the translator for every Discord locale when it
builds the sync payload; Discord then shows each user the names in their client's language
and still sends back the English name for dispatch. The catalog entry of a tree string has
the place it comes from as its gettext context (msgctxt "command name", "parameter
description", "choice name" ...), because Discord's rules differ by place (names: lower
case, no spaces, 32 characters) and the same English word may need another translation
there.
"""

from __future__ import annotations

import functools

from discord import Locale
from discord.app_commands import ContextMenu, TranslationContextLocation, Translator, locale_str
from discord.app_commands.translator import TranslationContextTypes

from bot.i18n import LOCALES, SOURCE, negotiate, translations

MENU_NAME = "context menu name"  # menus' names may hold spaces and capitals, unlike commands'


def message_context(context: TranslationContextTypes) -> str | None:
    """The msgctxt of a tree string: where it sits ("command name", "choice name" ...).
    Strings translated at run time (``Interaction.translate``, location ``other``) have
    none: they are the plain messages ``_()`` reads."""
    location = context.location
    if location is TranslationContextLocation.other:
        return None
    if location is TranslationContextLocation.command_name and isinstance(
        context.data, ContextMenu
    ):
        return MENU_NAME
    return location.name.replace("_", " ")


@functools.cache  # asked for each of Discord's locales for each string of the tree
def shipped_locale(locale: Locale) -> str | None:
    """The catalog for a Discord locale, or None where we ship none (Discord then shows the
    English default, as it does for English itself)."""
    chosen = negotiate(locale.value)
    if chosen == SOURCE or chosen not in LOCALES:
        return None
    return chosen


class CatalogTranslator(Translator):
    """Reads bot/locales; None where a string has no translation (Discord shows English)."""

    async def load(self) -> None:
        """Compile every catalog now, so a broken one stops the start, not a sync later."""
        for locale in LOCALES:
            translations(locale)

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        chosen = shipped_locale(locale)
        if chosen is None:
            return None
        catalog = translations(chosen)
        msgctxt = message_context(context)
        if msgctxt is None:
            text = catalog.gettext(string.message)
        else:
            text = catalog.pgettext(msgctxt, string.message)
        return None if text == string.message else text
