import json
import random

import pytest

from bot.cli import main
from engine.game import GameStateError, Status
from engine.multiboard import BOARDS, MultiGame, guess_limit
from engine.pattern import score
from engine.rules import Mode, is_consistent
from engine.solver.multiboard import STRATEGIES, multi_hint, play, simulate


def test_limits_follow_the_family() -> None:
    assert {g: guess_limit(n) for g, n in BOARDS.items()} == {
        "dordle": 7, "quordle": 9, "octordle": 13, "sedecordle": 21,
    }  # fmt: skip


def test_each_guess_scores_every_unsolved_board(wordle) -> None:
    game = MultiGame(wordle, ["cigar", "rebut"])
    first = game.guess("cigar")
    assert first.patterns == [score("cigar", "cigar"), score("cigar", "rebut")]
    assert game.solved(0) and not game.solved(1)
    second = game.guess("crane")
    assert second.patterns == [None, score("crane", "rebut")]  # board 1 is done
    assert game.rows(0) == [("cigar", 242)]
    assert game.guess("rebut").accepted and game.status is Status.WON
    assert game.solved_at(1) == 3 and game.guess("crane").message == "This game is over"


def test_a_game_is_lost_at_the_limit(wordle) -> None:
    game = MultiGame(wordle, ["cigar", "rebut"])
    for word in ("crane", "slate", "pouty", "dwelt", "hymns", "befog", "quick"):
        assert game.guess(word).accepted
    assert game.status is Status.LOST and len(game.guesses) == 7


def test_hard_mode_applies_to_every_unsolved_board(wordle) -> None:
    game = MultiGame(wordle, ["cigar", "rebut"], Mode.HARD)
    game.guess("crane")  # board 1: C green; board 2: R and E yellow
    assert game.guess("slate").message == "Board 1: 1st letter must be C"
    assert game.guess("chore").message == "Board 1: Guess must contain A"
    assert game.guess("crate").accepted  # C first; A, R (board 1) and R, E (board 2)


def test_round_trip_and_damage(wordle) -> None:
    game = MultiGame(wordle, ["cigar", "rebut", "sissy", "humph"])
    game.guess("crane")
    game.guess("zzzzz")
    restored = MultiGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.guesses == ["crane"] and restored.answers == game.answers
    with pytest.raises(GameStateError):
        MultiGame.from_dict({**game.to_dict(), "answers": ["zzzzz"]})


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_strategy_plays_legal_consistent_games(wordle, strategy: str) -> None:
    rng = random.Random(3)
    for _ in range(5):
        deal = rng.sample(range(len(wordle.answers)), 4)
        played: list[str] = []

        def spy(boards, deal=deal, played=played) -> int:
            for b in boards.open():  # the real answer is never filtered out
                assert deal[b] in boards.candidates[b]
            guess = STRATEGIES[strategy](boards)
            played.append(wordle.guesses.words[guess])
            return guess

        turns = play(wordle, deal, spy, random.Random(1))
        assert turns is None or 4 <= turns <= 9
        # Replayed in the real game: every guess legal, the same number of turns and outcome.
        game = MultiGame(wordle, [wordle.answers.words[i] for i in deal])
        assert all(game.guess(word).accepted for word in played)
        assert len(played) == (turns or 9)
        assert (game.status is Status.WON) == (turns is not None)


def test_hard_mode_leaves_solved_boards_alone(wordle) -> None:
    game = MultiGame(wordle, ["cigar", "rebut"], Mode.HARD)
    game.guess("cigar")  # board 1 solved; board 2: R present, not last
    # Were board 1's greens still binding, only CIGAR could follow.
    assert game.guess("rebut").accepted and game.status is Status.WON


def test_the_simulator_is_seeded_and_reports_the_documented_keys() -> None:
    a = simulate("dordle", "finish", 30, seed=5)
    b = simulate("dordle", "finish", 30, seed=5)
    assert {k: v for k, v in a.items() if k != "seconds"} == {
        k: v for k, v in b.items() if k != "seconds"
    }
    assert {"games", "win_rate", "mean", "distribution", "seconds"} <= set(a)
    assert sum(a["distribution"].values()) == 30


def test_our_strategy_wins_every_quordle_of_a_seeded_sample() -> None:
    figures = simulate("quordle", "finish", 150, seed=11)
    assert figures["win_rate"] == 1.0 and figures["mean"] < 7.1


def test_a_multi_board_hint(wordle) -> None:
    answers = ["cigar", "rebut"]
    rows = [[score("crane", a) for a in answers], [score("sloth", a) for a in answers]]
    hint = multi_hint(wordle, ["crane", "sloth"], rows)
    history = [[(g, r[b]) for g, r in zip(["crane", "sloth"], rows, strict=True)] for b in range(2)]
    for board, words in enumerate(hint.candidates):
        assert answers[board] in words
        assert all(is_consistent(w, history[board]) for w in words)
    assert hint.guess in wordle.guesses


def test_sim_cli_json(capsys) -> None:
    assert main(["sim", "--game", "dordle", "--games", "20", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 20 and 0 <= data["win_rate"] <= 1
