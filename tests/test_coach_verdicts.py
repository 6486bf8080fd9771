"""The coaching's verdicts stay what they were: games recorded with the code before the
coaching was made faster (f4137cf), on a list that keeps its matrix and on large ones that
build their patterns, in normal, hard and strict mode; each game hinted to its end, or a few
random guesses then the answer. Coached here from an empty cache, so the opening's figures
are computed, not read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.game import WordleGame
from engine.rules import Mode
from engine.solver import coach as coach_module
from engine.solver.coach import coach, opening_eg
from engine.variants import get_variant

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "coach-verdicts.json").read_text())


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(tmp_path))
    opening_eg.cache_clear()
    coach_module._ranking.cache_clear()
    coach_module._exact_costs.cache_clear()
    yield
    opening_eg.cache_clear()


BY_LIST: dict[str, list[dict]] = {}
for recorded in RECORDED:
    BY_LIST.setdefault(f"{recorded['variant']}-{recorded['mode']}", []).append(recorded)


@pytest.mark.parametrize("games", BY_LIST.values(), ids=BY_LIST.keys())
def test_recorded_games_are_coached_as_before(games, empty_cache) -> None:
    """A list's games in turn: the first works out the opening's figures, the others take
    them from memory, as a day's games do."""
    for game in games:
        rows = [(guess, pattern) for guess, pattern in game["rows"]]
        coaching = coach(get_variant(game["variant"]), rows, Mode(game["mode"]))
        assert coaching.to_json() == game["coaching"], rows


WORDLE = get_variant("wordle")
OPENERS = ["crane", "slate", "aahed", "fuzzy", "cigar"]  # a few: positions recur


FIRST = WORDLE.answers.words[0]


@settings(max_examples=10)
@given(
    games=st.lists(
        st.tuples(st.sampled_from(WORDLE.answers.words[:8]),
                  st.lists(st.sampled_from(OPENERS), min_size=1, max_size=3),
                  st.sampled_from(list(Mode))),
        min_size=2, max_size=4,
    ),
)  # fmt: skip
@example(
    games=[
        (FIRST, ["crane", "slate"], Mode.NORMAL),  # the same two, then another
        (FIRST, ["crane", "slate", "fuzzy"], Mode.NORMAL),
        (FIRST, ["crane", "slate"], Mode.HARD),
    ]
)  # the same first, in hard mode
def test_a_position_worked_out_for_one_game_coaches_another_as_from_nothing(games) -> None:
    """The coach keeps what it worked out at the positions it saw (a day's games share them):
    a game coached after others that passed through its positions, playing the same or
    other guesses there, or in another mode, is coached exactly as alone."""
    played = []
    for answer, words, mode in games:
        game = WordleGame(WORDLE, answer, mode)
        for word in (*words, answer):
            game.guess(word)  # (a guess the mode refuses, or after the win, changes nothing)
        played.append((list(game.rows), mode))
    kept = [coach(WORDLE, rows, mode) for rows, mode in played]  # each after those before
    for (rows, mode), coaching in zip(played, kept, strict=True):
        coach_module._ranking.cache_clear()
        coach_module._exact_costs.cache_clear()
        assert coach(WORDLE, rows, mode) == coaching
