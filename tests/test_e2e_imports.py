"""/import (issue 32, point 2) through the Discord stand-in and the real `wordlebot run`
process: a share channel's history, served with Discord's pagination, counted for the day
each message was posted; a second run counts nothing twice; a kill in the middle and a
restart end where an uninterrupted import ends; what live posting refuses, the import
refuses; admins only, a day in range, a share channel."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from bot_process import GUILDS, MEMBER, BotProcess, command, started
from discord_messages import EPHEMERAL, forwarded, past_message, user

from bot.services.imports import LEASE
from engine.app_results import WORDLE_APP_ID

pytestmark = pytest.mark.asyncio(loop_scope="function")

TODAY = datetime.now(UTC).date()
EPOCH = date(2021, 6, 19)  # NYT Wordle #0
ADMIN = 70
HISTORY = "GET /channels/{channel_id}/messages"
CHECKPOINT = ("status", "messages_read", "counted", "already", "refused", "not_shares")


def wordle(day: date, guesses: int = 3, shift: int = 0) -> str:
    rows = ["⬛🟨⬛⬛⬛"] * (guesses - 1) + ["🟩🟩🟩🟩🟩"]
    return f"Wordle {(day - EPOCH).days + shift:,} {guesses}/6\n" + "\n".join(rows)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), UTC)


def long_history(guild: int, authors: int) -> list[dict[str, Any]]:
    """30 days of 10 players' Wordle shares, and a chat line a day: 330 messages, 4 pages."""
    messages = []
    for back in range(35, 5, -1):
        day = TODAY - timedelta(days=back)
        for k in range(10):
            messages.append(past_message(wordle(day, 2 + (k + back) % 5), channel_id=guild + 1,
                                         author_id=authors + k, at=at(day, 12, k)))  # fmt: skip
        messages.append(past_message("gg everyone", channel_id=guild + 1, author_id=authors + 10,
                                     at=at(day, 13)))  # fmt: skip
    return messages


def checkpoint(database: str, guild: int) -> dict[str, Any] | None:
    with sqlite3.connect(database) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM share_imports WHERE guild_id = ? AND channel_id = ?",
                         (guild, guild + 1)).fetchone()  # fmt: skip
    return None if row is None else dict(row)


def boards(database: str, guild: int, authors: int) -> dict[str, list[tuple]]:
    """A server's boards and counted shares, players named by their place among ``authors``."""
    queries = {
        "standings": "SELECT player_id - ?, kind, played, wins, win_guesses FROM standings "
                     "WHERE scope = ? ORDER BY 1, 2",
        "periods": "SELECT player_id - ?, kind, period, played, wins, win_guesses FROM "
                   "period_standings WHERE scope = ? ORDER BY 1, 2, 3",
        "shares": "SELECT player_id - ?, game, puzzle, won, guesses, day, counted FROM "
                  "share_results WHERE scope = ? ORDER BY 1, 2, 3",
    }  # fmt: skip
    with sqlite3.connect(database) as db:
        return {name: db.execute(sql, (authors, guild)).fetchall() for name, sql in queries.items()}


async def wait_for(condition, timeout: float = 60.0) -> None:
    """Wait for a condition on the database or the stand-in (polled: the bot's work has no
    event the test can await)."""
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def share_channel(server, guild: int) -> None:
    reply = await server.interact(command("sharechannel", user_id=ADMIN, guild=guild,
                                          enabled=True))  # fmt: skip
    assert "record" in reply.text(), reply.text()


async def import_(server, guild: int, since: date | str, **where: Any):
    return await server.interact(command("import", user_id=ADMIN, guild=guild,
                                         since=str(since), where=where or None))  # fmt: skip


def done(database: str, guild: int, server=None) -> bool:
    """The import is over (and, given the stand-in, its summary shown)."""
    row = checkpoint(database, guild)
    over = row is not None and row["status"] == "done"
    return over and (server is None or any(
        "done" in m["content"] and m["id"] == str(row["progress_message_id"])
        for m in progress(server, guild)))  # fmt: skip


def progress(server, guild: int) -> list[dict[str, Any]]:
    """The import's progress messages in the server's channel, as they are now."""
    return [m for m in server.store.by_id.values()
            if m.get("channel_id") == str(guild + 1) and not m["flags"] & EPHEMERAL
            and "import" in (m.get("content") or "").lower()]  # fmt: skip


