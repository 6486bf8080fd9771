"""The day-by-day bulk loader (``Storage.bulk_days``, the benchmarks' at ten million results)
writes what ``Storage.bulk_results`` writes for the same rows: games, results, standings
with their streaks, every period's board and the boards' counts; and refuses days out of
order. On both engines."""

import random
from datetime import date, timedelta

import pytest

from bot.storage import Storage

GUILD, OTHER = 7, 8
FIRST = date(2026, 1, 20)  # across a month, weeks and a season's end


def days_of_rows(seed: int, players: int, days: int) -> list[list[tuple]]:
    rng = random.Random(seed)
    out = []
    for n in range(days):
        day = (FIRST + timedelta(days=n)).isoformat()
        rows = []
        for p in range(1, players + 1):
            if rng.random() < 0.7:
                won = rng.random() < 0.85
                skill = rng.choice((None, rng.randrange(100)))
                rows.append((p, rng.choice((GUILD, OTHER)), "wordle:daily", day, won,
                             rng.randint(1, 6) if won else 6, skill, rng.randrange(100),
                             '{"rows": []}', day))  # fmt: skip
        out.append(rows)
    return out


TABLES = {
    "games": "SELECT id, player_id, scope, kind, puzzle, state, version, status FROM games",
    "results": "SELECT game_id, player_id, scope, kind, day, won, guesses, played_on, skill, "
    "coached, luck FROM results",
    "standings": "SELECT * FROM standings",
    "period_standings": "SELECT * FROM period_standings",
    "board_counts": "SELECT * FROM board_counts",
    "players": "SELECT id, name FROM players",
}


async def tables(storage: Storage) -> dict[str, list[tuple]]:
    return {name: sorted(tuple(r) for r in await storage.db.all(sql))
            for name, sql in TABLES.items()}  # fmt: skip


async def test_bulk_days_writes_what_bulk_results_writes(empty_url, tmp_path) -> None:
    rows = days_of_rows(3, 12, 40)
    reference = await Storage.open(f"sqlite:///{tmp_path / 'reference.sqlite3'}")
    loaded = await Storage.open(empty_url)
    try:
        for storage in (reference, loaded):  # a server with seasons of its own length
            await storage.db.write(
                "INSERT INTO guild_settings (guild_id, season_days) VALUES (?, 14)", (GUILD,)
            )
        await reference.bulk_results([r for day in rows for r in day])
        assert await loaded.bulk_days(iter(rows)) == sum(map(len, rows))
        expected, got = await tables(reference), await tables(loaded)
        assert any(p.startswith("season:14:") for _, _, p, *_ in got["period_standings"])
        for name in TABLES:
            assert got[name] == expected[name], name
    finally:
        await reference.close()
        await loaded.close()


async def test_bulk_days_refuses_days_out_of_order_and_kinds_with_results(database_url) -> None:
    storage = await Storage.open(database_url)
    try:
        rows = days_of_rows(4, 3, 3)
        with pytest.raises(ValueError, match="in order"):
            await storage.bulk_days([rows[1], rows[0]])
        with pytest.raises(ValueError, match="in order"):
            await storage.bulk_days([rows[0] + rows[1]])
        await storage.bulk_days(rows[:1])
        with pytest.raises(ValueError, match="no results yet"):
            await storage.bulk_days(rows[1:])
    finally:
        await storage.close()
