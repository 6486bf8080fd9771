"""A share's message moment (``share_results.posted_at``): a message older than the one
recorded changes nothing, whenever and wherever it is read, so an import months later never
undoes a correction nor moves a share back to the old message's server; on both engines."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, date, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import Storage

TODAY = date(2026, 11, 22)
NUMBER = (TODAY - date(2021, 6, 19)).days  # its NYT Wordle number
A, B = 11, 12  # two servers
MORNING = datetime(2026, 11, 22, 8, tzinfo=UTC)
_players = itertools.count(1000)  # a player of its own for each example (one database)


async def share(storage: Storage, player: int, guesses: int, scope: int, at: datetime) -> str:
    """A Wordle share of today's number, posted at ``at`` in server ``scope`` (0: failed)."""
    return await storage.record_share(player, "wordle", NUMBER, guesses > 0, guesses, False,
                                      f"g{guesses}", scope=scope, today=TODAY,
                                      posted_at=at)  # fmt: skip


async def where(storage: Storage, player: int) -> tuple[int, int, dict[int, tuple]]:
    """The player's recorded guesses and server, and their standings on each server's board."""
    row = await storage._one(
        "SELECT guesses, scope FROM share_results WHERE player_id = ? AND puzzle = ?",
        (player, NUMBER),
    )
    boards = {}
    for scope in (A, B):
        standing = await storage._one(
            "SELECT played, wins, win_guesses FROM standings "
            "WHERE scope = ? AND player_id = ? AND kind = 'wordle:shared'",
            (scope, player),
        )
        boards[scope] = (0, 0, 0) if standing is None else tuple(standing)
    return int(row[0]), int(row[1]), boards


async def test_an_old_message_read_later_neither_undoes_a_correction_nor_moves_it(database_url):
    """#N posted as 3/6 in server A, corrected the same day to 4/6 in server B (it moves to
    B); months later A's old message is read again (an import, Discord sending it again):
    nothing changes. At the same moment, different values: the one read last wins."""
    storage = await Storage.open(database_url)
    assert await share(storage, 1, 3, A, MORNING) == "new"
    assert await share(storage, 1, 4, B, MORNING + timedelta(hours=1)) == "replaced"
    assert await where(storage, 1) == (4, B, {A: (0, 0, 0), B: (1, 1, 4)})
    assert await share(storage, 1, 3, A, MORNING) == "same"  # the old message, again
    assert await share(storage, 1, 2, A, MORNING + timedelta(minutes=59)) == "same"
    assert await where(storage, 1) == (4, B, {A: (0, 0, 0), B: (1, 1, 4)})
    assert await share(storage, 1, 5, A, MORNING + timedelta(hours=1)) == "replaced"  # a tie
    assert await where(storage, 1) == (5, A, {A: (1, 1, 5), B: (0, 0, 0)})

    # The newer message says the same: an older different one still changes nothing.
    assert await share(storage, 2, 3, A, MORNING) == "new"
    assert await share(storage, 2, 3, B, MORNING + timedelta(hours=2)) == "same"
    assert await share(storage, 2, 4, B, MORNING + timedelta(hours=1)) == "same"
    assert await where(storage, 2) == (3, A, {A: (1, 1, 3), B: (0, 0, 0)})

    # A share with no message (the console) is of now: a message of this morning is older.
    assert await storage.record_share(3, "wordle", NUMBER, True, 6, False, "g", scope=A,
                                      today=TODAY) == "new"  # fmt: skip
    assert await share(storage, 3, 2, B, datetime.now(UTC) - timedelta(minutes=1)) == "same"
    assert (await where(storage, 3))[:2] == (6, A)
    await storage.close()


MESSAGES = st.lists(
    st.tuples(st.integers(0, 6), st.sampled_from([A, B]), st.integers(0, 3)),  # minutes
    min_size=1,
    max_size=6,
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages=MESSAGES, data=st.data())
def test_a_players_messages_of_a_puzzle_end_with_the_newest_in_any_order(
    database_url, messages, data
) -> None:
    """Whatever order a player's messages of one puzzle are read in (live, imports of each
    server, Discord sending some again), the newest one's result counts (of messages of the
    same moment, the one read last), once, on the board of the server it is recorded in."""
    read = data.draw(st.permutations(messages))
    player = next(_players)
    newest = max(minute for _, _, minute in read)
    expected = [guesses for guesses, _, minute in read if minute == newest][-1]

    async def run() -> tuple[int, int, dict[int, tuple]]:
        storage = await Storage.open(database_url)
        for guesses, scope, minute in read:
            await share(storage, player, guesses, scope, MORNING + timedelta(minutes=minute))
        found = await where(storage, player)
        await storage.close()
        return found

    guesses, scope, boards = asyncio.run(run())
    assert guesses == expected
    won = int(expected > 0)
    assert boards[scope] == (1, won, won * expected)  # counted once, where it is recorded
    assert boards[A if scope == B else B] == (0, 0, 0)
