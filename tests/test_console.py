import subprocess
import sys

from bot.console import Console, run_console
from bot.services import Player, open_services
from bot.settings import load_settings

SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"  # strong enough for the seed check


def script(*lines: str):
    """A reader that types ``lines`` and then ends the input."""
    queue = list(lines)

    async def read(_: str) -> str | None:
        return queue.pop(0) if queue else None

    return read


async def test_a_scripted_session_plays_a_practice_game_and_shows_stats(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "c.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = {"wordle": "cigar"}.get
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script(
        "/wordle practice hard", "crane", "zzzzz", "/hint", "slate", "/guess cigar",
        "/stats wordle practice", "/streak wordle practice", "/leaderboard nonsense", "/quit",
        "never read",
    ))  # fmt: skip
    await services.close()
    text = "\n".join(shown)
    assert "Wordle practice (hard mode)" in text
    assert "🟩🟨🟨⬛⬛ CRANE" in text  # CRANE against CIGAR
    assert "  Not in word list" in text
    assert "possible:" in text  # the hint
    assert "Guess must contain" in text or "1st letter must be C" in text  # SLATE in hard mode
    assert "Solved in 2/6!" in text and "Wordle practice 2/6*" in text  # and its share
    assert "Played 1 | Win % 100 | Current streak 1 | Max streak 1" in text
    assert "Current streak 1, max streak 1" in text
    assert "Unknown board 'nonsense'" in text


async def test_the_console_uses_the_same_database_as_the_services(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "shared.sqlite3"), daily_seed=SEED)
    shown: list[str] = []
    await run_console(settings, script("/wordle daily", "crane"), shown.append)
    services = await open_services(settings)
    from bot.console import console_player

    current = await services.games.current(console_player(), 0)
    assert [g for g, _ in current.game.rows] == ["crane"]
    await services.close()


def test_the_console_reads_commands_from_a_pipe(tmp_path) -> None:
    env = {"DATABASE_PATH": str(tmp_path / "pipe.sqlite3"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"],
        input="/wordle practice\ncrane\n/giveup\n/stats wordle practice\n",
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "CRANE" in result.stdout and "The answer was" in result.stdout
    assert "Played 1 | Win % 0" in result.stdout
    assert "\x1b[" not in result.stdout  # no colour codes when not on a terminal


async def test_the_console_plays_quordle_and_absurdle(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "m.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.deal = lambda variant, n: ["cigar", "rebut", "sissy", "humph"][:n]
    shown: list[str] = []
    console = Console(services, Player(6, "max"), shown.append, colour=False)
    await console.run(script(
        "/quordle", "cigar", "/hint", "rebut", "sissy", "humph",
        "/absurdle", "arise", "yauld", "tench", "whoop", "/stats quordle practice",
    ))  # fmt: skip
    await services.close()
    text = "\n".join(shown)
    assert "Board 1: 0 possible: solved" in text and "Best guess for all boards" in text
    assert "All 4 boards solved in 4/9!" in text
    assert "1 word left." in text and "Cornered in 4 guesses!" in text
    assert "Played 1 | Win % 100" in text
