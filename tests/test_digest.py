"""The daily digest: what it says, when it is due in every zone, and that each server's day
is posted exactly once across runners, restarts and failures, on both engines."""

import asyncio
import dataclasses
import functools
import re
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta

import pytest
from bot_process import clean_env
from clock import Clock, at

from bot.render.alt_text import digest_alt_text
from bot.render.images import digest_png
from bot.render.text import digest_text
from bot.services import Player, Services
from bot.services.daily import DailyPuzzles
from bot.services.digest import NONCE_WINDOW, ChannelGone, Digest, NotSent, post_nonce
from bot.services.shares import APP_NOT_RECAP, record_app_results
from bot.storage import Storage
from bot.storage.digests import DigestChannel

SEED = "3c5e7a9b1d2f4a6c8e0b1d3f5a7c9e2b-digest"
GUILD, OTHER, CHANNEL, ADMIN = 100, 200, 555, 9
DAY = date(2026, 3, 1)
ANN, BOB, CAT, DAN, EVE = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan",
                                                               "eve"), 1))  # fmt: skip
NEVER = ("aahed", "zymic")  # allowed guesses that are never answers


@pytest.fixture
async def services(database_url: str, opened):
    return await opened(database_url, at("2026-03-02T12:00"))


async def play(services: Services, player: Player, day: date, misses: int, *,
               finish: bool | str = True, scope: int = GUILD) -> None:  # fmt: skip
    """A daily of ``day``, played at noon that day (the clock is put back after):
    ``misses`` wrong guesses, then the answer (or give up; or stop)."""
    clock = services.daily.clock
    services.daily.clock = lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    assert (await services.games.start(player, scope, daily=True)).ok
    for word in NEVER[:misses]:
        assert (await services.games.guess(player, scope, word, kind="wordle:daily")).ok
    if finish == "give up":
        assert (await services.games.give_up(player, scope, kind="wordle:daily")).ok
    elif finish:
        answer = services.daily.answer("wordle", day)
        assert (await services.games.guess(player, scope, answer, kind="wordle:daily")).ok
    services.daily.clock = clock


async def test_the_digest_of_a_day_crowns_groups_and_counts_the_group_streak(services) -> None:
    for back in (1, 2):  # someone played the two days before; nobody the day before those
        await play(services, EVE, DAY - timedelta(days=back), 0)
    await play(services, BOB, DAY, 2)
    await play(services, ANN, DAY, 1)
    await play(services, CAT, DAY, 1, finish="give up")
    await play(services, DAN, DAY, 1, finish=False)  # closed as a loss when the day ended
    await play(services, EVE, DAY, 0, scope=OTHER)  # another server's day is not this one's

    digest = await services.digests.digest(GUILD, DAY)
    [game] = digest.games
    assert game.title == "wordlebot Wordle #20260301"
    assert game.streak == 3
    assert [(score, [m.name for m in members]) for score, members in game.scores] == [
        ("2/6", ["ann"]), ("3/6", ["bob"]), ("X/6", ["cat", "dan"])]  # fmt: skip
    assert [m.name for m in game.crowned] == ["ann"]
    assert game.unfinished == []
    assert [len(rows) for _, rows in game.grids] == [2, 3, 1, 1]
    assert game.grids[0][1][-1] == "22222" and set("".join(game.grids[2][1])) <= set("012")
    assert game.skilful is not None and game.luckiest is not None
    assert game.skilful.turn >= 2  # the opener has no skill measure

    text = digest_text(digest)
    assert "Your group is on a 3 days streak!" in text
    assert "👑 2/6: ann" in text and "3/6: bob" in text and "X/6: cat dan" in text
    assert "Started, not finished" not in text and "eve" not in text
    answer = services.daily.answer("wordle", DAY).upper()
    assert answer not in re.sub(r"\|\|.*?\|\|", "", text)  # letters only behind spoilers
    assert digest_png(digest).startswith(b"\x89PNG")