async def test_an_import_counts_each_share_for_its_day_once_and_survives_a_kill(server, tmp_path):
    """330 messages (4 pages of Discord's history): every share counts on the server's
    boards for the day it was posted, shown in one message edited to a summary; run again,
    nothing counts twice. The same history in a second server, the process killed (SIGKILL)
    while its third page is awaited and started again (its clock past the lease): the
    import carries on by itself, edits the same message, and ends with the same boards and
    the same counts as the uninterrupted one."""
    database = str(tmp_path / "bot.sqlite3")
    # Every board kept (RETENTION_DAYS=0): the restarted process's clock runs on, and the
    # history is 40 days long, past the default 30 after which ended days' boards go.
    keep = {"retention_days": "0"}
    first, second = GUILDS[0], GUILDS[1]
    server.seed(first + 1, long_history(first, 1000))
    server.seed(second + 1, long_history(second, 2000))
    since = TODAY - timedelta(days=40)
    process = BotProcess(server, database, message_content_intent="true", **keep)
    await started(server, process)
    for guild in (first, second):
        await share_channel(server, guild)

    said = await import_(server, first, since)
    assert said.private and "Importing" in said.text(), said.text()
    await wait_for(lambda: done(database, first, server))
    uninterrupted = checkpoint(database, first)
    assert uninterrupted is not None
    assert [uninterrupted[k] for k in CHECKPOINT] == ["done", 330, 300, 0, 0, 30]
    counted = boards(database, first, 1000)
    days = {k: sorted(row[5] for row in counted["shares"] if row[0] == k) for k in range(10)}
    posted = [(TODAY - timedelta(days=back)).isoformat() for back in range(35, 5, -1)]
    assert days == {k: posted for k in range(10)}  # each share on the day it was posted
    assert all(row[2] == 30 for row in counted["standings"]), counted["standings"]
    [shown] = progress(server, first)
    assert "done" in shown["content"] and "Messages read: 330" in shown["content"]
    assert "shares counted: 300" in shown["content"], shown["content"]
    assert server.dm_channels == {}  # history is counted, nobody told

    # Run again: everything read again, nothing counted twice.
    await import_(server, first, since)
    await wait_for(lambda: done(database, first, server)
                   and checkpoint(database, first)["messages_read"] == 330)  # fmt: skip
    again = checkpoint(database, first)
    assert [again[k] for k in CHECKPOINT] == ["done", 330, 0, 300, 0, 30]
    assert boards(database, first, 1000) == counted

    # The second server's import, killed while its third page is awaited.
    hold = server.hold(HISTORY, passes=2)
    await import_(server, second, since)
    await asyncio.wait_for(hold.held.wait(), 60)
    twice = await import_(server, second, since)  # a second click while it runs
    assert twice.private and "already running" in twice.text(), twice.text()
    middle = checkpoint(database, second)
    assert middle is not None and [middle[k] for k in CHECKPOINT[:2]] == ["running", 200]
    process.kill()
    server.holds.remove(hold)
    hold.release.set()

    server.identified.clear()
    later = datetime.now(UTC) + LEASE + timedelta(minutes=2)  # the killed owner's lease is over
    restarted = BotProcess(server, database, message_content_intent="true", **keep,
                           clock_start=later.isoformat(), jobs_interval_seconds="1")  # fmt: skip
    try:
        await started(server, restarted)
        await wait_for(lambda: done(database, second, server))
        resumed = checkpoint(database, second)
        assert resumed is not None
        assert [resumed[k] for k in CHECKPOINT] == [uninterrupted[k] for k in CHECKPOINT]
        assert boards(database, second, 2000) == counted
        [shown] = progress(server, second)  # the same message, edited by the new process
        assert int(shown["id"]) == resumed["progress_message_id"] and "done" in shown["content"]
    finally:
        await restarted.stop()


async def test_a_clean_stop_lets_the_import_go_and_a_restart_carries_it_on(server, tmp_path):
    """SIGTERM while a page is awaited: the process lets its import go as it stops, and the
    next one (its clock not moved) carries it on at once, to the same counts."""
    database = str(tmp_path / "bot.sqlite3")
    guild = GUILDS[0]
    server.seed(guild + 1, long_history(guild, 1000))
    process = BotProcess(server, database, message_content_intent="true")
    await started(server, process)
    await share_channel(server, guild)
    hold = server.hold(HISTORY, passes=1)
    await import_(server, guild, TODAY - timedelta(days=40))
    await asyncio.wait_for(hold.held.wait(), 60)
    returncode, _ = await process.stop()  # the stand-in answers meanwhile
    assert returncode == 0
    server.holds.remove(hold)
    hold.release.set()
    stopped = checkpoint(database, guild)
    assert stopped is not None and (stopped["status"], stopped["updated_at"]) == ("running", "")
    server.identified.clear()
    restarted = BotProcess(server, database, message_content_intent="true",
                           jobs_interval_seconds="1")  # fmt: skip
    try:
        await started(server, restarted)
        await wait_for(lambda: done(database, guild, server))
        row = checkpoint(database, guild)
        assert row is not None
        assert [row[k] for k in CHECKPOINT] == ["done", 330, 300, 0, 0, 30]
    finally:
        await restarted.stop()


