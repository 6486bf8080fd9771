"""What :class:`bot.storage.Storage` needs of a database engine, and how a setting names one.

Storage writes each query once, with ``?`` placeholders, in the SQL both engines speak
(``ON CONFLICT``, ``RETURNING``). An engine (``sqlite.py``, ``postgres.py``) runs it: reads,
single-statement writes, transactions, migrations, bulk loads, and the few expressions whose
spelling differs. Errors reach the services as :class:`StorageBusy` (try again; nothing was
changed), :class:`StorageUnavailable` (cannot be used; one line for a person) or
:class:`Duplicate` (a unique rule refused the row).

A transaction on the guess path is written as :data:`Steps`: a generator that yields each
statement and is sent its answer. SQLite runs the whole of it in one trip to its database
thread, so its one write lock is held for the statements' time alone, not for a round trip
through a busy event loop per statement (which made finishing games queue behind each other
under load); PostgreSQL runs it statement by statement, as any transaction.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypeVar
from urllib.parse import urlsplit

Row = Any  # sqlite3.Row or asyncpg.Record: both index by name and position, both iterate


class StorageBusy(RuntimeError):
    """The database could not take the action in time (locked, restarting, unreachable for
    a moment); nothing was changed."""


class StorageUnavailable(RuntimeError):
    """The database cannot be opened or used (damaged, missing, unreachable). The message is
    one line for a person, naming the file or setting, never a secret."""


class Duplicate(RuntimeError):
    """A unique rule refused the row (one active game per kind, one daily attempt)."""


T = TypeVar("T")


class Step(NamedTuple):
    """One statement of :data:`Steps`, run by the :class:`Transaction` method ``method``;
    the generator is sent what that method returns."""

    method: str  # "execute" (rows changed), "value", "one", "all" or "executemany" (None)
    sql: str
    params: Any = ()


Steps = Generator[Step, Any, T]


def execute(sql: str, params: Sequence[Any] = ()) -> Step:
    return Step("execute", sql, params)


def value(sql: str, params: Sequence[Any] = ()) -> Step:
    return Step("value", sql, params)


def one(sql: str, params: Sequence[Any] = ()) -> Step:
    return Step("one", sql, params)


def fetch_all(sql: str, params: Sequence[Any] = ()) -> Step:
    return Step("all", sql, params)


def execute_many(sql: str, rows: Iterable[Sequence[Any]]) -> Step:
    return Step("executemany", sql, list(rows))


def only(step: Step) -> Steps[Any]:
    """Steps of one statement: an ``INSERT ... RETURNING`` read in one trip."""
    return (yield step)


async def run_steps(tx: Transaction, steps: Steps[T]) -> T:
    """Steps statement by statement, each awaited; an error is raised inside the generator
    at its statement, as an awaited statement's would be."""
    answer: Any = None
    error: BaseException | None = None
    while True:
        try:
            step = steps.throw(error) if error is not None else steps.send(answer)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        answer, error = None, None
        try:
            answer = await getattr(tx, step.method)(step.sql, step.params)
        except Exception as exc:
            error = exc


