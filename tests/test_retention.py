"""The retention job (bot/services/retention.py): the boards of periods no board shows any
more, old digests' claims and old live boards' messages go, in small batches, on the clock
the test moves; every reader of a player's history (the boards still shown, streaks, the year
card, /mydata) reads the same after; a second run purges nothing; two processes purging at
once leave what one leaves. On both engines."""

import asyncio
from datetime import UTC, date, datetime, timedelta

import pytest
from clock import Clock

from bot.services import Player, Services
from bot.services.stats import METRICS
from bot.storage.periods import PERIODS, STREAK_METRICS
from bot.storage.retention import shown_until

SEED = "5e1f0c4b2a39d8e7f6a5b4c3d2e1f0a9-retention"
GUILD, CHANNEL = 100, 555
FIRST = date(2026, 1, 1)
DAYS = 75  # past a month and a season of 28 days, and RETENTION_DAYS short of them
PLAYERS = [Player(i, f"p{i}") for i in range(1, 4)]
KEEP = 10


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


async def play_days(services: Services, clock: Clock, days: int) -> None:
    """Each day: every player's daily through the services (player 3 skips every third day,
    so streaks break), and the server's digest and live board claimed as the jobs claim them."""
    for n in range(days):
        day = FIRST + timedelta(days=n)
        clock.now = noon(day)
        answer = services.daily.answer("wordle", day)
        for player in PLAYERS:
            if player.id == 3 and n % 3 == 0:
                continue
            assert (await services.games.start(player, GUILD, daily=True)).ok
            if player.id == 2:  # a miss first: other averages
                await services.games.guess(player, GUILD, "aahed", kind="wordle:daily")
            assert (await services.games.guess(player, GUILD, answer, kind="wordle:daily")).ok
        lease = await services.storage.digests.claim(GUILD, day.isoformat(), CHANNEL,
                                                     "test", clock())  # fmt: skip
        assert lease is not None
        await services.storage.digests.done(lease)
        assert await services.storage.live_boards.claim(GUILD, day.isoformat(), CHANNEL)
        await services.storage.live_boards.posted(GUILD, day.isoformat(), 9000 + n)


async def what_readers_read(services: Services) -> list:
    """Every board a player can ask for today (each metric, period, scope, and the previous
    season), each player's stats and streak, year card and /mydata export."""
    today = services.daily.today()
    read: list = []
    for metric in METRICS:
        for period in PERIODS if metric not in STREAK_METRICS else ("all",):
            for guild in (GUILD, None):
                for previous in (False, True) if period == "season" else (False,):
                    board = await services.stats.leaderboard(
                        "wordle:daily", metric, guild_id=guild, today=today, period=period,
                        previous_season=previous,
                    )  # fmt: skip
                    read.append((metric, period, guild, previous, board))
    for player in PLAYERS:
        read.append(await services.stats.stats(player.id, "wordle:daily", today))
        read.append(await services.years.player_year(player.id, "wordle:daily", 2026, today))
        read.append(await services.storage.export_player(player.id))
    read.append(await services.years.server_year(GUILD, "wordle:daily", 2026, today))
    return read


async def table(services: Services, sql: str) -> list[tuple]:
    return sorted(tuple(r) for r in await services.storage.db.all(sql))


async def purge_all(services: Services) -> int:
    """Rounds of the job until one is done; how many rounds it took."""
    rounds = 1
    while not (await services.retention.run_due()).done:
        rounds += 1
    return rounds


async def test_the_purge_removes_what_no_reader_needs_and_readers_read_the_same(
    database_url, opened
) -> None:
    clock = Clock(noon(FIRST))
    services = await opened(database_url, clock, retention_days=KEEP)
    await play_days(services, clock, DAYS)
    today = services.daily.today()
    before = await what_readers_read(services)
    periods = {r[0] for r in await table(services, "SELECT DISTINCT period FROM period_standings")}
    services.retention.batch, services.retention.batches = 7, 5  # many small rounds
    assert await purge_all(services) > 1
    left = {r[0] for r in await table(services, "SELECT DISTINCT period FROM period_standings")}
    cutoff = today - timedelta(days=KEEP)
    # every period still shown (or within the retention) stays, every other one went
    assert left == {p for p in periods if shown_until(p) >= cutoff}
    assert {"day:2026-01-01", "week:2025-12-29", "month:2026-01"} <= periods - left
    assert f"day:{today}" in left and f"month:{today.isoformat()[:7]}" in left
    counted = await table(services, "SELECT DISTINCT period FROM board_counts WHERE period <> ''")
    assert {r[0] for r in counted} == left  # the counts of a purged board went with it
    assert await table(services, "SELECT COUNT(*) FROM board_counts WHERE players < 0 "
                       "OR played < 0") == [(0,)]  # fmt: skip
    kept_from = (cutoff - timedelta(days=1)).isoformat()
    for name in ("digests", "live_boards"):
        days = [r[0] for r in await table(services, f"SELECT day FROM {name}")]
        assert days and min(days) == kept_from and max(days) == today.isoformat()
    assert await what_readers_read(services) == before
    # games, results and standings are the players' history: never purged
    assert (await table(services, "SELECT COUNT(*) FROM results"))[0][0] == DAYS * 3 - 25


