"""Options that Discord's client would never send (a value outside the option's choices, a
string that is not text) get one plain private line naming the option, and nothing is
logged as a failure."""

import logging

from discord_double import only

ANN = 111


async def test_a_value_outside_the_choices_is_refused_in_one_plain_line(double, caplog):
    refusal = only(await double.command("wordle", "practice", user_id=ANN, mode="impossible"))
    assert refusal.ephemeral
    assert refusal.text == "The option “mode” takes one of: normal, hard, strict."
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    board = only(await double.command("wordle", "practice", user_id=ANN, mode="hard"))
    assert "hard" in board.text.lower()  # the same command with a value it takes still plays


async def test_a_lone_surrogate_is_refused_in_one_plain_line(double, caplog):
    refusal = only(await double.command("mydata", "unshare", user_id=ANN, game="\ud800", puzzle=3))
    assert refusal.ephemeral
    assert refusal.text == "The option “game” takes text, and what was sent is not text."
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_refusal_is_in_the_players_language(double):
    double.locale = "fr"
    refusal = only(await double.command("wordle", "practice", user_id=ANN, mode="impossible"))
    assert "mode" in refusal.text and "normal, hard, strict" in refusal.text
    assert "takes one of" not in refusal.text
