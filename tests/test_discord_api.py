"""Discord's current API (issue 29, points 12 and 13): what the bot sends, and what the
stand-in refuses as Discord does. Each refusal is shown twice: a request Discord would
refuse gets Discord's error from the stand-in (called directly, as a broken bot would), and
the bot itself never earns it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from bot_process import GUILDS, BotProcess, an_opener_leaving_several, command, started
from discord_double import only
from discord_messages import EPHEMERAL, forwarded, member_message
from discord_server import APP_ID, DiscordServer
from discord_spec import problems

from bot.discord_bot import WordleBot
from bot.settings import load_settings

CHANNEL = GUILDS[0] + 1  # the channel bot_process's interactions come from
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
EMBED_LINKS, ATTACH_FILES = 1 << 14, 1 << 15


@pytest.fixture
async def stand_in() -> AsyncIterator[DiscordServer]:
    """A stand-in called directly (no bot): its violations are what a test looks at."""
    server = DiscordServer(GUILDS)
    await server.start()
    yield server
    await server.stop()


async def call(server: DiscordServer, method: str, path: str, body: Any,
               file: bool = False) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """One request as a bot makes it: JSON, or multipart with one file beside the JSON."""
    headers = {"Authorization": "Bot e2e-token"}
    async with aiohttp.ClientSession() as session:
        if file:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            form.add_field("files[0]", b"\x89PNG", filename="board.png")
            sent = session.request(method, server.api_base + path, data=form, headers=headers)
        else:
            sent = session.request(method, server.api_base + path, json=body, headers=headers)
        async with sent as response:
            return response.status, (await response.json() if response.status != 204 else {})


def issued(server: DiscordServer, **changes: Any) -> dict[str, Any]:
    """An interaction (/wordle practice in the first guild) the stand-in knows it sent."""
    payload = command("wordle", "practice", user_id=5) | changes
    server.issue(payload)
    return payload


async def respond(server: DiscordServer, payload: dict[str, Any], kind: int,
                  data: dict[str, Any] | None = None,
                  file: bool = False) -> tuple[int, Any]:  # fmt: skip
    path = f"/interactions/{payload['id']}/{payload['token']}/callback"
    return await call(server, "POST", path, {"type": kind, "data": data or {}}, file)


# -- 12: deferred answers, forms, commands, intents ---------------------------------------


async def test_a_deferred_answer_edits_the_original_response(double) -> None:
    """/hint defers ("thinking...", privately) and then edits that response; no follow-up
    stands beside it (discord.py's followup.send was the old way)."""
    await double.command("wordle", "practice", user_id=5)
    hint = only(await double.command("hint", user_id=5))  # the deferral and its answer, read as one
    assert hint.kind == 5 and (hint.method, hint.path) == ("PATCH", ORIGINAL)
    assert hint.ephemeral and "possible" in hint.text


async def test_the_guess_form_puts_its_field_in_a_label(double) -> None:
    """Component type 18 around the text input (an ActionRow around it is deprecated), and a
    form opened by an older version (an ActionRow) still plays when submitted."""
    board = (await double.command("wordle", "practice", user_id=5))[0]
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    [form] = await double.click(guess, user_id=5, on=board)
    [label] = form.data["components"]
    assert label["type"] == 18 and label["component"]["type"] == 4
    assert label["label"] == "Your 5-letter guess"
    old = {**form.data, "components": [{"type": 1, "components": [label["component"]]}]}
    form.body["data"] = old
    [updated] = await double.submit(form, {"word": "crane"}, user_id=5)
    assert updated.an_update and "CRANE" in updated.text


async def test_a_form_in_an_action_row_is_flagged_by_the_stand_in(stand_in) -> None:
    payload = issued(stand_in, type=3, data={"custom_id": "x", "component_type": 2},
                     message=member_message("", channel_id=CHANNEL, author_id=APP_ID))  # fmt: skip
    row = {"type": 1, "components": [{"type": 4, "custom_id": "w", "style": 1, "label": "Word"}]}
    await respond(stand_in, payload, 9, {"custom_id": "f", "title": "Guess", "components": [row]})
    assert any("ActionRow (deprecated)" in v for v in stand_in.violations)


async def test_the_published_commands_carry_contexts_and_no_dm_permission() -> None:
    bot = WordleBot(load_settings(database_path=":memory:"), warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        payload = await bot.tree.sync_payload()
    finally:
        await bot.close()
    assert len(payload) > 20
    assert all("contexts" in c and "dm_permission" not in c for c in payload)
    assert problems("PUT /applications/{application_id}/commands", payload) == []


async def test_the_stand_in_flags_dm_permission_beside_contexts(stand_in) -> None:
    command = {"name": "wordle", "description": "Play", "type": 1, "contexts": [0],
               "dm_permission": False}  # fmt: skip
    status, _ = await call(stand_in, "PUT", f"/applications/{APP_ID}/commands", [command])
    assert status == 200 and any("dm_permission" in v for v in stand_in.violations)


def test_the_intents_are_the_least_the_features_need() -> None:
    """Servers and their channels, and server messages for share channels; their text (the
    privileged message content) only when MESSAGE_CONTENT_INTENT is set."""
    from bot.discord_bot import needed_intents

    off = needed_intents(load_settings(database_path=":memory:"))
    on = needed_intents(load_settings(database_path=":memory:", message_content_intent=True))
    assert off == discord.Intents(guilds=True, guild_messages=True)
    assert on == discord.Intents(guilds=True, guild_messages=True, message_content=True)


# -- 13: what the stand-in refuses, as Discord does ---------------------------------------


async def test_a_channel_message_over_2000_characters_is_refused(stand_in) -> None:
    path = f"/channels/{CHANNEL}/messages"
    assert (await call(stand_in, "POST", path, {"content": "x" * 2000}))[0] == 200
    status, error = await call(stand_in, "POST", path, {"content": "x" * 2001})
    assert (status, error["code"]) == (400, 50035)
    assert any("2001 characters" in v for v in stand_in.violations)


@pytest.mark.parametrize(
    ("denied", "body", "file", "code"),
    [
        ("view_channel", {"content": "hi"}, False, 50001),
        ("send_messages", {"content": "hi"}, False, 50013),
        ("attach_files", {"content": "a board"}, True, 50013),
        ("embed_links", {"embeds": [{"description": "a board"}]}, False, 50013),
    ],
)
async def test_posting_without_a_permission_is_forbidden(
    stand_in, denied: str, body: dict[str, Any], file: bool, code: int
) -> None:
    stand_in.deny(CHANNEL, denied)
    status, error = await call(stand_in, "POST", f"/channels/{CHANNEL}/messages", body, file)
    assert (status, error["code"]) == (403, code)
    assert len(stand_in.violations) == 1
    if denied in ("attach_files", "embed_links"):  # plain text still goes
        assert (await call(stand_in, "POST", f"/channels/{CHANNEL}/messages",
                           {"content": "text"}))[0] == 200  # fmt: skip


async def test_an_answer_needs_the_interactions_app_permissions(stand_in) -> None:
    """The channel's permissions reach the bot as the interaction's ``app_permissions``; an
    answer with an embed or a file they lack is refused (403, 50013)."""
    stand_in.deny(CHANNEL, "embed_links", "attach_files")
    payload = issued(stand_in)
    assert not int(payload["app_permissions"]) & (EMBED_LINKS | ATTACH_FILES)
    embed = {"embeds": [{"description": "a board"}]}
    status, error = await respond(stand_in, payload, 4, embed)
    assert (status, error["code"]) == (403, 50013)
    status, error = await respond(stand_in, payload, 4, {"content": "a board"}, file=True)
    assert (status, error["code"]) == (403, 50013)
    assert (await respond(stand_in, payload, 4, {"content": "a board"}))[0] == 204


async def test_where_only_a_user_installed_the_app_five_follow_ups_and_no_channel_post(
    stand_in,
) -> None:
    payload = issued(stand_in, authorizing_integration_owners={"1": "5"})
    assert (await respond(stand_in, payload, 5))[0] == 204
    path = f"/webhooks/{APP_ID}/{payload['token']}"
    for n in range(5):
        assert (await call(stand_in, "POST", path, {"content": f"note {n}"}))[0] == 200
    status, error = await call(stand_in, "POST", path, {"content": "one too many"})
    assert (status, error["code"]) == (400, 40094)
    status, error = await call(stand_in, "POST", f"/channels/{CHANNEL}/messages",
                               {"content": "hi"})  # fmt: skip
    assert (status, error["code"]) == (403, 50001)
    installed = issued(stand_in, channel_id=str(CHANNEL + 1))  # the server installed it
    assert (await respond(stand_in, installed, 5))[0] == 204
    path = f"/webhooks/{APP_ID}/{installed['token']}"
    for n in range(6):
        assert (await call(stand_in, "POST", path, {"content": f"note {n}"}))[0] == 200


async def test_a_forwarded_message_parses_in_discord_py(double) -> None:
    """The stand-in's forward (``message_snapshots``) is what Discord describes and what
    discord.py reads: the original's text in the snapshot, the forward's own text empty."""
    original = member_message("Wordle 1,234 3/6", channel_id=7, author_id=8, guild_id=9)
    forward = forwarded(original, channel_id=10, author_id=5, guild_id=9)
    # Discord's OpenAPI description knows message_reference type 0 alone; its docs add
    # 1, FORWARD (Message Reference Types). Everything else is as described.
    known_gap = "message_reference/type: 1 is not one of [0]"
    spec = problems("POST /channels/{channel_id}/messages", forward, 200)
    assert all(known_gap in p for p in spec), spec
    assert problems("POST /channels/{channel_id}/messages", forward | {"message_reference": {
        **forward["message_reference"], "type": 0}}, 200) == []  # fmt: skip
    state = double.bot._connection
    channel = discord.PartialMessageable(state=state, id=10)
    message = discord.Message(state=state, channel=channel, data=forward)  # type: ignore[arg-type]
    assert message.content == "" and message.flags.forwarded
    assert message.reference is not None
    assert message.reference.type is discord.MessageReferenceType.forward
    assert [s.content for s in message.message_snapshots] == ["Wordle 1,234 3/6"]


# -- the bot, against those refusals ------------------------------------------------------


async def test_the_bot_answers_in_text_where_it_may_not_embed_or_attach(server, tmp_path) -> None:
    """In a channel without Embed Links and Attach Files the board comes as text (its emoji
    rows), with no embed and no file: the stand-in refuses neither (the ``server`` fixture
    fails the test on any violation), and the game plays on."""
    server.deny(CHANNEL, "embed_links", "attach_files")
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"))
    try:
        await started(server, bot)
        board = await server.interact(command("wordle", "practice", user_id=5))
        assert board.a_new_message and not board.answer_files and not board.answer.get("embeds")
        assert "Guess 1 of 6" in board.text()
        opener = an_opener_leaving_several(str(tmp_path / "bot.sqlite3"), 5)
        guessed = await server.interact(command("guess", user_id=5, word=opener), settle=True)
        assert opener.upper() in guessed.text() and not guessed.answer_files
        hint = await server.interact(command("hint", user_id=5), settle=True)
        assert hint.kind == 5 and hint.flags & EPHEMERAL and "possible" in hint.text()
    finally:
        code, err = await bot.stop()
    assert code == 0, err[-2000:]
