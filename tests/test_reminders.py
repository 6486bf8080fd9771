"""Reminders and the daily role: when each is due in every zone, that each is sent once a
day across runners and restarts, only to those who have not played, and that every message
may ping only the player (or role) it is for; on both engines."""

import asyncio
import dataclasses
from datetime import UTC, date, datetime
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest
from clock import at
from discord_double import CHANNEL_ID, EVERYTHING, GUILD_ID, NOTHING, DiscordDouble, message

from bot.discord_bot import WordleBot
from bot.services import Player, Services
from bot.services.reminders import BAD_TIME, BadTime, ChannelGone, NotSent, parse_time
from bot.storage.reminders import DailyRole, Missing, Reminder

SEED = "5b7d9f1a3c5e7a9b1d3f5a7c9e2b4d6f-reminders"
GUILD, HONOLULU, TONGA, CHANNEL, ROLE = 100, 200, 300, 555, 777
DAY = date(2026, 3, 2)
ANN, BOB, CAT, DAN = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan"), 1))


@pytest.fixture
async def services(database_url: str, opened):
    return await opened(database_url, at("2026-03-02T00:30"))


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A database two service instances can open: a SQLite file, or a PostgreSQL one."""
    if request.param == "sqlite":
        return str(tmp_path / "reminders.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


async def in_zone(services: Services, guild: int, zone: str) -> None:
    settings = await services.storage.guild_settings(guild)
    await services.storage.save_guild_settings(dataclasses.replace(settings, timezone=zone))


async def remind(services: Services, player: Player, time: str, guild: int = GUILD) -> bool:
    _, today_too = await services.reminders.remind(player, guild, CHANNEL, parse_time(time))
    return today_too


async def play(services: Services, player: Player, day: date, *, finish: bool = True) -> None:
    """A daily of ``day`` in another server: started, and won at once or left unfinished."""
    services.daily.clock = lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    assert (await services.games.start(player, OTHER_GUILD, daily=True)).ok
    if finish:
        answer = services.daily.answer("wordle", day)
        assert (await services.games.guess(player, OTHER_GUILD, answer, kind="wordle:daily")).ok


OTHER_GUILD = 900  # a daily played anywhere counts: one attempt per player and day


class Outbox:
    """Where reminders and role pings go: records each, or fails as told."""

    def __init__(self) -> None:
        self.reminders: list[tuple[Reminder, date]] = []
        self.pings: list[tuple[DailyRole, date]] = []
        self.fail: Exception | None = None

    async def remind(self, reminder: Reminder, day: date) -> None:
        await asyncio.sleep(0.01)  # the other runner gets in here if it can
        if self.fail is not None:
            raise self.fail
        self.reminders.append((reminder, day))

    async def ping(self, role: DailyRole, day: date) -> None:
        await asyncio.sleep(0.01)
        if self.fail is not None:
            raise self.fail
        self.pings.append((role, day))

    def who(self) -> list[tuple[int, int, date]]:
        return [(r.guild_id, r.player_id, day) for r, day in self.reminders]


async def run(services: Services, outbox: Outbox, now: str) -> list:
    return await services.reminders.run_due(outbox.remind, outbox.ping, at(now))


# -- when a reminder is due ------------------------------------------------------------


async def test_a_reminder_is_due_at_the_chosen_local_minute_in_every_zone(services) -> None:
    """One instant, 05:00 UTC on 2 March: 19:00 on 1 March in Honolulu (UTC-10) and 18:00
    on 2 March in Tonga (UTC+13), both within puzzle day 2 March (UTC)."""
    await in_zone(services, HONOLULU, "Pacific/Honolulu")
    await in_zone(services, TONGA, "Pacific/Tongatapu")
    assert await remind(services, ANN, "19:00", HONOLULU)
    assert await remind(services, BOB, "18:00", TONGA)
    assert await remind(services, CAT, "19:01", HONOLULU)  # a minute later
    outbox = Outbox()
    assert await run(services, outbox, "2026-03-02T04:59") == []
    await run(services, outbox, "2026-03-02T05:00")
    assert sorted(outbox.who()) == [(HONOLULU, ANN.id, DAY), (TONGA, BOB.id, DAY)]
    await run(services, outbox, "2026-03-02T05:01")
    assert outbox.who()[2:] == [(HONOLULU, CAT.id, DAY)]
    await run(services, outbox, "2026-03-02T23:59")
    assert len(outbox.reminders) == 3  # once a day
    await run(services, outbox, "2026-03-03T05:00")  # the next puzzle day, the same hour
    assert sorted(outbox.who()[3:]) == [(HONOLULU, ANN.id, date(2026, 3, 3)),
                                        (TONGA, BOB.id, date(2026, 3, 3))]  # fmt: skip


@pytest.mark.parametrize(
    ("zone", "time", "due"),
    [
        # Puzzle day 2 March runs 00:00-24:00 UTC: 14:00 1 March to 14:00 2 March in
        # Honolulu, 13:00 2 March to 13:00 3 March in Tonga. Each minute comes once in it.
        ("Pacific/Honolulu", "19:00", "2026-03-02T05:00"),
        ("Pacific/Honolulu", "10:00", "2026-03-02T20:00"),
        ("Pacific/Tongatapu", "18:00", "2026-03-02T05:00"),
        ("Pacific/Tongatapu", "08:00", "2026-03-02T19:00"),
        ("UTC", "00:00", "2026-03-02T00:00"),
        # Daylight saving: New York moves its clocks forward on 8 March 2026.
        ("America/New_York", "18:00", "2026-03-08T22:00"),
    ],
)
async def test_the_moment_a_reminder_is_due(services, zone: str, time: str, due: str) -> None:
    day = date.fromisoformat(due[:10])
    assert services.reminders.due_at(parse_time(time), ZoneInfo(zone), day) == at(due)


async def test_a_time_already_past_today_starts_tomorrow_and_a_day_is_reminded_once(
    services,
) -> None:
    services.daily.clock = lambda: at("2026-03-02T20:00")
    assert not await remind(services, ANN, "18:00")
    outbox = Outbox()
    await run(services, outbox, "2026-03-02T20:01")
    assert outbox.reminders == []
    assert not await remind(services, ANN, "21:00")  # today counts as done: tomorrow too
    assert await remind(services, BOB, "21:00")  # later today: the first one is today
    await run(services, outbox, "2026-03-02T21:00")
    assert not await remind(services, BOB, "22:00")  # moved again: today was reminded
    await run(services, outbox, "2026-03-02T22:00")
    await run(services, outbox, "2026-03-03T22:00")
    assert outbox.who() == [(GUILD, BOB.id, DAY), (GUILD, ANN.id, date(2026, 3, 3)),
                            (GUILD, BOB.id, date(2026, 3, 3))]  # fmt: skip


@pytest.mark.parametrize("text", ["18:00", "7:05", "18", " 23:59 ", "0:00"])
def test_times_people_write(text: str) -> None:
    assert 0 <= parse_time(text) < 24 * 60


@pytest.mark.parametrize("text", ["", "24:00", "18:60", "6pm", "18.30", "18:5", "abc", "-1"])
def test_a_bad_time_gets_a_clear_message(text: str) -> None:
    with pytest.raises(BadTime) as caught:
        parse_time(text)
    assert str(caught.value) == BAD_TIME and "HH:MM" in BAD_TIME


# -- exactly once, only to those who have not played -------------------------------------


async def test_each_reminder_is_sent_once_by_two_runners_and_after_a_restart(
    shared_url, opened
) -> None:
    first = await opened(shared_url, at("2026-03-02T12:00"))
    second = await opened(shared_url, at("2026-03-02T12:00"))
    await remind(first, ANN, "18:00")
    await first.reminders.set_daily_role(GUILD, ROLE, CHANNEL)
    outbox = Outbox()
    now = at("2026-03-03T18:00")
    await asyncio.gather(first.reminders.run_due(outbox.remind, outbox.ping, now),
                         second.reminders.run_due(outbox.remind, outbox.ping, now))  # fmt: skip
    assert outbox.who() == [(GUILD, ANN.id, date(2026, 3, 3))]
    assert [(p.role_id, day) for p, day in outbox.pings] == [(ROLE, date(2026, 3, 3))]
    await first.close()
    await second.close()
    restarted = await opened(shared_url, at("2026-03-03T19:00"))
    assert await restarted.reminders.run_due(outbox.remind, outbox.ping) == []
    await restarted.close()
    assert len(outbox.reminders) == 1 and len(outbox.pings) == 1


async def test_a_player_who_has_played_is_not_reminded(services) -> None:
    for player in (ANN, BOB, CAT, DAN):
        await remind(services, player, "18:00")
    await play(services, ANN, DAY)  # won
    await play(services, BOB, DAY, finish=False)  # started: they know it is waiting
    await services.storage.db.write(  # a share of the official Wordle for the same day
        "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
        "recorded_at, scope, day, counted) VALUES (?, 'wordle', 1717, 1, 3, 0, '', ?, ?, ?, 1)",
        (CAT.id, "2026-03-02T09:00:00+00:00", GUILD, DAY.isoformat()),
    )
    await play(services, DAN, date(2026, 3, 1))  # yesterday's does not count today
    outbox = Outbox()
    await run(services, outbox, "2026-03-02T18:00")
    assert outbox.who() == [(GUILD, DAN.id, DAY)]
    assert await services.storage.reminders.pending(DAY.isoformat()) == []  # all claimed


async def test_missing_lists_exactly_the_opted_in_players_who_have_not_played(services) -> None:
    for player in (ANN, BOB, DAN):
        await remind(services, player, "18:00")
    await remind(services, CAT, "18:00", HONOLULU)  # opted in elsewhere
    await services.storage.ensure_player(99, "zed")  # never opted in
    await play(services, ANN, DAY)
    assert await services.reminders.missing(GUILD) == [Missing(BOB.id, "bob"),
                                                       Missing(DAN.id, "dan")]  # fmt: skip
    assert await services.reminders.missing(HONOLULU) == [Missing(CAT.id, "cat")]


async def test_remind_off_stops_it(services) -> None:
    await remind(services, ANN, "18:00")
    await remind(services, BOB, "18:00")
    assert await services.reminders.stop(ANN.id, GUILD)
    assert not await services.reminders.stop(ANN.id, GUILD)
    outbox = Outbox()
    await run(services, outbox, "2026-03-02T18:00")
    assert outbox.who() == [(GUILD, BOB.id, DAY)]
    assert await services.reminders.missing(GUILD) == [Missing(BOB.id, "bob")]


async def test_deleting_a_player_removes_their_reminders(services) -> None:
    await remind(services, ANN, "18:00")
    await remind(services, ANN, "18:00", HONOLULU)
    assert await services.delete_player(ANN.id)
    assert await services.storage.reminders.of_player(GUILD, ANN.id) is None
    assert await services.storage.reminders.pending(DAY.isoformat()) == []
    outbox = Outbox()
    await run(services, outbox, "2026-03-02T18:00")
    assert outbox.reminders == []


async def test_a_deleted_channel_removes_the_reminder(services) -> None:
    await remind(services, ANN, "18:00")
    outbox = Outbox()
    outbox.fail = ChannelGone("its channel no longer exists")
    await run(services, outbox, "2026-03-02T18:00")
    assert await services.storage.reminders.of_player(GUILD, ANN.id) is None
    outbox.fail = None
    await run(services, outbox, "2026-03-03T18:00")
    assert outbox.reminders == []


async def test_a_send_that_never_reached_discord_is_tried_again(services) -> None:
    await remind(services, ANN, "18:00")
    outbox = Outbox()
    outbox.fail = NotSent("no connection")
    await run(services, outbox, "2026-03-02T18:00")
    outbox.fail = None
    await run(services, outbox, "2026-03-02T18:01")
    assert outbox.who() == [(GUILD, ANN.id, DAY)]


async def test_a_send_that_may_have_reached_discord_is_never_repeated(services) -> None:
    await remind(services, ANN, "18:00")
    outbox = Outbox()
    outbox.fail = TimeoutError("no answer after sending")
    await run(services, outbox, "2026-03-02T18:00")
    outbox.fail = None
    await run(services, outbox, "2026-03-02T18:01")
    assert outbox.reminders == []


# -- the daily role ----------------------------------------------------------------------


async def test_the_daily_role_is_pinged_once_a_day_when_the_daily_opens(services) -> None:
    services.daily.clock = lambda: at("2026-03-01T12:00")
    await services.reminders.set_daily_role(GUILD, ROLE, CHANNEL)
    outbox = Outbox()
    await run(services, outbox, "2026-03-01T12:01")  # the daily opened hours ago
    assert outbox.pings == []
    await asyncio.gather(run(services, outbox, "2026-03-02T00:00"),
                         run(services, outbox, "2026-03-02T00:00"))  # fmt: skip
    await run(services, outbox, "2026-03-02T23:59")
    assert [(p.guild_id, p.role_id, p.channel_id, day) for p, day in outbox.pings] == [
        (GUILD, ROLE, CHANNEL, DAY)]  # fmt: skip
    await run(services, outbox, "2026-03-03T09:00")  # down at midnight: pinged when back
    assert [day for _, day in outbox.pings] == [DAY, date(2026, 3, 3)]
    await services.reminders.set_daily_role(GUILD, None)
    await run(services, outbox, "2026-03-04T00:00")
    assert len(outbox.pings) == 2


async def test_a_deleted_channel_turns_the_daily_role_off(services) -> None:
    await services.reminders.set_daily_role(GUILD, ROLE, CHANNEL)
    outbox = Outbox()
    outbox.fail = ChannelGone("the bot may not post in its channel")
    await run(services, outbox, "2026-03-03T00:00")
    assert await services.reminders.daily_role(GUILD) is None
    outbox.fail = None
    await run(services, outbox, "2026-03-04T00:00")
    assert outbox.pings == []


# -- in Discord: the commands, and the mentions each message allows ----------------------


class Channels:
    """Discord's side of channel messages (through discord.py's own HTTP client): records
    each post with what it allows to ping, or refuses as Discord would."""

    def __init__(self, bot: WordleBot) -> None:
        self.posts: list[tuple[int, dict[str, Any]]] = []
        self.refuse: int | None = None  # an HTTP status: 404 deleted channel, 403 forbidden
        bot.http.request = self.request  # type: ignore[method-assign]

    async def request(self, route: Any, **kwargs: Any) -> Any:
        assert (route.method, route.path) == ("POST", "/channels/{channel_id}/messages")
        if self.refuse is not None:
            error = discord.NotFound if self.refuse == 404 else discord.Forbidden
            raise error(SimpleNamespace(status=self.refuse, reason="refused"),
                        {"message": "Unknown Channel", "code": 10003})  # fmt: skip
        self.posts.append((int(route.channel_id), kwargs["json"]))
        return message(kwargs["json"])


@pytest.fixture
async def double(database_url: str, make_double):
    return await make_double(database_url, at("2026-03-02T12:00"))


async def leader_jobs(double: DiscordDouble, now: str) -> None:
    """What the elected process does every JOBS_INTERVAL_SECONDS, at ``now``."""
    double.bot.services.daily.clock = lambda: at(now)
    for job in double.bot.leader_jobs:
        await job()


async def settings(double: DiscordDouble, role: dict[str, Any] | None = None, *,
                   app_permissions: str = EVERYTHING, off: bool = False,
                   channel: int | None = None) -> str:  # fmt: skip
    """/settings with the daily role's options (DiscordDouble.command resolves no role)."""
    options: list[dict[str, Any]] = []
    resolved: dict[str, Any] = {}
    if role is not None:
        options.append({"name": "daily_role", "type": 8, "value": role["id"]})
        resolved["roles"] = {role["id"]: role}
    if channel is not None:
        options.append({"name": "daily_role_channel", "type": 7, "value": str(channel)})
        resolved["channels"] = {str(channel): {"id": str(channel), "type": 0, "name": "games",
                                               "permissions": EVERYTHING}}  # fmt: skip
    if off:
        options.append({"name": "daily_role_off", "type": 5, "value": True})
    payload = double._base(2, 1, EVERYTHING, True)
    payload["app_permissions"] = app_permissions  # what the bot may do in the channel
    payload["data"] = {"id": "1", "name": "settings", "type": 1, "resolved": resolved,
                       "options": [{"name": "server", "type": 1, "options": options}]}  # fmt: skip
    [reply] = await double._dispatch(payload)
    assert reply.ephemeral
    return reply.text


