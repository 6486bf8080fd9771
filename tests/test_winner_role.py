"""The winner's role (issue 32): the digest gives it to the day's crowned players and takes it
back at the next digest, from those it gave it to alone; once per day across runners and
restarts; never before the day is over; never to a player whose data was deleted; and a
problem is said once, in the digest's channel, on both engines."""

import asyncio
import dataclasses
from datetime import UTC, date, datetime, timedelta

import asyncpg
import pytest
from clock import at
from test_digest import ANN, BOB, CAT, CHANNEL, DAN, DAY, GUILD, Discord, play

from bot.commands.model import Caller, run_command
from bot.render.text import digest_text
from bot.services import Player
from bot.services.shares import record_app_results, record_shares
from bot.services.winner_role import MemberGone, RoleRefused
from bot.storage.digests import DigestChannel
from engine.shares import parse_shares
from engine.variants import get_variant

ROLE = 4242
NEXT = DAY + timedelta(days=1)


class Roles:
    """The server's roles as Discord keeps them: who holds what, and what it refuses."""

    def __init__(self) -> None:
        self.held: dict[int, set[int]] = {}  # role -> members
        self.calls: list[tuple[str, int]] = []
        self.cannot: str | None = None  # what the cache says is wrong
        self.refuse = False  # Discord answers 403
        self.departed: set[int] = set()
        self.said: list[str] = []

    async def problem(self, guild_id: int, role_id: int) -> str | None:
        return self.cannot

    async def _change(self, action: str, player_id: int, role_id: int) -> None:
        await asyncio.sleep(0.01)  # another runner gets in here if it can
        if player_id in self.departed:
            raise MemberGone
        if self.refuse:
            raise RoleRefused("refused")
        self.calls.append((action, player_id))
        members = self.held.setdefault(role_id, set())
        members.add(player_id) if action == "give" else members.discard(player_id)

    async def give(self, guild_id: int, player_id: int, role_id: int) -> None:
        await self._change("give", player_id, role_id)

    async def take(self, guild_id: int, player_id: int, role_id: int) -> None:
        await self._change("take", player_id, role_id)

    async def say(self, channel: DigestChannel, text: str) -> None:
        self.said.append(text)


@pytest.fixture
async def services(database_url: str, opened):
    services = await opened(database_url, at("2026-03-02T06:00"))
    await services.storage.digests.set_channel(GUILD, CHANNEL, 9)
    await services.storage.winner_roles.set_role(GUILD, ROLE)
    return services


async def run(services, roles: Roles, now: str) -> Discord:
    discord = Discord()
    services.daily.clock = lambda: at(now)
    await services.digests.run_due(discord.post, discord.warn, door=roles, say=roles.say)
    return discord


async def test_the_role_goes_to_each_days_winners_and_back_at_the_next_digest(services) -> None:
    roles = Roles()
    roles.held[ROLE] = {CAT.id}  # CAT holds it by an admin's hand: never the bot's to take
    await play(services, ANN, DAY, 1)
    await play(services, BOB, DAY, 1)  # tied first: both crowned
    await play(services, CAT, DAY, 3)
    assert len((await run(services, roles, "2026-03-02T06:00")).posts) == 1
    assert roles.held[ROLE] == {ANN.id, BOB.id, CAT.id} and roles.said == []
    await play(services, BOB, NEXT, 0)
    await play(services, ANN, NEXT, 2)
    await run(services, roles, "2026-03-03T06:00")
    assert roles.held[ROLE] == {BOB.id, CAT.id}  # BOB kept it; ANN lost it; CAT untouched
    assert roles.calls[2:] == [("take", ANN.id)]  # BOB was not given it twice
    holders = await services.storage.winner_roles.holders(GUILD)
    assert [(h.player_id, h.day) for h in holders] == [(BOB.id, NEXT.isoformat())]
    await run(services, roles, "2026-03-04T06:00")  # a day nobody won: nobody holds it
    assert roles.held[ROLE] == {CAT.id}
    assert await services.storage.winner_roles.holders(GUILD) == []