async def typed(services: Services, player: Player, day: date, guesses: int) -> None:
    """``player`` types a solved NYT Wordle share of ``day`` in the server, that day."""
    number = DailyPuzzles.number(day)
    grid = ",".join(["0"] * (guesses - 1) + ["242"])
    assert await services.storage.record_share(player.id, "wordle", number, True, guesses, False,
                                               grid, scope=GUILD, today=day,
                                               name=player.name) == "new"  # fmt: skip


async def test_a_typed_share_is_shown_apart_and_takes_no_crown_nor_the_top(services) -> None:
    """A typed ``Wordle 1,716 1/6`` beside games played with the bot: the bot's puzzle lists
    only those, crowned and first; the share comes after them in a section of its own,
    marked, under its own number, with no crown, in the text, the image's and alt text."""
    await play(services, BOB, DAY, 2)
    await play(services, ANN, DAY, 1)
    await typed(services, EVE, DAY, 1)
    digest = await services.digests.digest(GUILD, DAY)
    played, shared = digest.games
    number = DailyPuzzles.number(DAY)
    assert (played.title, played.shared) == ("wordlebot Wordle #20260301", False)
    assert [(s, [m.name for m in ms]) for s, ms in played.scores] == [("2/6", ["ann"]),
                                                                     ("3/6", ["bob"])]  # fmt: skip
    assert [m.name for m in played.crowned] == ["ann"] and played.answer
    assert (shared.title, shared.shared, shared.crowned, shared.answer) == (
        f"Wordle #{number}",
        True,
        [],
        "",
    )
    assert [(s, [m.name for m in ms]) for s, ms in shared.scores] == [("1/6", ["eve"])]
    text = digest_text(digest)
    bots, shares = text.split(f"**Wordle #{number}**")
    assert "eve" not in bots and "👑 2/6: ann" in bots
    assert shares.startswith(" (2026-03-01)\nShares typed here, not played with the bot: they "
                             "win nothing\n1/6: eve")  # fmt: skip
    assert "👑" not in shares and "streak" not in shares
    assert "Shares typed here" in digest_alt_text(digest)
    assert digest_png(digest).startswith(b"\x89PNG")


async def test_a_season_podium_counts_no_typed_share(services) -> None:
    """Typed 1/6 shares every day of the season put nobody on its podium: its wins are
    dailies played with the bot."""
    settings = await services.storage.guild_settings(GUILD)
    await services.storage.save_guild_settings(dataclasses.replace(settings, season_days=7))
    last = date(2026, 3, 6)
    for back in range(7):
        await typed(services, EVE, last - timedelta(days=back), 1)
    await play(services, ANN, last, 3)
    digest = await services.digests.digest(GUILD, last)
    assert digest.podium is not None
    assert [(rank, m.name, wins) for rank, m, wins in digest.podium.places] == [(1, "ann", 1)]


async def test_a_day_nobody_finished_has_an_empty_digest(services) -> None:
    today = services.daily.today()  # still being played: nothing closed, nothing finished
    await play(services, DAN, today, 1, finish=False)
    digest = await services.digests.digest(GUILD, today)
    assert digest.empty and digest_text(digest) == f"No daily was finished on {today}."


@pytest.mark.parametrize(
    ("instant", "zone", "due"),
    [
        # One instant, three servers: UTC-10 has not reached midnight; UTC+13 has, and its
        # puzzle day (UTC here) is over too; UTC is just past midnight.
        ("2026-03-02T05:00", "Pacific/Honolulu", "2026-02-28"),
        ("2026-03-02T05:00", "Pacific/Tongatapu", "2026-03-01"),
        ("2026-03-02T05:00", None, "2026-03-01"),
        # UTC+13 at its midnight: the puzzle of its yesterday is still being played in UTC.
        ("2026-03-01T11:10", "Pacific/Tongatapu", "2026-02-28"),
        # A few minutes after midnight the last guesses have landed; not before.
        ("2026-03-02T00:03", None, "2026-02-28"),
        ("2026-03-02T00:06", None, "2026-03-01"),
        # Daylight saving: New York's midnight after 8 March 2026 (clocks forward that day)
        # is 04:00 UTC, not 05:00.
        ("2026-03-09T04:06", "America/New_York", "2026-03-08"),
        ("2026-03-09T04:04", "America/New_York", "2026-03-07"),
        ("2026-03-08T05:06", "America/New_York", "2026-03-07"),
    ],
)
async def test_a_digest_is_due_after_the_servers_midnight_and_the_puzzle_day(
    services, instant: str, zone: str | None, due: str
) -> None:
    assert services.digests.due_day(zone, at(instant)) == date.fromisoformat(due)


