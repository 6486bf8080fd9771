"""/import's checkpoints and rules (issue 32, point 2), on SQLite and PostgreSQL: one owner
however many claim at once, in one process or two; a stale owner taken over, a live one
not; a finished import started afresh; the day range; the tally. The walk itself is tested
through the stand-in (tests/test_e2e_imports.py)."""

import asyncio
from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.services.imports import (
    MAX_DAYS_BACK,
    since_day,
    snowflake_at,
    snowflake_time,
    stamp,
    tally,
)
from bot.storage import Storage
from bot.storage.imports import ImportCounts

GUILD, CHANNEL = 970000000000000000, 970000000000000001
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def at(seconds: float) -> str:
    return stamp(NOW + timedelta(seconds=seconds))


async def claim(storage: Storage, owner: str, now: float = 0, lease: float = 60,
                since: str = "2026-10-01"):  # fmt: skip
    return await storage.imports.claim(GUILD, CHANNEL, since=since, by=70, owner=owner,
                                       now=at(now), stale_before=at(now - lease))  # fmt: skip


async def test_two_claims_at_once_one_runs(shared_url) -> None:
    """Two /import at once, from two processes of one database: one starts, one is told it
    runs."""
    first, second = await Storage.open(shared_url), await Storage.open(shared_url)
    try:
        outcomes = await asyncio.gather(claim(first, "a"), claim(second, "b"),
                                        claim(first, "a2"), claim(second, "b2"))  # fmt: skip
        assert sorted(o for o, _ in outcomes) == ["held", "held", "held", "started"]
        row = await first.imports.get(GUILD, CHANNEL)
        winner = next(cp for o, cp in outcomes if o == "started")
        assert row is not None and winner is not None and row.owner == winner.owner
    finally:
        await first.close()
        await second.close()


async def test_a_stale_owner_is_taken_over_and_then_changes_nothing(database_url) -> None:
    """An owner silent past the lease (killed) is replaced; its checkpoint is where the new
    owner carries on from; a write of the old owner afterwards changes nothing. An owner
    within its lease is never replaced."""
    storage = await Storage.open(database_url)
    try:
        assert (await claim(storage, "old"))[0] == "started"
        counts = ImportCounts(messages_read=200, counted=180, not_shares=20)
        assert await storage.imports.advance(GUILD, CHANNEL, "old", 12345, counts, at(10))
        assert (await claim(storage, "new", now=30))[0] == "held"  # 20 s after its last word
        claimed, resumed = await claim(storage, "new", now=71, since="2026-11-20")
        assert claimed == "resumed" and resumed is not None
        assert (resumed.owner, resumed.last_message_id, resumed.counts) == ("new", 12345, counts)
        assert resumed.since == "2026-10-01"  # the walk it carries on, not a new one
        later = ImportCounts(messages_read=300)
        assert not await storage.imports.advance(GUILD, CHANNEL, "old", 99999, later, at(72))
        assert not await storage.imports.finish(GUILD, CHANNEL, "old", at(72))
        row = await storage.imports.get(GUILD, CHANNEL)
        assert row is not None and (row.last_message_id, row.counts) == (12345, counts)
        assert [cp.owner for cp in await storage.imports.stale(at(72 - 60))] == []
        assert [cp.owner for cp in await storage.imports.stale(at(200))] == ["new"]
    finally:
        await storage.close()


async def test_an_import_let_go_is_carried_on_at_once(database_url) -> None:
    """A process stopping cleanly lets its imports go: no lease to wait for."""
    storage = await Storage.open(database_url)
    try:
        await claim(storage, "stopping")
        assert (await claim(storage, "next", now=1))[0] == "held"
        assert await storage.imports.release("stopping") == 1
        assert [cp.owner for cp in await storage.imports.stale(at(1 - 60))] == ["stopping"]
        assert (await claim(storage, "next", now=1))[0] == "resumed"
    finally:
        await storage.close()


async def test_a_finished_import_starts_afresh(database_url) -> None:
    storage = await Storage.open(database_url)
    try:
        await claim(storage, "a")
        counts = ImportCounts(messages_read=5, counted=5)
        await storage.imports.advance(GUILD, CHANNEL, "a", 777, counts, at(1))
        await storage.imports.shown_in(GUILD, CHANNEL, "a", CHANNEL, 888)
        assert await storage.imports.finish(GUILD, CHANNEL, "a", at(2))
        assert (await claim(storage, "b", now=3))[0] == "started"  # done: no lease to wait
        row = await storage.imports.get(GUILD, CHANNEL)
        assert row is not None and row.status == "running" and row.owner == "b"
        assert (row.last_message_id, row.counts, row.progress_message_id) == (
            None, ImportCounts(), None)  # fmt: skip
    finally:
        await storage.close()


async def test_deleting_the_admin_keeps_the_import_without_their_id(database_url) -> None:
    storage = await Storage.open(database_url)
    try:
        await claim(storage, "a")
        exported = await storage.export_player(70)
        [mine] = exported["share_imports"]  # their export lists the import they started
        assert (mine["guild_id"], mine["channel_id"]) == (GUILD, CHANNEL)
        await storage.delete_player(70)
        row = await storage.imports.get(GUILD, CHANNEL)
        assert row is not None and row.started_by == 0
    finally:
        await storage.close()


TODAY = date(2026, 11, 25)


@given(st.dates(min_value=date(2020, 1, 1), max_value=date(2028, 1, 1)))
def test_since_takes_a_day_of_the_last_year_and_refuses_others_in_one_line(day) -> None:
    got = since_day(day.isoformat(), TODAY)
    if TODAY - timedelta(days=MAX_DAYS_BACK) <= day <= TODAY:
        assert got == day
    else:
        assert isinstance(got, str) and "\n" not in got
        assert ("has not come yet" in got) == (day > TODAY)


def test_since_refuses_what_is_not_a_day() -> None:
    for text in ("", "yesterday", "2026-02-30", "20261101", "2026-11-01T00:00", "1/11/2026"):
        got = since_day(text, TODAY)
        assert isinstance(got, str) and "YYYY-MM-DD" in got, text


@given(st.lists(st.sampled_from(["new", "same", "replaced", "not current", "one a day",
                                 "implausible", "settled", "unreadable", "over the cap"]),
                max_size=5) | st.none())  # fmt: skip
def test_each_share_is_tallied_once_by_outcome(outcomes) -> None:
    counts = tally(ImportCounts(), outcomes)
    assert counts.messages_read == 1
    shares = counts.counted + counts.already + counts.refused
    assert shares == len(outcomes or []) and counts.not_shares == (outcomes is None)


@given(st.datetimes(min_value=datetime(2016, 1, 1), max_value=datetime(2040, 1, 1),
                    timezones=st.just(UTC)))  # fmt: skip
def test_an_id_says_its_time_to_the_millisecond(when) -> None:
    assert abs(snowflake_time(snowflake_at(when)) - when) < timedelta(milliseconds=1)
