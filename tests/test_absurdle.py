import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from engine.absurdle import AbsurdleGame, adversary_choice
from engine.game import GameStateError, Status
from engine.pattern import from_tiles, parse_pattern, score
from engine.rules import Mode
from engine.solver.absurdle import force_target, minimax_step, shortest_win
from engine.solver.hints import hint
from engine.solver.measures import Measure, score_patterns
from engine.solver.position import Position, by_answer


def patterns(*texts: str) -> np.ndarray:
    return np.array([parse_pattern(t, 5) for t in texts], dtype=np.uint8)


@pytest.mark.parametrize(
    ("buckets", "kept"),
    [
        (["00000", "00000", "10000"], "00000"),  # the largest bucket
        (["20000", "01100"], "01100"),  # a tie: fewer greens first...
        (["11000", "01000"], "01000"),  # ...then fewer yellows...
        (["01000", "10000"], "01000"),  # ...then grey before yellow, left to right
        (["00200", "02000"], "00200"),  # ...and grey before green
        (["22222"], "22222"),  # the single word left, guessed
    ],
)
def test_the_adversary_keeps_the_largest_least_revealing_bucket(buckets, kept) -> None:
    pattern, keep = adversary_choice(patterns(*buckets), 5)
    assert pattern == parse_pattern(kept, 5)
    assert keep.sum() == buckets.count(kept)


def test_every_guess_leaves_the_largest_bucket(wordle) -> None:
    game = AbsurdleGame(wordle)
    before = set(game.remaining)
    outcome = game.guess("crane")
    sizes = {}
    for word in before:
        sizes[score("crane", word)] = sizes.get(score("crane", word), 0) + 1
    assert len(game.remaining) == max(sizes.values())
    assert all(score("crane", w) == outcome.pattern for w in game.remaining)


def test_a_known_four_guess_win(wordle) -> None:
    game = AbsurdleGame(wordle)
    for word in ("arise", "yauld", "tench"):
        game.guess(word)
    assert game.remaining == ["whoop"] and game.status is Status.PLAYING
    assert game.guess("whoop").pattern == from_tiles([2] * 5)
    assert game.status is Status.WON
    assert game.guess("crane").message == "This game is over"


def test_challenge_mode_is_lost_when_the_target_is_eliminated(wordle) -> None:
    game = AbsurdleGame(wordle, target="cigar")
    game.guess("cigar")  # the adversary dodges the target itself
    assert "cigar" not in game.remaining and game.status is Status.LOST


def test_hard_mode_uses_the_wordle_validator(wordle) -> None:
    game = AbsurdleGame(wordle, Mode.HARD)
    for word in ("arise", "yauld", "tench"):
        assert game.guess(word).accepted
    assert game.guess("crane").message == "Guess must contain H"  # TENCH showed a yellow H


def test_refusals_change_nothing_and_state_round_trips(wordle) -> None:
    game = AbsurdleGame(wordle, target="whoop")
    game.guess("arise")
    assert game.guess("zzzzz").message == "Not in word list"
    restored = AbsurdleGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.remaining == game.remaining and restored.rows == game.rows
    with pytest.raises(GameStateError):
        AbsurdleGame.from_dict({**game.to_dict(), "rows": ["zzzzz"]})


def test_the_solver_finds_a_four_guess_win_that_really_wins(wordle, capsys) -> None:
    """`wordlebot absurdle solve --json` (the solver's line, as the command prints it): four
    guesses that win when played against the adversary; none in three is found."""
    assert main(["absurdle", "solve", "--max-guesses", "4", "--width", "20", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["won"] is True and len(data["guesses"]) == 4 and data["remaining"] == []
    game = AbsurdleGame(wordle)
    for guess in data["guesses"]:
        game.guess(guess)
    assert game.status is Status.WON and game.remaining == [data["guesses"][-1]]
    assert not shortest_win(wordle, max_guesses=3, width=20).won  # none in three found


def test_each_position_is_ranked_once_however_long_the_lines_tried(wordle, monkeypatch) -> None:
    """The search tries lines of 2, 3, then 4 guesses: each walks the shorter ones' positions
    again, and ranks each once (the lines found are the same: the tests around play them)."""
    from engine.solver import absurdle

    ranked: list[tuple] = []
    rank = absurdle.rank_guesses

    def counting(position, measure, *args, **kwargs):
        ranked.append(position.history)
        return rank(position, measure, *args, **kwargs)

    monkeypatch.setattr(absurdle, "rank_guesses", counting)
    shortest_win(wordle, max_guesses=4, width=3)
    assert len(ranked) == len(set(ranked)) > 3 and ranked[0] == ()
    del ranked[:]
    force_target(wordle, "fuzzy", max_guesses=4, width=2)
    assert len(ranked) == len(set(ranked)) > 3 and ranked[0] == ()


def test_a_challenge_line_forces_the_target(wordle) -> None:
    line = force_target(wordle, "fuzzy", max_guesses=5, width=15)
    assert line.won and line.steps[-1].guess == "fuzzy"
    game = AbsurdleGame(wordle, target="fuzzy")
    for step in line.steps:
        game.guess(step.guess)
    assert game.status is Status.WON
    assert not force_target(wordle, "fuzzy", max_guesses=2, width=5).won


def test_the_minimax_step_is_the_smallest_worst_case(wordle) -> None:
    assert minimax_step(Position.start(wordle)) == "raise"  # ARISE's worst too, more spread


async def test_a_practice_absurdle_given_up_says_what_was_left_not_an_empty_target(tmp_path):
    from bot.console import Console
    from bot.services import Player, open_services
    from bot.settings import load_settings
    from tests.test_console import script

    services = await open_services(load_settings(database_path=str(tmp_path / "a.sqlite3")))
    shown: list[str] = []
    await Console(services, Player(3, "kim"), shown.append, colour=False).run(
        script("/absurdle", "crane", "/giveup"))  # fmt: skip
    await services.close()
    text = "\n".join(shown)
    assert "The target  is gone" not in text and "Given up with" in text


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_absurdle_hints_rank_by_what_the_adversary_leaves(wordle, data) -> None:
    """Issue 31.8: the adversary always keeps the biggest group, so a hint ranks each guess
    by its worst case, and the first pick leaves no more words than any allowed guess."""
    game = AbsurdleGame(wordle)
    for word in data.draw(st.lists(st.sampled_from(wordle.answers.words), max_size=2)):
        if len(game.remaining) > 2:
            game.guess(word)
    result = hint(wordle, game.rows, measure=Measure.MINIMAX)
    assert result.measure == "minimax"
    position = Position.after(wordle, game.rows)
    every = score_patterns(by_answer(wordle)[position.candidates], 3**5)
    worst = [s.worst for s in result.suggestions]
    assert worst == sorted(worst) and worst[0] == every.worst.min()
    assert not {s.guess for s in result.suggestions} & {g for g, _ in game.rows}
    first = result.suggestions[0].guess
    game.guess(first)
    assert len(game.remaining) == worst[0]  # what the pick was said to leave
