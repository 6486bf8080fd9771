"""Definitions (issue 32): `wordlebot define`, /define at the console and in Discord, and the
answer's definition on a finished board, never before the game ends."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import Counter

import pytest
from test_console import SEED, script, scripted

from bot.cli import main
from bot.render.text import finished_definition
from bot.services import GameView
from bot.settings import load_settings
from engine.definitions import definition
from wordlists import DIRECTORY

CIGAR = "CIGAR (noun): a roll of tobacco for smoking"
SOURCE = "Princeton WordNet 3.0"


def test_the_engine_defines_english_words_and_nothing_else() -> None:
    crane = definition("Crane ")
    assert crane is not None and crane.word == "crane" and crane.source.startswith(SOURCE)
    assert {sense.part for sense in crane.senses} == {"noun", "verb"}
    # The bird or the machine, never the poet: WordNet's capitalised senses are passed over.
    assert not any("writer" in sense.gloss or "poet" in sense.gloss for sense in crane.senses)
    assert definition("xqzzy") is None
    assert definition("casa", "es") is None  # no Spanish dictionary: nothing shown
    assert definition("crane", "../en") is None


def test_the_cli_defines_crane(capsys) -> None:
    assert main(["define", "crane"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("crane\n") and "(noun) lifts and moves heavy objects" in text
    assert f"Source: {SOURCE}" in text
    assert main(["define", "crane", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["found"] and found["word"] == "crane" and found["source"].startswith(SOURCE)
    assert {"part": "verb", "gloss": "stretch (the neck) so as to see better"} in found["senses"]


def test_the_cli_says_an_unknown_word_has_no_definition(capsys) -> None:
    assert main(["define", "xqzzy"]) == 1
    assert "No definition of 'xqzzy'" in capsys.readouterr().err
    assert main(["define", "xqzzy", "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"found": False, "word": "xqzzy"}


async def test_define_at_the_console(tmp_path) -> None:
    text, services = await scripted(tmp_path, "/define crane", "/define xqzzy", "/define")
    await services.close()
    assert "CRANE" in text and "(noun) lifts and moves heavy objects" in text
    assert f"Source: {SOURCE}" in text and "**" not in text
    assert "No definition of 'xqzzy' in the dictionary." in text
    assert "Usage: /define WORD" in text


async def test_the_board_shows_the_definition_only_once_the_game_is_over(tmp_path) -> None:
    text, services = await scripted(tmp_path, "/wordle practice", "crane", "cigar")
    await services.close()
    before, after = text.split("Solved in 2/6!")
    assert "roll of tobacco" not in before and CIGAR in after


def view(status: str, answer: str | None, variant: str = "wordle") -> GameView:
    return GameView(game_id=1, player_id=1, kind="wordle:daily", variant=variant, title="Wordle",
                    mode="normal", day="2026-01-01", number=5, rows=[], status=status,
                    max_guesses=6, length=5, answer=answer)  # fmt: skip


def test_a_finished_daily_hides_its_definition_behind_a_spoiler() -> None:
    """Without the word: a daily's board shows the answer only as ``||WORD||``."""
    assert finished_definition(view("playing", "cigar"), spoiler=True) == ""
    hidden = finished_definition(view("won", "cigar"), spoiler=True)
    assert hidden == "||(noun) a roll of tobacco for smoking||"
    assert finished_definition(view("won", "cigar"), spoiler=False) == CIGAR
    assert finished_definition(view("won", "99991", "primel"), spoiler=False) == ""


