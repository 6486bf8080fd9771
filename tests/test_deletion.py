"""Deleting one's data is no way to play a puzzle again: what a player played today stays
played until the day ends (an anonymous mark each), on both engines and in every process;
the console deletes as Discord does."""

import asyncio
import itertools
import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from clock import Clock

from bot.console import Console
from bot.services import Player, Services, open_services
from bot.services.archive import play_archive
from bot.services.daily import EPOCH
from bot.services.deletion import DELETED, LASTING, MARKS, player_mark
from bot.services.shares import Moment, record_app_results, record_shares
from bot.settings import load_settings
from bot.storage.cooldowns import stamp
from engine.shares import parse_shares

SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-deletion"
ANN, BOB = Player(1, "ann"), Player(2, "bob")
GUILD = 100
TODAY = date(2026, 3, 2)  # puzzle #1717
GONE = ("players", "games", "results", "standings", "period_standings")


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(noon(TODAY))


async def count(services: Services, table: str) -> int:
    return int((await services.storage._one(f"SELECT COUNT(*) FROM {table}"))[0])


async def marks(services: Services) -> list[tuple[str, str]]:
    rows = await services.storage._all("SELECT mark, day FROM played_marks ORDER BY mark")
    return [(str(r[0]), str(r[1])) for r in rows]


async def test_a_daily_given_up_then_deleted_cannot_be_replayed_today(services) -> None:
    games, answer = services.games, services.daily.answer("wordle", TODAY)
    assert (await games.start(ANN, GUILD, "wordle", daily=True)).ok
    assert (await games.give_up(ANN, GUILD, kind="wordle:daily")).ok  # the answer is known
    assert await services.delete_player(ANN.id)
    assert [await count(services, t) for t in GONE] == [0] * len(GONE)  # nothing personal

    again = await games.start(ANN, GUILD, "wordle", daily=True)
    assert not again.ok and again.game is None
    assert again.message == ("You have already played today's wordlebot Wordle #20260302. "
                             "A new one comes tomorrow.")  # fmt: skip
    assert not (await games.guess(ANN, GUILD, answer)).ok  # no game to play it in
    board = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD,
                                             today=TODAY, period="week")  # fmt: skip
    assert board.entries == []
    assert await count(services, "games") == 0  # the refusal stored nothing
    # Bob, who played nothing, plays as ever.
    assert (await games.start(BOB, GUILD, "wordle", daily=True)).ok


async def test_a_daily_in_progress_and_every_flavour_played_today_stay_played(services) -> None:
    games = services.games
    assert (await games.start(ANN, GUILD, "primel", daily=True)).ok  # left in progress
    archive = await play_archive(games, ANN, GUILD, "wordle", number=1500)
    assert (await games.give_up(ANN, GUILD, game_id=archive.game.game_id)).ok
    challenge = (await services.challenges.create(BOB, GUILD, 7, "cigar")).challenge
    played = await services.challenges.play(ANN, challenge.id)
    assert (await games.give_up(ANN, GUILD, game_id=played.game.game_id)).ok
    race = await services.races.create(BOB, GUILD, 7)
    race_id = race.board.race.id
    assert (await services.races.join(race_id, ANN)).ok and (
        await services.races.start(race_id, BOB)).ok  # fmt: skip
    stored = await services.storage.races.get(race_id)
    raced = await services.races.play(race_id, ANN)
    assert (await games.give_up(ANN, GUILD, game_id=raced.game.game_id)).ok
    assert (await games.start(ANN, GUILD, "wordle")).ok  # practice: no puzzle, no mark
    assert await services.delete_player(ANN.id)

    refused = await games.start(ANN, GUILD, "primel", daily=True)
    assert not refused.ok and "already played today's wordlebot Primel #20260302" in refused.message
    again = await play_archive(games, ANN, GUILD, "wordle", number=1500)
    assert not again.ok
    assert again.message == "You have already played wordlebot Wordle #20250728 from the archive"
    assert (await services.challenges.play(ANN, challenge.id)).message == (
        "You have already played this one")  # fmt: skip
    assert not (await services.races.play(race_id, ANN)).ok  # no longer in the race
    direct = await games.start_set(ANN, GUILD, stored.kind, stored.puzzle, stored.answers)
    assert not direct.ok and direct.message == "You have already played this one"
    assert await count(services, "games") == 0  # nothing of Ann's (Bob never opened his)
    # What is kept: one mark per puzzle, for today only (a challenge's, which has no day,
    # for good), that names nobody.
    kept = await marks(services)
    assert len(kept) == 4 and sorted(day for _, day in kept) == [TODAY.isoformat()] * 3 + [LASTING]
    assert all(re.fullmatch("[0-9a-f]{64}", mark) for mark, _ in kept)
    # Other puzzles remain open to Ann: the Wordle daily, another archive day.
    assert (await games.start(ANN, GUILD, "wordle", daily=True)).ok
    assert (await play_archive(games, ANN, GUILD, "primel", number=1500)).ok


