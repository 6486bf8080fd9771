"""The SQLite engine (aiosqlite): the embedded default, one process, one file.

A file database has two connections, WAL mode, foreign keys on and a short busy timeout.
Writes go through one connection, one at a time behind a lock, so a coroutine's transaction
never interleaves with another's; reads go through the other, so a reader never queues
behind a write that waits for another process's lock (WAL lets readers go on meanwhile).

A transaction written as :data:`~bot.storage.database.Steps` (the guess path's) runs whole in
one trip to the writer's thread: ``BEGIN IMMEDIATE``, its statements, ``COMMIT``. The write
lock is then held for the statements' own time; a transaction awaited statement by statement
holds it across one pass of the event loop per statement, which under load let finishing
games queue for seconds behind each other.

An existing file is opened only if it is a sound wordlebot database: a fresh one is never
created over it. Deleted rows are overwritten (``secure_delete``), and a deletion is
checkpointed out of the write-ahead log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.database import (
    MEMORY,
    Duplicate,
    Step,
    Steps,
    StorageBusy,
    StorageUnavailable,
    T,
    execute,
    execute_many,
    fetch_all,
    run_steps,
    value,
)
from bot.storage.migrations import LATEST, SQLITE_MIGRATIONS

log = logging.getLogger("wordlebot.storage")

# How long a statement waits for another process's write lock before the action is refused:
# well inside Discord's 3-second window, so the player hears back either way.
BUSY_TIMEOUT_MS = 1500
# How long a process starting waits for another's migration of the same database (a fresh
# schema, or a long upgrade) before it gives up: it then runs on the schema migrated.
MIGRATION_WAIT_SECONDS = 60
RESTORE = "restore it from a backup (wordlebot db backup), or move it away to start afresh"


class SqliteTransaction:
    """Statements inside :meth:`SqliteDatabase.transaction` (the write lock is held)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from exc
        return cursor.rowcount

    async def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.one(sql, params)
        return None if row is None else row[0]

    async def one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        try:
            cursor = await self._db.execute(sql, params)
            row: sqlite3.Row | None = await cursor.fetchone()
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from exc
        return row

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from exc

    async def load(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        marks = ", ".join("?" for _ in columns)
        await self._db.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )

    async def run(self, steps: Steps[T]) -> T:
        """The steps in one trip to the database thread."""
        run = thread_call(self._db)
        if run is None:
            return await run_steps(self, steps)
        return await run(lambda: drive(self._db._conn, steps))  # type: ignore[no-any-return]