async def test_define_and_a_finished_board_in_discord(tmp_path) -> None:
    from discord_double import DiscordDouble

    from bot.discord_bot import WordleBot

    settings = load_settings(database_path=":memory:", daily_seed=SEED)
    bot = WordleBot(settings, warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        bot.services.games.choose_answer = {"wordle": "cigar"}.get
        double = DiscordDouble(bot)
        [reply] = await double.command("define", user_id=111, word="crane")
        assert reply.ephemeral and "**CRANE**" in reply.text and SOURCE in reply.text
        [unknown] = await double.command("define", user_id=111, word="xqzzy")
        assert unknown.ephemeral and "No definition of 'xqzzy'" in unknown.text
        [board] = await double.command("wordle", "practice", user_id=111)
        assert "tobacco" not in board.text
        answers = await double.command("guess", user_id=111, word="cigar")
        assert any(CIGAR in sent.text for sent in answers)
    finally:
        await bot.close()


async def test_a_digest_names_the_day_that_is_over_its_word_and_meaning(tmp_path) -> None:
    """The digest is made once its day is over: then its word may be told, and what it means
    (behind spoilers). A day still in play has no digest (tests/test_digest.py)."""
    from datetime import UTC, datetime, timedelta

    from bot.render.text import digest_text
    from bot.services import Player, open_services

    services = await open_services(load_settings(database_path=str(tmp_path / "d.sqlite3"),
                                                 daily_seed=SEED))  # fmt: skip
    try:
        day = datetime(2026, 11, 20, 12, tzinfo=UTC)
        services.daily.clock = lambda: day
        answer = services.daily.answer("wordle", day.date())
        await services.games.start(Player(4, "uma"), 77, "wordle", daily=True)
        await services.games.guess(Player(4, "uma"), 77, answer)
        services.daily.clock = lambda: day + timedelta(days=1)
        text = digest_text(await services.digests.digest(77, day.date()))
    finally:
        await services.close()
    assert answer == "rough"  # the seed's word of that day, which the dictionary has
    assert "The word: ||ROUGH|| ||(adjective) having or caused by an irregular surface||" in text


# Other languages (issue 32): a dictionary whose glosses are written in the language itself,
# where one under an open licence exists (wordlists/README.md, "Definitions").
GATTO = "mammifero carnivoro"
HAUS = "zu einem bestimmten Zweck erbautes Gebäude"


def test_italian_and_german_words_are_defined_in_their_own_language() -> None:
    gatto = definition("gatto", "it")
    assert gatto is not None and gatto.senses[0].gloss == GATTO
    assert gatto.source.startswith("ItalWordNet (ODC-BY 1.0) and MultiWordNet (CC BY 3.0)")
    # An accented lemma is kept in the playing form its list types ("città" as "citta"), and
    # a word is looked up as typed the way the game reads it: accents folded, NFC, any case.
    assert definition("citta", "it") is not None
    assert definition("città", "it") == definition("CITTÀ", "it") == definition("citta", "it")
    nfd = unicodedata.normalize("NFD", "Abmähen")
    assert definition(nfd, "de") is not None
    assert definition(nfd, "de") == definition("abmähen", "de")
    haus = definition("Haus", "de")
    assert haus is not None and haus.senses[0].gloss == HAUS and haus.senses[0].part == ""
    assert haus.source.startswith("German Wiktionary (de.wiktionary.org)")
    assert "CC BY-SA 4.0" in haus.source
    assert definition("haus", "it") is None and definition("gatto", "de") is None


@pytest.mark.parametrize("language", ["es", "pt", "fr", "pl"])
def test_a_language_without_a_dictionary_defines_nothing(language: str) -> None:
    """No openly licensed dictionary with glosses in these languages could be had
    (wordlists/README.md says which were checked): nothing is shown, nothing invented."""
    words = (DIRECTORY / language / "5-answers.txt").read_text().split()
    assert not (DIRECTORY / language / "definitions.tsv").exists()
    assert all(definition(word, language) is None for word in words[:50])


@pytest.mark.parametrize("language", ["en", "it", "de"])
def test_every_dictionary_holds_only_words_of_its_lists_at_most_two_senses_each(
    language: str,
) -> None:
    lists = ["wordle-allowed.txt", "wordle-nyt-allowed.txt"] if language == "en" else []
    paths = [DIRECTORY / name for name in lists]
    paths += sorted((DIRECTORY / language).glob("*-allowed.txt"))
    ours = {word for path in paths for word in path.read_text().split()}
    lines = (DIRECTORY / language / "definitions.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# source\t")
    senses = Counter()
    for line in lines[1:]:
        word, part, gloss = line.split("\t")
        assert word in ours and word == unicodedata.normalize("NFC", word).lower()
        assert part in {"", "noun", "verb", "adjective", "adverb"} and gloss.strip() == gloss
        senses[word] += 1
    assert max(senses.values()) <= 2


async def test_define_in_a_language_at_the_console(tmp_path) -> None:
    text, services = await scripted(
        tmp_path, "/define gatto language:it", "/define Haus language:de",
        "/define crane language:it", "/define gatto", "/define casa language:xx",
    )  # fmt: skip
    await services.close()
    assert "GATTO" in text and f"(noun) {GATTO}" in text and "Source: ItalWordNet" in text
    # German Wiktionary names no part of speech: the gloss stands alone.
    assert f"HAUS\n{HAUS}" in text and "Source: German Wiktionary" in text
    assert "No definition of 'crane' in the dictionary." in text
    # Without a language, the console's player (no Discord locale) is asked in English.
    assert "No definition of 'gatto' in the dictionary." in text
    assert "language takes en, es, pt, fr, de, it, pl, not 'xx'" in text


async def test_a_finished_italian_or_german_board_shows_its_answers_definition(tmp_path) -> None:
    from bot.services import open_services

    services = await open_services(load_settings(database_path=str(tmp_path / "l.sqlite3"),
                                                 daily_seed=SEED))  # fmt: skip
    services.games.choose_answer = {"wordle-it-5": "gatto", "wordle-de-4": "haus"}.get
    shown: list[str] = []
    from bot.console import Console
    from bot.services import Player

    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script("/wordle practice language:it", "gatto",
                             "/wordle practice language:de length:4", "haus"))  # fmt: skip
    await services.close()
    text = "\n".join(shown)
    before, after = text.split("GATTO (noun)", 1)
    assert GATTO not in before and f"GATTO (noun): {GATTO}" in text
    assert f"HAUS: {HAUS}" in after