def forged(guild: int, authors: int, serial: int) -> tuple[list[dict], list[dict]]:
    """Two rounds of messages that test the counting rules (a share of a later day, an
    impossible number, a second Primel that day, a forward, four shares in one message, a
    message edited on a later day, a bot's share, the same share twice, a correction)."""
    day = TODAY - timedelta(days=10)
    channel = guild + 1

    def post(k: int, text: str, when: datetime, **fields: Any) -> dict[str, Any]:
        return past_message(text, channel_id=channel, author_id=authors + k, at=when,
                            serial=serial, **fields)  # fmt: skip

    original = past_message(wordle(day, 4), channel_id=channel, author_id=authors + 50,
                            at=at(day, 8))  # fmt: skip
    forward = forwarded(original, channel_id=channel, author_id=authors + 4)
    forward |= {"id": post(4, "", at(day, 10, 4))["id"], "timestamp": at(day, 10, 4).isoformat()}
    four = "\n\n".join(wordle(day, 3, shift) for shift in (-1, 0, 1, 2))
    edited = post(6, wordle(day, 5), at(day - timedelta(days=3), 10, 6),
                  edited_timestamp=at(day, 9).isoformat())  # fmt: skip
    first = [
        post(1, wordle(day, 3, shift=5), at(day, 10, 1)),  # a later day's puzzle
        post(2, "Wordle 99,999 3/6\n⬛🟨⬛⬛⬛\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", at(day, 10, 2)),
        post(3, "Primel 100 2/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", at(day, 10, 3)),
        forward,
        post(5, four, at(day, 10, 5)),
        edited,
        post(7, wordle(day, 2), at(day, 10, 7), author=user(authors + 7, "robot", bot=True)),
        post(8, wordle(day, 3), at(day, 10, 8)),
        post(9, wordle(day, 4), at(day, 10, 9)),
        post(10, "nice one", at(day, 10, 10)),
    ]
    second = [
        post(3, "Primel 101 3/6\n⬛🟨⬛⬛⬛\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", at(day, 11, 3)),
        post(8, wordle(day, 3), at(day, 11, 8)),  # the same share again
        post(9, wordle(day, 3), at(day, 11, 9)),  # a correction, that day
    ]
    return first, second


async def test_an_import_counts_what_reading_the_channel_live_counted(server, tmp_path):
    """The same messages posted live in one server's share channel and imported from
    another's history: the same boards, the same shares, the same refusals (told privately
    live, only counted by the import)."""
    database = str(tmp_path / "bot.sqlite3")
    live, imported = GUILDS[0], GUILDS[1]
    process = BotProcess(server, database, message_content_intent="true")
    try:
        await started(server, process)
        for guild in (live, imported):
            await share_channel(server, guild)

        def told() -> int:
            return sum(channel in server.dm_channels for channel, _, _ in server.posts)

        def shares() -> list[tuple]:
            return boards(database, live, 3000)["shares"]

        first, second = forged(live, 3000, serial=1)
        for message in first:
            await server.deliver_message(message, guild_id=live)
        await wait_for(lambda: len(shares()) == 8 and told() == 3)
        for message in second:
            await server.deliver_message(message, guild_id=live)
        await wait_for(lambda: told() == 4 and (9, "wordle") in [r[:2] for r in shares()]
                       and [r[4] for r in shares() if r[0] == 9] == [3])  # fmt: skip

        past, later = forged(imported, 4000, serial=2)
        server.seed(imported + 1, past + later)
        server.fail(HISTORY, 429, retry_after=0.5)  # Discord says wait: the import waits
        await import_(server, imported, TODAY - timedelta(days=20))
        await wait_for(lambda: done(database, imported))
        row = checkpoint(database, imported)
        assert row is not None
        assert [row[k] for k in CHECKPOINT] == ["done", 13, 9, 1, 4, 2]
        assert boards(database, imported, 4000) == boards(database, live, 3000)
        assert told() == 4  # the import told nobody
        statuses = [status for _, operation, status in server.log if operation == HISTORY]
        assert statuses == [429, 200]
    finally:
        await process.stop()


