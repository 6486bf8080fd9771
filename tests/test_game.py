import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import GAME_OVER, GameStateError, Status, WordleGame
from engine.pattern import to_digits
from engine.rules import Mode


def test_a_game_is_won_by_guessing_the_answer(wordle) -> None:
    game = WordleGame(wordle, "cigar")
    first = game.guess("crane")
    assert first.accepted and to_digits(first.pattern, 5) == "21100"
    assert game.status is Status.PLAYING
    assert game.guess("CIGAR").accepted
    assert game.status is Status.WON and game.over
    assert game.guess("crane").message == GAME_OVER


def test_a_game_is_lost_after_the_last_row(wordle) -> None:
    game = WordleGame(wordle, "cigar")
    for word in ("crane", "slate", "pouty", "dwelt", "hymns", "befog"):
        assert game.guess(word).accepted
    assert game.status is Status.LOST
    assert game.guess("cigar").message == GAME_OVER
    assert len(game.rows) == 6


@pytest.mark.parametrize("text", ["zzzzz", "cra", "cranes", "c!ane", "", "x" * 4000])
def test_a_refused_guess_changes_nothing(wordle, text: str) -> None:
    game = WordleGame(wordle, "cigar", Mode.HARD)
    game.guess("crane")
    before = copy.deepcopy(game.to_dict())
    outcome = game.guess(text)
    assert not outcome.accepted and outcome.message
    assert game.to_dict() == before


def test_hard_mode_refusal_in_a_game(wordle) -> None:
    game = WordleGame(wordle, "cigar", Mode.HARD)
    game.guess("crane")  # C green, R and A yellow
    assert game.guess("slate").message == "1st letter must be C"
    assert game.guess("chart").accepted


def test_the_answer_must_be_a_word_of_the_variant(wordle) -> None:
    with pytest.raises(GameStateError):
        WordleGame(wordle, "zzzzz")


@settings(max_examples=100)
@given(st.data())
def test_a_game_round_trips_through_json(wordle, data) -> None:
    answer = data.draw(st.sampled_from(wordle.answers.words))
    mode = data.draw(st.sampled_from(list(Mode)))
    game = WordleGame(wordle, answer, mode)
    for word in data.draw(st.lists(st.sampled_from(wordle.guesses.words), max_size=8)):
        game.guess(word)
    restored = WordleGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict()
    assert (restored.rows, restored.status, restored.mode) == (game.rows, game.status, game.mode)


def test_stored_form_is_plain_and_versioned(wordle) -> None:
    game = WordleGame(wordle, "cigar", Mode.STRICT)
    game.guess("crane")
    assert game.to_dict() == {
        "format": 1,
        "variant": "wordle",
        "answer": "cigar",
        "mode": "strict",
        "rows": [["crane", "21100"]],
    }


@pytest.mark.parametrize(
    "change",
    [
        {"format": 99},
        {"rows": [["crane", "22222"]]},  # a pattern the answer cannot give
        {"rows": [["cigar", "22222"], ["crane", "21100"]]},  # play after a win
        {"mode": "sideways"},
        {"variant": "nope"},
        {"rows": "crane"},
    ],
)
def test_damaged_stored_games_are_refused(wordle, change) -> None:
    data = WordleGame(wordle, "cigar").to_dict() | change
    with pytest.raises(GameStateError):
        WordleGame.from_dict(data)


def test_primel_game(primel) -> None:
    game = WordleGame(primel, "12347")
    assert game.guess("12343").accepted
    assert game.guess("12347").accepted
    assert game.status is Status.WON
