"""What a player's data reveals, what deleting it leaves, and databases that cannot be used."""

import asyncio
import json
import subprocess
import sys
import textwrap
import time
from datetime import date

import pytest
from bot_process import clean_env

from bot.services import Player, open_services
from bot.settings import SettingsError, load_settings, seed_weakness
from bot.storage import Storage, StorageBusy, StorageUnavailable

SEED = "0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a-safety"
ANN, BOB = Player(1, "ann"), Player(2, "bob")
GUILD = 100

TODAY = date(2026, 11, 22)  # the puzzle day shares are recorded on
NUMBER = (TODAY - date(2021, 6, 19)).days  # its NYT Wordle number


@pytest.fixture
async def services(tmp_path, database_url):
    """On a SQLite file, then on PostgreSQL."""
    url = str(tmp_path / "safety.sqlite3") if database_url == ":memory:" else database_url
    s = await open_services(load_settings(database_url=url, daily_seed=SEED))
    try:
        yield s
    finally:
        await s.close()


# -- an export never spoils a game in progress ---------------------------------------------

KINDS = [  # (variant, daily, challenge)
    ("wordle", True, False), ("wordle", False, False), ("primel", True, False),
    ("primel", False, False), ("dordle", False, False), ("quordle", False, False),
    ("octordle", False, False), ("absurdle", False, True),
]  # fmt: skip


async def test_an_export_hides_the_answers_of_every_kind_of_game_in_progress(services):
    services.games.choose_answer = lambda variant: {"wordle": "cigar", "primel": "99991"}[variant]
    deal = ["rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval"]
    services.games.deal = lambda variant, n: deal[:n]
    secrets: list[str] = []
    for variant, daily, challenge in KINDS:
        outcome = await services.games.start(ANN, GUILD, variant, daily=daily, challenge=challenge)
        assert outcome.ok, (variant, outcome.message)
        state = (await services.storage.game(outcome.game.game_id)).state
        secrets += [state[k] for k in ("answer", "target") if state.get(k)]
        secrets += state.get("answers", [])
    assert len(secrets) == 2 + 2 + 2 + 4 + 8 + 1  # every kind keeps its secrets
    exported = await services.export_player(ANN.id)
    games = json.loads(exported)["games"]
    assert len(games) == len(KINDS)
    for secret in secrets:
        assert f'"{secret}"' not in exported, secret
    # Once a game is over its answer is the player's to keep.
    await services.games.give_up(ANN, GUILD, kind="wordle:practice")
    assert '"answer": "cigar"' in await services.export_player(ANN.id)


# -- ids are never reused; a deletion leaves nothing readable ---------------------------------


async def test_game_ids_are_never_reused_after_a_deletion(services):
    ids = set()
    for _ in range(3):
        ids.add((await services.games.start(ANN, GUILD)).game.game_id)
        await services.games.give_up(ANN, GUILD)
    assert await services.delete_player(ANN.id)
    fresh = await services.games.start(BOB, GUILD)
    again = await services.games.start(ANN, GUILD)
    assert fresh.game.game_id > max(ids) and again.game.game_id > fresh.game.game_id


async def test_a_deleted_players_name_and_games_are_gone_from_the_files(tmp_path):
    path = tmp_path / "wipe.sqlite3"
    services = await open_services(load_settings(database_path=str(path), daily_seed=SEED))
    name = "Zyxwvutsrqponm-unique-name"
    player = Player(77, name)
    await services.games.start(player, GUILD, "quordle")
    await services.games.guess(player, GUILD, "crane")
    await services.storage.record_share(
        77, "wordle", NUMBER, True, 4, False, "grid-qwertyzxcv", scope=5, today=TODAY
    )
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert name.encode() in raw  # written (the test can see it)
    assert await services.delete_player(77)
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert name.encode() not in raw and b"grid-qwertyzxcv" not in raw
    assert services.games.memory_held()["active"] == 0
    await services.close()


# -- databases that cannot be used are refused in one line, and nothing is created over them --