async def forge(services, player, text: str, day: date) -> None:
    """A share typed by ``player`` in a share channel on ``day``: anyone can type one."""
    done = await record_shares(services.storage, player.id, player.name,
                               parse_shares(text).shares, scope=GUILD, posted=day)  # fmt: skip
    assert done.notes and "recorded" in done.notes[0], done.notes


async def test_a_forged_share_never_takes_the_role(services) -> None:
    """Think like a cheater: BOB types a perfect 1/6 share of the day's NYT Wordle (and one
    of Dordle, a game only shares bring) while ANN wins the bot's daily in 2. The digest
    lists the shares with their scores, but 👑 and the role go to ANN alone; a share tied
    with her is listed on a line of its own, uncrowned."""
    roles = Roles()
    number = (DAY - date(2021, 6, 19)).days
    await play(services, ANN, DAY, 1)
    await forge(services, BOB, f"Wordle {number:,} 1/6\n🟩🟩🟩🟩🟩", DAY)
    await forge(
        services, BOB, "Dordle #123 1&2/7\n🟩🟩🟩🟩🟩 ⬛🟩⬛⬛⬛\n⬛⬛⬛⬛⬛ 🟩🟩🟩🟩🟩", DAY
    )
    await forge(services, CAT, f"Wordle {number:,} 2/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", DAY)
    discord = await run(services, roles, "2026-03-02T06:00")
    [(_channel, digest)] = discord.posts
    assert [(g.kind, g.shared, [m.name for m in g.crowned]) for g in digest.games] == [
        ("wordle:daily", False, ["ann"]), ("wordle:daily", True, []),
        ("dordle:daily", True, [])]  # fmt: skip
    text = digest_text(digest)
    assert "\n👑 2/6: ann\n" in text and "\n1/6: bob\n2/6: cat\n" in text
    assert text.count("👑") == 1 and text.index("ann") < text.index("bob")
    assert roles.held[ROLE] == {ANN.id} and roles.calls == [("give", ANN.id)]
    # A day with shares only: nobody is crowned, and the holder loses the role.
    await forge(services, BOB, f"Wordle {number + 1:,} 1/6\n🟩🟩🟩🟩🟩", NEXT)
    discord = await run(services, roles, "2026-03-03T06:00")
    [(_channel, digest)] = discord.posts
    assert [g.crowned for g in digest.games] == [[]] and "👑" not in digest_text(digest)
    assert roles.held[ROLE] == set() and BOB.id not in {p for _a, p in roles.calls}


async def play_kind(services, player: Player, day: date, variant: str, misses: int) -> None:
    """``variant``'s daily of ``day`` won after ``misses`` wrong guesses, played at noon."""
    clock = services.daily.clock
    services.daily.clock = lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    answer = services.daily.answer(variant, day)
    wrong = [w for w in get_variant(variant).answers.words[: misses + 1] if w != answer][:misses]
    assert (await services.games.start(player, GUILD, variant, daily=True)).ok
    for word in [*wrong, answer]:
        assert (await services.games.guess(player, GUILD, word, kind=f"{variant}:daily")).ok
    services.daily.clock = clock


