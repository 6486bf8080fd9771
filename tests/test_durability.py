"""Nothing acknowledged is lost: on PostgreSQL every commit waits for the server's log by
default, so a crash of the server (an immediate stop) under play loses no guess a player was
shown; the asynchronous mode is an opt-in setting. Whatever the mode, a game the database
holds at an older version than its player was shown (moves undone by a crash, a backup
restored) is refused with the game as stored, never played on."""

import asyncio
import random

import pytest
from conftest import admin, stoppable_postgres

from bot.console import Console
from bot.services import Outcome, Player, Services, open_services
from bot.services.games import BUSY, CHANGED, ROLLED_BACK
from bot.settings import load_settings
from bot.storage import Storage

SEED = "7d1f3b5a9c2e4f6a8b0d1c3e5f7a9b2d-durability"
GUILD = 100
WORDS = ("crane", "slate", "moist", "pound", "fjord", "bumpy", "glyph", "waltz", "nymph", "chunk")
PLAYERS = 60
MOVES = 5  # per player, none the answer: every game stays in progress (moves only)


async def opened(url: str, **settings: object) -> Services:
    services = await open_services(load_settings(database_url=url, daily_seed=SEED, **settings))
    services.games.choose_answer = lambda variant: "cigar"
    return services


def words_of(outcome: Outcome) -> list[str]:
    assert outcome.game is not None
    return [guess for guess, _ in outcome.game.rows]


# -- a rolled-back game, on both engines -----------------------------------------------------


async def test_a_guess_on_a_rolled_back_game_is_refused_showing_the_game_as_stored(
    database_url,
):
    """The database loses a player's last two moves (as a crash under asynchronous commit
    would, or a backup restored): their next guess is refused with the game as stored, by
    whichever path it comes (the active game, a board's button), and the one after plays on
    it. Old code played the next guess on top of the rolled-back game."""
    services = await opened(database_url)
    ann, bob = Player(1, "ann"), Player(2, "bob")
    try:
        ids = {p.id: (await services.games.start(p, GUILD)).game.game_id for p in (ann, bob)}
        saved = {}
        for player in (ann, bob):
            assert (await services.games.guess(player, GUILD, "crane")).ok
            saved[player.id] = await services.storage._one(
                "SELECT state, version FROM games WHERE id = ?", (ids[player.id],)
            )
            for word in ("slate", "moist"):
                assert (await services.games.guess(player, GUILD, word)).ok
        for player in (ann, bob):  # the older state, written back as a restore would
            row = saved[player.id]
            await services.storage._write(
                "UPDATE games SET state = ?, version = ? WHERE id = ?",
                (row["state"], row["version"], ids[player.id]),
            )

        by_kind = await services.games.guess(ann, GUILD, "pound")  # the cached game's path
        by_button = await services.games.guess(bob, GUILD, "pound", game_id=ids[bob.id])
        for refused in (by_kind, by_button):
            assert not refused.ok and refused.message == ROLLED_BACK
            assert words_of(refused) == ["crane"]  # the game as stored, shown
        for player in (ann, bob):  # nothing was played on it
            stored = await services.storage.game(ids[player.id])
            assert [g for g, _ in stored.state["rows"]] == ["crane"]
            again = await services.games.guess(player, GUILD, "pound", game_id=ids[player.id])
            assert again.ok and words_of(again) == ["crane", "pound"]
    finally:
        await services.close()


async def test_the_console_shows_a_rolled_back_game_and_plays_on_from_it(tmp_path) -> None:
    services = await opened(str(tmp_path / "console.sqlite3"))
    shown: list[str] = []
    ann = Player(1, "ann")
    console = Console(services, ann, shown.append, colour=False)
    try:
        await console.handle("/wordle")
        await console.handle("crane")
        row = await services.storage._one("SELECT id, state, version FROM games")
        await console.handle("slate")
        await services.storage._write("UPDATE games SET state = ?, version = ? WHERE id = ?",
                                      (row["state"], row["version"], row["id"]))  # fmt: skip
        shown.clear()
        await console.handle("moist")
        text = "\n".join(shown)
        assert ROLLED_BACK in text and "CRANE" in text.upper() and "SLATE" not in text.upper()
        await console.handle("moist")
        stored = await services.storage.game(row["id"])
        assert [g for g, _ in stored.state["rows"]] == ["crane", "moist"]
    finally:
        await services.close()


async def test_in_discord_the_board_shows_the_game_as_stored_and_the_player_is_told(double):
    """A guess submitted from a board showing a lost move: the board is redrawn as stored
    and the player told privately; nothing is played."""
    storage = double.bot.services.storage
    board = (await double.command("wordle", "practice", user_id=1))[0]
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = (await double.click(guess, user_id=1, on=board))[0]
    await double.submit(modal, {"word": "crane"}, user_id=1)
    row = await storage._one("SELECT id, state, version FROM games")
    await double.submit(modal, {"word": "slate"}, user_id=1)
    await storage._write("UPDATE games SET state = ?, version = ? WHERE id = ?",
                         (row["state"], row["version"], row["id"]))  # fmt: skip
    redrawn, told = await double.submit(modal, {"word": "moist"}, user_id=1)
    assert redrawn.an_update and "CRANE" in redrawn.text and "SLATE" not in redrawn.text
    assert "MOIST" not in redrawn.text
    assert told.ephemeral and told.text == ROLLED_BACK
    stored = await storage.game(row["id"])
    assert [g for g, _ in stored.state["rows"]] == ["crane"]


