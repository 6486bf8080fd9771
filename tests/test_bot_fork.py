"""The end-to-end tests' bots are forked from a process that has imported the bot already
(tests/bot_fork.py): each must be the process `python -m bot.cli run` would be, with the
environment its test gives it and nothing of the forker's, saying and ending as a fresh
interpreter does."""

import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from bot_fork import Forker
from bot_process import TOKEN, BotProcess, clean_env, started


def fresh(env: dict[str, str]) -> tuple[int, str]:
    run = subprocess.run([sys.executable, "-m", "bot.cli", "run"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)  # fmt: skip
    return run.returncode, run.stderr.decode()


def forked(forker: Forker, env: dict[str, str]) -> tuple[int, str]:
    with tempfile.TemporaryFile() as log:
        code = forker.spawn(env, log.fileno()).wait(60)
        log.seek(0)
        return code, log.read().decode()


@pytest.fixture
def forker(tmp_path: Path):
    """A forker of the test's own, whose environment names a decoy database and a token."""
    decoy = tmp_path / "decoy.sqlite3"
    forker = Forker(clean_env(database_path=str(decoy), discord_token=TOKEN))
    yield forker
    forker.close()
    assert not decoy.exists(), "a forked bot used the forker's environment"


@pytest.mark.parametrize(
    "settings",
    [{}, {"discord_token": "Bot abc"}, {"discord_token": TOKEN, "database_url": "mysql://x"}],
    ids=["no-token", "not-a-token", "unknown-database"],
)
def test_a_forked_bot_says_and_ends_as_a_fresh_one(forker, tmp_path, settings) -> None:
    """Refused at start for want of a setting: the same status and the same words on stderr
    as `python -m bot.cli run` in that environment (the forker's token is not inherited)."""
    env = clean_env(database_path=str(tmp_path / "bot.sqlite3"), **settings)
    assert forked(forker, env) == fresh(env)


async def test_a_forked_bot_runs_on_the_database_and_settings_it_was_given(
    forker, server, tmp_path, monkeypatch
) -> None:
    """A whole run through the forker whose environment names a decoy: the bot's database is
    the test's, its log the test's, a clean stop ends it with status 0 and a SIGKILL with -9."""
    import bot_fork

    monkeypatch.setattr(bot_fork, "_FORKER", forker)
    for stop in ("term", "kill"):
        database = tmp_path / f"{stop}.sqlite3"
        server.identified.clear()
        bot = BotProcess(server, str(database), log_level="INFO")
        assert isinstance(bot.process, bot_fork.Forked)
        await started(server, bot)
        code, err = await bot.stop() if stop == "term" else bot.kill()
        assert code == (0 if stop == "term" else -signal.SIGKILL), err[-2000:]
        assert "commands synced to the development guild" in err
        assert database.exists()
