"""Discord's client stand-in (tests/discord_client.py) speaks the Embedded App SDK's protocol
as the real SDK expects it: a tiny Activity made of the SDK from npm (tests/browser/
sdk_activity.js, bundled here by esbuild from tests/browser/node_modules, so the version
tested is the one package-lock.json pins and nothing is fetched at test time) runs in Debian's
Chromium inside the stand-in's page, and each of its steps resolves with the right data:
ready, authorize, the code's exchange, authenticate (a forged token refused), the locale, the
participants, and an update of them the test makes. Without the browser or npm's packages the
tests fail, saying what to install."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from discord_client import (
    FRAME,
    HANDSHAKE,
    LOCK,
    PARTICIPANTS_UPDATE,
    DiscordClient,
    Frame,
    Refusal,
)
from discord_messages import APP_ID
from discord_server import CLIENT_SECRET, DiscordServer
from web_browser import ROOT, launched_async

BROWSER = ROOT / "tests" / "browser"
ESBUILD = BROWSER / "node_modules" / ".bin" / "esbuild"
GUILD, CHANNEL = 830000000000000001, 830000000000000002
ANN, BOB, CAT = 831000000000000001, 831000000000000002, 831000000000000003
INSTANCE = "i-1300000000000000001-gc-830000000000000001-830000000000000002"


def bundle(folder: Path) -> Path:
    """The test Activity's script with the SDK in it (esbuild, ~0.1 s)."""
    if not ESBUILD.is_file():
        pytest.fail(f"No esbuild at {ESBUILD}: npm ci --prefix tests/browser (.ci/run does)",
                    pytrace=False)  # fmt: skip
    out = folder / "app.js"
    subprocess.run([str(ESBUILD), str(BROWSER / "sdk_activity.js"), "--bundle", "--format=iife",
                    f"--define:CLIENT_ID={json.dumps(str(APP_ID))}", f"--outfile={out}",
                    "--log-level=warning"], check=True)  # fmt: skip
    return out


async def served_activity(script: Path, discord: DiscordServer) -> tuple[web.AppRunner, str]:
    """The test Activity on a free port, with the server half every Activity has: the
    exchange of the SDK's code for an access token, with the client secret."""

    async def token(request: web.Request) -> web.Response:
        form = {"client_id": str(APP_ID), "client_secret": CLIENT_SECRET,
                "grant_type": "authorization_code", "code": await request.text()}  # fmt: skip
        async with aiohttp.ClientSession() as http:
            answer = await http.post(f"{discord.api_base}/oauth2/token", data=form)
            return web.json_response(await answer.json(), status=answer.status)

    async def page(request: web.Request) -> web.Response:
        html = '<!doctype html><html lang="en"><title>SDK</title><script src="app.js"></script>'
        return web.Response(text=html, content_type="text/html")

    async def app_js(request: web.Request) -> web.FileResponse:
        return web.FileResponse(script)

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/app.js", app_js)
    app.router.add_post("/token", token)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}/"


async def steps_when(activity: Any, frame: Frame, condition: str) -> dict[str, Any]:
    """The Activity's ``window.steps`` once ``condition`` holds of them (or a step failed).
    An answer the SDK's schemas refuse leaves its command pending, the refusal logged to the
    console, which the SDK forwards: the logs say why a step never came."""
    from playwright.async_api import TimeoutError as Timeout

    done = f"() => window.steps && (window.steps.error || ({condition}))"
    try:
        await activity.wait_for_function(done, timeout=15_000)
    except Timeout:
        pytest.fail(f"{condition}: never, the Activity's console said {frame.logs}")
    steps = await activity.evaluate("() => window.steps")
    assert "error" not in steps, steps["error"]
    return steps


async def test_the_real_sdk_runs_its_whole_start_against_the_stand_in(
    server: DiscordServer, discord_client: DiscordClient, tmp_path: Path
) -> None:
    runner, activity_url = await served_activity(bundle(tmp_path), server)
    discord_client.launch(INSTANCE, CHANNEL, {ANN: "ann", BOB: "bob"}, guild_id=GUILD)
    frame = discord_client.open(activity_url, INSTANCE, ANN, locale="fr")
    try:
        async with launched_async() as browser:
            page = await browser.new_page()
            assert (await page.goto(frame.url)).status == 200
            await discord_client.until(lambda: frame.sent("DISPATCH", "READY"))
            activity = await frame_at(page, activity_url)
            steps = await steps_when(activity, frame, "window.steps.subscribed")
            check_start(frame, steps)

            # Someone joins: the subscribed frame is told, as the SDK's event schema has it
            await discord_client.set_participants(INSTANCE, {ANN: "ann", BOB: "bob", CAT: "cat"})
            steps = await steps_when(activity, frame, "window.steps.updates.length === 1")
            assert steps["updates"] == [[str(ANN), str(BOB), str(CAT)]]
            assert server.instances[INSTANCE][2] == {ANN, BOB, CAT}  # the API knows it too

            # Once unsubscribed (the SDK's last listener gone), no more updates are sent
            await activity.evaluate("() => window.unsubscribe()")
            await discord_client.until(lambda: frame.sent("UNSUBSCRIBE"))
            await discord_client.set_participants(INSTANCE, {ANN: "ann"})
            assert len(frame.sent("DISPATCH", PARTICIPANTS_UPDATE)) == 1
            assert frame.logs == ["info: the activity is ready"]
    finally:
        await runner.cleanup()


