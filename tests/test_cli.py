import json
import subprocess
import sys

import pytest

from bot import console
from bot.cli import main
from engine.game import Status
from engine.rules import Mode


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_the_emoji_row(capsys) -> None:
    assert run(capsys, "score", "speed", "abide") == (0, "⬛⬛🟨⬛🟨\n", "")


def test_score_json(capsys) -> None:
    _, out, _ = run(capsys, "score", "EERIE", "there", "--json")
    assert json.loads(out) == {"guess": "eerie", "answer": "there", "pattern": "10102"}


def test_score_primel(capsys) -> None:
    _, out, _ = run(capsys, "score", "12343", "12347", "--variant", "primel", "--json")
    assert json.loads(out)["pattern"] == "22220"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["slate", "--history", "crane:01002"],
         {"allowed": False, "message": "Guess must contain R"}),
        (["tares", "--history", "crane 01002 slate 00202"],
         {"allowed": False, "message": "3rd letter must be A"}),
        (["rouse", "--history", "CRANE ⬛🟨⬛⬛🟩"], {"allowed": True, "message": None}),
        (["prove", "--history", "crane:BYBBG", "--mode", "strict"],
         {"allowed": False, "message": "2nd letter can't be R"}),
        (["zzzzz"], {"allowed": False, "message": "Not in word list"}),
    ],
)  # fmt: skip
def test_check_json(capsys, argv: list[str], expected: dict) -> None:
    code, out, _ = run(capsys, "check", *argv, "--json")
    assert code == 0 and json.loads(out) == expected


def test_check_text(capsys) -> None:
    assert run(capsys, "check", "rouse", "--history", "crane:01002")[1] == "ROUSE is allowed\n"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["score", "spee", "abide"], "Not enough letters"),
        (["score", "sp3ed", "abide"], "Use only letters"),
        (["check", "slate", "--history", "crane:0100"], "needs 5 tiles"),
        (["check", "slate", "--history", "crane"], "has no feedback"),
        (["check", "slate", "--history", "cr:01002"], "Not enough letters"),
    ],
)
def test_mistakes_exit_2_with_one_line(capsys, argv: list[str], fragment: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_installed_command_reports_errors_without_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "score", "abc", "abide"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Not enough letters" in result.stderr and "Traceback" not in result.stderr


def test_console_game_plays_to_a_win() -> None:
    answer = console.pick_answer("wordle", seed=7)
    typed = iter(["crane", "zzzzz", answer])
    shown: list[str] = []
    status = console.play(
        "wordle", Mode.NORMAL, seed=7, read=lambda _: next(typed), write=shown.append
    )
    assert status is Status.WON
    assert any("Not in word list" in line for line in shown)
    assert shown[-1] == "Solved in 2/6!"


def test_console_game_ends_cleanly_at_end_of_input() -> None:
    def no_input(_: str) -> str:
        raise EOFError

    shown: list[str] = []
    status = console.play("primel", Mode.HARD, seed=1, read=no_input, write=shown.append)
    assert status is Status.PLAYING
    assert shown[-1].startswith("The answer was ")
