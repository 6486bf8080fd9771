"""The deployment's budget of requests to Discord (bot/services/request_budget.py): every
process together within the rate in any second, however it is cut; the day's work before the
live boards across processes; refusals counted for the whole deployment; and the trace that
puts each of discord.py's requests through it, the answers to interactions aside."""

import asyncio
import time

import aiohttp
import pytest
from aiohttp import web

from bot.discord_requests import budget_trace, counted
from bot.services.request_budget import REFUSALS_CALM, Priority, RequestBudget, requests_as
from bot.storage import Storage

SEED = "5a1e0b7c9d2f4e6a8b0c1d3e5f7a9b2c-budget"


def most_in_any(times: list[float], span: float) -> int:
    """The most sends in any window of ``span`` seconds (a sliding window)."""
    times, most, first = sorted(times), 0, 0
    for last, t in enumerate(times):
        while t - times[first] >= span:
            first += 1
        most = max(most, last - first + 1)
    return most


@pytest.fixture
async def budgets():
    """A factory: the budget of a process with ``services`` at ``rate`` a second (beyond
    Discord's 50, so that the tests take a moment); each closed after the test."""
    made: list[RequestBudget] = []

    def make(services, rate: float) -> RequestBudget:
        made.append(RequestBudget(services.storage.request_pace, rate))
        return made[-1]

    yield make
    for budget in made:
        await budget.close()


async def sends(budget: RequestBudget, count: int, priority: Priority) -> list[float]:
    """``count`` requests waiting at once; when each was let go."""
    times: list[float] = []

    async def one() -> None:
        await budget.turn(priority)
        times.append(time.monotonic())

    await asyncio.gather(*(one() for _ in range(count)))
    return times


async def test_processes_together_keep_within_the_rate_in_any_second(
    shared_url, opened, budgets
) -> None:
    """Two processes (two services on one database), each with 120 requests waiting at
    once, at 100 a second for the deployment: in any second, cut anywhere, at most 100 (and
    a send or two for a late wake-up), and the 240 take the 2.4 s the rate sets, not half."""
    first, second = [budgets(await opened(shared_url), 100.0) for _ in "ab"]
    began = time.monotonic()
    a, b = await asyncio.gather(sends(first, 120, Priority.DAY),
                                sends(second, 120, Priority.DAY))  # fmt: skip
    together = a + b
    # (a loaded loop wakes a send late, never early: a tenth more at worst here; two
    # processes each at the rate alone would reach 200)
    assert most_in_any(together, 1.0) <= 110, most_in_any(together, 1.0)
    assert max(together) - began >= 2.3  # shared: one process alone would be done in 1.2 s


async def test_the_days_work_goes_before_another_processs_live_boards(
    shared_url, opened, budgets
) -> None:
    """A process with 60 digest requests waiting fills the schedule; the live-board edits
    another process asks for meanwhile wait until they have all gone."""
    day, live = [budgets(await opened(shared_url), 100.0) for _ in "ab"]
    digests = asyncio.create_task(sends(day, 60, Priority.DAY))
    while not day.sent[Priority.DAY]:  # the digests have their times
        await asyncio.sleep(0.005)
    edits = await sends(live, 5, Priority.LIVE)
    assert min(edits) > max(await digests)


async def test_within_a_process_the_higher_priority_goes_first(
    database_url, opened, budgets
) -> None:
    budget = budgets(await opened(database_url), 200.0)
    order: list[Priority] = []

    async def one(priority: Priority) -> None:
        await budget.turn(priority)
        order.append(priority)

    waiting = [one(p) for p in [Priority.LIVE] * 10 + [Priority.NORMAL] * 10 + [Priority.DAY] * 10]
    await asyncio.gather(*waiting)
    # the first batch was reserved before all had asked: after it, strictly by priority
    assert order[-20:] == sorted(order[-20:]), order


async def test_requests_take_the_priority_of_their_block(database_url, opened) -> None:
    services = await opened(database_url)
    with requests_as(Priority.DAY):
        await services.requests.turn()
        await asyncio.create_task(services.requests.turn())  # a task started inside too
    await services.requests.turn()
    assert services.requests.sent == {Priority.DAY: 2, Priority.NORMAL: 1}


