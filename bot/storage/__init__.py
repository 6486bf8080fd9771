"""Storage: the only module that speaks SQL (aiosqlite).

A file database has two connections, WAL mode, foreign keys on and a short busy timeout;
migrations are applied at open. Writes go through one connection, one at a time behind a
lock, so a coroutine's transaction never interleaves with another's; reads go through the
other, so a reader never queues behind a write that waits for another process's lock (WAL
lets readers go on meanwhile). A guess that does not end its game is one ``UPDATE`` (its own
transaction); a finished game, its result and both standings rows commit together.

An existing file is opened only if it is a sound wordlebot database: a fresh one is never
created over it. Deleted rows are overwritten (``secure_delete``), and a player's deletion
is checkpointed out of the write-ahead log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.migrations import LATEST, MIGRATIONS
from bot.storage.records import GuildSettings, Result, Standing, StandingRow, StoredGame, fold
from bot.storage.sqlite import (
    BUSY_TIMEOUT_MS,
    MEMORY,
    RESTORE,
    StorageBusy,
    StorageUnavailable,
    Transaction,
    busy_or,
    close_quietly,
    connect,
    is_busy,
)

log = logging.getLogger("wordlebot.storage")

GLOBAL = -1  # the scope of the global leaderboard


LEADERBOARD_METRICS = {
    # metric: (SQL value, higher is better, condition to appear on the board). Each value
    # has an index (migrations 2 and 4). A daily streak is live only if the last puzzle won
    # was yesterday's or today's; practice streaks have no day.
    "wins": ("s.wins", True, "s.wins > 0"),
    "win_rate": ("CAST(s.wins AS REAL) / s.played", True, "s.played >= :min_games"),
    "average": ("CAST(s.win_guesses AS REAL) / s.wins", False, "s.wins >= :min_games"),
    "current_streak": ("s.current_streak", True,
                       "s.current_streak > 0 AND (s.last_day IS NULL OR s.last_day >= :yesterday)"),
    "max_streak": ("s.max_streak", True, "s.max_streak > 0"),
}  # fmt: skip


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Storage:
    def __init__(
        self, connection: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._db = connection
        self._reader = reader or connection  # ":memory:" has one connection for both
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._closed = False

    # -- opening, closing, migrating -------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str, *, migrate: bool = True, busy_timeout_ms: int = BUSY_TIMEOUT_MS
    ) -> Storage:
        """Open and migrate; a database is created only where no file exists. A locked
        database is waited for up to ``busy_timeout_ms``; then :class:`StorageBusy` is raised
        and nothing is changed. A file that cannot be used raises :class:`StorageUnavailable`
        with one line for a person, and leaves no connection (nor its thread) behind."""
        fresh = path == MEMORY or not Path(path).exists()
        if not fresh and Path(path).is_file() and Path(path).stat().st_size == 0:
            raise StorageUnavailable(f"The database file {path} is empty: {RESTORE}")
        connections: list[aiosqlite.Connection] = []
        try:
            if fresh and path != MEMORY:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connections.append(await connect(path, busy_timeout_ms))
            if path != MEMORY:
                await connections[0].execute_fetchall("PRAGMA journal_mode = WAL")
                connections.append(await connect(path, busy_timeout_ms))
            storage = cls(*connections)
            if not fresh:
                await storage._check_existing(path)
            if migrate:
                await storage.migrate()
            return storage
        except BaseException as exc:
            for connection in connections:
                await close_quietly(connection)
            if isinstance(exc, StorageBusy | StorageUnavailable):
                raise
            if isinstance(exc, sqlite3.Error | OSError):
                if not fresh and isinstance(exc, sqlite3.DatabaseError) and not is_busy(exc):
                    raise StorageUnavailable(f"The database file {path} is damaged or not a "
                                             f"database ({exc}): {RESTORE}") from None  # fmt: skip
                raise StorageUnavailable(f"Cannot open the database {path}: {exc}") from None
            raise

    async def _check_existing(self, path: str) -> None:
        """An existing file must be a sound wordlebot database, else nothing touches it."""
        try:
            check = await self._one("PRAGMA quick_check")
            version = await self.schema_version()
            meta = await self._one("SELECT 1 FROM sqlite_master WHERE name = 'meta'")
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and is_busy(exc):
                raise
            raise StorageUnavailable(f"The database file {path} is damaged ({exc}): "
                                     f"{RESTORE}") from None  # fmt: skip
        if check is None or check[0] != "ok":
            raise StorageUnavailable(f"The database file {path} is damaged: {RESTORE}")
        if version < 1 or meta is None or version > LATEST:
            newer = " (written by a newer wordlebot)" if version > LATEST else ""
            raise StorageUnavailable(
                f"{path} is not a wordlebot database{newer}: point DATABASE_PATH elsewhere"
            )

    async def close(self) -> None:
        """Close once; later calls do nothing (a shutdown may come from several places).
        The connections close even when the last statement fails (a full disk)."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self._db.execute_fetchall("PRAGMA optimize")  # fresh planner statistics
            except Exception:  # a full disk, a dead link: only statistics are lost
                log.warning("PRAGMA optimize failed at close; the data is committed")
            finally:
                await close_quietly(self._db)
                if self._reader is not self._db:
                    await close_quietly(self._reader)

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, target: int = LATEST) -> list[int]:
        """Apply the migrations after the current version up to ``target``, each in its own
        transaction; returns the versions applied. Foreign keys are off meanwhile (a table
        rebuilt must not cascade into the rows that refer to it) and checked before each
        commit."""
        applied: list[int] = []
        current = await self.schema_version()
        if current >= target:
            return applied
        await self._db.execute_fetchall("PRAGMA foreign_keys = OFF")  # outside a transaction
        try:
            for version in range(current + 1, target + 1):
                async with self.transaction() as db:
                    await db.executescript_in_transaction(MIGRATIONS[version - 1])
                    if await db.all("PRAGMA foreign_key_check"):
                        raise StorageUnavailable(f"Migration {version} broke a reference")
                    await db.execute(f"PRAGMA user_version = {version}")
                applied.append(version)
        finally:
            await self._db.execute_fetchall("PRAGMA foreign_keys = ON")
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise busy_or(exc) from exc
            try:
                yield Transaction(self._db)
                await self._db.commit()
            except BaseException as exc:
                await self._db.rollback()
                if isinstance(exc, sqlite3.OperationalError):
                    raise busy_or(exc) from exc
                raise

    async def backup(self, target: str) -> None:
        """A consistent copy of the live database (SQLite's online backup)."""
        async with self._lock:
            destination = await aiosqlite.connect(target)
            try:
                await self._db.backup(destination)
            finally:
                await destination.close()

    # -- small helpers -----------------------------------------------------------------

    async def _one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)  # one trip to the database thread, not two
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        async with self._read_lock:
            try:
                return list(await self._reader.execute_fetchall(sql, params))
            except sqlite3.OperationalError as exc:
                raise busy_or(exc) from exc

    async def _write(self, sql: str, params: Any = ()) -> int:
        """One statement, its own transaction; returns the rows changed."""
        async with self._lock:
            try:
                cursor = await self._db.execute(sql, params)
                return cursor.rowcount
            except sqlite3.OperationalError as exc:
                raise busy_or(exc) from exc

    # -- meta, players, guilds ---------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta_once(self, key: str, value: str) -> str:
        """Store ``value`` unless the key is set; returns the stored value either way."""
        await self._write("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value))
        stored = await self.get_meta(key)
        assert stored is not None
        return stored

    async def ensure_player(self, player_id: int, name: str = "") -> None:
        await self._write(
            "INSERT INTO players (id, name, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET name = excluded.name WHERE excluded.name != ''",
            (player_id, name[:100], _now()),
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._one(
            "SELECT timezone, hints_in_daily FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, row["timezone"], bool(row["hints_in_daily"]))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, timezone, hints_in_daily) VALUES (?, ?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET timezone = excluded.timezone, "
            "hints_in_daily = excluded.hints_in_daily",
            (settings.guild_id, settings.timezone, int(settings.hints_in_daily)),
        )

    # -- games -------------------------------------------------------------------------

    async def active_game(
        self, player_id: int, scope: int, kind: str | None = None
    ) -> StoredGame | None:
        """The player's game in progress of ``kind`` here, or of any kind, the newest."""
        row = await self._one(
            "SELECT * FROM games WHERE player_id = ? AND scope = ? AND status = 'playing' "
            "AND (? IS NULL OR kind = ?) ORDER BY id DESC LIMIT 1",
            (player_id, scope, kind, kind),
        )
        return None if row is None else _game(row)

    async def active_games(self, player_id: int, scope: int) -> list[StoredGame]:
        rows = await self._all(
            "SELECT * FROM games WHERE player_id = ? AND scope = ? AND status = 'playing' "
            "ORDER BY id",
            (player_id, scope),
        )
        return [_game(row) for row in rows]

    async def daily_game(self, player_id: int, kind: str, day: str) -> StoredGame | None:
        row = await self._one(
            "SELECT * FROM games WHERE player_id = ? AND kind = ? AND puzzle = ?",
            (player_id, kind, day),
        )
        return None if row is None else _game(row)

    async def game(self, game_id: int) -> StoredGame | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def insert_game(
        self, player_id: int, scope: int, kind: str, puzzle: str | None, state: dict[str, Any]
    ) -> StoredGame | None:
        """A new game, or None when the player already has one of this kind (or today's)."""
        now = _now()
        try:
            async with self.transaction() as db:
                game_id = await db.insert(
                    "INSERT INTO games (player_id, scope, kind, puzzle, state, version, status, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 'playing', ?, ?)",
                    (player_id, scope, kind, puzzle, json.dumps(state), now, now),
                )
        except sqlite3.IntegrityError:
            return None
        return StoredGame(game_id, player_id, scope, kind, puzzle, state, 0, "playing")

    async def save_game(
        self, game: StoredGame, state: dict[str, Any], status: str, result: Result | None = None
    ) -> StoredGame | None:
        """Store the game's next state if nobody changed it since ``game.version`` was read.

        Returns the stored game, or None on a version conflict (nothing written). A result
        is recorded with its standings in the same transaction.
        """
        params = (json.dumps(state), status, _now(), game.id, game.version)
        sql = (
            "UPDATE games SET state = ?, status = ?, updated_at = ?, version = version + 1 "
            "WHERE id = ? AND version = ?"
        )
        if result is None:
            if await self._write(sql, params) != 1:
                return None
        else:
            async with self.transaction() as db:
                if await db.execute(sql, params) != 1:
                    return None
                await self._record(db, game, result)
        return StoredGame(
            game.id, game.player_id, game.scope, game.kind, game.puzzle, state, game.version + 1,
            status,
        )  # fmt: skip

    async def _record(self, db: Transaction, game: StoredGame, result: Result) -> None:
        await db.execute(
            "INSERT INTO results (game_id, player_id, scope, kind, day, won, guesses, "
            "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, game.player_id, game.scope, game.kind, result.day, int(result.won),
             result.guesses, _now()),
        )  # fmt: skip
        for scope in {game.scope, GLOBAL}:
            await _apply_result(db, scope, game.player_id, game.kind, result)

    # -- daily puzzles -----------------------------------------------------------------

    async def record_daily(self, variant: str, day: str, number: int, answer: str) -> None:
        await self._write(
            "INSERT OR IGNORE INTO daily_puzzles (variant, day, number, answer) "
            "VALUES (?, ?, ?, ?)",
            (variant, day, number, answer),
        )

    # -- stats and leaderboards --------------------------------------------------------

    async def standing(self, player_id: int, kind: str, scope: int = GLOBAL) -> Standing | None:
        row = await self._one(
            "SELECT s.*, p.name FROM standings s JOIN players p ON p.id = s.player_id "
            "WHERE s.scope = ? AND s.kind = ? AND s.player_id = ?",
            (scope, kind, player_id),
        )
        return None if row is None else _standing(row)

    async def distribution(self, player_id: int, kind: str) -> dict[int, int]:
        rows = await self._all(
            "SELECT guesses, COUNT(*) AS n FROM results WHERE player_id = ? AND kind = ? AND won "
            "GROUP BY guesses",
            (player_id, kind),
        )
        return {int(r["guesses"]): int(r["n"]) for r in rows}

    async def leaderboard(
        self,
        scope: int,
        kind: str,
        metric: str,
        *,
        page: int = 1,
        per_page: int = 10,
        min_games: int = 1,
        today: date,
    ) -> tuple[list[tuple[Standing, float]], int]:
        """One page of the board (standing, value), and how many players are on it.
        Ties keep a stable order: by player id."""
        value, descending, condition = LEADERBOARD_METRICS[metric]
        params = {
            "scope": scope,
            "kind": kind,
            "min_games": max(1, min_games),
            "yesterday": (today - timedelta(days=1)).isoformat(),
            "limit": per_page,
            "offset": (max(page, 1) - 1) * per_page,
        }
        where = f"s.scope = :scope AND s.kind = :kind AND {condition}"
        order = "DESC" if descending else "ASC"
        rows = await self._all(
            f"SELECT s.*, p.name, {value} AS value FROM standings s "
            f"JOIN players p ON p.id = s.player_id WHERE {where} "
            f"ORDER BY value {order}, s.player_id LIMIT :limit OFFSET :offset",
            params,
        )
        total_row = await self._one(f"SELECT COUNT(*) FROM standings s WHERE {where}", params)
        total = int(total_row[0]) if total_row else 0
        return [(_standing(r), float(r["value"])) for r in rows], total

    # -- shares ------------------------------------------------------------------------

    async def record_share(
        self, player_id: int, game: str, puzzle: int, won: bool, guesses: int, hard: bool, grid: str
    ) -> str:
        """Record a pasted result: 'new', 'same' (already recorded), or 'replaced'."""
        async with self.transaction() as db:
            old = await db.one(
                "SELECT won, guesses, hard, grid FROM share_results "
                "WHERE player_id = ? AND game = ? AND puzzle = ?",
                (player_id, game, puzzle),
            )
            if old is not None and tuple(old) == (int(won), guesses, int(hard), grid):
                return "same"
            await db.execute(
                "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
                "recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(player_id, game, puzzle) DO UPDATE SET won = excluded.won, "
                "guesses = excluded.guesses, hard = excluded.hard, grid = excluded.grid, "
                "recorded_at = excluded.recorded_at",
                (player_id, game, puzzle, int(won), guesses, int(hard), grid, _now()),
            )
        return "new" if old is None else "replaced"

    async def set_share_channel(self, guild_id: int, channel_id: int, enabled: bool) -> None:
        if enabled:
            await self._write(
                "INSERT OR IGNORE INTO share_channels (guild_id, channel_id) VALUES (?, ?)",
                (guild_id, channel_id),
            )
        else:
            await self._write(
                "DELETE FROM share_channels WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )

    async def is_share_channel(self, guild_id: int, channel_id: int) -> bool:
        row = await self._one(
            "SELECT 1 FROM share_channels WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return row is not None

    async def remove_share(self, player_id: int, game: str, puzzle: int) -> bool:
        return (
            await self._write(
                "DELETE FROM share_results WHERE player_id = ? AND game = ? AND puzzle = ?",
                (player_id, game, puzzle),
            )
            == 1
        )

    async def last_finished_game(self, player_id: int) -> StoredGame | None:
        row = await self._one(
            "SELECT * FROM games WHERE player_id = ? AND status != 'playing' "
            "ORDER BY id DESC LIMIT 1",
            (player_id,),
        )
        return None if row is None else _game(row)

    async def shares(self, player_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT game, puzzle, won, guesses, hard, grid, recorded_at FROM share_results "
            "WHERE player_id = ? ORDER BY game, puzzle",
            (player_id,),
        )
        return [dict(r) for r in rows]

    # -- data ownership ----------------------------------------------------------------

    async def export_player(self, player_id: int) -> dict[str, Any]:
        """Everything stored about a player, as plain JSON-ready data."""
        tables = {
            "player": "SELECT id, name, created_at FROM players WHERE id = ?",
            "games": "SELECT id, scope, kind, puzzle, state, status, created_at, updated_at "
            "FROM games WHERE player_id = ? ORDER BY id",
            "results": "SELECT game_id, scope, kind, day, won, guesses, finished_at "
            "FROM results WHERE player_id = ? ORDER BY id",
            "standings": "SELECT scope, kind, played, wins, win_guesses, current_streak, "
            "max_streak, last_day FROM standings WHERE player_id = ?",
            "shares": "SELECT game, puzzle, won, guesses, hard, grid, recorded_at "
            "FROM share_results WHERE player_id = ? ORDER BY game, puzzle",
        }
        data: dict[str, Any] = {}
        for name, sql in tables.items():
            rows = [dict(r) for r in await self._all(sql, (player_id,))]
            for row in rows:
                if "state" in row:
                    row["state"] = json.loads(row["state"])
            data[name] = rows[0] if name == "player" and rows else rows
        return data

    async def delete_player(self, player_id: int) -> bool:
        """Remove the player and everything of theirs (foreign keys cascade). The freed pages
        are zeroed (``secure_delete``) and the write-ahead log, which still holds the old
        pages, is checkpointed into the file and truncated: nothing stays readable."""
        deleted = await self._write("DELETE FROM players WHERE id = ?", (player_id,)) == 1
        async with self._lock:
            await self._db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        return deleted

    async def reset_guild_board(self, guild_id: int) -> int:
        """Clear a guild's leaderboard; players' own stats and histories stay."""
        async with self.transaction() as db:
            removed = await db.execute("DELETE FROM standings WHERE scope = ?", (guild_id,))
            await db.execute(
                "INSERT INTO guild_settings (guild_id, board_reset_at) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET board_reset_at = excluded.board_reset_at",
                (guild_id, _now()),
            )
        return removed

    async def bulk_results(
        self, rows: Iterable[tuple[int, int, str, str | None, bool, int]]
    ) -> None:
        """Load many finished games at once (benchmarks, imports): (player, scope, kind, day,
        won, guesses) in play order, with their games, results and standings."""
        rows = list(rows)
        now = _now()
        async with self.transaction() as db:
            standings: dict[tuple[int, int, str], StandingRow] = {}
            for kind in {r[2] for r in rows}:  # continue from what is already there
                for old in await db.all(
                    "SELECT scope, player_id, played, wins, win_guesses, current_streak, "
                    "max_streak, last_day FROM standings WHERE kind = ?",
                    (kind,),
                ):
                    standings[(old[0], old[1], kind)] = tuple(old)[2:]  # type: ignore[assignment]
            for player_id, scope, kind, day, won, guesses in rows:
                for key in ((scope, player_id, kind), (GLOBAL, player_id, kind)):
                    standings[key] = fold(standings.get(key), Result(won, guesses, day))
            first = await db.one("SELECT COALESCE(MAX(id), 0) FROM games")
            base = int(first[0]) if first else 0
            players = {r[0] for r in rows}
            await db.executemany(
                "INSERT OR IGNORE INTO players (id, name, created_at) VALUES (?, ?, ?)",
                [(p, f"player{p}", now) for p in sorted(players)],
            )
            await db.executemany(
                "INSERT INTO games (id, player_id, scope, kind, puzzle, state, version, status, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, NULL, '{}', 0, ?, ?, ?)",
                [(base + i + 1, r[0], r[1], r[2], "won" if r[4] else "lost", now, now)
                 for i, r in enumerate(rows)],
            )  # fmt: skip
            await db.executemany(
                "INSERT INTO results (game_id, player_id, scope, kind, day, won, guesses, "
                "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(base + i + 1, r[0], r[1], r[2], r[3], int(r[4]), r[5], now)
                 for i, r in enumerate(rows)],
            )  # fmt: skip
            await db.executemany(
                "INSERT OR REPLACE INTO standings (scope, player_id, kind, played, wins, "
                "win_guesses, current_streak, max_streak, last_day) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*key, *value) for key, value in standings.items()],
            )
            await db.execute("ANALYZE")  # fresh planner statistics after a large import


async def _apply_result(
    db: Transaction, scope: int, player_id: int, kind: str, result: Result
) -> None:
    old = await db.one(
        "SELECT played, wins, win_guesses, current_streak, max_streak, last_day FROM standings "
        "WHERE scope = ? AND kind = ? AND player_id = ?",
        (scope, kind, player_id),
    )
    new = fold(None if old is None else tuple(old), result)  # type: ignore[arg-type]
    await db.execute(
        "INSERT OR REPLACE INTO standings (scope, player_id, kind, played, wins, win_guesses, "
        "current_streak, max_streak, last_day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (scope, player_id, kind, *new),
    )


def _game(row: sqlite3.Row) -> StoredGame:
    return StoredGame(
        row["id"], row["player_id"], row["scope"], row["kind"], row["puzzle"],
        json.loads(row["state"]), row["version"], row["status"],
    )  # fmt: skip


def _standing(row: sqlite3.Row) -> Standing:
    return Standing(
        row["player_id"], row["name"], row["played"], row["wins"], row["win_guesses"],
        row["current_streak"], row["max_streak"], row["last_day"],
    )  # fmt: skip


__all__ = ["GLOBAL", "LATEST", "GuildSettings", "Result", "Standing", "Storage", "StorageBusy",
           "StorageUnavailable", "StoredGame"]  # fmt: skip
