"""What README.md and docs/*.md show works: every `wordlebot ...` command they show runs (or is
listed in NOT_RUN with the reason), prints what they say it prints, every example history
fits some answer, the engine's example code runs, and every link points to a file (and
heading) of this repository."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

from bot.cli import main
from engine.history import HistoryError, parse_history
from engine.pattern import PatternError
from engine.solver.hints import hint
from engine.solver.position import InconsistentHistory
from engine.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXTS = {path.relative_to(ROOT).as_posix(): path.read_text() for path in DOCS}

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def fenced(text: str, *languages: str) -> list[str]:
    return [body for language, body in FENCE.findall(text) if language in languages]


def prose(text: str) -> str:
    """The text outside fenced blocks."""
    return FENCE.sub("", text)


def without_comment(line: str) -> str:
    """A shell line without its trailing `# comment` (a # inside quotes stays)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def shell_lines(text: str) -> list[str]:
    """Each command line of the ```sh blocks, continuation lines joined, comments dropped."""
    lines = []
    for block in fenced(text, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            if line := re.sub(r"\s+", " ", without_comment(line)).strip():
                lines.append(line)
    return lines


def commands_in(text: str) -> set[str]:
    """Inline `wordlebot ...` spans of the prose, and the shell lines that run wordlebot."""
    inline = set(re.findall(r"`(wordlebot [^`]*)`", prose(text)))
    return inline | {line for line in shell_lines(text) if "wordlebot" in line}


COMMANDS = sorted({c for text in TEXTS.values() for c in commands_in(text)})

NOT_RUN = {
    "wordlebot Wordle #20260301": "a name, not a command",
    "wordlebot Primel #20260301": "a name, not a command",
    "wordlebot run": "needs Discord (tests/test_e2e.py runs it against the stand-in)",
    "wordlebot sync": "needs Discord",
    "wordlebot invite": "needs the application id or a token (tests/test_cli.py)",
    "wordlebot console": "interactive; its piped forms are run here and by tests/test_console.py",
    "wordlebot db backup": "needs a path (tests/test_cli.py)",
    "wordlebot db backup FILE": "needs a path (tests/test_cli.py)",
    "wordlebot db backup wordlebot-backup.sqlite3": "writes into the checkout (tests/test_cli.py)",
    "wordlebot db copy": "needs two databases (tests/test_postgres.py)",
    "wordlebot db migrate --database URL": "a placeholder: run, it made a database named URL",
    "wordlebot digest --guild ID [--day YYYY-MM-DD]": "placeholders (tests/test_digest.py)",
    "wordlebot nyt pin N WORD": "placeholders (tests/test_nyt_votes.py)",
    "wordlebot tree --strategy optimal": "an exact search of minutes when not cached",
    "wordlebot study hard-mode": "a study of minutes (its tables are in docs/hard-mode-study.md)",
    "wordlebot study hard-mode [--variant V] [--agents ...] [--json] [--plot FILE.png]": (
        "a study of minutes (its tables are in docs/hard-mode-study.md; tests/test_study.py "
        "runs a sample)"
    ),
    "pip install -e . && wordlebot console": "installs the project; the console is interactive",
    "wordlebot db copy --from sqlite:///var/lib/wordlebot/wordlebot.sqlite3 --to "
    "postgresql://wordlebot:PASSWORD@db.example/wordlebot": (
        "an example server (tests/test_postgres.py copies between real databases)"
    ),
    "wordlebot tree --strategy optimal --mode normal --out-cache": "exact searches of minutes",
    "wordlebot tree --strategy optimal --mode hard --out-cache": "exact searches of minutes",
    "wordlebot tree --strategy optimal --mode strict --out-cache": "exact searches of minutes",
    "DATABASE_URL=postgresql://... SHARD_COUNT=4 SHARD_IDS=0,1 wordlebot run": "needs Discord",
    "DATABASE_URL=postgresql://... SHARD_COUNT=4 SHARD_IDS=2,3 wordlebot run": "needs Discord",
    "wordlebot run 2>> wordlebot.log": "needs Discord",
    "wordlebot web": "a server: runs until stopped",
    'wordlebot db copy --from sqlite:///backup.sqlite3 --to "$DATABASE_URL"': (
        "needs a backup and a PostgreSQL server (tests/test_db_copy.py copies both ways)"
    ),
}
NOT_RUN |= {  # benchmarks print timings: run by hand, figures in docs/performance.md
    c: "a benchmark (minutes; its figures are in docs/performance.md)"
    for c in COMMANDS if c.startswith(("wordlebot bench", "wordlebot sim"))
}  # fmt: skip

SAYS = {  # what the docs say a command prints (every other command shown must succeed)
    "wordlebot --version": ["wordlebot 0."],
    "wordlebot --help": ["usage: wordlebot", "bench", "study"],
    "wordlebot score speed abide": ["⬛⬛🟨⬛🟨"],
    "wordlebot score crane cigar": ["🟩🟨🟨⬛⬛"],
    "wordlebot score speed abide --json": ['"pattern": "00101"'],
    'wordlebot check moist --history "crane:01002 slate:00012"': ["5th letter must be E"],
    "wordlebot hint crane 01002 slate 00012": ["2 possible answers: there, three"],
    'wordlebot tree --strategy optimal --from "salet 00000" --depth 2': ["COURD"],
    "wordlebot coach crane moist cigar --answer cigar": ["CRANE", "MOIST", "CIGAR", "Skill"],
    "wordlebot absurdle solve": ["RAISE", "YAULD", "TENCH", "WHOOP"],
    "wordlebot parse --json": ['"shares"', '"problems"'],
    "printf 'Wordle 1,234 2/6\\n\\n⬛🟨⬛⬛⬛\\n🟩🟩🟩🟩🟩\\n' | wordlebot parse --json": [
        '"game": "wordle"',
        '"puzzle": 1234',
    ],
    "printf '/wordle practice\\ncrane\\n/stats\\n' | wordlebot console": ["CRANE", "Played"],
}
STDIN = "Wordle 1,234 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩\n"  # for a command shown reading a paste
RUN = [c for c in COMMANDS if c not in NOT_RUN]


def test_the_docs_show_commands_and_the_fixed_examples() -> None:
    assert len(DOCS) > 5 and len(RUN) > 15
    assert 'wordlebot tree --strategy optimal --from "salet 00000" --depth 2' in RUN
    assert "crane 01002 slate 00202" not in "".join(TEXTS.values())  # no answer fits it


def test_every_not_run_entry_is_still_shown() -> None:
    """A reason for a command the docs no longer show is a stale excuse."""
    shown = set(COMMANDS)
    assert [c for c in NOT_RUN if c not in shown] == []
    assert [c for c in SAYS if c not in shown] == []


def plain(command: str) -> bool:
    """A single `wordlebot` command: run in this process (no shell needed)."""
    return command.startswith("wordlebot ") and not any(s in command for s in "|<>&;$")


@pytest.mark.parametrize("command", RUN)
def test_each_command_shown_runs(command: str, tmp_path, monkeypatch, capfd) -> None:
    database = f"sqlite:///{tmp_path / 'docs.sqlite3'}"
    if plain(command):
        monkeypatch.setenv("DATABASE_URL", database)
        monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(STDIN))
        try:
            status = main(shlex.split(command)[1:])
        except SystemExit as exc:  # --help, --version
            status = exc.code or 0
        out, err = capfd.readouterr()
    else:  # pipes: the shell runs it, `wordlebot` being this checkout's
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_"))}
        env |= {"DATABASE_URL": database, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
        script = f'wordlebot() {{ "{sys.executable}" -m bot.cli "$@"; }}\n{command}\n'
        done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=240)  # fmt: skip
        status, out, err = done.returncode, done.stdout, done.stderr
    assert status == 0, err[-1000:]
    assert "Traceback" not in out + err
    for fragment in SAYS.get(command, []):
        assert fragment in out, (fragment, out[-1000:])


def histories(text: str) -> set[str]:
    """The example histories: `--history "..."`, `--from "..."`, a `hint` command's words,
    and any inline code that reads as a history of whole rows (`crane 01002 slate 00012`)."""
    found = set(re.findall(r'--(?:history|from) "([^"]+)"', text))
    for command in commands_in(text):
        if command.startswith("wordlebot hint ") and "--variant" not in command:
            words = [w for w in shlex.split(command)[2:] if not w.startswith("-")]
            if words and words[0] != "HISTORY...":
                found.add(" ".join(w for w in words if not w.isdigit() or len(w) == 5))
    for span in re.findall(r"`([^`\n]+)`", prose(text)):  # those that read as one
        if re.fullmatch(r"(?:[A-Za-z]{5}[ :]\S{5,10} ?)+", span) and reads_as_history(span):
            found.add(span)
    for span in re.findall(r"history:([a-z]{5} [0-2]{5}(?: [a-z]{5} [0-2]{5})*)", text):
        found.add(span)
    return found


def reads_as_history(text: str) -> bool:
    try:
        return bool(parse_history(text, get_variant("wordle")))
    except (HistoryError, PatternError):
        return False


HISTORIES = sorted({h for text in TEXTS.values() for h in histories(text)})


def test_the_docs_have_history_examples() -> None:
    assert len(HISTORIES) >= 4
    assert "crane 01002 slate 00012" in HISTORIES


@pytest.mark.parametrize("history", HISTORIES)
def test_each_history_shown_fits_some_answer(history: str) -> None:
    variant = get_variant("wordle")
    try:
        rows = parse_history(history, variant)
    except (HistoryError, PatternError) as exc:
        pytest.fail(f"{history!r} does not read as a history: {exc}")
    try:
        assert hint(variant, rows).remaining > 0
    except InconsistentHistory as exc:
        pytest.fail(f"no answer fits {history!r}: {exc}")


def test_an_impossible_history_is_caught() -> None:
    """The check above can fail: the README's old example fits no answer."""
    with pytest.raises(InconsistentHistory):
        hint(get_variant("wordle"), parse_history("crane 01002 slate 00202", get_variant("wordle")))


def test_the_engines_example_code_runs(capsys) -> None:
    [code] = fenced(TEXTS["docs/engine.md"], "python")
    exec(compile(code, "docs/engine.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "🟩🟨🟨⬛⬛"
    assert printed[1] == "True 1st letter must be C"
    assert printed[2] == "2 ['there', 'three'] there"


# Links: every [text](target) and ![alt](target) points inside the repository, to a file
# that exists, and to a heading of it when it names one.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def links(text: str) -> list[str]:
    return LINK.findall(prose(re.sub(r"`[^`\n]*`", "", text)))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(ch for ch in text if ch in " -" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(h) for h in re.findall(r"^#{1,6} (.+)$", prose(path.read_text()), re.M)}


def link_problems(source: str, text: str) -> list[str]:
    problems = []
    for target in links(text):
        if re.match(r"[a-z][a-z+.-]*:", target, re.I) or target.startswith("//"):
            problems.append(f"{source}: {target} points outside the repository")
            continue
        file, _, fragment = unquote(target).partition("#")
        path = (ROOT / source).parent / file if file else ROOT / source
        if ROOT.resolve() not in path.resolve().parents:
            problems.append(f"{source}: {target} leaves the repository")
        elif not path.exists():
            problems.append(f"{source}: {target} names no file")
        elif fragment and (path.suffix != ".md" or fragment not in anchors(path)):
            problems.append(f"{source}: {target} names no heading of {file or source}")
    return problems


def test_every_link_points_to_a_file_and_heading_of_the_repository() -> None:
    assert sum(len(links(text)) for text in TEXTS.values()) > 20
    assert [p for source, text in TEXTS.items() for p in link_problems(source, text)] == []


def test_the_link_check_catches_broken_and_outside_links() -> None:
    text = (
        "[a](docs/none.md) [b](https://discord.com) [c](docs/players.md#no-such-heading) "
        "[d](../elsewhere.md) [e](docs/players.md#archive) ![f](docs/board-wordle.png)"
    )
    problems = link_problems("README.md", text)
    assert len(problems) == 4 and not any("#archive" in p or ".png" in p for p in problems)


def test_anchors_are_githubs() -> None:
    assert anchor("Fair play: what counts, once") == "fair-play-what-counts-once"
    assert anchor("Installing the bot: in a server, or to your own account") == (
        "installing-the-bot-in-a-server-or-to-your-own-account"
    )
    assert anchor("Share channels and the Wordle app's recaps") == (
        "share-channels-and-the-wordle-apps-recaps"
    )


def test_the_score_example_prints_its_row(capsys) -> None:
    assert "`⬛⬛🟨⬛🟨` for `score speed abide`" in TEXTS["docs/engine.md"]
    assert main(["score", "speed", "abide"]) == 0
    assert capsys.readouterr().out.strip() == "⬛⬛🟨⬛🟨"


def test_the_readme_stays_short_and_keeps_ci_s_command() -> None:
    readme = TEXTS["README.md"]
    assert len(readme.splitlines()) <= 250
    assert 'pip install -e ".[test]" && python -m pytest' in readme  # .ci/run runs it
    assert "pip install -e . && wordlebot console" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'pip install -e ".[test]" && python -m pytest' in ci


def test_the_screenshots_are_the_bots_own_drawing_of_won_games() -> None:
    """docs/make_screenshots.py plays its games with the engine and draws them with the bot's
    renderer; the committed PNGs are that drawing (same size, the same tiles)."""
    import io
    import runpy

    from PIL import Image, ImageChops

    from bot.render.images import board_png

    script = runpy.run_path(str(ROOT / "docs" / "make_screenshots.py"))
    for name, build in (
        ("board-wordle.png", "wordle_board"),
        ("board-quordle.png", "quordle_board"),
        ("board-es-6.png", "spanish_board"),
    ):
        view = script[build]()
        assert view.status == "won"
        drawn = Image.open(io.BytesIO(board_png(view))).convert("RGB")
        committed = Image.open(ROOT / "docs" / name).convert("RGB")
        assert drawn.size == committed.size
        # Tiles and colours alike; a letter's edge may differ by a shade between versions of
        # Pillow, so only pixels that differ clearly count: fewer than 1 in 200 may.
        difference = ImageChops.difference(drawn, committed).convert("L")
        clear = sum(difference.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
        assert clear < drawn.size[0] * drawn.size[1] // 200, (
            f"docs/{name} is out of date: python docs/make_screenshots.py"
        )