def role(mentionable: bool = True) -> dict[str, Any]:
    return {"id": str(ROLE), "name": "wordlers", "permissions": "0", "position": 1, "color": 0,
            "hoist": False, "managed": False, "mentionable": mentionable, "flags": 0}  # fmt: skip


async def test_a_reminder_in_discord_pings_the_player_who_asked_and_nobody_else(double) -> None:
    channels = Channels(double.bot)
    [on] = await double.command("remind", "on", user_id=ANN.id, time="18:30")
    assert on.ephemeral and "18:30 (UTC)" in on.text and "from today" in on.text
    [default] = await double.command("remind", "on", user_id=BOB.id)
    assert "18:00 (UTC)" in default.text
    [bad] = await double.command("remind", "on", user_id=CAT.id, time="25:00")
    assert bad.ephemeral and bad.text == BAD_TIME
    await leader_jobs(double, "2026-03-02T18:29")
    assert [(where, body["content"][:3]) for where, body in channels.posts] == [
        (CHANNEL_ID, "<@2")]  # fmt: skip
    await leader_jobs(double, "2026-03-02T18:30")
    where, body = channels.posts[1]
    assert where == CHANNEL_ID and body["content"].startswith(f"<@{ANN.id}> Wordle #")
    assert body["allowed_mentions"] == {"parse": [], "users": [ANN.id]}
    assert channels.posts[0][1]["allowed_mentions"] == {"parse": [], "users": [BOB.id]}
    await leader_jobs(double, "2026-03-02T23:00")
    assert len(channels.posts) == 2
    [off] = await double.command("remind", "off", user_id=ANN.id)
    assert off.ephemeral and off.text == "Reminders are off."
    await leader_jobs(double, "2026-03-03T18:30")
    assert [body["content"][:3] for _, body in channels.posts[2:]] == ["<@2"]


