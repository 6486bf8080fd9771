"""How fast /import reads a share channel's history: ``python tests/import_speed.py DAYS``
seeds DAYS days of 10 players' shares in the stand-in, runs the real `wordlebot run` process
on a fresh SQLite database, imports them and prints the requests, edits and time taken."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import test_e2e_imports as imports
from bot_process import GUILDS, BotProcess, kill_running, started
from discord_server import DiscordServer


async def main(days: int) -> None:
    server = DiscordServer(GUILDS)
    await server.start()
    guild = GUILDS[0]
    try:
        database = str(Path(tempfile.mkdtemp()) / "bot.sqlite3")
        history = []
        for back in range(days + 5, 5, -1):
            day = imports.TODAY - timedelta(days=back)
            for k in range(10):
                history.append(imports.past_message(
                    imports.wordle(day, 2 + k % 5), channel_id=guild + 1, author_id=1000 + k,
                    at=imports.at(day, 12, k)))  # fmt: skip
        server.seed(guild + 1, history)
        process = BotProcess(server, database, message_content_intent="true")
        await started(server, process)
        await imports.share_channel(server, guild)
        start = time.perf_counter()
        await imports.import_(server, guild, imports.TODAY - timedelta(days=days + 6))
        await imports.wait_for(lambda: imports.done(database, guild, server), timeout=3600)
        took = time.perf_counter() - start
        pages = sum(operation == imports.HISTORY for _, operation, _ in server.log)
        edits = sum(len(bodies) for bodies in server.edited.values())
        print(f"{len(history)} messages, {pages} history requests, {edits} progress edits: "
              f"{took:.1f} s, {len(history) / took:.0f} messages/s")  # fmt: skip
        await process.stop()
    finally:
        kill_running()
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