@pytest.mark.parametrize(
    ("content", "says"),
    [(b"", "is empty"), (b"not a database at all " * 200, "damaged")],
)
async def test_an_unusable_file_is_refused_and_left_as_it_was(tmp_path, content, says):
    path = tmp_path / "bad.sqlite3"
    path.write_bytes(content)
    with pytest.raises(StorageUnavailable, match=says) as refused:
        await Storage.open(str(path))
    assert "\n" not in str(refused.value) and str(path) in str(refused.value)
    assert path.read_bytes() == content  # no fresh database (and seed) over it


async def test_another_programs_database_is_refused(tmp_path):
    import sqlite3

    path = tmp_path / "other.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE notes (text TEXT)")
    other.commit()
    other.close()
    with pytest.raises(StorageUnavailable, match="not a wordlebot database"):
        await Storage.open(str(path))


OPENER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.services import open_services
    from bot.settings import load_settings
    asyncio.run(open_services(load_settings(database_path=sys.argv[1])))
    """
)


def test_a_damaged_database_ends_the_process_with_one_line(tmp_path):
    """The CLI's front door: one line, status 2, and no worker thread left running."""
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"], input="", capture_output=True, text=True,
        timeout=60, env=clean_env(database_path=str(path)),
    )  # fmt: skip
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    # The same file opened directly: the process still exits by itself (no thread left).
    direct = subprocess.run([sys.executable, "-c", OPENER, str(path)], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert direct.returncode != 0 and "StorageUnavailable" in direct.stderr


async def test_close_finishes_even_when_the_last_statement_fails(tmp_path):
    storage = await Storage.open(str(tmp_path / "c.sqlite3"))
    await storage.db._db.close()  # what a failing statement at close would leave: a dead link
    await asyncio.wait_for(storage.close(), 10)  # returns, and the reader's thread ends too
    assert not storage.db._reader._running


# -- a database locked by another process: short waits, readers keep moving ----------------


async def test_readers_go_on_while_another_process_holds_the_write_lock(tmp_path, lock_database):
    path = str(tmp_path / "busy.sqlite3")
    storage = await Storage.open(path)
    try:
        await storage.ensure_player(1, "ann")
        locker = lock_database(path, 4.0)
        begin = time.perf_counter()
        writer = asyncio.ensure_future(storage.ensure_player(2, "bob"))
        for _ in range(1000):  # until the write has the writer's turn: it waits on the lock
            if storage.db._lock.locked():
                break
            await asyncio.sleep(0.001)
        else:
            pytest.fail("the write never began")
        settings = await storage.guild_settings(5)  # a read, not queued behind the write
        read_while_writing = not writer.done()  # queued behind it, it would end after it
        with pytest.raises(StorageBusy):  # gave up: waiting the lock out would succeed
            await writer
        refused_after = time.perf_counter() - begin
        locker.kill()  # its lock has served: the rest of its seconds would be waited out
        locker.wait(timeout=10)
    finally:
        await storage.close()
    assert settings.guild_id == 5 and read_while_writing
    # The busy timeout is 1.5 s (tests/test_storage.py pins it below 3 s): the bound is
    # Discord's 3-second window itself, generous for a loaded machine.
    assert refused_after < 3.0, f"the write gave up after {refused_after:.2f} s"


# -- the daily seed -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "seed", ["short-seed", "password1234", "a" * 64, "abcd" * 10, "0123456789" * 4]
)
def test_a_weak_daily_seed_is_refused_without_showing_it(seed):
    assert seed_weakness(seed) is not None
    with pytest.raises(SettingsError) as refused:
        load_settings(daily_seed=seed, database_path=":memory:")
    assert "DAILY_SEED" in str(refused.value) and seed not in str(refused.value)


def test_random_seeds_pass():
    import secrets

    for _ in range(200):
        assert seed_weakness(secrets.token_hex(32)) is None
        assert seed_weakness(secrets.token_hex(16)) is None
        assert seed_weakness(secrets.token_urlsafe(32)) is None


LEFT_OPEN = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage import Storage
    async def main():
        await Storage.open(sys.argv[1])  # never closed: a test that failed halfway
        raise SystemExit(3)
    asyncio.run(main())
    """
)


def test_a_connection_left_open_never_keeps_the_process_alive(tmp_path):
    """A failing test (or crash) that skips close() must end, not hang pytest or CI."""
    done = subprocess.run([sys.executable, "-c", LEFT_OPEN, str(tmp_path / "open.sqlite3")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 3