async def test_a_challenge_played_days_ago_stays_played_after_a_deletion(services, clock) -> None:
    """A challenge has no day: it can be asked for again any day, so its mark outlives the
    days (a deletion the day after giving it up must not replay it with the word known)."""
    challenge = (await services.challenges.create(BOB, GUILD, 7, "cigar")).challenge
    played = await services.challenges.play(ANN, challenge.id)
    assert (await services.games.give_up(ANN, GUILD, game_id=played.game.game_id)).ok
    clock.advance(3 * 86_400)
    assert await services.delete_player(ANN.id)
    await services.games.purge_marks()
    clock.advance(30 * 86_400)
    assert (await services.challenges.play(ANN, challenge.id)).message == (
        "You have already played this one")  # fmt: skip


async def test_the_marks_end_with_the_day_and_are_purged(services, clock) -> None:
    games = services.games
    await games.start(ANN, GUILD, "wordle", daily=True)
    await games.give_up(ANN, GUILD, kind="wordle:daily")
    yesterday = await play_archive(games, ANN, GUILD, "wordle", number=1700)
    await games.give_up(ANN, GUILD, game_id=yesterday.game.game_id)
    # A game that ended on an earlier day leaves no mark: only today's are kept.
    clock.now = noon(TODAY - timedelta(days=1))
    old = await play_archive(games, ANN, GUILD, "wordle", number=1600)
    await games.give_up(ANN, GUILD, game_id=old.game.game_id)
    clock.now = noon(TODAY)
    assert await services.delete_player(ANN.id)
    assert len(await marks(services)) == 2
    assert (await play_archive(games, ANN, GUILD, "wordle", number=1600)).ok
    await games.give_up(ANN, GUILD, kind="wordle:archive")

    clock.now = noon(TODAY + timedelta(days=1))  # a new day: yesterday's marks count no more
    assert (await play_archive(games, ANN, GUILD, "wordle", number=1717)).ok  # the old daily
    await games.give_up(ANN, GUILD, kind="wordle:archive")
    assert (await play_archive(games, ANN, GUILD, "wordle", number=1700)).ok
    assert len(await marks(services)) == 2  # ignored, then purged by the clock's job
    assert await services.games.purge_marks() == 2 and await marks(services) == []


async def test_a_second_deletion_the_same_day_keeps_the_first_ones_marks(services) -> None:
    games = services.games
    await games.start(ANN, GUILD, "wordle", daily=True)
    await games.give_up(ANN, GUILD, kind="wordle:daily")
    assert await services.delete_player(ANN.id)
    assert (await games.start(ANN, GUILD, "wordle")).ok  # back, practising
    assert await services.delete_player(ANN.id)
    assert not (await games.start(ANN, GUILD, "wordle", daily=True)).ok
    assert len(await marks(services)) == 1


async def test_another_process_obeys_the_marks(shared_url, clock, opened) -> None:
    one, two = await opened(shared_url, clock), await opened(shared_url, clock)
    try:
        await two.games.start(ANN, GUILD, "wordle", daily=True)  # cached in process two
        await one.games.give_up(ANN, GUILD, kind="wordle:daily")
        assert await one.delete_player(ANN.id)
        refused = await two.games.start(ANN, GUILD, "wordle", daily=True)
        assert not refused.ok and "already played today's" in refused.message
        assert await count(two, "games") == 0
    finally:
        await one.close()
        await two.close()


