"""The README's example histories are possible: a history no answer fits would make its
`check` and `hint` examples print an error instead of what the README says."""

import re
from pathlib import Path

import pytest

from engine.history import parse_history
from engine.solver.hints import hint
from engine.variants import get_variant

README = (Path(__file__).parent.parent / "README.md").read_text()
HISTORIES = re.findall(r'--history "([^"]+)"', README)


def test_the_readme_has_history_examples() -> None:
    assert HISTORIES


@pytest.mark.parametrize("history", HISTORIES)
def test_each_readme_history_fits_some_answer(history: str) -> None:
    variant = get_variant("wordle")
    assert hint(variant, parse_history(history, variant)).remaining > 0


# Every `wordlebot ...` command the README shows either runs here and prints what the README
# says, or is listed below with the reason it is not run: a new example cannot drift unseen.
COMMANDS = sorted(set(re.findall(r"`(wordlebot [^`]*)`", README)))
NOT_RUN = {
    "wordlebot Wordle #N": "a name, not a command",
    "wordlebot Primel #N": "a name, not a command",
    "wordlebot run": "needs Discord (tests/test_e2e.py runs it against the stand-in)",
    "wordlebot sync": "needs Discord",
    "wordlebot invite": "needs the application id or a token (tests/test_cli.py)",
    "wordlebot console": "interactive; its piped form is run by tests/test_console.py",
    "wordlebot db backup": "needs a path (tests/test_cli.py)",
    "wordlebot db backup FILE": "needs a path (tests/test_cli.py)",
    "wordlebot db copy": "needs two databases (tests/test_postgres.py)",
    "wordlebot digest --guild ID [--day YYYY-MM-DD]": "placeholders (tests/test_digest.py)",
    "wordlebot tree --strategy optimal": "an exact search of minutes when not cached",
    "wordlebot sim --compare": "a simulation of minutes",
    "wordlebot bench service": "a benchmark of minutes",
    "wordlebot study hard-mode": "a study of minutes (its tables are in the README)",
    "wordlebot study hard-mode [--variant V] [--agents ...] [--json] [--plot FILE.png]": (
        "a study of minutes (its tables are in the README; tests/test_study.py runs a sample)"
    ),
}
NOT_RUN |= {  # benchmarks print timings: run by hand, figures in the README
    c: "a benchmark (minutes; its figures are in the README)"
    for c in COMMANDS if c.startswith(("wordlebot bench", "wordlebot sim"))
}  # fmt: skip
SAYS = {  # what the README says each command prints
    "wordlebot --version": ["wordlebot 0."],
    "wordlebot --help": ["usage: wordlebot", "bench", "study"],
    "wordlebot coach crane moist cigar --answer cigar": ["CRANE", "MOIST", "CIGAR", "Skill"],
    "wordlebot absurdle solve": ["RAISE", "YAULD", "TENCH", "WHOOP"],
    "wordlebot parse --json": ['"shares"', '"problems"'],
}


def test_every_readme_command_is_run_or_says_why_not() -> None:
    unaccounted = [c for c in COMMANDS if c not in NOT_RUN and c not in SAYS]
    assert unaccounted == [], "add them to SAYS (run) or NOT_RUN (with the reason)"


@pytest.mark.parametrize("command", sorted(SAYS))
def test_readme_commands_print_what_the_readme_says(command: str) -> None:
    import subprocess
    import sys

    argv = [sys.executable, "-m", "bot.cli", *command.split()[1:]]
    done = subprocess.run(argv, input="Wordle 1,234 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩\n",
                          capture_output=True, text=True, timeout=240)  # fmt: skip
    assert done.returncode == 0, done.stderr[-1000:]
    for fragment in SAYS[command]:
        assert fragment in done.stdout, (fragment, done.stdout[-1000:])


def test_the_score_example_prints_its_row(capsys) -> None:
    from bot.cli import main

    assert "`⬛⬛🟨⬛🟨` for `score speed abide`" in README
    assert main(["score", "speed", "abide"]) == 0
    assert capsys.readouterr().out.strip() == "⬛⬛🟨⬛🟨"
