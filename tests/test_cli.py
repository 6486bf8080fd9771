import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.cli.service_bench import median_run


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


def test_hint_json_has_the_documented_keys(capsys) -> None:
    code, out, _ = run(capsys, "hint", "crane", "01002", "--json", "--top", "3")
    data = json.loads(out)
    assert code == 0 and set(data) == {
        "remaining", "candidates", "suggestions", "probabilities", "measure",
    }  # fmt: skip
    assert data["measure"] == "entropy"
    assert data["remaining"] == len(data["candidates"]) > 0 and data["probabilities"] == []
    assert set(data["suggestions"][0]) == {
        "guess", "entropy", "expected", "worst", "possible", "expected_guesses", "chance",
    }  # fmt: skip


@pytest.mark.parametrize(
    "history",
    [["crane", "01002"], ["CRANE", "⬛🟨⬛⬛🟩"], ["crane:BYBBG"], ["crane:-Y--G"]],
)
def test_hint_reads_every_notation_alike(capsys, history: list[str]) -> None:
    _, out, _ = run(capsys, "hint", *history, "--json")
    assert json.loads(out)["remaining"] == 40


def test_hint_reports_an_inconsistent_history(capsys) -> None:
    code, out, err = run(capsys, "hint", "crane", "01002", "slate", "00202")
    assert code == 2 and out == "" and "after row 2 (SLATE)" in err


def test_solve_walks_a_game_to_the_answer(tmp_path, monkeypatch) -> None:
    """Without an exact tree in the cache, solve ranks by entropy (with one, a test that
    searched it before in this session would make it follow the tree)."""
    from bot.cli import build_parser
    from bot.cli.solver_commands import cmd_solve
    from engine.matrix import cache_directory
    from engine.pattern import score, to_digits

    for matrix in cache_directory().glob("*.npy"):  # the session's matrices, no tree
        (tmp_path / matrix.name).symlink_to(matrix)
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(tmp_path))

    answer = "cigar"
    shown: list[str] = []

    def feedback(_: str) -> str:
        suggestion = shown[-1].split()[-1].lower()
        return to_digits(score(suggestion, answer), 5)

    args = build_parser().parse_args(["solve"])
    assert cmd_solve(args, read=feedback, write=shown.append) == 0
    assert shown[2:] == ["2315 possible. Try RAISE", "18 possible. Try GLAND", "It is CIGAR."]


def test_solve_refuses_bad_feedback_and_goes_on() -> None:
    from bot.cli import build_parser
    from bot.cli.solver_commands import cmd_solve

    typed = iter(["hello", "22221", "crane 22222"])  # 4 greens and a yellow: no answer fits
    shown: list[str] = []
    args = build_parser().parse_args(["solve"])
    cmd_solve(args, read=lambda _: next(typed), write=shown.append)
    assert any("is not a pattern" in line for line in shown)
    assert any("No answer fits" in line for line in shown)
    assert shown[-1] == "Solved in 1!"


def test_show_prints_the_game_turn_by_turn(capsys) -> None:
    code, out, _ = run(capsys, "show", "cigar", "--strategy", "entropy")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["row", "pool", "guess"]
    assert "soare" in lines[1] and "cigar" in lines[-1] and lines[-1].endswith("🟩🟩🟩🟩🟩")


def test_tree_lists_every_answer_and_a_subtree(capsys, tmp_path) -> None:
    out_file = tmp_path / "tree.txt"
    assert run(capsys, "tree", "--strategy", "parts", "--out", str(out_file))[0] == 0
    lines = out_file.read_text().splitlines()
    assert len(lines) == 2315 and lines[0].startswith("aback  trace:")
    assert all(line.split()[-1].endswith(":22222") for line in lines)
    code, out, _ = run(
        capsys, "tree", "--strategy", "parts", "--from", "trace 00000", "--depth", "1"
    )
    first, *rest = out.splitlines()
    assert code == 0 and first.endswith("left)") and rest and rest[0].startswith("  ")