async def test_a_second_run_purges_nothing_and_a_new_day_purges_the_day_that_ended(
    database_url, opened
) -> None:
    clock = Clock(noon(FIRST))
    services = await opened(database_url, clock, retention_days=KEEP)
    await play_days(services, clock, 20)
    await purge_all(services)
    snapshot = await table(services, "SELECT period, scope, kind, player_id, played "
                           "FROM period_standings")  # fmt: skip
    again = await services.retention.run_due()
    assert (again.period_rows, again.digests, again.live_boards) == (0, 0, 0)
    services.retention._clean_on = None  # as another process would: reads and finds nothing
    again = await services.retention.run_due()
    assert (again.period_rows, again.digests, again.live_boards) == (0, 0, 0)
    assert await table(services, "SELECT period, scope, kind, player_id, played "
                       "FROM period_standings") == snapshot  # fmt: skip
    clock.now += timedelta(days=1)  # the next day: one more day's board has ended
    cutoff = services.daily.today() - timedelta(days=KEEP)
    ended = sum(1 for (p, *_) in snapshot if shown_until(p) < cutoff)
    assert ended == 2 * 2  # day:2026-01-10 of the two who played, here and everyone's
    next_round = await services.retention.run_due()
    assert next_round.period_rows == ended
    assert (next_round.digests, next_round.live_boards) == (1, 1)


async def test_two_processes_purging_at_once_leave_what_one_leaves(shared_url, opened) -> None:
    clock = Clock(noon(FIRST))
    first = await opened(shared_url, clock, retention_days=KEEP)
    await play_days(first, clock, 40)
    second = await opened(shared_url, clock, retention_days=KEEP)
    before = await what_readers_read(first)
    cutoff = first.daily.today() - timedelta(days=KEEP)

    async def counts_kept() -> list[tuple]:
        rows = await table(first, "SELECT * FROM board_counts")
        return [r for r in rows if r[2] == "" or shown_until(r[2]) >= cutoff]

    kept_counts = await counts_kept()
    for services in (first, second):
        services.retention.batch, services.retention.batches = 2, 3

    async def until_done(services: Services) -> None:
        while not (await services.retention.run_due()).done:
            await asyncio.sleep(0)

    await asyncio.gather(until_done(first), until_done(second))
    left = await table(first, "SELECT DISTINCT period FROM period_standings")
    assert left and all(shown_until(p) >= cutoff for (p,) in left)
    assert await counts_kept() == kept_counts  # no count taken twice
    assert await what_readers_read(second) == before


async def test_retention_zero_keeps_everything(database_url, opened) -> None:
    clock = Clock(noon(FIRST))
    services = await opened(database_url, clock, retention_days=0)
    await play_days(services, clock, 12)
    rows = await table(services, "SELECT COUNT(*) FROM period_standings")
    clock.now += timedelta(days=400)
    purged = await services.retention.run_due()
    assert (purged.period_rows, purged.digests, purged.live_boards) == (0, 0, 0)
    assert await table(services, "SELECT COUNT(*) FROM period_standings") == rows


@pytest.mark.parametrize(
    ("period", "until"),
    [
        ("day:2026-03-01", date(2026, 3, 1)),
        ("week:2026-03-02", date(2026, 3, 8)),
        ("month:2026-02", date(2026, 2, 28)),
        ("month:2024-02", date(2024, 2, 29)),
        ("month:2026-12", date(2026, 12, 31)),
        # season 0 of 28 days: 2021-06-19 to 07-16, shown as the previous until 08-13
        ("season:28:0", date(2021, 8, 13)),
        ("nonsense", None),
        ("day:not-a-day", None),
    ],
)
def test_a_period_is_shown_until_its_last_day_a_season_until_the_next_ends(period, until) -> None:
    assert shown_until(period) == until


async def test_the_bots_leader_jobs_purge(database_url, make_double) -> None:
    """The purge runs among the jobs of the process the deployment elects."""
    clock = Clock(noon(FIRST))
    double = await make_double(database_url, clock, retention_days=KEEP)
    services = double.bot.services
    await play_days(services, clock, 15)
    old = await table(services, "SELECT COUNT(*) FROM period_standings WHERE period = "
                      "'day:2026-01-01'")  # fmt: skip
    assert old == [(4,)]  # two players, here and everyone's
    for job in double.bot.leader_jobs:
        await job()
    assert await table(services, "SELECT COUNT(*) FROM period_standings WHERE period = "
                       "'day:2026-01-01'") == [(0,)]  # fmt: skip
    assert await table(services, "SELECT MIN(day) FROM live_boards") == [("2026-01-04",)]
