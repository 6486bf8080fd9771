"""The PostgreSQL engine (asyncpg, a connection pool): one database for several processes.

There is no process-wide lock here: PostgreSQL keeps transactions apart. Compare-and-set on
the game's version column, the unique indexes (one active game per kind, one daily attempt)
and ``SELECT ... FOR UPDATE`` on standings rows hold across processes.

A statement that cannot reach the server (restarting, a dropped link), waits for a lock
past the busy timeout, or loses a deadlock, raises :class:`StorageBusy`: the action is
refused, its transaction rolled back, and the pool drops its idle connections so the next
action opens fresh ones: play resumes when the server is back, without a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from bot.storage.database import (
    DatabaseUrl,
    Duplicate,
    Steps,
    StorageBusy,
    StorageUnavailable,
    T,
    run_steps,
)
from bot.storage.migrations import LATEST, POSTGRES_BASE, POSTGRES_MIGRATIONS
from bot.storage.sqlite import BUSY_TIMEOUT_MS, MIGRATION_WAIT_SECONDS

log = logging.getLogger("wordlebot.storage")

MIGRATION_LOCK = 0x776F72646C65  # pg_advisory_xact_lock key while migrating ("wordle")
LEADER_LOCK = MIGRATION_LOCK + 1  # held by the process that runs once-per-deployment jobs
CONNECT_TIMEOUT = 5.0
POOL_SIZE = 10
IDENTITY_TABLES = ("games", "results", "share_results", "races", "challenges", "coop_games")

TRANSIENT = (
    asyncpg.PostgresConnectionError,  # class 08: the link failed
    asyncpg.exceptions.OperatorInterventionError,  # class 57: shutting down, starting up
    asyncpg.exceptions.TransactionRollbackError,  # class 40: deadlock, serialization
    asyncpg.exceptions.LockNotAvailableError,  # lock_timeout
    asyncpg.exceptions.InsufficientResourcesError,  # too many connections
    asyncpg.InterfaceError,  # the connection was closed under us
    asyncpg.exceptions.InternalClientError,  # ... while it was between two messages
    OSError,
    TimeoutError,
)


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (queries here never hold a literal
    question mark)."""
    parts = sql.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], 1)) + parts[-1]