class Transaction(Protocol):
    """Statements inside :meth:`Database.transaction`: all commit together or none does."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...
    async def value(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...
    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    async def load(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        """Many rows at once (the engine's fastest way: ``COPY`` on PostgreSQL)."""

    async def run(self, steps: Steps[T]) -> T:
        """:data:`Steps` inside this transaction; returns what the generator returns."""
        ...


class Database(Protocol):
    engine: str  # "sqlite" or "postgresql"
    where: str  # the file, or the server and database, with no password: for messages
    for_update: str  # locks the rows a transaction reads and then rewrites ("" in SQLite)

    def ratio(self, numerator: str, denominator: str) -> str:
        """A floating-point quotient, NULL when the denominator is 0, spelled as the
        leaderboard indexes spell it (so a page is an index walk)."""
        ...

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...
    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...
    async def write(self, sql: str, params: Sequence[Any] = (), *, durable: bool = True) -> int:
        """One statement in its own transaction; returns the rows changed. ``durable=False``
        (a move in a game still going) may return before the commit reaches the disk where
        the engine allows it: SQLite's WAL with ``synchronous = NORMAL`` does so for every
        commit (a crash of the machine, never of the process, can undo the last of them);
        PostgreSQL only when opened with ``async_moves`` (POSTGRES_ASYNC_MOVES), when a
        crash of its server too can undo the last fraction of a second of such writes,
        never half of one."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]: ...
    async def run(self, steps: Steps[T]) -> T:
        """:data:`Steps` in a transaction of their own (SQLite: one trip to its thread)."""
        ...

    async def schema_version(self) -> int: ...
    async def migrate(self, target: int | None = None) -> list[int]: ...
    async def after_load(self, tx: Transaction, tables: Sequence[str]) -> None:
        """After rows were loaded with their own ids: move id counters past them, and
        refresh the planner's statistics."""
        ...

    async def optimize(self, tables: Sequence[str]) -> None:
        """After a large load has committed: fresh planner statistics (and, on PostgreSQL,
        a vacuum, so counts read the index alone)."""
        ...

    async def after_delete(self) -> None:
        """After a player's deletion: make sure nothing of theirs stays readable on disk."""
        ...

    async def lead(self) -> bool:
        """Whether this process runs the deployment's once-only jobs (tree builds, schedules):
        true for exactly one live process at a time."""
        ...

    async def backup(self, target: str) -> None: ...
    async def close(self) -> None: ...


# -- which database a setting names ----------------------------------------------------

MEMORY = ":memory:"


@dataclass(frozen=True)
class DatabaseUrl:
    engine: str  # "sqlite" or "postgresql"
    target: str  # the SQLite path, or the PostgreSQL DSN as given

    @property
    def shown(self) -> str:
        """The URL with any password replaced: safe for logs and messages."""
        return self.target if self.engine == "sqlite" else redact(self.target)


def parse_database_url(value: str) -> DatabaseUrl:
    """``sqlite:///path/to/file.sqlite3``, ``sqlite:///:memory:``, a bare file path, or
    ``postgresql://user:pass@host:port/db`` (also ``postgres://``). Raises ValueError with
    a message that never shows a password."""
    value = value.strip()
    if not value:
        raise ValueError("empty: give a file path, sqlite:///path or postgresql://...")
    scheme = value.split("://", 1)[0].lower() if "://" in value else ""
    if scheme == "":
        return DatabaseUrl("sqlite", value)
    if scheme == "sqlite":
        path = value.split("://", 1)[1]
        path = MEMORY if path in ("", "/", "/" + MEMORY, MEMORY) else path
        if not path.startswith("/") and path != MEMORY:
            raise ValueError(f"{value!r}: write sqlite:///path/to/file.sqlite3 (three slashes)")
        return DatabaseUrl("sqlite", path)
    if scheme in ("postgresql", "postgres"):
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError as exc:
            raise ValueError(f"{redact(value)} is not a PostgreSQL URL ({exc})") from None
        if not parts.path.strip("/") and "dbname=" not in parts.query:
            raise ValueError(f"{redact(value)} names no database (postgresql://host/DATABASE)")
        return DatabaseUrl("postgresql", value)
    raise ValueError(f"unknown kind of database {scheme!r}: use sqlite:/// or postgresql://")


def redact(url: str) -> str:
    """``postgresql://ann:secret@host/db`` -> ``postgresql://ann:***@host/db``; also a
    ``password=`` query parameter."""
    head, sep, rest = url.partition("://")
    if not sep:
        return url
    netloc, slash, tail = rest.partition("/")
    if "@" in netloc:
        auth, _, host = netloc.rpartition("@")
        if ":" in auth:
            auth = auth.split(":", 1)[0] + ":***"
        netloc = f"{auth}@{host}"
    query_parts = tail.split("?", 1)
    if len(query_parts) == 2:
        query_parts[1] = "&".join(
            "password=***" if p.lower().startswith("password=") else p
            for p in query_parts[1].split("&")
        )
    return f"{head}{sep}{netloc}{slash}{'?'.join(query_parts)}"
