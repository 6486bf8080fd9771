"""End to end against Discord's own API description: the real `wordlebot run` process talks to
the stand-in, which checks every body against the description (any mismatch is a violation
and fails the test), keeps message state as Discord does, and plays Discord's harder parts:
rate limits and server errors, the gateway sending the bot away, interactions from DMs and
group DMs, other locales, members without Manage Server."""

import asyncio
import sqlite3
from datetime import UTC, date, datetime

import aiohttp
import pytest
import pytest_asyncio
from bot_process import (
    APP_ELSEWHERE,
    BOT_DM,
    GUILDS,
    MEMBER,
    PRIVATE_CHANNEL,
    RUNNING,
    BotProcess,
    an_opener_leaving_several,
    click,
    command,
    kill_running,
    started,
    submit,
)
from discord.utils import time_snowflake
from discord_messages import EPHEMERAL, LOADING, Messages, forwarded, member_message
from discord_server import APP_ID, DiscordServer
from discord_spec import problems

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
GUILD_SYNC = "PUT /applications/{application_id}/guilds/{guild_id}/commands"


# The module's tests share one event loop, so that the tests with a ``bot`` share one stand-in
# and one bot process (starting one costs seconds); each of those tests plays as players of
# its own, and finds the stand-in's log, posts and faults empty.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory):
    """The stand-in and the bot process the tests with ``bot`` share, and its database."""
    s = DiscordServer(GUILDS)
    await s.start()
    database = str(tmp_path_factory.mktemp("conformance") / "bot.sqlite3")
    process = BotProcess(s, database)
    try:
        await started(s, process)
        yield s, process, database
        code, err = await process.stop()
        assert code == 0, err[-2000:]
    finally:
        process.kill()  # (a no-op once stopped)
        await s.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def server(request):
    """Discord's stand-in: the shared one for a test with ``bot`` (its log, posts and faults
    emptied first), else one of the test's own. The test fails if the bot sent it anything
    Discord's API description refuses."""
    if "bot" in request.fixturenames:
        s, _, _ = request.getfixturevalue("shared")
        s.log.clear(), s.posts.clear(), s.faults.clear(), s.violations.clear()
        yield s
    else:
        s = DiscordServer(GUILDS)
        await s.start()
        before = list(RUNNING)
        yield s
        kill_running(keep=before)  # a failed test's bot: the stand-in would wait on it
        await s.stop()
    assert s.violations == [], s.violations


@pytest.fixture
def bot(shared):
    return shared[1]


@pytest.fixture
def database(shared) -> str:
    """The shared bot's database (a SQLite file)."""
    return shared[2]


def rows(database: str, player: int) -> int:
    import json

    states = sqlite3.connect(database).execute(
        "SELECT state FROM games WHERE player_id = ?", (player,)).fetchall()  # fmt: skip
    return sum(len(json.loads(state)["rows"]) for (state,) in states)


def retried(server: DiscordServer, operation: str, status: int) -> float:
    """Seconds from the first ``status`` answer on ``operation`` to the success after it."""
    failed = next(t for t, op, code in server.log if op == operation and code == status)
    done = next(t for t, op, code in server.log if op == operation and code < 300 and t > failed)
    return done - failed


# -- the stand-in itself: what it refuses and keeps, as Discord does --------------------