async def test_without_the_database_a_process_goes_on_at_a_fraction_of_the_rate(
    tmp_path, opened, budgets
) -> None:
    services = await opened(str(tmp_path / "gone.sqlite3"))
    budget = budgets(services, 200.0)
    await services.storage.close()  # the database away
    times = await sends(budget, 12, Priority.DAY)
    assert budget.alone
    assert max(times) - min(times) >= 11 / 200 / 0.25 * 0.9  # a quarter of the rate


async def test_a_moments_contention_is_waited_out_not_paced_alone(
    database_url, opened, budgets, caplog
) -> None:
    """A statement that fails once (a lock held a moment under load) is asked again: a
    process alone adds its share to what the others send, so it goes alone only once the
    database has not answered for a while."""
    services = await opened(database_url)
    pace, failures = services.storage.request_pace, [ConnectionError("a lock held")]
    reserve = pace.reserve

    async def failing_once(*args, **kwargs):
        if failures:
            raise failures.pop()
        return await reserve(*args, **kwargs)

    pace.reserve = failing_once
    budget = budgets(services, 200.0)
    await sends(budget, 5, Priority.DAY)
    assert not failures and budget.sent[Priority.DAY] == 5
    assert "not shared" not in caplog.text


async def test_refusals_are_counted_for_the_deployment_and_hold_the_live_boards(
    shared_url, opened, budgets
) -> None:
    first, second = [budgets(await opened(shared_url), 200.0) for _ in "ab"]
    for _ in range(REFUSALS_CALM // 2):
        first.refused()
        second.refused()
    await first.tally()
    assert await second.tally() == REFUSALS_CALM
    live = asyncio.create_task(second.turn(Priority.LIVE))
    await second.turn(Priority.DAY)  # the day's work goes on
    with pytest.raises(TimeoutError):  # an edit would be let go within milliseconds
        await asyncio.wait_for(asyncio.shield(live), 0.3)
    live.cancel()


def test_only_the_requests_discord_counts_are_counted() -> None:
    from yarl import URL

    api = "https://discord.com/api/v10"
    assert counted(URL(f"{api}/channels/1/messages"))
    assert counted(URL(f"{api}/guilds/1/members/2/roles/3"))
    assert not counted(URL(f"{api}/interactions/1/tok/callback"))
    assert not counted(URL(f"{api}/webhooks/1/tok/messages/@original"))
    assert not counted(URL("wss://gateway.discord.gg/?v=10&encoding=json"))


async def test_the_trace_puts_each_request_through_the_budget(database_url, opened) -> None:
    """A real aiohttp session with the trace, against a small server: the channel's posts
    wait on the budget and their 403 is counted; an interaction's answer goes by."""
    services = await opened(database_url)
    budget = services.requests

    async def refused(_request: web.Request) -> web.Response:
        return web.json_response({"message": "Missing Access", "code": 50001}, status=403)

    async def answered(_request: web.Request) -> web.Response:
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/api/v10/channels/{id}/messages", refused)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", answered)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base = f"http://127.0.0.1:{port}/api/v10"
    try:
        async with aiohttp.ClientSession(trace_configs=[budget_trace(lambda: budget)]) as http:
            with requests_as(Priority.DAY):
                for _ in range(3):
                    async with http.post(f"{base}/channels/1/messages") as response:
                        assert response.status == 403
            async with http.post(f"{base}/interactions/1/tok/callback") as response:
                assert response.status == 204
    finally:
        await runner.cleanup()
    assert budget.sent == {Priority.DAY: 3}
    assert await budget.tally() == 3


async def test_the_windows_calls_as_the_bot_wait_for_the_budget(opened) -> None:
    """The game window's own calls to Discord: who is in an Activity, asked as the bot,
    waits for the budget; a player's own token's call (who they are) is not the bot's."""
    from discord_server import APP_ID, DiscordServer

    from bot.web.activity_auth import DiscordAuth

    services = await opened(":memory:")
    discord = DiscordServer([])
    await discord.start()
    auth = DiscordAuth(APP_ID, "secret", "a-bot-token", discord.api_base, services.requests)
    try:
        discord.launch("i-1", 5, {7})
        assert await auth.instance("i-1") == ({7}, 5, None)
        assert services.requests.sent == {Priority.NORMAL: 1}
    finally:
        await auth.close()
        await discord.stop()


