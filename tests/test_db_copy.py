"""``wordlebot db copy`` refuses what would lose or invent data: a source that does not exist
or holds nothing (a mistyped path must not "copy" 0 rows, nor create the file), and a target
that holds data, unless ``--replace`` says to delete it (in the copy's own transaction)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.services import Player, open_services
from bot.settings import load_settings
from bot.storage import Storage
from bot.storage.copy import counts

SEED = "c0py-7e57-5eed-0f-the-da1ly-0rder-a1b2c3d4e5f6"


@pytest.fixture(autouse=True)
def _database_url_restored(monkeypatch) -> None:
    """``--database`` sets DATABASE_URL in this process: undone after each test."""
    monkeypatch.setenv("DATABASE_URL", ":memory:")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, out: str, err: str, says: str) -> None:
    assert code == 2 and out == "", (code, out, err)
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def fill(url: str, player_ids: list[int]) -> dict[str, int]:
    """A practice game given up by each player, and their results; returns the row counts."""

    async def go() -> dict[str, int]:
        services = await open_services(load_settings(database_url=url, daily_seed=SEED))
        try:
            for pid in player_ids:
                player = Player(pid, f"p{pid}")
                await services.games.start(player, 0)
                await services.games.give_up(player, 0, kind="wordle:practice")
            return await counts(services.storage)
        finally:
            await services.close()

    return asyncio.run(go())


def players(url: str) -> list[int]:
    async def go() -> list[int]:
        storage = await Storage.open(url)
        try:
            return [int(r[0]) for r in await storage.db.all("SELECT id FROM players ORDER BY id")]
        finally:
            await storage.close()

    return asyncio.run(go())


def test_a_source_file_that_does_not_exist_is_refused_and_not_created(capsys, tmp_path) -> None:
    typo, target = tmp_path / "wordlebto.sqlite3", tmp_path / "new.sqlite3"
    for given in (f"sqlite://{typo}", str(typo)):
        refused(*run(capsys, "db", "copy", "--from", given, "--to", f"sqlite://{target}"),
                says=f"no database file {typo}")  # fmt: skip
    assert not typo.exists() and not target.exists()


def test_a_source_that_holds_no_data_is_refused(capsys, tmp_path) -> None:
    empty, target = tmp_path / "empty.sqlite3", tmp_path / "new.sqlite3"
    assert run(capsys, "db", "migrate", "--database", f"sqlite://{empty}")[0] == 0
    refused(*run(capsys, "db", "copy", "--from", str(empty), "--to", str(target)),
            says="holds no data: nothing to copy")  # fmt: skip
    assert not target.exists()
    refused(*run(capsys, "db", "copy", "--from", "sqlite:///:memory:", "--to", str(target)),
            says="nothing to copy")  # fmt: skip


def test_an_unused_postgresql_source_is_refused_and_left_unused(capsys, postgres_url, tmp_path):
    target = tmp_path / "new.sqlite3"
    refused(*run(capsys, "db", "copy", "--from", postgres_url, "--to", str(target)),
            says="holds no data: nothing to copy")  # fmt: skip
    assert not target.exists()

    async def version() -> int:
        storage = await Storage.open(postgres_url, migrate=False)
        try:
            return await storage.schema_version()
        finally:
            await storage.close()

    assert asyncio.run(version()) == 0  # not even migrated


def test_the_same_file_written_two_ways_is_refused(capsys, tmp_path, monkeypatch) -> None:
    source = tmp_path / "live.sqlite3"
    fill(str(source), [1])
    monkeypatch.chdir(tmp_path)
    refused(*run(capsys, "db", "copy", "--from", "live.sqlite3", "--to", f"sqlite://{source}"),
            says="the same database")  # fmt: skip


def test_a_target_with_data_is_refused_unless_replace(capsys, tmp_path, shared_url) -> None:
    first, second = str(tmp_path / "first.sqlite3"), str(tmp_path / "second.sqlite3")
    fill(first, [1, 2])
    expected = fill(second, [7])
    assert run(capsys, "db", "copy", "--from", first, "--to", shared_url)[0] == 0
    assert players(shared_url) == [1, 2]
    refused(*run(capsys, "db", "copy", "--from", second, "--to", shared_url),
            says="already holds data")  # fmt: skip
    assert players(shared_url) == [1, 2]  # untouched
    code, out, err = run(capsys, "db", "copy", "--from", second, "--to", shared_url, "--replace")
    assert code == 0 and out.startswith("replaced the data of"), err
    assert players(shared_url) == [7]

    async def target_counts() -> dict[str, int]:
        storage = await Storage.open(shared_url)
        try:
            return await counts(storage)
        finally:
            await storage.close()

    assert asyncio.run(target_counts()) == expected
    # Play goes on on the replaced database: its boards were counted again from its rows.
    fill(shared_url, [8])
    assert players(shared_url) == [7, 8]


def test_the_help_says_what_replace_does(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["db", "copy", "--help"])
    assert "--replace" in capsys.readouterr().out


def test_a_refused_replace_keeps_the_target(tmp_path) -> None:
    """A copy that fails after deleting (the source changed under it) rolls the delete back."""
    from bot.storage.copy import copy_database

    first, second = str(tmp_path / "first.sqlite3"), str(tmp_path / "second.sqlite3")
    fill(first, [1])
    fill(second, [2])

    async def go() -> None:
        source, target = await Storage.open(second), await Storage.open(first)
        try:
            real = source.db.all

            async def growing(sql: str, params=()):  # a bot still writing to the source
                rows = await real(sql, params)
                if sql.startswith("SELECT * FROM coop_standings"):
                    late = "INSERT INTO players (id, name, created_at) VALUES (99, 'late', 'x')"
                    await source.db.write(late)
                return rows

            source.db.all = growing  # type: ignore[method-assign]
            with pytest.raises(Exception, match="nothing was copied"):
                await copy_database(source, target, replace=True)
        finally:
            await source.close()
            await target.close()

    asyncio.run(go())
    assert players(first) == [1]
    assert Path(first).exists()
