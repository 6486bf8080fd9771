"""The coaching's verdicts stay what they were: games recorded with the code before the
coaching was made faster (f4137cf), on a list that keeps its matrix and on large ones that
build their patterns, in normal, hard and strict mode; each game hinted to its end, or a few
random guesses then the answer. Coached here from an empty cache, so the opening's figures
are computed, not read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules import Mode
from engine.solver.coach import coach, opening_eg
from engine.variants import get_variant

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "coach-verdicts.json").read_text())


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(tmp_path))
    opening_eg.cache_clear()
    yield
    opening_eg.cache_clear()


@pytest.mark.parametrize(
    "game", RECORDED, ids=[f"{g['variant']}-{g['mode']}-{i}" for i, g in enumerate(RECORDED)]
)
def test_a_recorded_game_is_coached_as_before(game, empty_cache) -> None:
    rows = [(guess, pattern) for guess, pattern in game["rows"]]
    coaching = coach(get_variant(game["variant"]), rows, Mode(game["mode"]))
    assert coaching.to_json() == game["coaching"]