async def test_the_console_deletes_as_discord_does(services) -> None:
    shown: list[str] = []
    console = Console(services, ANN, shown.append, colour=False)
    await console.handle("/wordle daily")
    await console.handle("/giveup")
    for line in ("/mydata delete", "/mydata delete confirm:delete", "/mydata delete delete",
                 "/mydata"):  # fmt: skip
        await console.handle(line)
    assert "Nothing deleted: type DELETE to confirm" in "\n".join(shown)
    assert "  /mydata delete: confirm is needed" in shown  # Discord requires it too
    assert "  /mydata takes export, delete or unshare" in shown
    assert await count(services, "games") == 1  # none of those deleted anything
    await console.handle("/mydata export")
    assert '"kind": "wordle:daily"' in shown[-1]
    await console.handle("/mydata delete confirm:DELETE")
    assert shown[-1] == DELETED and await count(services, "players") == 0
    await console.handle("/wordle daily")
    assert "You have already played today's wordlebot Wordle #20260302" in shown[-1]
    await console.handle("/as bob")
    await console.handle("/mydata delete confirm:DELETE")
    assert shown[-1] == "There was nothing to delete."


ENDINGS = ("won", "lost", "gave up", "going")


@pytest.mark.parametrize(("last", "daily"), list(itertools.product(ENDINGS, repeat=2)))
def test_whatever_was_played_today_and_however_it_ended_stays_played(last: str, daily: str) -> None:
    """Every ending of the last archive game and of the daily (their 16 pairs), after an
    archive game of each finished ending."""
    played, fresh = {1100: "won", 1200: "lost", 1300: "gave up"}, 1701

    async def main() -> None:
        services = await open_services(load_settings(database_url=":memory:", daily_seed=SEED))
        services.daily.clock = Clock(noon(TODAY))  # (hypothesis: no function-scoped fixture)
        games = services.games

        async def end(kind: str, how: str, answer: str) -> None:
            if how == "won":
                await games.guess(ANN, GUILD, answer, kind=kind)
            elif how == "lost":
                for word in [w for w in ("crane", "slate", "moist", "pound", "fjord", "glyph",
                                         "vixen") if w != answer][:6]:  # fmt: skip
                    await games.guess(ANN, GUILD, word, kind=kind)
            elif how == "gave up":
                await games.give_up(ANN, GUILD, kind=kind)

        try:
            endings = {**played, 1716: last}  # the last may be left going
            for number, how in endings.items():
                assert (await play_archive(games, ANN, GUILD, "wordle", number=number)).ok
                day = EPOCH + timedelta(days=number)
                await end("wordle:archive", how, services.daily.answer("wordle", day))
            assert (await games.start(ANN, GUILD, "wordle", daily=True)).ok
            await end("wordle:daily", daily, services.daily.answer("wordle", TODAY))
            assert await services.delete_player(ANN.id)
            assert len(await marks(services)) == len(endings) + 1
            for number in endings:
                again = await play_archive(games, ANN, GUILD, "wordle", number=number)
                assert not again.ok and "from the archive" in again.message
            assert not (await games.start(ANN, GUILD, "wordle", daily=True)).ok
            assert (await play_archive(games, ANN, GUILD, "wordle", number=fresh)).ok
        finally:
            await services.close()

    asyncio.run(main())


# -- in Discord -------------------------------------------------------------------------