async def test_one_crown_a_day_the_servers_wordle_never_a_lone_player_elsewhere(
    services,
) -> None:
    """Issue 38, point 9. Think like a cheater: 33 dailies, most played by nobody here. DAN
    plays Italian 4 letters alone, each day, and would be crowned there whatever his score.
    The crown (👑 and the role) is one a server a day: the best game of the server's own
    Wordle (its /settings server language and length; English five by default)."""
    roles = Roles()
    await play_kind(services, DAN, DAY, "wordle-it-4", 5)  # 6/6, alone
    await play(services, ANN, DAY, 2)  # 3/6 on the server's Wordle
    [(_channel, digest)] = (await run(services, roles, "2026-03-02T06:00")).posts
    assert [(g.kind, [m.name for m in g.crowned]) for g in digest.games] == [
        ("wordle:daily", ["ann"]), ("wordle-it-4:daily", [])]  # fmt: skip
    assert digest_text(digest).count("👑") == 1 and "👑 3/6: ann" in digest_text(digest)
    assert roles.held[ROLE] == {ANN.id}
    # The next day DAN wins Italian 4 in one, alone, and nobody plays the server's Wordle:
    # nobody wins, and yesterday's winner loses the role.
    await play_kind(services, DAN, NEXT, "wordle-it-4", 0)
    [(_channel, digest)] = (await run(services, roles, "2026-03-03T06:00")).posts
    assert [g.crowned for g in digest.games] == [[]] and "👑" not in digest_text(digest)
    assert roles.held[ROLE] == set() and DAN.id not in {p for _a, p in roles.calls}
    # A server whose Wordle is Italian 4 letters crowns that daily, and no other.
    settings = await services.storage.guild_settings(GUILD)
    await services.storage.save_guild_settings(
        dataclasses.replace(settings, language="it", word_length=4)
    )
    third = NEXT + timedelta(days=1)
    await play_kind(services, DAN, third, "wordle-it-4", 5)
    await play(services, ANN, third, 0)
    [(_channel, digest)] = (await run(services, roles, "2026-03-04T06:00")).posts
    assert [(g.kind, [m.name for m in g.crowned]) for g in digest.games] == [
        ("wordle:daily", []), ("wordle-it-4:daily", ["dan"])]  # fmt: skip
    assert roles.held[ROLE] == {DAN.id}


async def test_an_imported_share_never_takes_the_crown(services) -> None:
    """Issue 38, point 9: a result read from a message (here the Wordle app's recap, as
    "Record results" and /import read it), not a game played with the bot, takes neither 👑
    nor the role, even when it is the day's best on the server's Wordle, or the only one."""
    roles = Roles()
    recap = ("**Your group is on a 3 day streak!** 🔥 Here are yesterday's results:\n"
             "👑 1/6: <@2>\nX/6: <@3>")  # fmt: skip
    await record_app_results(services.storage, GUILD, recap, NEXT, [(2, "bob"), (3, "cat")])
    await play(services, ANN, DAY, 2)
    [(_channel, digest)] = (await run(services, roles, "2026-03-02T06:00")).posts
    wordle, shared = digest.games
    assert [m.name for m in wordle.crowned] == ["ann"] and shared.shared and not shared.crowned
    text = digest_text(digest)
    assert "\n👑 3/6: ann\n" in text and "\n1/6: bob\n" in text and text.count("👑") == 1
    assert roles.held[ROLE] == {ANN.id}
    # A day of imported shares only: nobody wins.
    await record_app_results(services.storage, GUILD, recap, NEXT + timedelta(days=1),
                             [(2, "bob"), (3, "cat")])  # fmt: skip
    [(_channel, digest)] = (await run(services, roles, "2026-03-03T06:00")).posts
    assert [g.crowned for g in digest.games] == [[]] and "👑" not in digest_text(digest)
    assert roles.held[ROLE] == set() and BOB.id not in {p for _a, p in roles.calls}


async def test_the_role_is_never_given_before_the_day_is_over(services) -> None:
    """Think like a cheater: finishing first must not show in the roles while others can
    still play the day (in the latest zone where its puzzle runs, and its settle minutes)."""
    roles = Roles()
    await play(services, ANN, DAY, 0)
    for now in ("2026-03-01T12:30", "2026-03-01T23:59", "2026-03-02T00:03"):
        await run(services, roles, now)
        assert roles.calls == [], now
    await run(services, roles, "2026-03-02T00:06")
    assert roles.calls == [("give", ANN.id)]


