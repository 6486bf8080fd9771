"""Bad input, as an attacker or a slip of the finger types it, anywhere on the command line
or in the console: dates at the calendar's edges, 20-digit and negative numbers, empty and
4,000-character arguments, unknown names. Each gets one clear line (the CLI: on stderr, exit
status 2), never a traceback, never a job that runs for ever."""

from __future__ import annotations

import asyncio
import io

import pytest

from bot.cli import main
from bot.console import Console
from bot.services import Player, open_services
from bot.settings import load_settings

BIG = "9" * 20
LONG = "a" * 4000
SEED = "f0e1d2c3b4a5968778695a4b3c2d1e0f-hostile"
SHARE_ROWS = "\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩🟩\n🟩🟩🟩🟩🟩"

CLI = [
    (["digest", "--guild", "1", "--day", "0001-01-01"], "No digest for 0001-01-01"),
    (["digest", "--guild", "1", "--day", "9999-12-31"], "No digest for 9999-12-31"),
    (["digest", "--guild", "1", "--day", "2021-06-18"], "from 2021-06-19 (puzzle #0)"),
    (["digest", "--guild", "1", "--day", ""], "not a date"),
    (["digest", "--guild", "1", "--day", LONG], "not a date"),
    (["digest", "--guild", BIG], "whole number from 0 to"),
    (["digest", "--guild", "-1"], "whole number from 0 to"),
    (["invite", "--app-id", BIG], "whole number from 1 to"),
    (["invite", "--app-id", "0"], "whole number from 1 to"),
    (["hint", "crane", "01002", "--top", "-" + BIG], "--top: takes a whole number"),
    (["hint", "crane", "01002", "--top", "0"], "--top: takes a whole number"),
    (["hint", LONG], ""),
    (["hint", "crane", "01002", "--variant", LONG], "unknown variant 'aaaaaaaaaaaaaaaaaaaa'"),
    (["score", LONG, "crane"], "guess"),
    (["score", "", "crane"], "guess"),
    (["score", BIG, "12347", "--variant", "primel"], "guess"),
    (["coach", LONG, "--answer", "cigar"], ""),
    (["coach", "crane", "--answer", LONG], "--answer"),
    (["show", "cigar", "--strategy", "optimal", "--width", "0"], "--width"),
    (["show", "cigar", "--strategy", "optimal", "--width", "-1"], "--width"),
    (["show", LONG], "is not an answer"),
    (["tree", "--depth", BIG], "--depth"),
    (["absurdle", "solve", "--max-guesses", BIG], "--max-guesses"),
    (["absurdle", "solve", "--width", "0"], "--width"),
    (["absurdle", "solve", "--target", LONG], "is not a possible answer"),
    (["sim", "--games", BIG], "--games"),
    (["sim", "--games", "0"], "--games"),
    (["sim", "--seed", "-1"], "--seed"),
    (["bench", "matrix", "--repeat", "0"], "--repeat"),
    (["bench", "matrix", "--repeat", BIG], "--repeat"),
    (["bench", "play", "--answers", BIG], "--answers"),
    (["bench", "play", "--answers", "-1"], "--answers"),
    (["bench", "play", "--answers", "99999"], "--answers takes 'all' or 1 to 2,315"),
    (["bench", "openers", "--top", "-1"], "--top"),
    (["bench", "hints", "--positions", "0"], "--positions"),
    (["bench", "hints", "--nyt-positions", "-1"], "--nyt-positions"),
    (["bench", "soak", "--games", BIG], "--games"),
    (["bench", "soak", "--every", "0"], "--every"),
    (["bench", "service", "--players", "0"], "--players"),
    (["bench", "discord", "--seconds", "nan"], "--seconds"),
    (["bench", "discord", "--seconds", "inf"], "--seconds"),
    (["study", "hard-mode", "--seed", "-1"], "--seed"),
    (["study", "hard-mode", "--episodes", BIG], "--episodes"),
    (["study", "hard-mode", "--loss-penalty", "nan"], "--loss-penalty"),
    (["study", "hard-mode", "--answers", BIG], "--answers"),
    (["db", "copy", "--from", "", "--to", "x.sqlite3"], "empty"),
    (["db", "migrate", "--database", ""], "DATABASE_URL: empty"),
    (["db", "migrate", "--database", "/" + LONG], "File name too long"),
    (["db", "backup", "", "--database", "live.sqlite3"], "give the backup's file"),
    (["nonsense"], "invalid choice"),
]


