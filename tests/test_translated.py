"""The interface in each shipped language, with the real catalogs: a whole game, a hint,
/stats, the digest and /help at the console, and a Spanish player's game in Discord, say no
English sentence (the marking-catalog tests prove every sentence goes through a catalog;
these prove each catalog answers for it)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.console import Console
from bot.i18n import LOCALES
from bot.services import Player
from tests.test_console import script

SEED = "3c5e7a9b1d2f4e6a8c0b2d4f6e8a0c1b-translated"
START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
SCRIPT = ("/wordle practice language:en", "crane", "slate", "/hint", "/giveup", "/stats", "/streak",
          "/leaderboard", "/digest", "/help", "/settings me",
          "/wordle practice length:12")  # fmt: skip
WORD = re.compile(r"\b[a-z][a-z']{2,}\b")
# Words that read the same in every language here: game names, a command's words.
NEUTRAL = {"wordle", "primel", "absurdle", "dordle", "quordle", "octordle", "wordlebot", "help"}


def sentences(text: str) -> set[str]:
    """The lines of ``text`` that read as English prose: three words or more in lower case
    outside commands (a board's words are in capitals, squares and numbers say nothing)."""
    found = set()
    for line in text.splitlines():
        prose = re.sub(r"/[\w ]+?(?=[,.;:)]|$)|\w+:\S+", " ", line)  # commands, option:value
        words = [w for w in WORD.findall(prose) if w not in NEUTRAL]
        if len(words) >= 3:
            found.add(line.strip())
    return found


async def said(services, locale: str) -> str:
    shown: list[str] = []
    console = Console(services, Player(7, "ines"), shown.append, colour=False, locale=locale)
    await console.run(script(*SCRIPT))
    return "\n".join(shown)


@pytest.mark.parametrize("locale", [code for code in LOCALES if code != "en"])
async def test_a_game_a_hint_stats_and_the_digest_say_no_english(opened, clock, tmp_path,
                                                                 locale) -> None:  # fmt: skip
    english_services = await opened(f"sqlite:///{tmp_path / 'en.sqlite3'}", clock,
                                    answers="cigar")  # fmt: skip
    services = await opened(f"sqlite:///{tmp_path / 'xx.sqlite3'}", clock, answers="cigar")
    english = sentences(await said(english_services, "en"))
    assert len(english) > 20  # the script says plenty in English
    translated = await said(services, locale)
    left = english & sentences(translated)
    assert left == set(), f"{locale}: {sorted(left)[:5]}"


async def test_a_spanish_discord_plays_and_is_answered_in_spanish(make_double, clock) -> None:
    """The issue's player: Discord in Spanish, a six-letter Spanish daily, a refusal, a hint."""
    texts = {}
    for locale in ("en-US", "es-ES"):
        double = await make_double(clock=clock, answers={"wordle-es-6": "piñata"})
        double.locale = locale
        sent = await double.command("wordle", "practice", user_id=5, language="es", length=6)
        sent += await double.command("guess", user_id=5, word="xxxxxx")
        sent += await double.command("guess", user_id=5, word="señora")
        sent += await double.command("hint", user_id=5)
        texts[locale] = "\n".join(s.text for s in sent)
    english = sentences(texts["en-US"])
    assert len(english) >= 2 and english & sentences(texts["es-ES"]) == set()
    assert "Not in word list" in texts["en-US"] and "Not in word list" not in texts["es-ES"]