async def test_in_discord_a_deletion_keeps_todays_daily_played_until_the_job_purges(
    double, clock
) -> None:
    services = double.bot.services
    services.daily.clock = clock
    await double.command("wordle", "daily", user_id=ANN.id)
    await double.command("giveup", user_id=ANN.id)
    gone = await double.command("mydata", "delete", user_id=ANN.id, confirm="DELETE")
    assert [m.text for m in gone] == [DELETED] and gone[0].ephemeral
    (refused,) = await double.command("wordle", "daily", user_id=ANN.id)
    assert refused.ephemeral and "You have already played today's wordlebot Wordle" in refused.text
    assert await count(services, "games") == 0 and len(await marks(services)) == 1
    clock.now = noon(TODAY + timedelta(days=1))
    for job in double.bot.leader_jobs:  # what the elected process runs on the clock
        await job()
    assert await marks(services) == []
    (board,) = await double.command("wordle", "daily", user_id=ANN.id)
    assert "wordlebot Wordle #20260303" in board.text


def wordle_share(day: date, guesses: int = 3) -> str:
    rows = ["⬛🟨⬛⬛⬛"] * (guesses - 1) + ["🟩🟩🟩🟩🟩"]
    return f"Wordle {(day - EPOCH).days:,} {guesses}/6\n" + "\n".join(rows)


async def left_of(services: Services, player_id: int) -> list[int]:
    """The player's rows, their shares', their boards' (by table)."""
    tables = {"players": "id", "share_results": "player_id", "standings": "player_id",
              "period_standings": "player_id"}  # fmt: skip
    return [int((await services.storage._one(
        f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (player_id,)))[0])
        for table, column in tables.items()]  # fmt: skip


async def test_a_share_posted_before_a_deletion_never_counts_again(services, clock) -> None:
    """A deletion leaves the player's own mark with its moment, for good: their shares and
    the Wordle app's recaps posted before it (read later, an import) count nothing and say
    nothing of them; what they post after it counts; a second deletion moves the moment."""
    key = services.daily.key(MARKS)
    shares = parse_shares(wordle_share(TODAY)).shares
    before = Moment(clock() - timedelta(hours=2), key)

    async def share(moment: Moment | None) -> list[str]:
        done = await record_shares(services.storage, ANN.id, ANN.name, shares, scope=GUILD,
                                   posted=TODAY, moment=moment)  # fmt: skip
        return done.outcomes + done.notes

    assert (await share(before))[0] == "new"
    assert await services.delete_player(ANN.id)
    stored = await services.storage._all("SELECT mark, deleted_at FROM forgotten")
    assert [tuple(r) for r in stored] == [(player_mark(key, ANN.id), stamp(clock()))]
    assert player_mark(b"another deployment", ANN.id) != stored[0][0]  # the seed names her

    assert await share(before) == ["forgotten"]  # an import of the old message: nothing said
    recap = "Here are yesterday's results:\n👑 3/6: <@1> @bob"
    notes = await record_app_results(services.storage, GUILD, recap, TODAY + timedelta(days=1),
                                     [(BOB.id, "bob")], moment=before)  # fmt: skip
    assert notes == ["Wordle #1717: 1 results recorded, 0 already recorded (see /stats)"]
    assert await left_of(services, ANN.id) == [0, 0, 0, 0]
    assert await left_of(services, BOB.id) == [1, 1, 2, 4]  # the recap counted for bob
    assert await services.storage.shares(ANN.id) == []
    assert json.loads(await services.export_player(ANN.id))["shares"] == []

    clock.advance(60)  # a second after would do: back, and playing
    assert (await share(Moment(clock(), key)))[0] == "new"
    assert len(await services.storage.shares(ANN.id)) == 1
    clock.advance(60)
    assert await services.delete_player(ANN.id)  # a second deletion: the later moment
    assert [tuple(r) for r in await services.storage._all("SELECT * FROM forgotten")] == [
        (player_mark(key, ANN.id), stamp(clock()))]  # fmt: skip
    assert await share(Moment(clock() - timedelta(seconds=30), key)) == ["forgotten"]
    assert (await share(None))[0] == "new"  # recorded by the player themself, now
    # One with nothing stored is told so, and marked all the same: their old posts stay out.
    assert not await services.delete_player(3)
    assert await left_of(services, 3) == [0, 0, 0, 0]
    marked = await services.storage._one("SELECT 1 FROM forgotten WHERE mark = ?",
                                         (player_mark(key, 3),))  # fmt: skip
    assert marked is not None


