"""End to end, the winner's role (issue 32): the real `wordlebot run` process against the
Discord stand-in, which keeps each member's roles and refuses a change as Discord does (403
Missing Permissions without Manage Roles or above the bot's highest role)."""

import asyncio
import sqlite3
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from bot_process import ALL, GUILDS, SEED, BotProcess, command, started
from discord.utils import time_snowflake
from discord_gateway import ADMINISTRATOR, MANAGE_ROLES
from discord_messages import member_message
from discord_server import DiscordServer

from bot.services.daily import DailyPuzzles

GUILD = GUILDS[0]
CHANNEL = GUILD + 1
BOT_ROLE, WINNERS, MODERATORS, HELPERS, REGULARS = (GUILD + n for n in range(10, 15))
# (see default_roles)
ADMIN = 20
FAST = {"digest_delay_seconds": "0.2", "jobs_interval_seconds": "0.1"}
ANSWERS = DailyPuzzles(SEED, ZoneInfo("UTC"))


def set_role(
    server: DiscordServer,
    role: int | None,
    *,
    user_id: int = ADMIN,
    roles: Sequence[int] = (MODERATORS,),
    permissions: int = ALL,
) -> dict[str, Any]:
    """/digest role, with the role option resolved as Discord sends it, by a member with
    ``roles`` (an admin: moderators, above the winners) and ``permissions``."""
    where = {"roles": roles, "permissions": permissions}
    payload = command("digest", "role", user_id=user_id, where=where)
    if role is not None:
        [resolved] = [r for r in server.roles_of(GUILD) if r["id"] == str(role)]
        payload["data"]["options"][0]["options"] = [{"name": "role", "type": 8,
                                                     "value": str(role)}]  # fmt: skip
        payload["data"]["resolved"] = {"roles": {str(role): resolved}}
    return payload


async def play(server: DiscordServer, user_id: int, day: date, misses: int) -> None:
    assert (await server.interact(command("wordle", "daily", user_id=user_id))).a_new_message
    for word in [*("aahed", "zymic")[:misses], ANSWERS.answer("wordle", day)]:
        reply = await server.interact(command("guess", user_id=user_id, word=word))
        assert reply.a_new_message and not reply.private, reply.text()


def shares(database: str) -> list[tuple[int, int]]:
    """(player, guesses) of the shares recorded, read from the bot's database."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT player_id, guesses FROM share_results").fetchall()


async def until(condition: Any, what: str, timeout: float = 60) -> None:
    """Wait for ``condition()`` to hold (polled: the bot's jobs run every 0.1 s)."""
    for _ in range(int(timeout * 20)):
        if condition():
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"never: {what}")


async def test_the_winners_role_moves_with_each_digest_across_restarts(server, tmp_path):
    """A role above the bot's is refused when it is chosen; the digest of 1 March gives the
    role to its winner, and only once the day is over; after a restart the next digest takes
    it back from her (not from a member an admin gave it to) and gives it to the new winner
    (one who left the server is skipped). With Manage Roles taken from the bot, the next
    digest still posts, and the channel is told plainly why the role did not move. A
    forged 1/6 share posted in a share channel is listed, never crowned nor given the role;
    /mydata delete and /digest off take it back at once."""
    database = str(tmp_path / "bot.sqlite3")
    server.member_roles[(GUILD, 30)] = {WINNERS}  # given by an admin: never the bot's to take

    noon = BotProcess(server, database, clock_start="2026-03-01T12:00:00+00:00",
                      message_content_intent="true", **FAST)  # fmt: skip
    await started(server, noon)
    assert (await server.interact(command("digest", "channel", user_id=ADMIN))).private
    above = await server.interact(set_role(server, MODERATORS, user_id=1))  # the owner
    assert above.private and "not below the bot's highest role" in above.text()
    assert "Drag the bot's role above it" in above.text()
    managed = await server.interact(set_role(server, BOT_ROLE))
    assert "belongs to an integration" in managed.text()
    chosen = await server.interact(set_role(server, WINNERS))
    assert chosen.private and f"<@&{WINNERS}> goes to each day's winners" in chosen.text()
    await play(server, 21, date(2026, 3, 1), 0)
    await play(server, 22, date(2026, 3, 1), 1)
    await server.interact(command("sharechannel", user_id=ADMIN, enabled=True))
    posted = datetime(2026, 3, 1, 12, 30, tzinfo=UTC)  # anyone can type a perfect share
    forged = member_message(f"Wordle {(posted.date() - date(2021, 6, 19)).days:,} 1/6\n\n"
                            "🟩🟩🟩🟩🟩", channel_id=CHANNEL, author_id=23, guild_id=GUILD,
                            id=str(time_snowflake(posted)))  # fmt: skip
    await server.deliver_message(forged)
    await until(lambda: shares(database) == [(23, 1)], "the forged share recorded")
    assert server.holders(GUILD, WINNERS) == {30}  # 1 March is still being played
    assert (await noon.stop())[0] == 0

    server.identified.clear()
    midnight = BotProcess(server, database, clock_start="2026-03-01T23:59:58+00:00", **FAST)
    await started(server, midnight)
    await until(lambda: server.holders(GUILD, WINNERS) == {21, 30}, "the role given to 21")
    [(where, body, _files)] = server.posts
    text = body["content"]
    assert where == CHANNEL and "👑 1/6: <@21>\n2/6: <@22>" in text
    assert text.index("they win nothing\n1/6: <@23>") > text.index("2/6: <@22>")  # apart
    # 21 deletes her data, and with it the record of her role: it is taken back at once.
    deleted = await server.interact(command("mydata", "delete", user_id=21, confirm="DELETE"))
    assert deleted.private and "Deleted your games" in deleted.text()
    assert server.holders(GUILD, WINNERS) == {30}
    await play(server, 22, date(2026, 3, 2), 0)
    await play(server, 24, date(2026, 3, 2), 0)
    server.departed.add((GUILD, 24))  # won, then left the server
    assert (await midnight.stop())[0] == 0

    server.identified.clear()
    next_day = BotProcess(server, database, clock_start="2026-03-03T00:10:00+00:00", **FAST)
    await started(server, next_day)
    await until(lambda: len(server.posts) == 2, "the digest of 2 March")
    await until(lambda: server.holders(GUILD, WINNERS) == {22, 30}, "the role moved to 22")
    assert "👑 1/6: <@22> <@24>" in server.posts[1][1]["content"]
    await play(server, 21, date(2026, 3, 3), 0)
    [bot_role] = [r for r in server.roles_of(GUILD) if r["id"] == str(BOT_ROLE)]
    allowed = int(bot_role["permissions"])
    await server.set_role_permissions(GUILD, BOT_ROLE, 0)  # an admin takes Manage Roles away
    assert (await next_day.stop())[0] == 0

    server.identified.clear()
    later = BotProcess(server, database, clock_start="2026-03-04T00:10:00+00:00", **FAST)
    await started(server, later)
    await until(lambda: len(server.posts) == 4, "the digest of 3 March, and a word on the role")
    digest, note = server.posts[2][1], server.posts[3][1]
    assert "👑 1/6: <@21>" in digest["content"] and server.posts[3][0] == CHANNEL
    assert note["content"].startswith("The bot cannot give the winner's role: it needs the "
                                      "Manage Roles permission.")  # fmt: skip
    assert server.holders(GUILD, WINNERS) == {22, 30}  # nothing moved, nothing refused
    # /digest off: no digest would take the role back, so it is taken at once, or the admin
    # is told why not.
    off = await server.interact(command("digest", "off", user_id=ADMIN))
    assert off.private and "could not take the winner's role back" in off.text()
    assert server.holders(GUILD, WINNERS) == {22, 30}
    await server.set_role_permissions(GUILD, BOT_ROLE, allowed)
    off = await server.interact(command("digest", "off", user_id=ADMIN))
    assert off.answer["content"] == ("The daily digest is off. The bot took the winner's role "
                                   "back from 1 member it had given it to.")  # fmt: skip
    assert server.holders(GUILD, WINNERS) == {30}
    code, err = await later.stop()
    assert code == 0, err[-2000:]


