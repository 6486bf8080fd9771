"""Definitions (issue 32): `wordlebot define`, /define at the console and in Discord, and the
answer's definition on a finished board, never before the game ends."""

from __future__ import annotations

import json

from test_console import SEED, scripted

from bot.cli import main
from bot.render.text import finished_definition
from bot.services import GameView
from bot.settings import load_settings
from engine.definitions import definition

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
    found = definition(answer)
    assert f"The word: ||{answer.upper()}||" in text
    assert found is None or found.senses[0].gloss[:20] in text