async def test_import_is_for_admins_a_day_in_range_and_a_share_channel(server, tmp_path):
    """Refused, privately, with what to do: a member without Manage Server, a day to come, a
    day more than a year back, a day that is no date, a channel that is not a share channel.
    Nothing is claimed. Where the bot loses sight of the channel, the import ends there."""
    database = str(tmp_path / "bot.sqlite3")
    guild = GUILDS[0]
    process = BotProcess(server, database, message_content_intent="true")
    try:
        await started(server, process)
        not_shared = await import_(server, guild, TODAY)
        assert "not a share channel" in not_shared.text(), not_shared.text()
        await share_channel(server, guild)
        cases = {
            "Manage Server": await import_(server, guild, TODAY, permissions=MEMBER),
            "has not come yet": await import_(server, guild, TODAY + timedelta(days=1)),
            "366 days at most": await import_(server, guild, TODAY - timedelta(days=367)),
            "YYYY-MM-DD": await import_(server, guild, "last tuesday"),
        }
        for says, reply in cases.items():
            assert reply.private and says in reply.text(), (says, reply.text())
        assert checkpoint(database, guild) is None
        assert all(operation != HISTORY for _, operation, _ in server.log)  # nothing read

        # A channel the bot may not post in: no progress can show there, so the admin is told
        # privately; the import runs all the same.
        server.deny(guild + 1, "send_messages")
        unseen = await import_(server, guild, TODAY - timedelta(days=2))
        assert "Importing" in unseen.text(), unseen.text()
        await wait_for(lambda: any("will not show here" in f["content"]
                                   for f in unseen.followups))  # fmt: skip
        [note] = [f for f in unseen.followups if "will not show here" in f["content"]]
        assert int(note.get("flags") or 0) & EPHEMERAL, note
        await wait_for(lambda: done(database, guild))
        assert progress(server, guild) == []
        server.channel_permissions.pop(guild + 1)

        # View Channel taken while a page is awaited: Discord refuses the read, the import
        # ends there (its progress not shown: the bot may not post there either).
        server.deny(guild + 1, "send_messages")
        hold = server.hold(HISTORY)
        said = await import_(server, guild, TODAY - timedelta(days=3))
        assert "Importing" in said.text(), said.text()
        await asyncio.wait_for(hold.held.wait(), 60)
        server.deny(guild + 1, "view_channel")
        server.holds.remove(hold)
        hold.release.set()
        await wait_for(lambda: done(database, guild))
        assert [s for _, o, s in server.log if o == HISTORY][-1] == 403
    finally:
        await process.stop()


async def test_import_is_refused_where_the_bot_may_not_read_the_history(server, tmp_path):
    """Without Read Message History Discord serves a channel's history as empty, not as an
    error: old code then said the import was done, nothing read. The bot's permissions in
    the channel are checked first: the admin is told which one is missing, privately, and
    nothing is claimed or read; taken during the walk, the import ends saying so; once
    given, the import reads everything."""
    database = str(tmp_path / "bot.sqlite3")
    guild = GUILDS[0]
    server.seed(guild + 1, long_history(guild, 1000))
    process = BotProcess(server, database, message_content_intent="true")
    try:
        await started(server, process)
        await share_channel(server, guild)
        since = TODAY - timedelta(days=40)
        for taken, named in (("read_message_history", "Read Message History"),
                             ("view_channel", "View Channel")):  # fmt: skip
            server.deny(guild + 1, taken)
            refused = await import_(server, guild, since)
            assert refused.flags & EPHEMERAL and named in refused.text(), refused.text()
            assert "Nothing was started" in refused.text(), refused.text()
            assert checkpoint(database, guild) is None
            assert all(operation != HISTORY for _, operation, _ in server.log)
            server.channel_permissions.pop(guild + 1)
        # Read Message History taken while a page is awaited: Discord serves that page empty
        # (200), as the end of a history would be; the bot reads the channel again and ends
        # the import saying why, not "done" with nothing read.
        hold = server.hold(HISTORY)
        said = await import_(server, guild, since)
        assert "Importing" in said.text(), said.text()
        await asyncio.wait_for(hold.held.wait(), 60)
        server.deny(guild + 1, "read_message_history")
        server.holds.remove(hold)
        hold.release.set()
        await wait_for(lambda: any("may not read" in m["content"]
                                   for m in progress(server, guild)))  # fmt: skip
        assert not any("done" in m["content"] for m in progress(server, guild))
        server.channel_permissions.pop(guild + 1)
        said = await import_(server, guild, since)
        assert "Importing" in said.text(), said.text()
        await wait_for(lambda: done(database, guild, server))
        row = checkpoint(database, guild)
        assert row is not None and [row[k] for k in CHECKPOINT] == ["done", 330, 300, 0, 0, 30]
    finally:
        await process.stop()


