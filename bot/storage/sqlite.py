"""SQLite plumbing under :class:`bot.storage.Storage`: connections (aiosqlite, each pragma
read to the end), closing that always ends the worker thread, statements inside a
transaction, migration scripts split into statements, and the errors a person sees."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from typing import Any

import aiosqlite

# How long a statement waits for another process's write lock before the action is refused:
# well inside Discord's 3-second window, so the player hears back either way.
BUSY_TIMEOUT_MS = 1500
MEMORY = ":memory:"


class StorageBusy(RuntimeError):
    """The database stayed locked past the busy timeout; nothing was changed."""


class StorageUnavailable(RuntimeError):
    """The database cannot be opened or used (damaged, missing, unreachable). The message is
    one line for a person, naming the file or setting, never a secret."""


class Transaction:
    """Statements inside :meth:`Storage.transaction` (the lock is already held)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Any = ()) -> int:
        cursor = await self._db.execute(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Any = ()) -> int:
        cursor = await self._db.execute(sql, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def executemany(self, sql: str, rows: Iterable[Any]) -> None:
        await self._db.executemany(sql, rows)

    async def all(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return list(await self._db.execute_fetchall(sql, params))

    async def one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        cursor = await self._db.execute(sql, params)
        row: sqlite3.Row | None = await cursor.fetchone()
        return row

    async def executescript_in_transaction(self, script: str) -> None:
        """Run a migration script statement by statement (``executescript`` would commit)."""
        for statement in statements(script):
            await self._db.execute(statement)


def statements(script: str) -> list[str]:
    parts, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            parts.append(buffer.strip())
            buffer = ""
    return [p for p in parts if p]


RESTORE = "restore it from a backup (wordlebot db backup), or move it away to start afresh"


async def connect(path: str, busy_timeout_ms: int) -> aiosqlite.Connection:
    pending = aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
    thread = getattr(pending, "_thread", None)  # aiosqlite's worker, not started yet
    if thread is not None:  # a connection a crash left open never keeps the process alive
        thread.daemon = True
    connection = await pending
    try:
        connection.row_factory = sqlite3.Row
        pragmas = [
            f"busy_timeout = {int(busy_timeout_ms)}",
            "foreign_keys = ON",
            "secure_delete = ON",
        ] + (["synchronous = NORMAL"] if path != MEMORY else [])
        for pragma in pragmas:  # each read to the end: an open cursor would hold a lock
            await connection.execute_fetchall(f"PRAGMA {pragma}")
    except BaseException:
        await close_quietly(connection)
        raise
    return connection


async def close_quietly(connection: aiosqlite.Connection) -> None:
    """Close, and end aiosqlite's worker thread, whatever the last statement did."""
    with contextlib.suppress(Exception):  # the thread is told to stop before close can fail
        await connection.close()


def is_busy(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def busy_or(exc: sqlite3.OperationalError) -> Exception:
    return StorageBusy(str(exc)) if is_busy(exc) else exc