def test_a_finished_board_in_a_language_without_a_dictionary_shows_nothing() -> None:
    assert (
        finished_definition(view("won", "gatto", "wordle-it-5"), spoiler=True)
        == f"||(noun) {GATTO}||"
    )
    assert finished_definition(view("won", "haus", "wordle-de-4"), spoiler=False) == f"HAUS: {HAUS}"
    answer = (DIRECTORY / "es" / "5-answers.txt").read_text().split()[0]
    assert finished_definition(view("won", answer, "wordle-es-5"), spoiler=False) == ""
    assert finished_definition(view("lost", answer, "wordle-es-5"), spoiler=True) == ""


async def test_define_in_discord_asks_the_players_own_language_then_english() -> None:
    from discord_double import DiscordDouble

    from bot.discord_bot import WordleBot

    bot = WordleBot(load_settings(database_path=":memory:", daily_seed=SEED), warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        double = DiscordDouble(bot)
        double.locale = "it"
        [italian] = await double.command("define", user_id=111, word="gatto")
        assert italian.ephemeral and GATTO in italian.text and "ItalWordNet" in italian.text
        [english] = await double.command("define", user_id=111, word="crane")  # then English
        assert "lifts and moves heavy objects" in english.text and SOURCE in english.text
        [asked] = await double.command("define", user_id=111, word="haus", language="de")
        assert HAUS in asked.text and "German Wiktionary" in asked.text
        double.locale = "es-ES"  # no Spanish dictionary: English only
        [none] = await double.command("define", user_id=111, word="gatto")
        assert none.text == "El diccionario no tiene una definición de 'gatto'."  # in Spanish
    finally:
        await bot.close()


@pytest.mark.parametrize("language", ["en", "it", "de"])
def test_each_dictionary_matches_the_checksum_its_readme_row_records(language: str) -> None:
    """wordlists/README.md, "Definitions", records each file's source, licence and SHA-256."""
    text = (DIRECTORY / "README.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)/definitions\.tsv` \|.*\| `([0-9a-f]{64})` \|$", text, re.M))
    data = (DIRECTORY / language / "definitions.tsv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == rows[language]


async def test_the_engine_warmed_at_a_start_has_read_its_languages_dictionaries() -> None:
    """The bot's start warms the engine off its event loop: the dictionary of each language
    warmed is read then, so the first game ended (or the first digest) does not hold the
    loop reading it (some 80 ms for English)."""
    from engine import definitions
    from engine.aio import warm

    def read_before(language: str) -> bool:  # a hit of the reader's cache: read already
        hits = definitions._dictionary.cache_info().hits
        definitions._dictionary(DIRECTORY / language / "definitions.tsv")
        return definitions._dictionary.cache_info().hits > hits

    definitions._dictionary.cache_clear()
    await warm(("wordle", "wordle-de-5"))
    assert read_before("en") and read_before("de") and not read_before("it")