class Discord:
    """Where the digest goes: records each message made, or fails as told. A post carries
    its nonce, enforced as Discord does: the same nonce again returns the message made
    before. ``lost``: the message is made, then its answer is lost (raised); ``answer``,
    when given, is awaited before answering (a request left unanswered)."""

    def __init__(self) -> None:
        self.posts: list[tuple[int, Digest]] = []
        self.warnings: list[tuple[int | None, str]] = []
        self.fail: Exception | None = None
        self.lost: Exception | None = None
        self.answer: asyncio.Event | None = None
        self.sends = 0
        self.made: dict[str, int] = {}  # nonce -> message id

    async def post(self, channel: DigestChannel, digest: Digest) -> int:
        await asyncio.sleep(0.01)  # the other runner gets in here if it can
        self.sends += 1
        if self.fail is not None:
            raise self.fail
        nonce = post_nonce(digest.guild_id, digest.day)
        if nonce not in self.made:
            self.posts.append((channel.channel_id, digest))
            self.made[nonce] = 7000 + len(self.posts)
        if self.answer is not None:
            await self.answer.wait()
        if self.lost is not None:
            raise self.lost
        return self.made[nonce]

    async def warn(self, channel: DigestChannel, text: str) -> None:
        self.warnings.append((channel.admin_id, text))