async def test_two_runners_and_a_restart_move_the_role_once(shared_url, opened) -> None:
    first = await opened(shared_url, at("2026-03-02T06:00"))
    second = await opened(shared_url, at("2026-03-02T06:00"))
    await first.storage.digests.set_channel(GUILD, CHANNEL, 9)
    await first.storage.winner_roles.set_role(GUILD, ROLE)
    await play(first, ANN, DAY, 1)
    roles = Roles()
    await asyncio.gather(*(s.digests.run_due(Discord().post, Discord().warn, door=roles,
                                             say=roles.say) for s in (first, second)))  # fmt: skip
    assert roles.calls == [("give", ANN.id)]
    for services in (first, second):
        await services.close()
    restarted = await opened(shared_url, at("2026-03-03T06:00"))  # the next day, elsewhere
    await play(restarted, BOB, NEXT, 1)
    await run(restarted, roles, "2026-03-03T06:00")
    assert roles.calls[1:] == [("take", ANN.id), ("give", BOB.id)]
    await restarted.close()


async def test_a_deleted_player_is_not_given_the_role_and_their_record_goes(services) -> None:
    roles = Roles()
    await play(services, ANN, DAY, 1)
    await run(services, roles, "2026-03-02T06:00")
    assert [h.player_id for h in await services.storage.winner_roles.holders(GUILD)] == [ANN.id]
    exported = await services.storage.export_player(ANN.id)
    assert exported["winner_roles"] == [{"guild_id": GUILD, "role_id": ROLE,
                                         "day": DAY.isoformat()}]  # fmt: skip
    assert await services.storage.delete_player(ANN.id)
    assert await services.storage.winner_roles.holders(GUILD) == []
    # A winner whose data is deleted before the role is given (between the digest's reads and
    # the role's change) is not recorded, so not given it.
    assert not await services.storage.winner_roles.giving(GUILD, ANN.id, ROLE, NEXT.isoformat())
    await play(services, BOB, NEXT, 1)
    await run(services, roles, "2026-03-03T06:00")
    assert roles.calls == [("give", ANN.id), ("give", BOB.id)]  # nothing of ANN's left to take
    assert [h.player_id for h in await services.storage.winner_roles.holders(GUILD)] == [BOB.id]


async def test_a_winner_who_left_is_skipped(services) -> None:
    roles = Roles()
    await play(services, ANN, DAY, 1)
    await play(services, BOB, DAY, 1)
    roles.departed.add(ANN.id)
    posted = await run(services, roles, "2026-03-02T06:00")
    assert len(posted.posts) == 1 and roles.calls == [("give", BOB.id)] and roles.said == []
    assert [h.player_id for h in await services.storage.winner_roles.holders(GUILD)] == [BOB.id]


async def test_a_role_the_bot_cannot_give_is_said_once_and_the_digest_still_posts(
    services,
) -> None:
    roles = Roles()
    roles.cannot = "manage_roles"
    await play(services, ANN, DAY, 1)
    assert len((await run(services, roles, "2026-03-02T06:00")).posts) == 1
    await play(services, BOB, NEXT, 1)
    assert len((await run(services, roles, "2026-03-03T06:00")).posts) == 1
    assert roles.calls == [] and len(roles.said) == 1  # said once, not at each digest
    assert "needs the Manage Roles permission" in roles.said[0]
    # Discord refuses though the cache saw no problem: said plainly too, nothing recorded.
    roles.cannot, roles.refuse = None, True
    await play(services, CAT, date(2026, 3, 3), 1)
    assert len((await run(services, roles, "2026-03-04T06:00")).posts) == 1
    assert roles.said[1].startswith("Discord refused to give the winner's role")
    assert await services.storage.winner_roles.holders(GUILD) == []
    roles.refuse = False  # fixed: it works again, and a later problem would be said again
    await play(services, ANN, date(2026, 3, 4), 1)
    await run(services, roles, "2026-03-05T06:00")
    assert roles.held[ROLE] == {ANN.id}
    assert await services.storage.winner_roles.problem(GUILD) is None


async def test_no_role_takes_it_back_at_the_next_digest(services) -> None:
    roles = Roles()
    await play(services, ANN, DAY, 1)
    await run(services, roles, "2026-03-02T06:00")
    await services.storage.winner_roles.set_role(GUILD, None)
    await play(services, BOB, NEXT, 1)
    await run(services, roles, "2026-03-03T06:00")
    assert roles.calls == [("give", ANN.id), ("take", ANN.id)]
    assert await services.storage.winner_roles.holders(GUILD) == []