@pytest.mark.parametrize(("argv", "says"), CLI, ids=[" ".join(a)[:40] for a, _ in CLI])
def test_the_cli_answers_bad_arguments_in_one_line(capsys, tmp_path, monkeypatch, argv, says):
    monkeypatch.chdir(tmp_path)
    # Set through monkeypatch, so what --database writes there is undone after the test.
    monkeypatch.setenv("DATABASE_URL", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("DAILY_SEED", SEED)
    with pytest.raises(SystemExit) as stopped:
        raise SystemExit(main(argv))
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == "", (out, err)
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert says in err and len(err) < 400, err
    assert not (tmp_path / "db.sqlite3").exists() or argv[0] == "digest"


SHARES = [
    f"Wordle {BIG} 3/6{SHARE_ROWS}",
    f"Primel {BIG} 3/6{SHARE_ROWS}",
    f"Daily Quordle {BIG}\n6️⃣4️⃣\n5️⃣7️⃣",
    f"Absurdle {BIG} 4/∞",
]


@pytest.mark.parametrize("share", SHARES, ids=lambda s: s.split()[0])
def test_parse_reads_a_20_digit_puzzle_number_as_written(capsys, monkeypatch, share) -> None:
    """The parser reads what the share says; whether such a number counts is the share
    rules' to say (bot/services/shares.py: "not a puzzle number", tested there)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(share))
    code = main(["parse"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err and not err
    assert BIG in out.replace(",", "")


CONSOLE = [
    ("/digest 0001-01-01", "No digest for 0001-01-01"),
    ("/digest 9999-12-31", "No digest for 9999-12-31"),
    (f"/digest {BIG}", "Not a date"),
    (f"/wordle archive {BIG}", "is not out yet"),
    (f"/wordle archive -{BIG}", "The archive starts at"),
    ("/wordle archive 0001-01-01", "The archive starts at"),
    ("/primel archive 9999-12-31", "is not out yet"),
    (f"/analyze Wordle {BIG} 3/6{SHARE_ROWS}", f"Wordle #{BIG}: 3"),  # read, not recorded
    (f"/analyze Primel {BIG} 3/6{SHARE_ROWS}", f"Primel #{BIG}: 3"),
    (f"/analyze Daily Quordle {BIG}\n6️⃣4️⃣\n5️⃣7️⃣", f"Quordle #{BIG}: 6, 4, 5, 7"),
    (f"/analyze Wordle 1,234 3/6{SHARE_ROWS} words: {LONG}", ""),
    (f"/leaderboard wins all {BIG}", ""),
    (f"/leaderboard {LONG}", ""),
    (f"/challenge crane {BIG}", ""),
    ("/challenge crane -1", ""),
    (f"/challenge {LONG}", ""),
    (f"/play {BIG}", ""),
    ("/play -1", ""),
    (f"/stats {LONG}", ""),
    (f"/stats wordle {BIG}", ""),
    (f"/wordle {LONG}", ""),
    (f"/wordle daily {BIG}", ""),
    (f"/hint {BIG}", ""),
    (f"/hint {LONG}", ""),
    (f"/guess {BIG}", ""),
    (LONG, ""),
    (f"/colours {LONG}", ""),
    (f"/race {LONG}", ""),
    (f"/coop {BIG}", ""),
    (f"/cg {LONG}", ""),
    (f"/hardmode {LONG}", ""),
    (f"/as {LONG}", ""),
    (f"/{LONG}", "Unknown command"),
]


def console_says(*lines: str) -> list[str]:
    async def session() -> list[str]:
        settings = load_settings(database_path=":memory:", daily_seed=SEED)
        services = await open_services(settings)
        try:
            out: list[str] = []
            console = Console(services, Player(5, "tess"), out.append, colour=False)
            for line in lines:
                await console.handle(line)
            return out
        finally:
            await services.close()

    return asyncio.run(session())


@pytest.mark.parametrize(("line", "says"), CONSOLE, ids=[line[:40] for line, _ in CONSOLE])
def test_the_console_answers_bad_commands_plainly(line: str, says: str) -> None:
    out = console_says(line)
    text = "\n".join(out)
    assert out and "Traceback" not in text and says in text
    assert all(len(shown) < 600 for shown in text.splitlines()), text[:300]


def test_a_20_digit_puzzle_number_pasted_where_shares_count_is_refused_plainly() -> None:
    """/analyze records nothing, as in Discord; in the console's channel made a share
    channel (/sharechannel) a paste counts as a post there, and the share rules answer."""
    pastes = [line for line, says in CONSOLE if says.endswith(("#" + BIG + ": 3", "5, 7"))]
    assert len(pastes) == 3
    for paste in pastes:  # a session each: one analysis every 10 s
        text = "\n".join(console_says("/sharechannel on", paste))
        assert "not a puzzle number" in text and f"#{BIG[:18]}" in text, text
    assert "Traceback" not in text