def test_bench_play_sample_json(capsys) -> None:
    code, out, _ = run(
        capsys, "bench", "play", "--strategy", "minimax", "--answers", "50", "--json"
    )
    data = json.loads(out)
    assert {"games", "total", "mean", "max", "failures", "distribution", "seconds"} <= set(data)
    assert code == 0 and data["games"] == 50 and sum(data["distribution"].values()) == 50


def test_bench_play_hint_counts_the_common_words_it_shows(capsys) -> None:
    """Issue 40.8: following the hints in Polish plays mostly words of the answer list (plain
    entropy mostly rare ones), and the benchmark prints both shares beside the cost."""
    args = ("bench", "play", "--strategy", "hint", "--variant", "wordle-pl-5", "--answers", "100")
    code, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    assert code == 0 and (data["opener"], data["baseline"]["opener"]) == ("norka", "korna")
    assert data["common"] >= 0.8 > 0.3 >= data["baseline"]["common"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and "guesses before the win that are common words" in out


def test_a_cold_exact_search_is_timed_beside_the_reference_beam_given_its_opener(capsys) -> None:
    """Issue 31.12: the same run times the plain beam given SALET and prints the whole cold
    search's CPU time as a share of the beam's; ``--no-baseline`` skips it. One Wordle run
    (the beam is most of its cost); the printed line on a list whose search takes a second."""
    code, out, _ = run(
        capsys, "bench", "play", "--strategy", "optimal", "--cold", "--opener-scan", "full",
        "--json",
    )  # fmt: skip
    data = json.loads(out)
    reference = data["reference"]
    assert (data["total"], reference["opener"], reference["width"]) == (7920, "salet", 8)
    assert (reference["total"], reference["max"]) == (8041, 6)
    assert reference["ratio"] == pytest.approx(
        reference["search_cpu_seconds"] / reference["cpu_seconds"], abs=0.002
    )
    small = ("bench", "play", "--strategy", "optimal", "--cold", "--variant", "wordle-it-4")
    code, out, _ = run(capsys, *small)
    assert code == 0 and "reference, same run: the plain numpy beam of 8 given RASO" in out
    assert "total 1143, max 5" in out
    code, out, _ = run(capsys, *small, "--json")
    assert code == 0 and json.loads(out)["reference"]["opener"] == json.loads(out)["opener"]
    code, out, _ = run(capsys, *small, "--no-baseline", "--json")
    assert code == 0 and "reference" not in json.loads(out)


def test_db_migrate_and_backup(capsys, tmp_path, monkeypatch) -> None:
    import sqlite3

    from bot.storage import LATEST

    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "live.sqlite3"))
    code, out, _ = run(capsys, "db", "migrate")
    assert code == 0 and out.strip() == f"schema version 0 -> {LATEST}"
    assert run(capsys, "db", "migrate")[1].strip() == f"schema version {LATEST}: up to date"
    code, out, _ = run(capsys, "db", "backup", str(tmp_path / "copy.sqlite3"))
    assert code == 0 and "backed up" in out
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert copy.execute("PRAGMA user_version").fetchone()[0] == LATEST


def test_a_bad_setting_is_named_without_a_traceback(capsys, monkeypatch) -> None:
    monkeypatch.setenv("DAILY_TIMEZONE", "Mars/Olympus")
    code, _, err = run(capsys, "db", "migrate")
    assert code == 2 and "DAILY_TIMEZONE" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ("bench", "service", "--repeat", "0"),
    ("bench", "play", "--strategy", "optimal", "--root-width", "32"),  # not --cold
    ("bench", "discord", "--step", "0"),
    ("bench", "discord", "--start", "300", "--limit", "200"),
])  # fmt: skip
def test_bench_options_out_of_range_are_refused(capsys, argv) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_bench_service_small_on_both_engines(capsys, postgres_url) -> None:
    code, out, _ = run(
        capsys, "bench", "service", "--players", "6", "--games", "1", "--board-players", "20",
        "--results", "200", "--database", postgres_url, "--repeat", "1", "--json",
    )  # fmt: skip
    data = json.loads(out)
    runs = [(r["engine"], r["processes"]) for r in data["runs"]]
    assert code == 0 and runs == [("sqlite", 1), ("postgresql", 1), ("postgresql", 2)]
    assert all(r["accepted_guesses"] > 0 and r["p99_ms"] > 0 for r in data["runs"])
    assert all(r["games_finished_per_second"] > 0 for r in data["runs"])
    assert all(r["each_run"] == [r["guesses_per_second"]] for r in data["runs"])
    assert {b["board_results"] for b in data["boards"].values()} == {200}
    assert set(data["boards"]) == {"sqlite", "postgresql"}
    assert all(b["digest_ms"] >= b["digest_reads_ms"] > 0 for b in data["boards"].values())