async def test_a_winner_who_deletes_their_data_loses_the_role_at_once(services) -> None:
    """Think like a cheater: win, then delete your data before the next digest, whose record
    of you is gone with it. The deletion takes the role back at once (Discord's door)."""
    roles = Roles()
    await play(services, ANN, DAY, 1)
    await play(services, BOB, DAY, 1)
    await run(services, roles, "2026-03-02T06:00")
    assert roles.held[ROLE] == {ANN.id, BOB.id}
    assert await services.delete_player(ANN.id, door=roles)
    assert roles.held[ROLE] == {BOB.id} and roles.calls[-1] == ("take", ANN.id)
    assert [h.player_id for h in await services.storage.winner_roles.holders(GUILD)] == [BOB.id]
    await play(services, CAT, NEXT, 1)
    await run(services, roles, "2026-03-03T06:00")
    assert roles.held[ROLE] == {CAT.id}


async def test_a_deletion_while_the_role_is_being_given_still_takes_it_back(services) -> None:
    """The winner deletes their data between the digest's record and Discord's change: the
    deletion saw the record and took back nothing yet given; the digest, finding its record
    gone once the role is given, takes it back itself."""
    roles = Roles()
    give = roles.give

    async def deleted_meanwhile(guild_id: int, player_id: int, role_id: int) -> None:
        assert await services.delete_player(player_id, door=roles)
        await give(guild_id, player_id, role_id)

    roles.give = deleted_meanwhile  # type: ignore[method-assign]
    await play(services, ANN, DAY, 1)
    await run(services, roles, "2026-03-02T06:00")
    assert roles.held[ROLE] == set()
    assert roles.calls == [("take", ANN.id), ("give", ANN.id), ("take", ANN.id)]
    assert await services.storage.winner_roles.holders(GUILD) == []


async def test_digest_off_and_no_role_take_the_role_back_at_once(services) -> None:
    """No digest would take it back once it is off (or there is no role): the command does,
    from those the bot gave it to alone, and says so; a refusal is said and kept on record
    for the next try."""
    roles = Roles()
    roles.held[ROLE] = {CAT.id}  # an admin's doing
    await play(services, ANN, DAY, 1)
    await play(services, BOB, DAY, 1)
    await run(services, roles, "2026-03-02T06:00")
    admin = Caller(Player(9, "admin"), GUILD, CHANNEL, guild_id=GUILD, manages_server=True)
    roles.cannot = "manage_roles"
    refused = await run_command(services, admin, "digest off", door=roles)
    assert "could not take the winner's role back" in refused.text
    assert roles.held[ROLE] == {ANN.id, BOB.id, CAT.id} and len(roles.calls) == 2
    roles.cannot = None
    done = await run_command(services, admin, "digest off", door=roles)
    assert done.text == ("The daily digest is off. The bot took the winner's role back from "
                         "2 members it had given it to.")  # fmt: skip
    assert roles.held[ROLE] == {CAT.id} and await services.storage.winner_roles.holders(GUILD) == []
    # On again, a winner; then no role: taken back at once too.
    await run_command(services, admin, "digest channel")
    await play(services, BOB, NEXT, 1)
    await run(services, roles, "2026-03-03T06:00")
    assert roles.held[ROLE] == {BOB.id, CAT.id}
    done = await run_command(services, admin, "digest role", door=roles)
    assert done.text == ("No winner's role. The bot took the winner's role back from 1 member it "
                         "had given it to.")  # fmt: skip
    assert roles.held[ROLE] == {CAT.id}