async def test_the_stand_in_answers_and_refuses_as_discord_does(server):
    """Without the bot: the stand-in's answers carry the rate-limit headers and validate
    against the description (its self-check), a second callback is refused (40060), a
    follow-up past the token's lifetime is refused (50027), and each refusal is a violation."""
    payload = command("wordle", "practice", user_id=1)
    interaction = server.issue(payload)
    base = f"{server.api_base}/interactions/{interaction}/{payload['token']}/callback"
    hook = f"{server.api_base}/webhooks/{APP_ID}/{payload['token']}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.api_base}/gateway/bot") as answer:
            assert answer.status == 200
            limits = ("Limit", "Remaining", "Reset", "Reset-After", "Bucket")
            assert {f"X-RateLimit-{h}" for h in limits} <= set(answer.headers)
        first = {"type": 4, "data": {"content": "hi", "flags": EPHEMERAL}}
        async with http.post(base, json=first, params={"with_response": "true"}) as answer:
            body = await answer.json()
            assert answer.status == 200 and body["resource"]["message"]["flags"] == EPHEMERAL
            assert body["interaction"]["type"] == 2
        async with http.post(base, json=first) as answer:
            assert answer.status == 400 and (await answer.json())["code"] == 40060
        server.token_lifetime = 0.0  # the token is past its lifetime (15 minutes in Discord)
        async with http.post(hook, json={"content": "late"}) as answer:
            assert answer.status == 401 and (await answer.json())["code"] == 50027
        async with http.post(hook, json={"content": "x" * 2001}) as answer:
            assert answer.status == 401
    assert any("answered twice" in v for v in server.violations)
    assert any("15 minutes" in v for v in server.violations)
    assert any("content: fails maxLength 2000" in v for v in server.violations)
    assert not any("the stand-in's answer" in v for v in server.violations)
    server.violations.clear()


async def test_an_edit_merges_as_discord_does():
    """A PATCH keeps what it leaves out (the buttons), ``attachments`` lists what stays."""
    store = Messages()
    buttons = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Guess",
                                            "custom_id": "g"}]}]  # fmt: skip
    board = store.create({"content": "board", "components": buttons,
                          "attachments": [{"id": 0, "filename": "board.png"}]},
                         [("files[0]", "board.png", 10)], channel_id="1")  # fmt: skip
    [old] = board["attachments"]
    store.merge(board, {"content": "solved"}, [])
    assert board["components"][0]["components"][0]["custom_id"] == "g"  # kept
    assert board["attachments"] == [old]
    store.merge(board, {"components": [], "attachments": [{"id": 0, "description": "Row 1"}]},
                [("files[0]", "board.png", 12)])  # fmt: skip
    [new] = board["attachments"]
    assert board["components"] == [] and new["id"] != old["id"] and new["description"] == "Row 1"
    store.merge(board, {"attachments": [{"id": new["id"]}]}, [])
    assert board["attachments"] == [new]
    store.merge(board, {"flags": EPHEMERAL}, [])
    assert not board["flags"] & EPHEMERAL  # visibility is chosen when a message is made
    assert problems("PATCH /channels/{channel_id}/messages/{message_id}", board, 200) == []


# -- the command tree against the description -----------------------------------------


