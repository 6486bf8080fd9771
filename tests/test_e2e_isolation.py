"""The tests never touch a database the environment names: a developer's shell may carry a
DATABASE_URL (their own server) or DATABASE_PATH, and the bot processes the tests start
must use the tests' databases all the same (tests/bot_process.py, clean_env)."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg


async def test_the_e2e_tests_leave_a_database_the_environment_names_untouched(
    tmp_path: Path, postgres_url: str
) -> None:
    """Part of the e2e suite, in a child pytest whose environment names a decoy PostgreSQL
    database (DATABASE_URL, which wins over DATABASE_PATH in the bot's settings) and a decoy
    SQLite file: the tests pass, the decoy database holds no table, the file was never made."""
    decoy_file = tmp_path / "decoy.sqlite3"
    env = os.environ | {"DATABASE_URL": postgres_url, "DATABASE_PATH": str(decoy_file)}
    tests = Path(__file__).parent
    chosen = [
        f"{tests / 'test_e2e.py'}::test_the_bot_resumes_after_the_gateway_drops",  # a game
        f"{tests / 'test_e2e_conformance.py'}::test_other_locales_play_the_same",
    ]
    child = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *chosen],
        env=env, capture_output=True, text=True, timeout=600, cwd=tests.parent,
    )  # fmt: skip
    assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-2000:]
    assert "2 passed" in child.stdout, child.stdout[-2000:]
    assert not decoy_file.exists()
    connection = await asyncpg.connect(postgres_url)
    try:
        tables = await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    finally:
        await connection.close()
    assert tables == []


FAILING = """
from bot_process import BotProcess, started


async def test_that_fails_with_its_bot_running(server, tmp_path):
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"))
    (tmp_path.parent.parent / "pid").write_text(str(bot.process.pid))
    await started(server, bot)
    assert False, "failed on purpose, its bot still running"
"""


async def test_a_failed_test_leaves_no_bot_process_running(tmp_path: Path) -> None:
    """A test that fails with its bot process running (no stop, no try/finally of its own):
    tests/conftest.py's no_bot_left_running kills the process when the test ends."""
    tests = Path(__file__).parent
    (tmp_path / "test_fails.py").write_text(FAILING)
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(tests.parent), str(tests)])}
    child = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider",
         "--basetemp", str(tmp_path / "base"), "-o", "asyncio_mode=auto", "test_fails.py"],
        env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert "1 failed" in child.stdout and "failed on purpose" in child.stdout, child.stdout[-3000:]
    pid = int((tmp_path / "pid").read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return  # gone, as it should be
    os.kill(pid, 9)
    raise AssertionError(f"bot process {pid} outlived its failed test")