# -- a real crash of a PostgreSQL server -----------------------------------------------------


@pytest.fixture(scope="module")
def crashable():
    """A PostgreSQL server of this module's own, to stop at once (``pg_ctl -m immediate``:
    every server process is killed, the log replayed at the next start) and start again."""
    with stoppable_postgres("wordlebot-crash-", "immediate") as (url, ctl):
        # fsync off: a killed server keeps what it wrote to the operating system, so the
        # test stays quick and still tells a commit written to the log from one that was
        # not. A long wal_writer_delay holds asynchronous commits in memory: that mode
        # loses moves every time.
        admin(url, "ALTER SYSTEM SET fsync = off", "ALTER SYSTEM SET wal_writer_delay = '10s'",
              "SELECT pg_reload_conf()")  # fmt: skip
        yield url, ctl


def fresh_database(url: str, name: str) -> str:
    from conftest import with_database

    admin(url, f"CREATE DATABASE {name}")
    return with_database(url, name)


async def play_through_a_crash(url: str, ctl, **settings: object):
    """Players guess at once; once two thirds of their guesses are in, the server is
    stopped at once (their play goes on meanwhile, refused), then started again. Returns
    the services, each player's game id and their acknowledged outcomes."""
    services = await opened(url, **settings)
    players = [Player(i, f"p{i}") for i in range(1, PLAYERS + 1)]
    ids = {p.id: (await services.games.start(p, GUILD)).game.game_id for p in players}
    acknowledged: dict[int, list[Outcome]] = {p.id: [] for p in players}
    enough = asyncio.Event()
    rng = random.Random(28)

    async def play(player: Player) -> None:
        for word in rng.sample(WORDS, MOVES):
            outcome = await services.games.guess(player, GUILD, word)
            if outcome.ok:
                acknowledged[player.id].append(outcome)
                if sum(map(len, acknowledged.values())) >= PLAYERS * MOVES * 2 // 3:
                    enough.set()
            else:
                assert outcome.message in (BUSY, CHANGED)

    async def crash() -> None:
        await enough.wait()
        await asyncio.to_thread(ctl, "stop")

    await asyncio.gather(crash(), *(play(p) for p in players))
    await asyncio.to_thread(ctl, "start")
    return services, ids, acknowledged


async def test_a_server_crash_under_play_loses_no_acknowledged_guess(crashable) -> None:
    """The default mode: every guess a player was shown is in the database after an
    immediate stop and a start (a guess refused as the server went down may be there too).
    Old code, whose moves committed asynchronously, lost the last ones."""
    server, ctl = crashable
    url = await asyncio.to_thread(fresh_database, server, "durable")
    services, ids, acknowledged = await play_through_a_crash(url, ctl)
    await services.close()
    assert sum(map(len, acknowledged.values())) >= PLAYERS * MOVES * 2 // 3
    storage = await Storage.open(url, migrate=False)  # a new process, after the restart
    try:
        for player_id, outcomes in acknowledged.items():
            stored = [g for g, _ in (await storage.game(ids[player_id])).state["rows"]]
            for outcome in outcomes:
                assert words_of(outcome) == stored[: len(outcome.game.rows)], player_id
    finally:
        await storage.close()


async def test_with_asynchronous_moves_a_crash_may_undo_moves_and_none_is_built_upon(
    crashable,
) -> None:
    """The opt-in mode (POSTGRES_ASYNC_MOVES): the crash undoes the last moves (with the
    log held in memory for 10 s, every time), and each player whose game went back is
    refused once with the game as stored; their next guess plays on that."""
    server, ctl = crashable
    url = await asyncio.to_thread(fresh_database, server, "quick")
    services, ids, acknowledged = await play_through_a_crash(url, ctl, postgres_async_moves=True)
    lost = 0
    try:
        for player_id, outcomes in acknowledged.items():
            player = Player(player_id)
            stored = [g for g, _ in (await services.storage.game(ids[player_id])).state["rows"]]
            shown = max((words_of(o) for o in outcomes), key=len, default=[])
            outcome = await services.games.guess(player, GUILD, "cigar")
            for _ in range(2):  # the first action after the restart may find the server
                if outcome.message not in (BUSY, CHANGED):  # busy, or a guess refused as it
                    break  # went down stored after all (another version than held)
                outcome = await services.games.guess(player, GUILD, "cigar")
            if len(stored) < len(shown):
                lost += len(shown) - len(stored)
                assert not outcome.ok and outcome.message == ROLLED_BACK, player_id
                assert words_of(outcome) == stored
                outcome = await services.games.guess(player, GUILD, "cigar")
            assert outcome.ok and words_of(outcome) == [*stored, "cigar"], player_id
        assert lost > 0  # the mode's documented loss, seen
    finally:
        await services.close()