async def test_the_stand_in_serves_history_as_discord_does(server):
    """Get Channel Messages: without Read Message History an empty page (200), without View
    Channel 403 Missing Access (50001)."""
    import aiohttp

    channel = GUILDS[0] + 1
    server.seed(channel, long_history(GUILDS[0], 1000)[:5])
    url = f"{server.api_base}/channels/{channel}/messages?limit=10"
    async with aiohttp.ClientSession() as session:

        async def read() -> tuple[int, Any]:
            async with session.get(url, headers={"Authorization": "Bot x"}) as response:
                return response.status, await response.json()

        status, page = await read()
        assert status == 200 and len(page) == 5
        server.deny(channel, "read_message_history")
        assert await read() == (200, [])
        server.deny(channel, "view_channel")
        status, refusal = await read()
        assert status == 403 and refusal["code"] == 50001


async def test_a_players_deleted_shares_do_not_come_back_with_an_import(server, tmp_path, opened):
    """Pat's shares and the Wordle app's recap naming her count live; she deletes her data;
    the app's next recap, of the day she deleted on, counts nothing for her, live or read
    again; an admin then imports the channel's history: nothing of hers comes back (boards, /stats,
    /leaderboard, her export), the import names nobody (her shares are among those refused),
    and an old message of hers Discord sends again unedited counts nothing. A share she posts
    after deleting counts: she came back and played."""
    database = str(tmp_path / "bot.sqlite3")
    guild, pat, quinn = GUILDS[0], 5000, 5001
    channel = guild + 1

    def post(author: dict[str, Any], text: str, when: datetime) -> dict[str, Any]:
        return past_message(text, channel_id=channel, author_id=int(author["id"]), at=when,
                            author=author)  # fmt: skip

    people = {pat: user(pat, "pat"), quinn: user(quinn, "quinn")}
    days = [TODAY - timedelta(days=back) for back in (5, 4, 3)]
    history = [post(people[k], wordle(day, 2 + k - pat), at(day, 12, k - pat))
               for day in days for k in people]  # fmt: skip
    recap = f"Here are yesterday's results:\n👑 3/6: <@{pat}> <@{quinn}>"
    history.append(post(user(WORDLE_APP_ID, "Wordle", bot=True), recap,
                        at(TODAY - timedelta(days=1), 8)))  # fmt: skip
    server.seed(channel, history)
    process = BotProcess(server, database, message_content_intent="true")
    try:
        await started(server, process)
        await share_channel(server, guild)
        for message in history:  # read live first
            await server.deliver_message(message, guild_id=guild)
        await wait_for(lambda: len(boards(database, guild, 0)["shares"]) == 8)
        counted = boards(database, guild, 0)
        assert {row[0] for row in counted["standings"]} == {pat, quinn}

        gone = await server.interact(command("mydata", "delete", user_id=pat, guild=guild,
                                             confirm="DELETE"))  # fmt: skip
        assert "Deleted" in gone.text(), gone.text()
        quinns = {name: [r for r in rows if r[0] == quinn] for name, rows in counted.items()}
        assert boards(database, guild, 0) == quinns
        # The app's recap of yesterday, posted after she deleted: her line reports a game
        # played before that, so it counts nothing for her; Quinn's counts.
        late = post(user(WORDLE_APP_ID, "Wordle", bot=True), recap, datetime.now(UTC))
        server.seed(channel, [late])
        await server.deliver_message(late, guild_id=guild)
        await wait_for(lambda: len(boards(database, guild, 0)["shares"]) == 5)
        quinns = boards(database, guild, 0)
        assert {r[0] for rows in quinns.values() for r in rows} == {quinn}

        await import_(server, guild, TODAY - timedelta(days=10))
        await wait_for(lambda: done(database, guild, server))
        row = checkpoint(database, guild)
        assert row is not None  # her 3 shares and her lines of the recaps: refused, unnamed
        assert [row[k] for k in CHECKPOINT] == ["done", 8, 0, 5, 5, 0]
        assert boards(database, guild, 0) == quinns
        [shown] = progress(server, guild)
        assert "pat" not in shown["content"] and str(pat) not in shown["content"]
        stats = await server.interact(command("stats", user_id=quinn, guild=guild))
        assert "Wordle" in stats.text(), stats.text()
        board = await server.interact(
            command("leaderboard", user_id=quinn, guild=guild, shares=True)
        )  # the shares' own board
        assert "quinn" in board.text() and "pat" not in board.text(), board.text()
        own = await server.interact(command("stats", user_id=pat, guild=guild))
        stranger = await server.interact(command("stats", user_id=9999, guild=guild))
        figures = own.text().split("```")[1]  # the stats block (a first-use guide may follow)
        assert figures == stranger.text().split("```")[1].replace("9999", str(pat))  # a stranger
        assert "Played: 0" in figures or "0 of" in figures, figures

        # Discord sends an old message of hers again, unedited (an embed resolved): nothing;
        # then she posts a share, after deleting: it counts, for her, on today's board.
        await server.deliver_message(history[0], event="MESSAGE_UPDATE", guild_id=guild)
        now = datetime.now(UTC)
        await server.deliver_message(post(people[pat], wordle(now.date()), now), guild_id=guild)
        await wait_for(lambda: any(r[0] == pat for r in boards(database, guild, 0)["shares"]))
        hers = [r for r in boards(database, guild, 0)["shares"] if r[0] == pat]
        assert [r[2] for r in hers] == [(now.date() - EPOCH).days]
        assert server.dm_channels == {}  # nobody was told anything
    finally:
        await process.stop()
    services = await opened(database)
    exported = json.loads(await services.export_player(pat))
    assert [s["puzzle"] for s in exported["shares"]] == [(now.date() - EPOCH).days]