async def test_the_whole_command_tree_validates_against_discords_description():
    """What `wordlebot sync` PUTs (discord.py's ``to_dict`` of every command, as ``tree.sync``
    sends it) against the bulk-overwrite request of Discord's description, global and guild;
    and the same check refuses a command Discord would refuse."""
    from bot.discord_bot import WordleBot
    from bot.settings import load_settings

    seed = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-spec"
    bot = WordleBot(load_settings(database_path=":memory:", daily_seed=seed), warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    finally:
        await bot.close()
    assert len(payload) > 20
    for operation in ("PUT /applications/{application_id}/commands", GUILD_SYNC):
        assert problems(operation, payload) == [], operation
    wordle = next(c for c in payload if c["name"] == "wordle")
    for broken in (
        {**wordle, "name": "w" * 33},
        {**wordle, "description": "d" * 101},
        {**wordle, "options": [{**wordle["options"][0], "type": 12}]},
        {**wordle, "contexts": [7]},
        {
            **wordle,
            "options": [
                {
                    "type": 3,
                    "name": "x",
                    "description": "x",
                    "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                }
            ],
        },
    ):
        assert problems(GUILD_SYNC, [broken]) != [], broken


# -- message state through the real bot ---------------------------------------------


async def test_a_board_keeps_its_state_as_discord_shows_it(server, bot, database):
    """Played through the button and the form to the end: the board message, as Discord
    keeps it, shows the finished game and no buttons left to press; a hint's ephemeral
    deferral is answered privately in place of its "thinking..."."""
    board = await server.interact(command("wordle", "practice", user_id=41))
    message = server.message(board)
    assert message is not None and message["attachments"][0]["filename"] == "board.png"
    hint = await server.interact(command("hint", user_id=41), settle=True)
    answer = server.message(hint)
    assert hint.kind == 5 and answer is not None
    assert answer["flags"] & EPHEMERAL and not answer["flags"] & LOADING
    assert "possible" in answer["content"]
    import json

    [(state,)] = sqlite3.connect(database).execute(
        "SELECT state FROM games WHERE player_id = 41").fetchall()  # fmt: skip
    answer_word = json.loads(state)["answer"]
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = await server.interact(click(guess, user_id=41, on=message))
    assert modal.kind == 9
    won = await server.interact(submit(modal.data, answer_word, user_id=41, on=message))
    assert won.an_update and won.message_id == message["id"]
    shown = server.store.by_id[message["id"]]
    assert "Solved in 1/6!" in json.dumps(shown["embeds"])
    left = [c.get("custom_id", "") for row in shown["components"] for c in row["components"]]
    assert not [i for i in left if ":guess:" in i or ":hint:" in i or ":giveup:" in i], left


# -- rate limits and server errors ----------------------------------------------------


async def test_a_guess_rate_limited_on_its_callback_waits_and_lands_once(server, bot, database):
    """A 429 on the callback (per route, retry_after 0.4 s): the bot waits, retries, and the
    guess is answered inside the 3 seconds (the stand-in's check) and stored once."""
    await server.interact(command("wordle", "practice", user_id=42))
    server.fail(CALLBACK, 429, retry_after=0.4)
    reply = await server.interact(command("guess", user_id=42, word="crane"))
    assert reply.a_new_message and "CRANE" in reply.text() and reply.latency < 3.0
    assert retried(server, CALLBACK, 429) >= 0.4
    second = await server.interact(command("guess", user_id=42, word="slate"))
    assert "SLATE" in second.text()
    assert rows(database, 42) == 2  # CRANE once, SLATE once


async def test_a_hint_answer_survives_a_429_and_a_503(server, bot):
    """The edit of the deferral that carries a hint meets a 429 (retry_after 0.3 s), then, on
    the next hint, a 503: discord.py's webhook client waits and sends again; each answer
    lands once."""
    await server.interact(command("wordle", "practice", user_id=43))
    server.fail(EDIT_ORIGINAL, 429, retry_after=0.3)
    hint = await server.interact(command("hint", user_id=43), settle=True)
    assert "possible" in hint.text() and retried(server, EDIT_ORIGINAL, 429) >= 0.3
    server.fail(EDIT_ORIGINAL, 503)
    again = await server.interact(command("hint", user_id=43), settle=True, timeout=15)
    assert "possible" in again.text() and len(again.edits) == 1
    assert retried(server, EDIT_ORIGINAL, 503) >= 1.0  # discord.py's back-off after a 5xx


async def test_a_global_rate_limit_on_sync_is_waited_out(server, tmp_path):
    """A global 429 (X-RateLimit-Global) on the dev guild's command sync at start: the bot
    holds every request for retry_after, then syncs once."""
    server.fail(GUILD_SYNC, 429, retry_after=0.6, is_global=True)
    process = BotProcess(server, str(tmp_path / "bot.sqlite3"))
    await started(server, process)
    for _ in range(100):
        if server.synced:
            break
        await asyncio.sleep(0.05)
    assert len(server.synced) == 1 and retried(server, GUILD_SYNC, 429) >= 0.6
    reply = await server.interact(command("wordle", "practice", user_id=44))
    assert reply.a_new_message and "Guess 1 of 6" in reply.text()
    code, err = await process.stop()
    assert code == 0, err[-2000:]


# -- the gateway sends the bot away ---------------------------------------------------


async def wait_for(condition, timeout: float = 30.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_reconnect_and_invalid_sessions(server, bot):
    """RECONNECT (op 7) and a resumable INVALID_SESSION: the bot resumes its session; a
    session invalidated for good: it identifies afresh. A game goes on across all three."""
    await server.interact(command("wordle", "practice", user_id=45))
    resumes, identifies = server.resumes, len(server.identifies)
    await server.reconnect()
    await asyncio.wait_for(server.resumed.wait(), 30)
    assert "CRANE" in (await server.interact(command("guess", user_id=45, word="crane"))).text()
    await server.invalidate(resumable=True)
    await asyncio.wait_for(server.resumed.wait(), 30)
    assert server.resumes == resumes + 2 and len(server.identifies) == identifies
    await server.invalidate(resumable=False)
    await wait_for(lambda: len(server.identifies) == identifies + 1 and 0 in server.connected())
    assert "SLATE" in (await server.interact(command("guess", user_id=45, word="slate"))).text()


async def test_close_4014_mid_session_ends_with_one_clear_line(server, tmp_path):
    """Discord closes a live session with 4014 (an intent the portal does not allow): the
    process ends, naming the switch to turn on, without a traceback."""
    process = BotProcess(server, str(tmp_path / "bot.sqlite3"), message_content_intent="true")
    await started(server, process)
    server.refuse_identify = 4014
    await server.close_gateway(4014)
    try:
        returncode = await asyncio.wait_for(asyncio.to_thread(process.process.wait), 60)
    finally:
        _, err = await process.stop()
    assert returncode == 1 and "Traceback" not in err and "MESSAGE_CONTENT_INTENT" in err


async def test_a_forwarded_share_counts_for_its_forwarder_through_the_gateway(server, tmp_path):
    """A share forwarded into a share channel arrives as Discord sends a forward (its text
    in ``message_snapshots`` alone): the real process records it for the forwarder, on the
    forward's day, and nothing for the share's author."""
    database = str(tmp_path / "bot.sqlite3")
    process = BotProcess(server, database, message_content_intent="true")
    try:
        await started(server, process)
        enabled = await server.interact(command("sharechannel", user_id=50, enabled=True))
        assert "record" in enabled.text(), enabled.text()
        now = datetime.now(UTC)
        number = (now.date() - date(2021, 6, 19)).days
        grid = "\n".join(["⬛🟨⬛⬛⬛", "🟩🟩🟩🟩🟩"])
        original = member_message(f"Wordle {number:,} 2/6\n{grid}", channel_id=GUILDS[1] + 1,
                                  author_id=51, guild_id=GUILDS[1])  # fmt: skip
        forward = forwarded(original, channel_id=GUILDS[0] + 1, author_id=52,
                            guild_id=GUILDS[0])  # fmt: skip
        forward["id"] = str(time_snowflake(now))  # posted now, as its id says
        await server.deliver_message(forward)

        def recorded() -> list[tuple]:
            return sqlite3.connect(database).execute(
                "SELECT player_id, puzzle, day FROM share_results").fetchall()  # fmt: skip

        await wait_for(lambda: recorded() != [])
        assert recorded() == [(52, number, now.date().isoformat())]
    finally:
        await process.stop()


# -- where interactions come from -----------------------------------------------------


@pytest.mark.parametrize("context", [BOT_DM, PRIVATE_CHANNEL])
async def test_a_game_and_a_hint_in_a_dm_or_group_dm(server, bot, database, context):
    """Through a user install, in the bot's DM or a group DM where the bot is no member (no
    guild, ``user`` not ``member``): a game, a guess and a hint, every answer an interaction
    response or follow-up, never a channel message."""
    where = {"context": context}
    board = await server.interact(command("wordle", "practice", user_id=46, guild=None,
                                          where=where))  # fmt: skip
    assert board.a_new_message and "Wordle" in board.text(), board.text()
    opener = an_opener_leaving_several(database, 46)
    guessed = await server.interact(command("guess", user_id=46, guild=None, word=opener,
                                            where=where))  # fmt: skip
    assert opener.upper() in guessed.text()
    hint = await server.interact(command("hint", user_id=46, guild=None, where=where),
                                 settle=True)  # fmt: skip
    assert "possible" in hint.text()
    assert server.posts == []  # nothing through the channel: only interaction answers


UNINSTALLED = 930000000000000200  # a server that never added the bot (used by a user install)


def in_a_server_without_the_bot(payload: dict, user_id: int) -> dict:
    """A global command from a server that never installed the app, through the player's
    user install: a guild, but only the user as authorising owner, and no member's bot."""
    payload["data"].pop("guild_id", None)
    channel = str(UNINSTALLED + 1)
    payload.update({"guild_id": str(UNINSTALLED), "channel_id": channel, "context": 0,
                    "authorizing_integration_owners": {"1": str(user_id)},
                    "app_permissions": str(APP_ELSEWHERE),
                    "channel": payload["channel"] | {"id": channel,
                                                     "guild_id": str(UNINSTALLED)}})  # fmt: skip
    return payload


async def test_a_guide_discord_refused_comes_with_the_next_command(server, bot):
    """A newcomer's first command, in a server that never installed the bot: Discord refuses
    the guide's follow-up (there, an interaction gets 5 at most). The guide is not lost: the
    next command brings it."""
    guide = "A short guide, shown only this once"
    server.fail("POST /webhooks/{webhook_id}/{webhook_token}", 400)
    first = await server.interact(in_a_server_without_the_bot(
        command("wordle", "practice", user_id=51), 51))  # fmt: skip
    assert first.a_new_message and "Guess 1 of 6" in first.text(), first.text()
    await wait_for(lambda: "first-game guide was not sent" in bot.logged())  # (then kept)
    assert first.followups == []
    second = await server.interact(in_a_server_without_the_bot(
        command("streak", user_id=51), 51), followups=1)  # fmt: skip
    [said] = second.followups  # (before this change: none, the mark taken, the guide lost)
    assert guide in said["content"] and said["flags"] & EPHEMERAL
    assert server.posts == []


async def test_other_locales_play_the_same(server, bot):
    where = {"locale": "ja"}
    board = await server.interact(command("wordle", "practice", user_id=47, where=where))
    assert board.a_new_message and board.answer_files == ["board.png"]
    reply = await server.interact(command("guess", user_id=47, word="crane",
                                          where={"locale": "pt-BR"}))  # fmt: skip
    assert "CRANE" in reply.text()


async def test_a_member_without_manage_server_is_refused_privately(server, bot):
    """A server may let anyone see /digest (Discord's command permissions are the server's
    to change); the bot still checks Manage Server itself and answers privately."""
    refused = await server.interact(command("digest", "channel", user_id=48,
                                            where={"permissions": MEMBER}))  # fmt: skip
    assert refused.private and "Manage Server" in refused.text(), refused.text()
    allowed = await server.interact(command("digest", "channel", user_id=49))
    assert allowed.private and f"<#{GUILDS[0] + 1}>" in allowed.text()


async def test_a_global_sync_keeps_the_activitys_entry_point(server, tmp_path):
    """Activities turned on, Discord made the window's launcher (an Entry Point command):
    `wordlebot sync` publishes every command and carries the launcher along, as it stands,
    where a bulk overwrite that left it out would be refused whole."""
    from bot_process import TOKEN

    from bot.discord_bot import sync_commands
    from bot.settings import load_settings

    launch = server.enable_activities()
    settings = load_settings(discord_token=TOKEN, discord_api_base=server.api_base,
                             database_path=str(tmp_path / "bot.sqlite3"),
                             daily_seed="7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-sync")  # fmt: skip
    assert await sync_commands(settings) == 0
    published = server.commands[f"/api/v10/applications/{APP_ID}/commands"]
    assert [(c["id"], c["name"], c["handler"]) for c in published if c["type"] == 4] == [
        (launch["id"], "launch", 2)
    ]
    assert {"wordle", "guess", "hint"} <= {c["name"] for c in published}
