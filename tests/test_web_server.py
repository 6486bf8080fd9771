"""`wordlebot web`: the pages served alone, beside the bot processes, on the same database;
and `wordlebot run` serving them on the bot's own loop (tests/test_web_pages.py drives that
one through Discord's payloads)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.storage import Storage

ROOT = Path(__file__).resolve().parents[1]  # the checkout these tests run: its code, not
# whichever one the environment installed
SLUG = "a-slug-of-the-test-0123456789"
GUILD = 800000000000000001


async def test_wordlebot_web_serves_the_pages_alone_and_stops_on_sigterm(tmp_path) -> None:
    database = tmp_path / "bot.sqlite3"
    storage = await Storage.open(str(database))
    await storage.web_pages.open(GUILD, SLUG)
    await storage.close()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "WEB_PORT": "0",
           "WEB_HOST": "127.0.0.1", "DISCORD_TOKEN": "", "LOG_LEVEL": "WARNING",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    env.pop("WEB_BASE_URL", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", env=env, cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found is not None, line
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{found.group(0)}/s/{SLUG}") as page:
                assert page.status == 200
                assert "<table" in await page.text() or "Nobody" in await page.text()
            async with session.get(f"{found.group(0)}/s/not-{SLUG}") as page:
                assert page.status == 404
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def test_wordlebot_web_without_a_port_says_how_to_set_one(tmp_path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite3'}",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    env.pop("WEB_PORT", None)
    done = subprocess.run([sys.executable, "-m", "bot.cli", "web"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 1 and "Set WEB_PORT (e.g. WEB_PORT=8080)" in done.stdout


async def test_the_console_serves_the_pages_and_prints_its_servers_link(tmp_path) -> None:
    """With WEB_PORT, the console serves the pages on its loop: it says where, turns its own
    server's page on like any admin, and the next session prints that page's link, which
    answers while the console runs."""
    from bot.console import run_console
    from bot.settings import load_settings

    settings = load_settings(database_path=str(tmp_path / "c.sqlite3"), web_port=0,
                             daily_seed="console-web-5eed-0123456789abcdef0123456789")  # fmt: skip
    said: list[str] = []
    await run_console(settings, _script("/settings server web:on"), said.append)
    assert any("Web pages are served at http://127.0.0.1:" in line for line in said), said
    link = re.search(r"http://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]+", "\n".join(said))
    assert link is not None, said
    slug = link.group(0).rsplit("/", 1)[1]
    statuses: list[int] = []

    async def read_the_page(_: str) -> str | None:
        if not statuses:  # while this session runs, its own server's page answers
            page = next(line for line in again if "This console's server's page" in line)
            async with (
                aiohttp.ClientSession() as session,
                session.get(page.split(": ", 1)[1].strip()) as answer,
            ):
                statuses.append(answer.status)
        return None

    again: list[str] = []
    await run_console(settings, read_the_page, again.append)
    assert statuses == [200] and any(slug in line for line in again)


def _script(*lines: str):
    queue = list(lines)

    async def read(_: str) -> str | None:
        return queue.pop(0) if queue else None

    return read