async def frame_at(page: Any, url: str) -> Any:
    """The page's frame at ``url``: Playwright learns of a frame's navigation by an event of
    its own, which a loaded machine may bring after the frame has already spoken."""
    for _ in range(400):
        found = next((f for f in page.frames if f.url.startswith(url)), None)
        if found is not None:
            return found
        await asyncio.sleep(0.025)
    pytest.fail(f"no frame at {url}: {[f.url for f in page.frames]}")


def check_start(frame: Frame, steps: dict[str, Any]) -> None:
    """What the SDK read and got, and what crossed the frame's boundary, in order."""
    assert steps["query"] == {"instance": INSTANCE, "channel": str(CHANNEL),
                              "guild": str(GUILD), "location": f"gc-{GUILD}-{CHANNEL}",
                              "platform": "desktop"}  # fmt: skip
    assert steps["ready"] is True
    handshake = frame.messages[0]
    assert handshake[0] == "in" and handshake[1][0] == HANDSHAKE
    assert handshake[1][1]["client_id"] == str(APP_ID) and handshake[1][1]["sdk_version"] == "2.5.0"
    assert steps["code"] == frame.sent("AUTHORIZE")[0]["data"]["code"]
    assert frame.received("AUTHORIZE")[0]["args"]["scope"] == ["identify"]
    # The code was good for one exchange, and the token it gave is the one authenticated
    assert steps["forged"] == {"code": 4009, "message": "Invalid access token"}
    auth = steps["auth"]
    assert auth["user"]["id"] == str(ANN) and auth["user"]["username"] == "ann"
    assert auth["scopes"] == ["identify"] and auth["application"]["id"] == str(APP_ID)
    assert steps["locale"] == "fr"
    assert steps["participants"] == [[str(ANN), "ann"], [str(BOB), "bob"]]
    commands = [p["cmd"] for p in frame.received() if p["cmd"] != "CAPTURE_LOG"]
    assert commands == ["AUTHORIZE", "AUTHENTICATE", "AUTHENTICATE", "USER_SETTINGS_GET_LOCALE",
                        "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", "SUBSCRIBE"]  # fmt: skip
    assert frame.received("SUBSCRIBE")[0]["evt"] == PARTICIPANTS_UPDATE
    # Every command had its answer, under its own nonce
    answered = {p["nonce"] for p in frame.sent() if p["cmd"] != "DISPATCH"}
    assert answered == {p["nonce"] for p in frame.received()}
    assert all(op == FRAME for _, (op, _payload) in frame.messages[1:])


async def test_who_is_in_the_instance_is_told_to_an_authenticated_frame_only(
    server: DiscordServer, discord_client: DiscordClient
) -> None:
    """Driven without a browser (the protocol's handler itself): before AUTHENTICATE the
    participants are refused, and a token of another user does not authenticate."""
    discord_client.launch(INSTANCE, CHANNEL, {ANN: "ann", BOB: "bob"}, guild_id=GUILD)
    frame = discord_client.open("http://127.0.0.1:1/", INSTANCE, ANN)
    ask = "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS"
    with pytest.raises(Refusal, match="Not authenticated") as refused:
        discord_client.answer(frame, ask, {}, None)
    assert refused.value.code == 4006
    server.access_tokens["bobs-token"] = (BOB, "bob")
    with pytest.raises(Refusal, match="Invalid access token"):
        discord_client.answer(frame, "AUTHENTICATE", {"access_token": "bobs-token"}, None)
    server.access_tokens["anns-token"] = (ANN, "ann")
    discord_client.answer(frame, "AUTHENTICATE", {"access_token": "anns-token"}, None)
    assert len(discord_client.answer(frame, ask, {}, None)["participants"]) == 2


async def test_port_3333_is_one_clients_at_a_time(server: DiscordServer) -> None:
    """The lock that keeps pytest-xdist's workers (and other runs on the machine) off each
    other's port: a second client waits for the first to stop."""
    async with DiscordClient(server):
        second = DiscordClient(server)
        with pytest.raises(TimeoutError, match=LOCK):
            await second.start(lock_timeout=0.3)
        waiting = asyncio.create_task(second.start())
    await asyncio.wait_for(waiting, timeout=60)  # the first stopped: the second has it
    await second.stop()


def test_without_esbuild_the_test_fails_saying_what_to_install(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(globals(), "ESBUILD", tmp_path / "esbuild")
    with pytest.raises(pytest.fail.Exception, match="npm ci --prefix tests/browser"):
        bundle(tmp_path)
