"""``wordlebot db copy``: a whole database from one engine to another (SQLite to PostgreSQL
when a community outgrows one process), in one transaction on the target: an interrupted
copy leaves the target as it was (empty, or with its old rows when replacing), a finished
one complete, never half-filled."""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import Storage, StorageUnavailable
from bot.storage import counts as board_counts
from bot.storage.migrations import TABLES

# Each table's key, so rows are read in a stable order, a batch at a time.
ORDER = {
    "meta": "key",
    "players": "id",
    "guild_settings": "guild_id",
    "games": "id",
    "daily_puzzles": "variant, day",
    "results": "id",
    "standings": "scope, kind, player_id",
    "share_results": "id",
    "share_channels": "guild_id, channel_id",
    "digests": "guild_id, day",
    "period_standings": "scope, kind, period, player_id",
    "reminders": "guild_id, player_id",
    "races": "id",
    "race_players": "race_id, player_id",
    "race_standings": "scope, player_id",
    "challenges": "id",
    "coop_games": "id",
    "coop_rows": "coop_id, turn",
    "coop_standings": "scope, player_id",
    "played_marks": "mark",
    "recent_pings": "target_id, created_at",
    "nyt_answer_votes": "number, player_id",
    "nyt_answers": "number",
    "winner_roles": "guild_id, player_id, role_id",
    "achievements": "player_id, achievement",
    "share_imports": "guild_id, channel_id",
    "live_boards": "guild_id, day",
    "forgotten": "mark",
    "web_pages": "guild_id",
}
BATCH = 50_000


async def counts(storage: Storage) -> dict[str, int]:
    found = {}
    for table in TABLES:
        row = await storage.db.one(f"SELECT COUNT(*) FROM {table}")
        found[table] = int(row[0]) if row is not None else 0
    return found


async def copy_database(
    source: Storage,
    target: Storage,
    progress: Callable[[int, int], None] | None = None,
    *,
    replace: bool = False,
) -> dict[str, int]:
    """Copy every row of every table; returns the rows per table, checked equal on both
    sides before the target commits. Refuses a source that holds nothing (a mistyped path
    must not "copy" 0 rows), and a target that holds anything unless ``replace``: then the
    target's rows are deleted in the copy's own transaction, so they are gone only if the
    copy commits."""
    before = await counts(source)
    if not any(before.values()):
        raise StorageUnavailable(f"{source.db.where} holds no data: nothing to copy")
    if not replace and any((await counts(target)).values()):
        raise StorageUnavailable(
            f"{target.db.where} already holds data: db copy fills only an empty database "
            "(--replace deletes its data first)"
        )
    rows_in_all, done = sum(before.values()), 0
    async with target.transaction() as tx:
        await board_counts.pause(tx, target.db)  # counted once, at the end
        if replace:
            for table in reversed(TABLES):  # children before their parents
                await tx.execute(f"DELETE FROM {table}")
        for table in TABLES:
            offset = 0
            while True:
                rows = await source.db.all(
                    f"SELECT * FROM {table} ORDER BY {ORDER[table]} LIMIT ? OFFSET ?",
                    (BATCH, offset),
                )
                if not rows:
                    break
                await tx.load(table, list(rows[0].keys()), [tuple(r) for r in rows])
                offset += len(rows)
                done += len(rows)
                if progress is not None:
                    progress(done, rows_in_all)
        await target.db.after_load(tx, TABLES)
        await board_counts.recount(tx, target.db)
        copied = {t: int(await tx.value(f"SELECT COUNT(*) FROM {t}")) for t in TABLES}
        after = await counts(source)
        if copied != before or after != before:
            changed = [t for t in TABLES if not copied[t] == before[t] == after[t]]
            raise StorageUnavailable(
                "the counts differ in " + ", ".join(changed) + ": nothing was copied. "
                "Stop the bot while copying."
            )
    await target.db.optimize(TABLES)
    return copied
