"""What the check of the achievements of one game costs at each game's end:
``python tests/achievement_check_speed.py [DATABASE_URL]`` loads 20 players' 5,000 games each
(none earning "In two" or "Absurdle in four", the worst case: the read finds nothing) in a
fresh SQLite file (or the empty PostgreSQL database the URL names) and prints the time of
each achievement's read for one of them."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from bot.services.achievements import CATALOGUE
from bot.storage import Storage

PLAYERS, GAMES, READS = 20, 5000, 300
KINDS = ("wordle:daily", "wordle:practice", "primel:daily", "wordle-es-5:daily",
         "octordle:practice")  # fmt: skip


async def main(url: str) -> None:
    storage = await Storage.open(url)
    draw = random.Random(1)
    rows = []
    for player in range(1, PLAYERS + 1):
        for _ in range(GAMES):  # won in three to six, or lost
            won = draw.random() < 0.8
            rows.append((player, 7, draw.choice(KINDS), None, won, draw.randint(3, 6)))
    await storage.bulk_results(rows)
    await storage.db.write("ANALYZE")
    for achievement in CATALOGUE:
        rule = achievement.game
        if rule is None:
            continue
        began = time.perf_counter()
        for _ in range(READS):
            assert not await storage.achievements.won_a_game(5, rule.kinds, rule.fewest,
                                                             rule.most)  # fmt: skip
        took = (time.perf_counter() - began) / READS * 1000
        engine = "postgresql" if "://" in url else "sqlite"
        print(f"{engine}: {achievement.id}: {took:.3f} ms a check ({GAMES:,} games of the player)")
    await storage.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        asyncio.run(main(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as folder:  # the file goes with the run
            asyncio.run(main(str(Path(folder) / "a.sqlite3")))
