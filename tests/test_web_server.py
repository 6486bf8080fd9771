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

import aiohttp

from bot.storage import Storage

SLUG = "a-slug-of-the-test-0123456789"
GUILD = 800000000000000001


async def test_wordlebot_web_serves_the_pages_alone_and_stops_on_sigterm(tmp_path) -> None:
    database = tmp_path / "bot.sqlite3"
    storage = await Storage.open(str(database))
    await storage.web_pages.open(GUILD, SLUG)
    await storage.close()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "WEB_PORT": "0",
           "WEB_HOST": "127.0.0.1", "DISCORD_TOKEN": "", "LOG_LEVEL": "WARNING"}  # fmt: skip
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
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite3'}"}
    env.pop("WEB_PORT", None)
    done = subprocess.run([sys.executable, "-m", "bot.cli", "web"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 1 and "WEB_PORT" in done.stdout