class SqliteDatabase:
    engine = "sqlite"
    for_update = ""

    def __init__(
        self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self.where = path
        self._db = writer
        self._reader = reader or writer  # ":memory:" has one connection for both
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._closed = False

    @staticmethod
    def ratio(numerator: str, denominator: str) -> str:
        return f"CAST({numerator} AS REAL) / {denominator}"  # x / 0 is NULL in SQLite

    # -- opening, closing --------------------------------------------------------------

    @classmethod
    async def open(cls, path: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> SqliteDatabase:
        """A database is created only where no file exists. A file that cannot be used raises
        :class:`StorageUnavailable` with one line for a person, and leaves no connection
        (nor its thread) behind."""
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
            database = cls(path, *connections)
            if not fresh:
                await database._check_existing()
            return database
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

    async def _check_existing(self) -> None:
        """An existing file must be a sound wordlebot database, else nothing touches it."""
        path = self.where
        try:
            check = await self.one("PRAGMA quick_check")
            version = await self.schema_version()
            meta = await self.one("SELECT 1 FROM sqlite_master WHERE name = 'meta'")
        except (sqlite3.DatabaseError, StorageBusy) as exc:
            if isinstance(exc, StorageBusy):
                raise
            raise StorageUnavailable(f"The database file {path} is damaged ({exc}): "
                                     f"{RESTORE}") from None  # fmt: skip
        if check is None or check[0] != "ok":
            raise StorageUnavailable(f"The database file {path} is damaged: {RESTORE}")
        if version < 1 or meta is None or version > LATEST:
            newer = " (written by a newer wordlebot)" if version > LATEST else ""
            raise StorageUnavailable(
                f"{path} is not a wordlebot database{newer}: point DATABASE_URL elsewhere"
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

    # -- statements --------------------------------------------------------------------

    async def one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self.all(sql, params)  # one trip to the database thread, not two
        return rows[0] if rows else None

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._read_lock:
            try:
                return list(await self._reader.execute_fetchall(sql, params))
            except sqlite3.OperationalError as exc:
                raise busy_or(exc) from exc

    async def write(self, sql: str, params: Sequence[Any] = (), *, durable: bool = True) -> int:
        # ``durable`` changes nothing here: in WAL mode with synchronous = NORMAL no commit
        # waits for the disk, and none is lost when the process dies.
        async with self._lock:
            try:
                cursor = await self._db.execute(sql, params)
                return cursor.rowcount
            except sqlite3.IntegrityError as exc:
                raise Duplicate(str(exc)) from exc
            except sqlite3.OperationalError as exc:
                raise busy_or(exc) from exc

    @asynccontextmanager
    async def transaction(self, *, migrating: bool = False) -> AsyncIterator[SqliteTransaction]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error. ``migrating``: the
        write lock held by another process (migrating the same file) is waited for up to
        :data:`MIGRATION_WAIT_SECONDS`, not the busy timeout."""
        async with self._lock:
            try:
                await self._begin(migrating)
            except BaseException:  # cancelled meanwhile, the BEGIN still runs on the thread:
                await self._db.rollback()  # queued behind it, so nothing is left open
                raise
            try:
                yield SqliteTransaction(self._db)
                await self._db.commit()
            except BaseException as exc:
                await self._db.rollback()
                if isinstance(exc, sqlite3.OperationalError):
                    raise busy_or(exc) from exc
                raise

    async def run(self, steps: Steps[T]) -> T:
        """The steps in a transaction of their own, whole in one trip to the writer's thread."""
        run = thread_call(self._db)
        if run is None:  # one statement a trip, as any transaction
            async with self.transaction() as tx:
                return await run_steps(tx, steps)

        async with self._lock:
            # One trip cannot be stopped halfway: a caller cancelled meanwhile leaves it to
            # commit or roll back whole, and the lock stays held until it has.
            work = asyncio.ensure_future(run(lambda: drive_whole(self._db._conn, steps)))
            try:
                return await asyncio.shield(work)
            except asyncio.CancelledError:
                await asyncio.wait([work])
                raise
            except sqlite3.Error as exc:
                raise mapped(exc) from exc

    # -- schema ------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self.one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, target: int | None = None) -> list[int]:
        """Apply the migrations after the current version up to ``target``, each in its own
        transaction; returns the versions applied. Foreign keys are off meanwhile (a table
        rebuilt must not cascade into the rows that refer to it) and checked before each
        commit. A fresh database taken to the latest version is made so at once
        (:class:`Migrated`)."""
        target = LATEST if target is None else target
        applied: list[int] = []
        current = await self.schema_version()
        if current >= target:
            return applied
        run = thread_call(self._db)
        fresh = current == 0 and target == LATEST
        if fresh and run is not None and await self._made_whole(run):
            return list(range(1, LATEST + 1))
        async with self._foreign_keys_off():
            for version in range(current + 1, target + 1):
                async with self.transaction(migrating=True) as db:
                    if await db.run(migration(version)):
                        applied.append(version)
        return applied

    @asynccontextmanager
    async def _foreign_keys_off(self) -> AsyncIterator[None]:
        await self._db.execute_fetchall("PRAGMA foreign_keys = OFF")  # outside a transaction
        try:
            yield
        finally:
            await self._db.execute_fetchall("PRAGMA foreign_keys = ON")

    async def _made_whole(self, run: Callable[..., Any]) -> bool:
        """A fresh database made at the latest version at once (see :class:`Migrated`):
        whether it was (not if another process migrated the file meanwhile)."""
        whole: Migrated = await run(migrated_whole)
        if self.where == MEMORY:
            await run(lambda: self._db._conn.deserialize(whole.pages))
            return True
        async with self._foreign_keys_off(), self.transaction(migrating=True) as db:
            made: bool = await db.run(whole.create())
        return made

    async def _begin(self, migrating: bool) -> None:
        try:
            await self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if not (migrating and is_busy(exc)):
                raise busy_or(exc) from exc
            await self._begin_waiting()

    async def _begin_waiting(self) -> None:
        log.warning("%s is locked by another process (migrating it?): waiting up to %d s",
                    self.where, MIGRATION_WAIT_SECONDS)  # fmt: skip
        [(busy_timeout,)] = await self._db.execute_fetchall("PRAGMA busy_timeout")
        await self._db.execute_fetchall(f"PRAGMA busy_timeout = {MIGRATION_WAIT_SECONDS * 1000}")
        try:
            await self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise busy_or(exc) from exc
        finally:
            await self._db.execute_fetchall(f"PRAGMA busy_timeout = {int(busy_timeout)}")

    async def lead(self) -> bool:
        """A SQLite file serves one process: it leads its own background jobs."""
        return True

    # -- upkeep ------------------------------------------------------------------------

    async def after_load(self, tx: Any, tables: Sequence[str]) -> None:
        """Ids come from MAX(id) + 1 (AUTOINCREMENT keeps the highest): nothing to move."""

    async def optimize(self, tables: Sequence[str]) -> None:
        await self.write("ANALYZE")  # fresh planner statistics after a large load

    async def after_delete(self) -> None:
        async with self._lock:  # the WAL still holds the old pages: fold it in and empty it
            await self._db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")

    async def backup(self, target: str) -> None:
        """A consistent copy of the live database (SQLite's online backup)."""
        async with self._lock:
            destination = await aiosqlite.connect(target)
            try:
                await self._db.backup(destination)
            finally:
                await destination.close()


@dataclass(frozen=True)
class Migrated:
    """A fresh database at the latest version, as every migration leaves it: worked out once
    in each process on a database in memory, then copied. Each migration's ALTER TABLEs
    re-read the whole schema (about 60 ms of CPU for them all); a new file takes the
    schema's statements and rows in one transaction (about 6 ms), a new database in memory
    a copy of the pages."""

    pages: bytes  # the whole database (sqlite3's serialize)
    tables: tuple[str, ...]  # its CREATE TABLE statements
    rows: tuple[tuple[str, tuple[tuple[Any, ...], ...]], ...]  # (INSERT, rows) per table
    others: tuple[str, ...]  # then its indexes, triggers and views (no trigger fires on a copy)

    @classmethod
    def of(cls, connection: sqlite3.Connection) -> Migrated:
        entries = connection.execute(
            "SELECT type = 'table', name, sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite^_%' ESCAPE '^' ORDER BY rowid"
        ).fetchall()
        names = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]  # fmt: skip
        rows = []
        for name in names:  # sqlite_sequence too (AUTOINCREMENT's next ids): it goes last
            found = tuple(tuple(row) for row in connection.execute(f'SELECT * FROM "{name}"'))
            if found:
                marks = ", ".join("?" * len(found[0]))
                rows.append((f'INSERT INTO "{name}" VALUES ({marks})', found))
        rows.sort(key=lambda insert: insert[0].startswith(_SEQUENCE))
        return cls(connection.serialize(), tuple(sql for table, _, sql in entries if table),
                   tuple(rows), tuple(sql for table, _, sql in entries if not table))  # fmt: skip

    def create(self) -> Steps[bool]:
        """Steps that make an empty file this database, unless another process has
        migrated it meanwhile (then nothing)."""
        if int((yield value("PRAGMA user_version"))) != 0:
            return False
        for statement in self.tables:
            yield execute(statement)
        for insert, rows in self.rows:
            if insert.startswith(_SEQUENCE):  # the next ids it had, not the copies' own
                yield execute("DELETE FROM sqlite_sequence")
            yield execute_many(insert, rows)
        for statement in self.others:
            yield execute(statement)
        yield execute(f"PRAGMA user_version = {LATEST}")
        return True


_SEQUENCE = 'INSERT INTO "sqlite_sequence"'
_MIGRATED: list[Migrated] = []


def migrated_whole() -> Migrated:
    """The process's :class:`Migrated` (on first use, every migration run on a database in
    memory): called on a database thread, never on the event loop."""
    if not _MIGRATED:
        connection = sqlite3.connect(MEMORY, isolation_level=None)
        try:
            connection.execute("PRAGMA foreign_keys = OFF")  # as :meth:`migrate` runs them
            for version in range(1, LATEST + 1):
                drive_whole(connection, migration(version))
            _MIGRATED.append(Migrated.of(connection))
        finally:
            connection.close()
    return _MIGRATED[0]


def migration(version: int) -> Steps[bool]:
    """Migration ``version``'s statements (one trip to the database thread: a fresh file
    takes every migration at its first start), unless another process applied it while this
    one waited for the lock; whether it was applied here."""
    if int((yield value("PRAGMA user_version"))) >= version:
        return False
    for statement in statements(SQLITE_MIGRATIONS[version - 1]):  # executescript would commit
        yield execute(statement)
    if (yield fetch_all("PRAGMA foreign_key_check")):
        raise StorageUnavailable(f"Migration {version} broke a reference")
    yield execute(f"PRAGMA user_version = {version}")
    return True


def thread_call(db: aiosqlite.Connection) -> Callable[..., Any] | None:
    """How aiosqlite runs a function on its thread, as each of its own calls does
    (``Connection._execute``: it has no public call for a function of ours; the function
    reaches sqlite3's connection as ``_conn``), or None if a later aiosqlite lacks it: then
    steps run one statement a trip."""
    run = getattr(db, "_execute", None)
    return run if callable(run) and hasattr(db, "_conn") else None


def drive(connection: sqlite3.Connection, steps: Steps[T]) -> T:
    """Run the steps here (the database thread), each sent its answer; a failing statement
    raises inside the generator, where an awaited one would."""
    answer: Any = None
    error: BaseException | None = None
    while True:
        try:
            step = steps.throw(error) if error is not None else steps.send(answer)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        answer, error = None, None
        try:
            answer = _answer(connection, step)
        except sqlite3.Error as exc:
            error = mapped(exc)


def drive_whole(connection: sqlite3.Connection, steps: Steps[T]) -> T:
    """The steps in a transaction of their own (here: the database thread): ``BEGIN
    IMMEDIATE``, the steps, ``COMMIT``, rolled back on any error."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        result = drive(connection, steps)
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
    return result


def _answer(connection: sqlite3.Connection, step: Step) -> Any:
    """What :class:`SqliteTransaction`'s method of that name returns."""
    if step.method == "executemany":
        connection.executemany(step.sql, step.params)
        return None
    cursor = connection.execute(step.sql, step.params)
    if step.method == "execute":
        return cursor.rowcount
    rows = cursor.fetchall()
    if step.method == "all":
        return rows
    first = rows[0] if rows else None
    return first if step.method == "one" or first is None else first[0]


def statements(script: str) -> list[str]:
    parts, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            parts.append(buffer.strip())
            buffer = ""
    return [p for p in parts if p]


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


def mapped(exc: sqlite3.Error) -> Exception:
    """An error as the services know it: a unique rule's :class:`Duplicate`, a lock's
    :class:`StorageBusy`, else the error itself (the original kept as the cause)."""
    if isinstance(exc, sqlite3.IntegrityError):
        error: Exception = Duplicate(str(exc))
    elif isinstance(exc, sqlite3.OperationalError):
        error = busy_or(exc)
    else:
        return exc
    error.__cause__ = exc
    return error


def is_busy(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def busy_or(exc: sqlite3.OperationalError) -> Exception:
    return StorageBusy(str(exc)) if is_busy(exc) else exc