def test_bench_service_can_leave_sqlite_out(capsys, postgres_url) -> None:
    code, _, err = run(capsys, "bench", "service", "--postgresql-only")
    assert code == 2 and "--postgresql-only needs --database" in err
    code, out, _ = run(
        capsys, "bench", "service", "--players", "2", "--games", "1", "--board-players", "5",
        "--results", "20", "--database", postgres_url, "--postgresql-only", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert [r["engine"] for r in data["runs"]] == ["postgresql", "postgresql"]
    assert set(data["boards"]) == {"postgresql"}


def test_bench_growth_measures_each_table_and_what_the_purge_keeps(capsys, postgres_url) -> None:
    code, out, _ = run(capsys, "bench", "growth", "--players", "12", "--days", "40",
                       "--database", postgres_url, "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and set(data) == {"sqlite", "postgresql"}
    for figures in data.values():
        tables, kept = figures["tables"], figures["after_purge"]["tables"]
        played = tables["results"]["rows"]
        assert played > 12 * 30 and tables["games"]["rows"] == played
        assert tables["period_standings"]["bytes"] > tables["period_standings"]["index_bytes"] > 0
        assert tables["digests"]["rows"] == 40 and kept["digests"]["rows"] == 32
        assert kept["period_standings"]["rows"] < tables["period_standings"]["rows"]
        assert kept["results"] == tables["results"]  # a player's history is never purged
        assert 0 < figures["after_purge"]["bytes"] < figures["year"]["bytes"]
        assert figures["year"]["bytes_per_player_year"] == round(
            figures["year"]["bytes"] * 365 / 40 / 12
        )


@given(rates=st.lists(st.floats(0, 1e4), min_size=1, max_size=9))
def test_a_repeated_service_bench_reports_its_median_run(rates) -> None:
    """Of --repeat N runs, the figures are those of the median run (of two, the lower)."""
    runs = [{"guesses_per_second": rate, "run": n} for n, rate in enumerate(rates)]
    chosen = median_run(runs)
    below = sum(rate < chosen["guesses_per_second"] for rate in rates)
    above = sum(rate > chosen["guesses_per_second"] for rate in rates)
    assert below <= (len(rates) - 1) // 2 and above <= len(rates) // 2


def test_wordlebot_alone_prints_help_and_version_works(capsys) -> None:
    code, out, _ = run(
        capsys,
    )
    assert code == 0 and "usage: wordlebot" in out and "console" in out
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("wordlebot 0.")


@pytest.mark.parametrize(
    "argv",
    [
        ["db", "backup", "/nonexistent/x.db"],
        ["tree", "--strategy", "entropy", "--out", "/nonexistent/tree.txt"],
    ],
)
def test_file_arguments_that_cannot_be_used_exit_2_with_one_line(
    capsys, tmp_path, monkeypatch, argv: list[str]
) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    code, _, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "/nonexistent" in err


def test_a_damaged_database_exits_2_with_one_line(capsys, tmp_path, monkeypatch) -> None:
    path = tmp_path / "zero.sqlite3"
    path.write_bytes(b"")
    monkeypatch.setenv("DATABASE_PATH", str(path))
    code, _, err = run(capsys, "db", "migrate")
    assert code == 2 and "is empty" in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == b""


def test_invite_prints_both_install_links(capsys, monkeypatch) -> None:
    import base64

    token_id = base64.b64encode(b"987654321098765432").decode().rstrip("=")
    monkeypatch.setenv("DISCORD_TOKEN", f"{token_id}.Gx1234.secret-part")
    code, out, err = run(capsys, "invite")
    assert code == 0 and "client_id=987654321098765432" in out and "secret-part" not in out + err
    code, out, _ = run(capsys, "invite", "--app-id", "42")
    server, user = (line.split()[-1] for line in out.splitlines()[:2])
    base = "https://discord.com/oauth2/authorize?client_id=42"
    # A server install: the bot user and its commands, with View Channels, Send Messages,
    # Embed Links and Attach Files; a user install: the commands alone (no bot user joins).
    assert server == f"{base}&integration_type=0&scope=bot+applications.commands&permissions=117760"
    assert user == f"{base}&integration_type=1&scope=applications.commands"


def test_bench_soak_reports_memory_per_kind(capsys) -> None:
    _, out, _ = run(capsys, "bench", "soak", "--games", "100", "--every", "50", "--kind",
                    "quordle", "--json")  # fmt: skip
    figures = json.loads(out)
    assert len(figures["kinds"]["quordle"]["rss_mib"]) == 2
    assert figures["held_at_end"]["locks"] == 0 and figures["held_at_end"]["parsed"] == 0


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_bar_on_a_terminal_and_plain_tenths_when_piped() -> None:
    from bot.cli.progress import progress

    piped = io.StringIO()
    with progress("games", piped) as shown:
        for done in range(1, 201):
            shown(done, 200)
    lines = piped.getvalue().splitlines()
    assert lines[0] == "games: 1/200 (0%)" and lines[-1] == "games: 200/200 (100%)"
    assert len(lines) == 11  # one line per tenth, never one per step
    terminal = Terminal()
    with progress("games", terminal) as shown:
        for done in range(1, 201):
            shown(done, 200)
    assert "200/200" in terminal.getvalue() and "\r" in terminal.getvalue()  # redrawn in place


def test_long_jobs_show_their_progress_on_stderr_and_keep_stdout_for_results(capsys) -> None:
    code, out, err = run(capsys, "sim", "--game", "dordle", "--games", "20", "--json")
    assert code == 0 and json.loads(out)["games"] == 20
    assert "dordle, finish: games: 20/20 (100%)" in err


def test_finishing_time_counts_processes_giving_up_at_once_once() -> None:
    from bot.cli.service_bench import covered

    assert covered([(0.0, 1.0), (0.5, 2.0), (3.0, 4.0)]) == 3.0  # overlap once, gap not at all
    assert covered([(0.0, 5.0), (1.0, 2.0)]) == 5.0


@pytest.fixture
def languages(tmp_path, monkeypatch):
    """A word-list directory with one synthetic language (accents, ß) in lengths 4 and 11,
    installed as the registry every command reads."""
    import random

    import engine.variants

    alphabet = "abcdeéñß"
    entry = {"code": "xc", "name": "Xc", "english_name": "Synthetic", "alphabet": alphabet,
             "fold": {"ê": "e"}, "keyboard": ["abcde", "éñß"], "lengths": [4, 11]}  # fmt: skip
    (tmp_path / "languages.json").write_text(json.dumps([entry]), "utf-8")
    rng = random.Random(4)
    for length in (4, 11):
        words = sorted({"".join(rng.choices(alphabet, k=length)) for _ in range(300)})
        (tmp_path / "xc").mkdir(exist_ok=True)
        (tmp_path / "xc" / f"{length}-allowed.txt").write_text("\n".join(words) + "\n", "utf-8")
        answers = "\n".join(rng.sample(words, 40)) + "\n"
        (tmp_path / "xc" / f"{length}-answers.txt").write_text(answers, "utf-8")
    monkeypatch.setattr(engine.variants, "REGISTRY", engine.variants.Registry(tmp_path))
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def test_variants_lists_every_variant_with_its_lists(capsys, languages) -> None:
    _, out, _ = run(capsys, "variants", "--json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert list(rows) == ["wordle", "wordle-nyt", "wordle-nyt-era", "primel",
                          "wordle-xc-4", "wordle-xc-11"]  # fmt: skip
    assert rows["wordle"] == {"name": "wordle", "language": "en", "length": 5,
                              "answers": 2315, "allowed": 12972, "daily": True,
                              "exact_tree": False}  # fmt: skip
    assert rows["wordle-xc-11"]["language"] == "xc" and rows["wordle-xc-11"]["answers"] == 40
    assert rows["primel"]["language"] == "zxx"
    _, text, _ = run(capsys, "variants")
    assert text.splitlines()[0].split() == ["variant", "lang", "length", "answers", "allowed",
                                            "daily", "tree"]  # fmt: skip
    assert any(line.split()[:3] == ["wordle-xc-11", "xc", "11"] for line in text.splitlines())


def test_every_command_takes_a_listed_variant(capsys, languages) -> None:
    from engine.variants import get_variant

    variant = get_variant("wordle-xc-11")
    guess, answer = variant.guesses.words[0], variant.answers.words[0]
    _, out, _ = run(capsys, "score", guess.upper().replace("SS", "ß"), answer,
                    "--variant", "wordle-xc-11", "--json")  # fmt: skip
    assert json.loads(out)["guess"] == guess and len(json.loads(out)["pattern"]) == 11
    assert run(capsys, "score", "аbcd", "abcd", "--variant", "wordle-xc-4")[0] == 2
    history = f"{guess}:{json.loads(out)['pattern']}"
    code, out, _ = run(capsys, "hint", history, "--variant", "wordle-xc-11", "--json")
    assert code == 0 and answer in json.loads(out)["candidates"]
    _, out, _ = run(capsys, "bench", "matrix", "--variant", "wordle-xc-11", "--repeat", "1",
                    "--json")  # fmt: skip
    figures = json.loads(out)
    assert figures["shape"] == [len(variant.guesses), 40] and figures["dtype"] == "uint32"
    assert figures["size_mib"] == round(len(variant.guesses) * 40 * 4 / 2**20, 1)
    _, out, _ = run(capsys, "bench", "matrix", "--variant", "wordle-xc-11", "--repeat", "1")
    assert "uint32" in out and "loaded from the cache" in out
    _, out, _ = run(capsys, "bench", "hints", "--variant", "wordle-xc-4", "--positions", "20",
                    "--nyt-positions", "0", "--json")  # fmt: skip
    assert json.loads(out)["positions"] > 0


def test_bench_coach_times_a_first_coaching_from_an_empty_cache_then_the_next(capsys) -> None:
    """Issue 40.4: each run is a fresh process with an empty cache, so the first coaching
    pays for the opening's figures; with ``--baseline`` the same on another checkout (here
    this one), and whether the two coached alike."""
    code, out, _ = run(capsys, "bench", "coach", "--variant", "wordle-en-4", "--games", "2",
                       "--json")  # fmt: skip
    this = json.loads(out)["this"]
    assert code == 0 and this["variant"] == "wordle-en-4" and len(this["coach_cpu_s"]) == 2
    assert len(this["verdicts"]) == 16
    checkout = str(Path(__file__).resolve().parents[1])
    code, out, _ = run(capsys, "bench", "coach", "--variant", "wordle-en-4", "--games", "1",
                       "--baseline", checkout)  # fmt: skip
    assert code == 0 and "the first" in out and out.rstrip().endswith("same verdicts: yes")


def test_bench_grid_times_hard_mode_readings_and_compares_them_with_a_baseline(capsys) -> None:
    """Each hard-mode grid read to its end, in a fresh process; with ``--baseline`` the
    same on another checkout (here this one), and whether the two read alike."""
    code, out, _ = run(capsys, "bench", "grid", "--variant", "wordle-en-4", "--grids", "2",
                       "--json")  # fmt: skip
    this = json.loads(out)["this"]
    assert code == 0 and this["variant"] == "wordle-en-4" and len(this["grid_cpu_s"]) == 2
    assert all(hard <= normal for normal, hard in this["answers_normal_hard"])
    checkout = str(Path(__file__).resolve().parents[1])
    code, out, _ = run(capsys, "bench", "grid", "--variant", "wordle-en-4", "--grids", "1",
                       "--baseline", checkout)  # fmt: skip
    assert code == 0 and "answers kept" in out and out.rstrip().endswith("same readings: yes")
