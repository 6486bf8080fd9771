"""/define: a word's short definition from the dictionary shipped with the bot
(:mod:`engine.definitions`), privately.

The word is looked up in the language asked for; else in the player's own language (their
Discord locale's, where a dictionary exists), then in English. It looks a word up and nothing
more: it never says whether the word is, was or will be any game's answer. A finished game's
board shows its answer's definition by itself (:func:`bot.render.text.finished_definition`).
"""

from __future__ import annotations

from bot.commands.model import Caller, Param, Reply, command
from bot.i18n import _
from bot.render.text import definition_text
from bot.services import Services
from bot.services.kinds import DEFAULT_LANGUAGE, LANGUAGES, word_language
from engine.definitions import definition

WORD = 40  # a word's characters at most, as echoed back


@command(
    "define",
    Param("word", required=True),
    Param("language", choices=tuple(LANGUAGES), positional=False),
    usage=lambda: _("Usage: /define WORD"),
)
async def define(
    services: Services, caller: Caller, word: str, language: str | None = None
) -> Reply:
    if language is not None:
        found = definition(word, language)
    else:  # the player's own language first, where its dictionary knows the word
        languages = dict.fromkeys(
            [word_language(caller.locale) or DEFAULT_LANGUAGE, DEFAULT_LANGUAGE]
        )
        found = next(filter(None, (definition(word, code) for code in languages)), None)
    if found is None:
        return Reply.refuse(
            _("No definition of {word} in the dictionary.").format(word=repr(word.strip()[:WORD]))
        )
    return Reply(definition_text(found)[:2000], private=True)


__all__ = ["define"]