async def test_an_old_message_imported_later_leaves_a_correction_where_it_was(server, tmp_path):
    """A player posts Wordle #N as 3/6 in server A's share channel, then corrects it that
    day to 4/6 in server B's (the share moves to B). Later /import in A reads the old 3/6
    message: "already counted", and the share stays 4/6 on B's board, none on A's; so when
    Discord sends A's old message again."""
    database = str(tmp_path / "bot.sqlite3")
    first, second = GUILDS[0], GUILDS[1]
    player, day = 6000, TODAY - timedelta(days=10)
    old = past_message(wordle(day, 3), channel_id=first + 1, author_id=player, at=at(day, 9))
    fixed = past_message(wordle(day, 4), channel_id=second + 1, author_id=player,
                         at=at(day, 10))  # fmt: skip
    server.seed(first + 1, [old])
    server.seed(second + 1, [fixed])

    def shares(guild: int) -> list[tuple]:
        return boards(database, guild, player)["shares"]

    process = BotProcess(server, database, message_content_intent="true")
    try:
        await started(server, process)
        for guild in (first, second):
            await share_channel(server, guild)
        await server.deliver_message(old, guild_id=first)
        await wait_for(lambda: len(shares(first)) == 1)
        await server.deliver_message(fixed, guild_id=second)
        await wait_for(lambda: len(shares(second)) == 1)
        corrected = {guild: boards(database, guild, player) for guild in (first, second)}
        assert corrected[first]["shares"] == [] and [r[4] for r in shares(second)] == [4]
        assert [r[2:5] for r in corrected[second]["standings"]] == [(1, 1, 4)]

        await import_(server, first, day - timedelta(days=1))
        await wait_for(lambda: done(database, first, server))
        row = checkpoint(database, first)
        assert row is not None
        assert [row[k] for k in CHECKPOINT] == ["done", 1, 0, 1, 0, 0]  # already counted
        assert {guild: boards(database, guild, player) for guild in (first, second)} == corrected

        # Discord sends the old message again, unedited; then a share of today, counted.
        await server.deliver_message(old, event="MESSAGE_UPDATE", guild_id=first)
        now = datetime.now(UTC)
        today = past_message(wordle(now.date(), 5), channel_id=first + 1, author_id=player,
                             at=now)  # fmt: skip
        await server.deliver_message(today, guild_id=first)
        await wait_for(lambda: len(shares(first)) == 1)
        assert [r[2] for r in shares(first)] == [(now.date() - EPOCH).days]
        assert boards(database, second, player) == corrected[second]
        assert server.dm_channels == {}  # nothing refused, nobody told
    finally:
        await process.stop()