async def until(condition, what: str) -> None:
    """Wait (on the loop) until ``condition()`` holds."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    pytest.fail(f"never: {what}")


async def test_each_day_is_posted_once_by_two_runners_and_after_a_restart(
    shared_url, opened
) -> None:
    now = at("2026-03-02T06:00")
    first, second = await opened(shared_url, now), await opened(shared_url, now)
    await first.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(first, ANN, DAY, 1)
    discord = Discord()
    await asyncio.gather(first.digests.run_due(discord.post, discord.warn),
                         second.digests.run_due(discord.post, discord.warn))  # fmt: skip
    assert [(channel, d.day) for channel, d in discord.posts] == [(CHANNEL, DAY)]
    await first.close()
    await second.close()
    restarted = await opened(shared_url, now + timedelta(hours=1))
    assert await restarted.digests.run_due(discord.post, discord.warn) == []
    assert await restarted.storage.digests.claimed(GUILD) == [(DAY.isoformat(), 7001)]
    await restarted.close()


async def test_a_digest_missed_while_down_is_posted_within_the_next_day(services) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(services, ANN, DAY, 1)
    await play(services, BOB, DAY + timedelta(days=1), 2)
    discord = Discord()
    services.daily.clock = lambda: at("2026-03-02T22:00")  # back up 22 hours late
    await services.digests.run_due(discord.post, discord.warn)
    services.daily.clock = lambda: at("2026-03-03T00:10")  # and the next day on time
    await services.digests.run_due(discord.post, discord.warn)
    await services.digests.run_due(discord.post, discord.warn)
    assert [d.day for _, d in discord.posts] == [DAY, DAY + timedelta(days=1)]


async def test_an_empty_day_posts_nothing_and_is_not_tried_again(services) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    discord = Discord()
    assert await services.digests.run_due(discord.post, discord.warn) == []
    assert discord.posts == [] and await services.storage.digests.claimed(GUILD) == [
        (DAY.isoformat(), None)]  # fmt: skip


async def test_a_channel_gone_turns_the_digest_off_and_tells_the_admin_once(services) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(services, ANN, DAY, 1)
    discord = Discord()
    discord.fail = ChannelGone("the channel was deleted")
    for _ in range(3):
        await services.digests.run_due(discord.post, discord.warn)
    assert discord.posts == [] and len(discord.warnings) == 1
    assert discord.warnings[0][0] == ADMIN and "the channel was deleted" in discord.warnings[0][1]
    assert await services.storage.digests.channels() == []


async def test_a_send_that_never_reached_discord_is_tried_again(services) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(services, ANN, DAY, 1)
    discord = Discord()
    discord.fail = NotSent("no connection")
    assert await services.digests.run_due(discord.post, discord.warn) == []
    discord.fail = None
    assert len(await services.digests.run_due(discord.post, discord.warn)) == 1
    assert len(discord.posts) == 1


async def test_a_post_whose_answer_was_lost_is_sent_again_with_its_nonce_and_made_once(
    services,
) -> None:
    """Discord made the message but its answer never came (a timeout, a 5xx): the next run
    sends it again with the same nonce, and Discord returns the message made before."""
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(services, ANN, DAY, 1)
    discord = Discord()
    discord.lost = TimeoutError("no answer after sending")
    assert await services.digests.run_due(discord.post, discord.warn) == []
    discord.lost = None
    assert len(await services.digests.run_due(discord.post, discord.warn)) == 1
    assert discord.sends == 2 and len(discord.posts) == 1
    assert await services.storage.digests.claimed(GUILD) == [(DAY.isoformat(), 7001)]
    assert await services.digests.run_due(discord.post, discord.warn) == []
    assert discord.sends == 2


async def test_past_its_nonces_minutes_an_unanswered_post_is_not_sent_again(services) -> None:
    """Discord keeps a nonce a few minutes: a post left without an answer for longer is
    never sent again (at most once, never twice)."""
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(services, ANN, DAY, 1)
    discord = Discord()
    discord.lost = TimeoutError("no answer after sending")
    await services.digests.run_due(discord.post, discord.warn)
    discord.lost = None
    services.daily.clock = lambda: at("2026-03-02T12:00") + NONCE_WINDOW + timedelta(seconds=1)
    await services.digests.run_due(discord.post, discord.warn)
    await services.digests.run_due(discord.post, discord.warn)
    assert discord.sends == 1
    assert await services.storage.digests.claimed(GUILD) == [(DAY.isoformat(), None)]


async def test_a_runner_that_stops_midway_is_taken_over_once_its_lease_lapses(
    shared_url, opened
) -> None:
    """A runner sends the digest and hears nothing more (it hangs, or was killed): another
    leaves its lease alone while it lasts, takes the digest over once it lapses, sends it
    again with its nonce (Discord returns the message made) and records it; the first
    runner, answered at last, finds its lease gone and changes nothing."""
    now = at("2026-03-02T06:00")
    stuck, taker = await opened(shared_url, Clock(now)), await opened(shared_url, Clock(now))
    await stuck.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(stuck, ANN, DAY, 1)
    hanging, discord = Discord(), Discord()
    hanging.answer = asyncio.Event()
    first = asyncio.create_task(stuck.digests.run_due(hanging.post, hanging.warn))
    await until(lambda: hanging.posts, "the first runner's post made")
    discord.made = hanging.made  # one Discord: the same messages, the same nonces
    assert await taker.digests.run_due(discord.post, discord.warn) == []  # its lease holds
    assert discord.sends == 0
    taker.daily.clock.advance(taker.digests.lease.total_seconds() + 1)
    [posted] = await taker.digests.run_due(discord.post, discord.warn)
    assert posted.day == DAY and discord.sends == 1 and discord.posts == []
    assert await taker.storage.digests.claimed(GUILD) == [(DAY.isoformat(), 7001)]
    hanging.answer.set()
    assert await first == []
    assert await taker.storage.digests.claimed(GUILD) == [(DAY.isoformat(), 7001)]
    assert await taker.digests.run_due(discord.post, discord.warn) == []
    assert discord.sends == 1 and len(hanging.posts) == 1


async def test_a_runner_stopped_mid_post_gives_its_lease_back_at_once(shared_url, opened) -> None:
    """A stop that cannot wait for the post (past the drain) cancels the run: its lease is
    given back, so the next start resumes at once, with the same nonce."""
    now = at("2026-03-02T06:00")
    stopped, restarted = await opened(shared_url, now), await opened(shared_url, now)
    await stopped.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await play(stopped, ANN, DAY, 1)
    discord = Discord()
    discord.answer = asyncio.Event()
    run = asyncio.create_task(stopped.digests.run_due(discord.post, discord.warn))
    await until(lambda: discord.posts, "the post made")
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    discord.answer.set()
    [posted] = await restarted.digests.run_due(discord.post, discord.warn)
    assert posted.day == DAY and discord.sends == 2 and len(discord.posts) == 1
    assert await restarted.storage.digests.claimed(GUILD) == [(DAY.isoformat(), 7001)]


async def test_digests_claimed_before_the_leases_stay_done(shared_url, opened) -> None:
    """Migration 30: a digest claimed before it (posted, or found empty) is done: never
    tried again, its message kept."""
    old = await Storage.open(shared_url, migrate=False)
    await old.migrate(target=29)
    await old._write(
        "INSERT INTO digests (guild_id, day, channel_id, message_id, claimed_at) "
        "VALUES (?, ?, ?, 7001, 'x'), (?, ?, ?, NULL, 'x')",
        (GUILD, DAY.isoformat(), CHANNEL, OTHER, DAY.isoformat(), CHANNEL),
    )
    await old.close()
    services = await opened(shared_url, at("2026-03-02T06:00"))
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    await services.storage.digests.set_channel(OTHER, CHANNEL, ADMIN)
    await play(services, ANN, DAY, 1)
    discord = Discord()
    assert await services.digests.run_due(discord.post, discord.warn) == []
    assert discord.sends == 0
    assert await services.storage.digests.claimed(GUILD) == [(DAY.isoformat(), 7001)]
    assert await services.storage.digests.claimed(OTHER) == [(DAY.isoformat(), None)]


def test_a_digests_nonce_is_its_server_and_day_within_discords_25_characters() -> None:
    nonces = {post_nonce(guild, DAY + timedelta(days=d)) for guild in (GUILD, OTHER, 2**63 - 1)
              for d in range(400)}  # fmt: skip
    assert len(nonces) == 1200 and max(len(n) for n in nonces) <= 25
    assert post_nonce(GUILD, DAY) == post_nonce(GUILD, date(2026, 3, 1))


async def test_digest_off_and_on(services) -> None:
    await services.storage.digests.set_channel(GUILD, CHANNEL, ADMIN)
    assert await services.storage.digests.channels() == [
        DigestChannel(GUILD, CHANNEL, ADMIN, None)]  # fmt: skip
    await services.storage.digests.set_channel(GUILD, None, None)
    assert await services.storage.digests.channels() == []


async def test_the_last_day_of_a_season_announces_its_podium(services) -> None:
    settings = await services.storage.guild_settings(GUILD)
    await services.storage.save_guild_settings(dataclasses.replace(settings, season_days=7))
    last = date(2026, 3, 6)  # seasons of 7 days from puzzle #0: 28 February to 6 March
    for back, players in enumerate(([ANN, BOB, CAT], [ANN, BOB], [ANN], [DAN])):
        day = last - timedelta(days=back)
        services.daily.clock = lambda day=day: datetime(day.year, day.month, day.day, 12,
                                                        tzinfo=UTC)  # fmt: skip
        for player in players:
            await play(services, player, day, 0)
    await play(services, EVE, date(2026, 2, 27), 0)  # the season before
    digest = await services.digests.digest(GUILD, last)
    assert digest.podium is not None
    assert digest.podium.title == "Season 245 (2026-02-28 to 2026-03-06)"
    assert [(rank, m.name, wins) for rank, m, wins in digest.podium.places] == [
        (1, "ann", 3),
        (2, "bob", 2),
        (3, "cat", 1),
        (3, "dan", 1),
    ]  # ties share third place
    text = digest_text(digest)
    assert "**Season 245 (2026-02-28 to 2026-03-06) is over!**" in text
    assert "🥇 ann (3 wins)\n🥈 bob (2 wins)\n🥉 cat (1 win)\n🥉 dan (1 win)" in text
    assert (await services.digests.digest(GUILD, last - timedelta(days=1))).podium is None


async def test_the_cli_prints_a_servers_digest(tmp_path, opened) -> None:
    path = str(tmp_path / "cli.sqlite3")
    services = await opened(path, at("2026-03-02T12:00"))
    await play(services, ANN, DAY, 1)
    await services.close()
    run = functools.partial(subprocess.run, capture_output=True, text=True, timeout=60,
                            env=clean_env(daily_seed=SEED))  # fmt: skip
    command = [sys.executable, "-m", "bot.cli", "digest", "--database", path]
    shown = await asyncio.to_thread(run, [*command, "--guild", str(GUILD), "--day", "2026-03-01"])
    assert shown.returncode == 0 and "👑 2/6: ann" in shown.stdout, shown.stderr
    bad = await asyncio.to_thread(run, [*command, "--guild", str(GUILD), "--day", "March"])
    assert bad.returncode == 2 and "not a date" in bad.stderr


RECAP = (
    "**Your group is on a 12 day streak!** 🔥 Here are yesterday's results:\n"
    "👑 3/6: <@1> @bob\n"
    "4/6: @Nobody Here\n"
    "X/6: <@3>"
)


async def test_the_wordle_apps_recap_is_recorded_once_and_plain_names_are_matched(
    services,
) -> None:
    posted = date(2026, 3, 2)  # the recap of 1 March: NYT puzzle 1,716
    members = [(1, "ann"), (2, "bob")]  # the server's members with the names the recap gives
    notes = await record_app_results(services.storage, GUILD, RECAP, posted, members)
    assert notes[0] == "Wordle #1716: 3 results recorded, 0 already recorded (see /stats)"
    assert any("@Nobody Here fits no member" in n for n in notes)
    assert [(s["won"], s["guesses"]) for s in await services.storage.shares(ANN.id)] == [(1, 3)]
    assert [(s["puzzle"], s["guesses"]) for s in await services.storage.shares(BOB.id)] == [
        (1716, 3)]  # fmt: skip
    assert [s["won"] for s in await services.storage.shares(CAT.id)] == [0]
    again = await record_app_results(services.storage, GUILD, RECAP, posted, members)
    assert again[0] == "Wordle #1716: 0 results recorded, 3 already recorded (see /stats)"
    # A name two members share is reported, not guessed.
    twice = await record_app_results(services.storage, GUILD, RECAP.replace("@bob", "@ann"),
                                     posted, [(1, "ann"), (9, "Ann")])  # fmt: skip
    assert any("@ann fits several members" in n for n in twice)
    assert await record_app_results(services.storage, GUILD, "Wordle 1,716 3/6", posted) == [
        APP_NOT_RECAP]  # fmt: skip


async def servers_with_a_day(services: Services, count: int) -> list[int]:
    """``count`` servers, each with its digest channel and a daily finished on DAY."""
    guilds = [(1000 + i) << 22 for i in range(count)]  # on shards 0 and 1 alternately
    for i, guild in enumerate(guilds):
        await services.storage.digests.set_channel(guild, 9000 + i, ADMIN)
        await play(services, Player(50 + i, f"p{i}"), DAY, i % 3, scope=guild)
    return guilds


async def test_a_slow_channel_holds_no_other_servers_digest(services) -> None:
    """A server whose channel does not answer keeps its own digest waiting, no other."""
    guilds = await servers_with_a_day(services, 6)
    discord, slow = Discord(), asyncio.Event()

    async def post(channel: DigestChannel, digest: Digest) -> int:
        if channel.guild_id == guilds[0]:
            await slow.wait()
        return await discord.post(channel, digest)

    run = asyncio.create_task(services.digests.run_due(post, discord.warn))
    await until(lambda: len(discord.posts) == 5, "the five other servers' digests posted")
    assert guilds[0] not in {d.guild_id for _, d in discord.posts} and not run.done()
    slow.set()
    assert len(await run) == 6


async def test_processes_post_their_own_servers_first_and_any_left_undone(
    shared_url, opened
) -> None:
    """Every process runs the digests: those of its own shards first, then any other still
    due, so each server's is posted once whichever processes run, and a process that never
    comes (dead) leaves nothing undone."""
    now = at("2026-03-02T06:00")
    first, second = await opened(shared_url, now), await opened(shared_url, now)
    guilds = await servers_with_a_day(first, 8)
    discord = Discord()
    order: list[tuple[str, int]] = []

    def poster(name: str):
        async def post(channel: DigestChannel, digest: Digest) -> int:
            order.append((name, channel.guild_id))
            return await discord.post(channel, digest)

        return post

    def shard(index: int):
        return lambda guild_id: (guild_id >> 22) % 2 == index

    await asyncio.gather(
        first.digests.run_due(poster("first"), discord.warn, mine=shard(0), at_once=2),
        second.digests.run_due(poster("second"), discord.warn, mine=shard(1), at_once=2),
    )
    assert sorted(d.guild_id for _, d in discord.posts) == sorted(guilds)  # each once
    for name, index in (("first", 0), ("second", 1)):
        mine = [guild for who, guild in order if who == name]
        assert mine[:2] == [g for g in mine if shard(index)(g)][:2]  # its own first
    # A day later the second process is gone: the first posts every server's day alone.
    later = now + timedelta(days=1)
    for i, guild in enumerate(guilds):
        await play(first, Player(50 + i, f"p{i}"), DAY + timedelta(days=1), 0, scope=guild)
    first.daily.clock = lambda: later
    posted = await first.digests.run_due(discord.post, discord.warn, mine=shard(0))
    assert sorted(d.guild_id for d in posted) == sorted(guilds)


class Roles:
    """The winner's role in each server: who was given it, in order; ``hold``, when given,
    is awaited before the first change (a process stopped while moving the roles), and
    ``held`` counts the moves waiting on it."""

    def __init__(self, events: list[str]) -> None:
        self.events, self.given = events, []
        self.hold: asyncio.Event | None = None
        self.held = 0

    async def problem(self, guild_id: int, role_id: int) -> str | None:
        return None

    async def give(self, guild_id: int, player_id: int, role_id: int) -> None:
        if self.hold is not None:
            self.held += 1
            await self.hold.wait()
        self.events.append("role")
        self.given.append((guild_id, player_id))

    async def take(self, guild_id: int, player_id: int, role_id: int) -> None:
        self.events.append("role")

    async def say(self, channel: DigestChannel, text: str) -> None:
        pass


async def test_every_digest_goes_before_any_winners_role(services) -> None:
    """At midnight the posts are what the servers wait for: a process posts all its
    digests, then moves the winners' roles (the deployment's budget holds every process's
    roles until all the digests are out). Stopped in between, the next run moves each role
    once and posts nothing again."""
    guilds = await servers_with_a_day(services, 6)
    for guild in guilds:
        await services.storage.winner_roles.set_role(guild, guild + 1)
    discord, events = Discord(), []
    roles = Roles(events)

    async def post(channel: DigestChannel, digest: Digest) -> int:
        events.append("post")
        return await discord.post(channel, digest)

    roles.hold = asyncio.Event()  # the process stops as it moves the first role
    run = asyncio.create_task(services.digests.run_due(post, discord.warn, door=roles,
                                                       say=roles.say, at_once=2))  # fmt: skip
    # Stopped once it moves a role: every post is sent and recorded by then (not after a
    # fixed wait, which a loaded machine outran: the stop then fell before the last post
    # was recorded, and the next run rightly sent it again).
    await until(lambda: roles.held > 0, "a role being moved")
    assert len(discord.posts) == 6
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert events == ["post"] * 6 and roles.given == []
    roles.hold = None
    assert await services.digests.run_due(post, discord.warn, door=roles, say=roles.say) == []
    assert events == ["post"] * 6 + ["role"] * 6 and len(discord.posts) == 6
    assert sorted(guild for guild, _ in roles.given) == sorted(guilds)  # each once
    assert await services.digests.run_due(post, discord.warn, door=roles, say=roles.say) == []
    assert len(roles.given) == 6