async def test_a_lower_rate_is_headroom_not_a_longer_allowance_for_late_sends(
    database_url, opened
) -> None:
    """A send a little late is let go if the second it lands in stays within Discord's limit
    at the default rate; a deployment set below it (for a network that delays its requests)
    keeps the difference as headroom: its sends may be no later than at the default."""
    pace = (await opened(database_url)).storage.request_pace
    default = RequestBudget(pace)
    for rate in (10.0, 40.0, 47.0):
        assert 0 < RequestBudget(pace, rate).late <= default.late, rate
    assert (1 + default.late) / default.spacing <= 49


@pytest.mark.parametrize("rate", [0.0, 51.0])
def test_the_rate_stays_within_discords(rate: float) -> None:
    from bot.settings import SettingsError, load_settings

    with pytest.raises(SettingsError):
        load_settings(discord_requests_per_second=rate)


async def test_the_schedule_reserves_in_turn_and_holds_the_live_boards(database_url) -> None:
    """The statements themselves, on each engine: times reserved one after another, refused
    past the horizon, and the live boards' refused while the day's work holds them."""
    storage = await Storage.open(database_url)
    try:
        now, pace = time.time(), storage.request_pace
        first, theirs = await pace.reserve(4, 0.5, 10.0, now, hold=("busy", 1.0))  # idle
        assert first == theirs == pytest.approx(now, abs=2.0)  # (the database's clock)
        again, _ = await pace.reserve(1, 0.5, 10.0, now)
        assert again == pytest.approx(first + 2.0)
        assert await pace.reserve(1, 0.5, 1.0, now) is None  # 2.5 s ahead
        assert await pace.reserve(1, 0.5, 10.0, now, yields=["busy"]) is None  # held
        assert await pace.reserve(1, 0.5, 10.0, now, yields=["other"]) is not None
        assert await pace.ahead(now) == pytest.approx(2.5, abs=0.5)
    finally:
        await storage.close()


async def test_the_roles_wait_for_every_processs_digests_and_the_boards_for_both(
    shared_url, opened, budgets
) -> None:
    """One process has 60 digest requests waiting; the roles another asks for meanwhile go
    once they are all out, and a third's live-board edits after the roles."""
    day, roles, live = [budgets(await opened(shared_url), 100.0) for _ in "abc"]
    digests = asyncio.create_task(sends(day, 60, Priority.DAY))
    while not day.sent[Priority.DAY]:  # the digests have their times
        await asyncio.sleep(0.005)
    moved = asyncio.create_task(sends(roles, 20, Priority.ROLE))
    while not roles.sent[Priority.ROLE]:
        await asyncio.sleep(0.005)
    edits = await sends(live, 5, Priority.LIVE)
    assert min(await moved) > max(await digests)
    assert min(edits) > max(await moved)


async def test_a_process_late_to_its_times_pads_them_and_still_progresses(
    database_url, opened, budgets
) -> None:
    """A loop held past its times (a hog blocking it 50 ms at a time: five of its times, so
    at least three in a row are reached too late however the machine's load shifts them)
    gives them up, then reserves empty times after each request, so a late send crowds no
    one's second, and still sends everything; once the loop keeps time again, the pad
    shrinks away."""
    budget = budgets(await opened(database_url), 100.0)

    async def hog() -> None:
        while True:
            time.sleep(0.05)  # the point: a loop held
            await asyncio.sleep(0.001)

    hogging = asyncio.create_task(hog())
    await asyncio.wait_for(sends(budget, 12, Priority.DAY), 30)
    hogging.cancel()
    assert budget.given_up and budget.padded, (budget.given_up, budget.padded)
    for _ in range(50):  # (a loaded machine may wake it late a while yet)
        await sends(budget, 10, Priority.DAY)
        if budget._pad == 0:
            break
    assert budget._pad == 0