async def test_the_role_is_one_its_chooser_could_give_by_hand(server, tmp_path):
    """The bot gives no more than who chose the role could: Discord lets a member give a role
    by hand only with Manage Roles and below their own highest role (the server's owner: any
    role). Else a member with Manage Server alone could name a role they may not give (a
    moderator's) the winner's role, and win it; nothing is stored for a refused role."""
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"))
    await started(server, bot)
    mine = "You cannot give that role yourself"
    without = ALL & ~ADMINISTRATOR & ~MANAGE_ROLES  # Manage Server, not Manage Roles
    refused = await server.interact(set_role(server, WINNERS, roles=(), permissions=without))
    assert refused.private and mine in refused.text(), refused.text()
    # a role above it, and Manage Roles in this channel only (an overwrite: there the bit is
    # Manage Permissions, which gives no role)
    overwrite = await server.interact(set_role(server, WINNERS, roles=(REGULARS,),
                                               permissions=ALL))  # fmt: skip
    assert overwrite.private and mine in overwrite.text(), overwrite.text()
    low = await server.interact(set_role(server, WINNERS, roles=(HELPERS,)))  # below it
    assert low.private and mine in low.text(), low.text()
    unset = await server.interact(set_role(server, None, roles=()))  # no role: nothing to give
    assert "No winner's role" in unset.text()
    owner = await server.interact(set_role(server, WINNERS, user_id=1, roles=()))
    assert f"<@&{WINNERS}> goes to each day's winners" in owner.text()
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_a_refusal_the_bot_could_not_foresee_is_said_and_the_digest_still_posts(
    server, tmp_path
):
    """Manage Roles is taken away and the bot is not told yet (its cache lags): Discord
    answers the role change 403 Missing Permissions, and the bot says so in the channel."""
    database = str(tmp_path / "bot.sqlite3")
    noon = BotProcess(server, database, clock_start="2026-03-01T12:00:00+00:00", **FAST)
    await started(server, noon)
    assert (await server.interact(command("digest", "channel", user_id=ADMIN))).private
    assert "goes to each day's winners" in (await server.interact(set_role(server, WINNERS))).text()
    await play(server, 21, date(2026, 3, 1), 0)
    await server.set_role_permissions(GUILD, BOT_ROLE, 0, tell=False)
    assert (await noon.stop())[0] == 0

    server.identified.clear()
    midnight = BotProcess(server, database, clock_start="2026-03-01T23:59:58+00:00", **FAST)
    await started(server, midnight)
    await until(lambda: len(server.posts) == 2, "the digest, and a word on the role")
    assert "👑 1/6: <@21>" in server.posts[0][1]["content"]
    assert server.posts[1][1]["content"].startswith("Discord refused to give the winner's role")
    assert ("PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}", 403) in [
        (operation, status) for _at, operation, status in server.log]  # fmt: skip
    assert server.holders(GUILD, WINNERS) == set()
    code, err = await midnight.stop()
    assert code == 0, err[-2000:]