async def test_a_recap_posted_after_a_deletion_credits_no_game_of_a_day_begun_before(
    services, clock
) -> None:
    """The Wordle app's recap reports games played on its puzzle's day, before it was posted:
    one posted the morning after Ann deleted her data, of the day she deleted on, counts
    nothing for her (live or read again by /import) and counts for Bob as ever; her own share
    of that puzzle, posted after her deletion, counts (she came back and played); a recap of
    a day that began anywhere only after her deletion counts for her."""
    key, storage = services.daily.key(MARKS), services.storage
    assert not await services.delete_player(ANN.id)  # today at noon (marked all the same)
    recap = f"Here are yesterday's results:\n👑 3/6: <@{ANN.id}> <@{BOB.id}>"

    async def read(posted: date, hour: int) -> tuple[list[str], list[str]]:
        said: list[str] = []
        moment = Moment(datetime.combine(posted, datetime.min.time(), UTC)
                        + timedelta(hours=hour), key)  # fmt: skip
        notes = await record_app_results(storage, GUILD, recap, posted, outcomes=said,
                                         moment=moment)  # fmt: skip
        return said, notes

    tomorrow = TODAY + timedelta(days=1)
    said, notes = await read(tomorrow, 8)  # today's puzzle, posted tomorrow morning
    assert said == ["forgotten", "new"]
    assert notes == ["Wordle #1717: 1 results recorded, 0 already recorded (see /stats)"]
    assert await left_of(services, ANN.id) == [0, 0, 0, 0]
    assert await left_of(services, BOB.id) == [1, 1, 2, 4]
    assert (await read(tomorrow, 23))[0] == ["forgotten", "same"]  # read again, later
    clock.advance(20 * 3600)  # tomorrow, 08:00: her own share of today's puzzle counts
    mine = await record_shares(storage, ANN.id, ANN.name, parse_shares(wordle_share(TODAY))
                               .shares, scope=GUILD, posted=tomorrow,
                               moment=Moment(clock(), key))  # fmt: skip
    assert mine.outcomes == ["new"]
    assert (await read(tomorrow, 9))[0] == ["forgotten", "same"]  # her line still counts not

    # tomorrow's puzzle began in UTC+14 at 10:00 UTC today, before her deletion at noon: she
    # may have played it then; the day after's began only after it
    said, _notes = await read(TODAY + timedelta(days=2), 8)
    assert said == ["forgotten", "new"]
    said, _notes = await read(TODAY + timedelta(days=3), 8)
    assert said == ["new", "new"]
    assert [s["puzzle"] for s in await storage.shares(ANN.id)] == [1717, 1719]


async def test_a_recap_line_is_forgotten_for_its_whole_day_wherever_it_began(
    database_url, opened
) -> None:
    """A NYT puzzle is each player's own local day, whatever the deployment's zone (here New
    York): Ann deletes at 03:00 UTC on 2 March (still 1 March in New York, already 2 March in
    Tokyo, where she may have played it). The recaps of 1 and 2 March count nothing for her
    (the 2nd began at 10:00 UTC on 1 March, in UTC+14); 3 March's, which began anywhere only
    after her deletion, counts. Bob, who deleted nothing, counts every day."""
    clock = Clock(datetime(2026, 3, 2, 3, tzinfo=UTC))
    services = await opened(database_url, clock, daily_timezone="America/New_York")
    key = services.daily.key(MARKS)
    assert not await services.delete_player(ANN.id)
    recap = f"Here are yesterday's results:\n👑 3/6: <@{ANN.id}> <@{BOB.id}>"
    said: list[str] = []
    for posted in (date(2026, 3, 2), date(2026, 3, 3), date(2026, 3, 4)):  # 08:00 in New York
        moment = Moment(datetime(posted.year, posted.month, posted.day, 13, tzinfo=UTC), key)
        await record_app_results(services.storage, GUILD, recap, posted, outcomes=said,
                                 moment=moment)  # fmt: skip
    assert said == ["forgotten", "new", "forgotten", "new", "new", "new"]
    assert [s["puzzle"] for s in await services.storage.shares(ANN.id)] == [1718]