def _rowcount(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTransaction:
    def __init__(self, connection: asyncpg.Connection) -> None:
        self._c = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _rowcount(await self._c.execute(numbered(sql), *params))

    async def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._c.fetchval(numbered(sql), *params)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        return await self._c.fetchrow(numbered(sql), *params)

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        return list(await self._c.fetch(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._c.executemany(numbered(sql), list(rows))

    async def load(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        await self._c.copy_records_to_table(table, records=rows, columns=list(columns))

    async def script(self, script: str) -> None:
        await self._c.execute(script)  # no parameters: several statements in one go

    async def run(self, steps: Steps[T]) -> T:
        return await run_steps(self, steps)


async def _pool(
    url: DatabaseUrl, busy_timeout_ms: int, size: int, settings: dict[str, str]
) -> asyncpg.Pool:
    return await asyncpg.create_pool(
        url.target,
        min_size=1,
        max_size=size,
        timeout=CONNECT_TIMEOUT,
        # A lock held by another process is waited for as long as SQLite's busy timeout,
        # then the action is refused: inside Discord's 3-second window.
        server_settings={
            "lock_timeout": str(int(busy_timeout_ms)),
            "application_name": "wordlebot",
            **settings,
        },
        reset=_keep_session,
    )


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What the pool does to a connection it takes back, after rolling back any transaction
    left open: nothing. asyncpg's default runs a statement of its own each time (unlock
    advisory locks, close cursors, unlisten, reset settings), a second round trip and more
    server work for every statement; a pooled connection here never holds any of those (the
    leader's lock has a connection of its own, the migration lock ends with its
    transaction)."""


class PostgresDatabase:
    engine = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(
        self, url: DatabaseUrl, pool: asyncpg.Pool, moves: asyncpg.Pool | None = None
    ) -> None:
        self.where = url.shown
        self.pool = pool
        self.moves = moves or pool  # asynchronous commit only if asked: see write()
        self._url = url
        self._leader: asyncpg.Connection | None = None
        self._closed = False

    @staticmethod
    def ratio(numerator: str, denominator: str) -> str:
        return f"CAST({numerator} AS DOUBLE PRECISION) / NULLIF({denominator}, 0)"

    # -- opening, closing --------------------------------------------------------------

    @classmethod
    async def open(
        cls, url: DatabaseUrl, busy_timeout_ms: int = BUSY_TIMEOUT_MS, pool_size: int = POOL_SIZE,
        *, async_moves: bool = False,
    ) -> PostgresDatabase:  # fmt: skip
        """Connect the pools; an unreachable or refusing server raises
        :class:`StorageUnavailable` naming the setting, without the password.
        ``async_moves``: a second pool for moves, committing asynchronously (see write())."""
        pools: list[asyncpg.Pool] = []
        wanted = ({}, {"synchronous_commit": "off"}) if async_moves else ({},)
        try:
            for settings in wanted:  # the second, if any: moves
                pools.append(await _pool(url, busy_timeout_ms, pool_size, settings))
        except (*TRANSIENT, asyncpg.PostgresError, ValueError) as exc:
            for opened in pools:
                opened.terminate()
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            password = urlsplit(url.target).password
            if password:  # in case a driver's message quotes the address whole
                reason = reason.replace(password, "***")
            raise StorageUnavailable(
                f"Cannot use the PostgreSQL database {url.shown} (DATABASE_URL): {reason}"
            ) from None
        database = cls(url, *pools)
        try:
            await database._check_existing()
        except BaseException:
            await database.close()
            raise
        return database

    async def _check_existing(self) -> None:
        """Refuse a newer schema, or a database with other tables. Under the migration lock:
        a process migrating this database at the same moment finishes first (otherwise the
        tables it creates could appear between the two reads here)."""
        async with self.transaction() as tx:
            await self._wait_for_migrations(tx)
            version = 0
            if await tx.value("SELECT to_regclass('schema_version') IS NOT NULL"):
                version = int(await tx.value("SELECT COALESCE(MAX(version), 0) "
                                             "FROM schema_version"))  # fmt: skip
            others = await tx.value(
                "SELECT COUNT(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
        if version > LATEST:
            raise StorageUnavailable(f"{self.where} holds a newer wordlebot's schema "
                                     f"(version {version}): upgrade wordlebot")  # fmt: skip
        if version == 0 and others:
            raise StorageUnavailable(
                f"{self.where} has tables but is not a wordlebot database: "
                "point DATABASE_URL at an empty database"
            )

    async def _wait_for_migrations(self, tx: PostgresTransaction) -> None:
        """Take the migration lock for the rest of ``tx``: held by another process (migrating
        this database), it is waited for up to :data:`MIGRATION_WAIT_SECONDS`, not the busy
        timeout, so a process started meanwhile runs once that migration is done."""
        if await tx.value("SELECT pg_try_advisory_xact_lock(?)", (MIGRATION_LOCK,)):
            return
        log.warning("another process is migrating %s: waiting up to %d s",
                    self.where, MIGRATION_WAIT_SECONDS)  # fmt: skip
        await tx.execute(f"SET LOCAL lock_timeout = '{MIGRATION_WAIT_SECONDS}s'")
        await tx.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
        await tx.execute("SET LOCAL lock_timeout TO DEFAULT")  # the busy timeout again

    async def lead(self) -> bool:
        """Try to become the one process of the deployment that runs its background jobs: a
        session advisory lock on a connection of its own, held until this process closes or
        dies (PostgreSQL then releases it, and another process's next try succeeds)."""
        if self._leader is not None and not self._leader.is_closed():
            return True
        try:
            connection = await asyncpg.connect(self._url.target, timeout=CONNECT_TIMEOUT)
        except (*TRANSIENT, asyncpg.PostgresError):
            return False
        if await connection.fetchval("SELECT pg_try_advisory_lock($1)", LEADER_LOCK):
            self._leader = connection
            return True
        await connection.close()
        return False

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._leader is not None:
            with contextlib.suppress(*TRANSIENT):
                await self._leader.close()
        for pool in self._pools():
            try:
                await asyncio.wait_for(pool.close(), timeout=5)
            except (TimeoutError, *TRANSIENT):
                pool.terminate()

    def _pools(self) -> list[asyncpg.Pool]:
        return [self.pool] if self.moves is self.pool else [self.moves, self.pool]

    # -- statements --------------------------------------------------------------------

    @asynccontextmanager
    async def _errors(self) -> AsyncIterator[None]:
        try:
            yield
        except asyncpg.UniqueViolationError as exc:
            raise Duplicate(exc.constraint_name or "unique") from exc
        except TRANSIENT as exc:
            log.warning("database unavailable for a moment: %s", type(exc).__name__)
            for pool in self._pools():  # the next action reconnects
                await pool.expire_connections()
            raise StorageBusy(f"the database did not answer ({type(exc).__name__})") from exc

    async def one(self, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        async with self._errors():
            return await self.pool.fetchrow(numbered(sql), *params)

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        async with self._errors():
            return list(await self.pool.fetch(numbered(sql), *params))

    async def write(self, sql: str, params: Sequence[Any] = (), *, durable: bool = True) -> int:
        """By default every commit waits for the server's own ``synchronous_commit`` (on
        unless the server says otherwise): what is acknowledged survives a crash.

        Opened with ``async_moves`` (the setting POSTGRES_ASYNC_MOVES), ``durable=False``
        goes through a pool whose sessions commit asynchronously (``synchronous_commit =
        off``): the commit returns before the server writes it to its log, which it does
        within a fraction of a second (``wal_writer_delay``, 200 ms by default, up to three
        times that); others see it at once. A move in a game still going is written so:
        with 200 players guessing, the flush was half of a move's wait (``bench service``).
        A crash of the server or machine may then undo the last moves (never half of one,
        never a game's start or end); the player's next action is refused with the game as
        stored (``GameService``'s version check) rather than played on it."""
        async with self._errors():
            pool = self.pool if durable else self.moves
            return _rowcount(await pool.execute(numbered(sql), *params))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTransaction]:
        async with self._errors(), self.pool.acquire() as connection, connection.transaction():
            yield PostgresTransaction(connection)

    async def run(self, steps: Steps[T]) -> T:
        async with self.transaction() as tx:
            return await tx.run(steps)

    # -- schema ------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self.one("SELECT to_regclass('schema_version') IS NOT NULL")
        if row is None or not row[0]:
            return 0
        version = await self.one("SELECT MAX(version) FROM schema_version")
        return int(version[0]) if version is not None and version[0] is not None else 0

    async def migrate(self, target: int | None = None) -> list[int]:
        """Bring the schema to ``target`` in one transaction, under an advisory lock: when
        several processes start at once, one migrates and the others find it done."""
        target = LATEST if target is None else target
        if not POSTGRES_BASE <= target <= LATEST:
            raise ValueError(f"PostgreSQL schemas start at version {POSTGRES_BASE}")
        async with self.transaction() as tx:
            await self._wait_for_migrations(tx)
            await tx.script("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = int(await tx.value("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
            applied = list(range(max(current + 1, POSTGRES_BASE), target + 1))
            for version in applied:
                await tx.script(POSTGRES_MIGRATIONS[version - POSTGRES_BASE])
            if applied:
                await tx.execute("DELETE FROM schema_version")
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))
        return applied

    # -- upkeep ------------------------------------------------------------------------

    async def after_load(self, tx: Any, tables: Sequence[str]) -> None:
        for table in tables:
            if table in IDENTITY_TABLES:  # the next id comes after the ones loaded
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )

    async def optimize(self, tables: Sequence[str]) -> None:
        """After a large load: statistics, and a visibility map that lets counts read the
        index alone (a board's total over 100,000 players: 25 ms before, 10 ms after)."""
        async with self._errors():
            await self.pool.execute(f"VACUUM ANALYZE {', '.join(tables)}")

    async def after_delete(self) -> None:
        """Deleted rows stay in their pages until vacuumed: vacuum the player's tables now."""
        async with self._errors():
            await self.pool.execute("VACUUM players, games, results, standings, share_results")

    async def backup(self, target: str) -> None:
        raise StorageUnavailable(
            "PostgreSQL is backed up with its own tool: pg_dump --format=custom "
            '--file=wordlebot.dump "$DATABASE_URL" (restore with pg_restore)'
        )