async def test_a_role_given_while_a_deletion_waits_to_begin_is_taken_back(
    shared_url, opened
) -> None:
    """The winner deletes their data in one process while another's digest crowns them: the
    deletion waits behind a move of theirs (their lock) while the digest records the role,
    gives it and finds its record still there. The deletion then takes it back from what its
    own transaction read (a read before it, as once done, saw no record: the role stayed)."""
    deleting = await opened(shared_url, at("2026-03-02T06:00"))
    crowning = await opened(shared_url, at("2026-03-02T06:00"))
    await crowning.storage.digests.set_channel(GUILD, CHANNEL, 9)
    await crowning.storage.winner_roles.set_role(GUILD, ROLE)
    await play(crowning, ANN, DAY, 1)
    roles = Roles()
    locks = deleting.games._locks

    async def deletion_waits() -> bool:
        return locks._locks[ANN.id][1] == 2  # the move's hold, and the deletion's

    async with locks.hold(ANN.id):  # a move of theirs being played
        deletion = asyncio.create_task(deleting.delete_player(ANN.id, door=roles))
        await until(deletion_waits)
        assert len((await run(crowning, roles, "2026-03-02T06:00")).posts) == 1
        assert roles.held[ROLE] == {ANN.id} and not deletion.done()
    assert await deletion
    assert roles.held[ROLE] == set() and roles.calls == [("give", ANN.id), ("take", ANN.id)]
    assert await crowning.storage.winner_roles.holders(GUILD) == []


async def test_a_winner_being_deleted_is_not_recorded_nor_given_the_role(
    postgres_url, opened
) -> None:
    """PostgreSQL, where a deletion's transaction runs beside others (SQLite's holds the one
    write lock whole): the digest records the role while the deletion holds the player's
    row. Recording waits for that row, finds it gone and gives nothing; the other winner is
    crowned as ever (recorded without the row's lock, the insert failed on its foreign key
    once the row was gone, and that stopped the crowning of everyone after)."""
    services = await opened(postgres_url, at("2026-03-02T06:00"))
    await services.storage.digests.set_channel(GUILD, CHANNEL, 9)
    await services.storage.winner_roles.set_role(GUILD, ROLE)
    await play(services, ANN, DAY, 1)
    await play(services, BOB, DAY, 1)
    roles, at_roles, go = Roles(), asyncio.Event(), asyncio.Event()
    problem = roles.problem

    async def paused(guild_id: int, role_id: int) -> str | None:
        at_roles.set()  # the digest is about to record and give: it waits for the deletion
        await go.wait()
        return await problem(guild_id, role_id)

    roles.problem = paused  # type: ignore[method-assign]
    digest = asyncio.create_task(run(services, roles, "2026-03-02T06:00"))
    await at_roles.wait()
    gate, watch = await asyncpg.connect(postgres_url), await asyncpg.connect(postgres_url)
    try:  # (watched from outside the gate's transaction, which keeps one view of activity)
        waiting = ("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                   "AND wait_event_type = 'Lock'")  # fmt: skip
        async with gate.transaction():
            # Held until released: the deletion, once it holds the player's row, waits here
            # (within the lock timeout, 1.5 s: the steps below take milliseconds).
            await gate.execute("LOCK TABLE forgotten IN SHARE MODE")
            deletion = asyncio.create_task(services.delete_player(ANN.id, door=roles))
            await until(lambda: watch.fetchval(waiting), 1)
            go.set()
            await until(lambda: watch.fetchval(waiting), 2)  # recording ANN's waits
            assert roles.calls == [] and not deletion.done()
        assert await deletion
        assert len((await digest).posts) == 1
    finally:
        await gate.close()
        await watch.close()
    assert roles.held[ROLE] == {BOB.id} and roles.calls == [("give", BOB.id)]
    assert [h.player_id for h in await services.storage.winner_roles.holders(GUILD)] == [BOB.id]


async def until(read, expected: object = True, timeout: float = 10.0) -> None:
    """Until ``await read()`` equals ``expected`` (polled), or the test fails."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (value := await read()) != expected:
        if loop.time() > deadline:
            pytest.fail(f"{value!r}, not {expected!r}, after {timeout} s")
        await asyncio.sleep(0.01)