async def test_remind_and_missing_work_in_a_server_only(double) -> None:
    for command in (("remind", "on"), ("remind", "off"), ("missing",)):
        [dm] = await double.command(*command, user_id=ANN.id, guild=False)
        assert dm.ephemeral and dm.text == "That works in a server, not in direct messages."


async def test_missing_in_discord_shows_names_and_pings_nobody(double) -> None:
    [nobody] = await double.command("missing", user_id=ANN.id)
    assert "Everyone here with a reminder" in nobody.text
    for player in (ANN, BOB):
        await double.command("remind", "on", user_id=player.id)
    services = double.bot.services
    assert (await services.games.start(ANN, GUILD_ID, daily=True)).ok
    [missing] = await double.command("missing", user_id=CAT.id)
    assert not missing.ephemeral and missing.text.endswith(f": <@{BOB.id}>")
    assert missing.data["allowed_mentions"] == {"parse": []}


async def test_a_deleted_channel_in_discord_removes_the_reminder(double) -> None:
    channels = Channels(double.bot)
    await double.command("remind", "on", user_id=ANN.id)
    channels.refuse = 404
    await leader_jobs(double, "2026-03-02T18:00")
    assert await double.bot.services.storage.reminders.of_player(GUILD_ID, ANN.id) is None
    channels.refuse = None
    await leader_jobs(double, "2026-03-03T18:00")
    assert channels.posts == []


async def test_the_daily_role_in_discord(double) -> None:
    channels = Channels(double.bot)
    refused = await double.command("settings", "server", user_id=1, permissions=NOTHING)
    assert "Manage Server" in refused[0].text
    assert "No daily role is pinged." in await settings(double)
    text = await settings(double, role())
    assert f"Daily role: <@&{ROLE}>, pinged in <#{CHANNEL_ID}>" in text and "tomorrow" in text
    assert "will not ping" not in text
    quiet = await settings(double, role(mentionable=False), app_permissions="2048")
    assert "will not ping anyone until the role allows anyone to mention it" in quiet
    both = await settings(double, role(), off=True)
    assert both == "Choose daily_role or daily_role_off, not both."
    alone = await settings(double, channel=CHANNEL_ID)
    assert alone == "daily_role_channel goes with a daily_role."
    everyone = await settings(double, {**role(), "id": str(GUILD_ID), "name": "@everyone"})
    assert everyone == "@everyone cannot be the daily role: pick a role people can join."
    await leader_jobs(double, "2026-03-02T23:59")
    assert channels.posts == []  # from tomorrow
    await leader_jobs(double, "2026-03-03T00:00")
    await leader_jobs(double, "2026-03-03T00:01")
    [(where, body)] = channels.posts
    assert where == CHANNEL_ID and body["content"].startswith(f"<@&{ROLE}> Wordle #")
    assert body["allowed_mentions"] == {"parse": [], "roles": [ROLE]}
    assert "No daily role is pinged." in await settings(double, off=True)
    await leader_jobs(double, "2026-03-04T00:00")
    assert len(channels.posts) == 1


async def test_the_server_commands_check_place_and_permission_themselves(services) -> None:
    """Discord checks first; the commands check again, so the console and Discord obey one
    rule (bot/commands): a server's commands need a server, an admin's Manage Server."""
    from bot.commands import COMMANDS, Caller

    member = Caller(ANN, GUILD_ID, CHANNEL_ID, guild_id=GUILD_ID)  # no Manage Server
    for path in ("settings server", "resetboard", "digest channel", "digest off"):
        reply = await COMMANDS[path].run(services, member)
        assert reply.refused and reply.text == "You need the Manage Server permission for that."
    assert not (await COMMANDS["remind on"].run(services, member)).refused
    direct = Caller(ANN, 0, 55, manages_server=True)  # a DM
    for path in ("settings server", "resetboard", "digest off", "remind off", "missing"):
        reply = await COMMANDS[path].run(services, direct)
        assert reply.refused and reply.text == "That works in a server, not in direct messages."
    assert await services.storage.digests.channels() == []
