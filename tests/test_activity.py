"""The game window's server side (issue 42): a player signs in the way Discord prescribes
(the SDK's code exchanged with the client secret, the user asked of Discord, the Activity
instance asked as the bot), against the Discord stand-in, and the window is a third front end
of the game's commands: one game with the chat, every rule the same. Real HTTP both ways;
the set-up is tests/activity_window.py, the players beside you tests/test_activity_together.py."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from activity_window import (
    ANN,
    BOB,
    CHANNEL,
    EVE,
    GUILD,
    OTHER_CHANNEL,
    answer_of,
    served,
    window,
)
from discord_messages import APP_ID
from discord_server import CLIENT_SECRET

from bot.web.activity_auth import SESSION_SECONDS

SEED = "5d0c3b9e7a2f4e6c8b1d3f5a7c9e0b2d-activity"
__all__ = ["window"]  # the fixture, used by name


async def test_a_daily_begun_in_chat_ends_in_the_window_as_one_game(window):
    typed = await window.chat(ANN, "wordle daily")
    await window.chat(ANN, "guess", word="crane")
    session = await window.session(ANN, "ann")
    status, shown = await window.run(session, "wordle daily")  # the window opens on it
    assert status == 200 and shown["game"]["id"] == typed.game.game_id
    game = shown["game"]
    assert [r["word"].lower() for r in game["rows"]] == ["crane"] and game["answer"] is None
    marks = typed_row = (await window.services.games.game(game["id"])).rows[0][1]
    assert game["rows"][0]["marks"] == typed_row  # as the chat's board shows it
    keys = {key: state for row in game["keys"] for key, state in row}
    assert keys["c"] == int(marks[0]) + 1 and keys["z"] == 0  # as the keyboard image shows
    assert "".join(key for key, _ in game["keys"][0]).lower().startswith("qwerty")
    assert game["rows"][0]["label"].startswith("Row 1") and "CRANE" in game["alt"]
    answer = await answer_of(window, game["id"])
    status, won = await window.run(session, "guess", options={"word": answer},
                                   game=game["id"], rows=1)  # fmt: skip
    assert status == 200 and won["game"]["over"] and won["game"]["answer"].lower() == answer
    # One game: the chat sees it won, and the player's stats count it once.
    again = await window.chat(ANN, "wordle daily")  # the day's is played: said so, in chat
    assert again.refused and (await window.services.games.game(game["id"])).over
    stats = await window.services.stats.stats(ANN, "wordle:daily", window.services.daily.today(),
                                              scope=GUILD)  # fmt: skip
    assert stats.played == 1 and stats.win_percent == 100 and stats.distribution[2] == 1


async def test_the_answer_is_nowhere_in_what_the_window_is_sent_before_the_end(window):
    session = await window.session(BOB)
    _, daily = await window.run(session, "wordle daily")
    answer = await answer_of(window, daily["game"]["id"])
    guess = "slate" if answer != "slate" else "crane"
    # (A hint names the words still possible, the answer among them: the player's own help.)
    for command, options in (("wordle daily", {}), ("guess", {"word": guess}),
                             ("streak", {}), ("stats", {})):  # fmt: skip
        response = await window.http.post(
            "/activity/api/command", json={"command": command, "options": options},
            headers={"Authorization": f"Bearer {session}"},
        )  # fmt: skip
        assert response.status == 200
        assert answer not in (await response.text()).lower(), command


async def test_a_guess_on_a_board_that_changed_meanwhile_plays_nothing(window):
    session = await window.session(ANN)
    _, shown = await window.run(session, "wordle practice")
    game = shown["game"]["id"]
    await window.chat(ANN, "guess", word="crane")  # in chat, after the window drew the board
    status, stale = await window.run(session, "guess", options={"word": "slate"}, game=game,
                                     rows=0)  # fmt: skip
    assert status == 200 and stale["refused"] and stale["rolled_back"]
    assert [r["word"].lower() for r in stale["game"]["rows"]] == ["crane"]  # as it stands
    stored = await window.services.games.game(game)
    assert [w for w, _ in stored.rows] == ["crane"]  # SLATE was not played
    # Another player's game is not theirs to guess in.
    other = await window.session(BOB)
    status, refused = await window.run(other, "guess", options={"word": "slate"}, game=game,
                                       rows=1)  # fmt: skip
    assert status == 403 and "not yours" in refused["error"]


async def test_who_and_where_come_from_discord_and_nothing_else(window):
    """A forged code, an instance that is not running, a user not in it, a code used twice,
    a session forged, altered or lapsed: each refused."""
    assert (await window.sign_in(ANN, code="made-up"))[0] == 403
    assert (await window.sign_in(ANN, instance="i-not-running"))[0] == 403
    status, body = await window.sign_in(EVE)  # Discord says Eve is not in the instance
    assert status == 403 and "not in this Activity" in body["error"]
    code = window.discord.authorize(ANN, "ann")
    assert (await window.sign_in(ANN, code=code))[0] == 200
    assert (await window.sign_in(ANN, code=code))[0] == 403  # a code is good once
    status, body = await window.sign_in(ANN, "ann")
    assert body["user"] == {"id": str(ANN), "name": "ann"} and body["access_token"]
    session = body["session"]
    assert (await window.run(session, "streak"))[0] == 200
    payload, signature = session.split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["user_id"] = BOB  # Ann's session made out as Bob's
    forged = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    for token in (f"{forged}.{signature}", "x.y", "", session + "x"):
        status, body = await window.run(token, "streak")
        assert status == 401, token
    response = await window.http.post("/activity/api/command", json={"command": "streak"})
    assert response.status == 401  # no session at all
    window.clock.now += SESSION_SECONDS + 1
    status, body = await window.run(session, "streak")
    assert status == 401 and "lapsed" in body["error"]
    lapsed = await window.http.post(  # said in the reader's language (their browser's here)
        "/activity/api/command", json={"command": "streak"},
        headers={"Authorization": f"Bearer {session}", "Accept-Language": "de-DE,de;q=0.9"},
    )  # fmt: skip
    assert (await lapsed.json())["error"] == "Diese Sitzung ist abgelaufen: melde dich erneut an."


async def test_a_player_in_another_channels_instance_plays_that_servers_games(window):
    """Where the Activity runs is Discord's to say: the daily counts for its server."""
    window.discord.launch("i-elsewhere", OTHER_CHANNEL, {EVE}, guild_id=GUILD)
    status, body = await window.sign_in(EVE, instance="i-elsewhere")
    assert status == 200
    _, daily = await window.run(body["session"], "wordle daily")
    stored = await window.services.storage.game(daily["game"]["id"])
    assert stored.scope == GUILD and stored.player_id == EVE


async def test_the_window_runs_the_games_commands_with_their_options_checked(window):
    session = await window.session(ANN)
    for command, options in (
        ("settings server", {}),  # a server's settings are not the window's
        ("mydata delete", {"confirm": "DELETE"}),
        ("wordle practice", {"mode": "impossible"}),  # outside its choices
        ("wordle practice", {"length": "five"}),  # not a number
        ("wordle practice", {"colour": "red"}),  # no such option
        ("guess", {}),  # its word is needed
        ("guess", {"word": "\x00crane"}),
    ):
        status, body = await window.run(session, command, options=options)
        assert status == 400 and body["error"], (command, options)
    response = await window.http.post(
        "/activity/api/command", data="x" * 5000,
        headers={"Authorization": f"Bearer {session}"},
    )  # fmt: skip
    assert response.status in (400, 413)


async def test_a_server_without_hints_in_dailies_gives_none_in_the_window(window):
    await window.chat(BOB, "settings server", hints_in_daily=False)
    session = await window.session(ANN)
    await window.run(session, "wordle daily")
    status, hint = await window.run(session, "hint")
    assert status == 200 and hint["refused"] and "hint" in hint["text"].lower()
    _, practice = await window.run(session, "wordle practice")
    status, hint = await window.run(session, "hint", game=practice["game"]["id"])
    assert status == 200 and not hint["refused"] and hint["text"]


async def test_play_in_the_window_opens_the_activity_from_a_board(server, tmp_path):
    """The real `wordlebot run` with Activities on: a board's Play in the window answers
    with Discord's launch-activity response, and the window opens in that channel."""
    from bot_process import GUILDS, BotProcess, click, command, started

    server.enable_activities()
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"), discord_client_id=str(APP_ID),
                     discord_client_secret=CLIENT_SECRET)  # fmt: skip
    await started(server, bot)
    board = await server.interact(command("wordle", "practice", user_id=6), followups=1)
    assert "wb:window" in board.custom_ids()
    opened = await server.interact(click("wb:window", user_id=6, on=server.message(board) or {}))
    assert opened.kind == 12  # LAUNCH_ACTIVITY
    [(channel, guild, users)] = server.instances.values()
    assert (channel, guild, users) == (int(server.message(board)["channel_id"]), GUILDS[0], {6})
    listing = await server.interact(command("help", user_id=6), followups=1)  # two messages
    assert "wb:window" in json.dumps(listing.followups[-1]) and "wb:window" not in json.dumps(
        listing.data
    )  # the launcher ends the list
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_the_window_is_served_from_its_own_origin_and_framed_by_discord_alone(window):
    page = await window.http.get("/activity/")
    text = await page.text()
    assert page.status == 200 and f'content="{APP_ID}"' in text and 'src="app.js"' in text
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    discord = "https://discord.com https://*.discord.com https://*.discordsays.com"
    assert f"frame-ancestors {discord}" in policy
    assert "X-Frame-Options" not in page.headers  # it would forbid Discord's frame
    script = await window.http.get("/activity/app.js")  # aiohttp's client takes gzip
    assert script.status == 200 and script.content_type == "text/javascript"
    assert script.headers["Content-Encoding"] == "gzip" and script.headers["ETag"]
    shipped = Path(__file__).resolve().parents[1] / "bot/web/static/activity/app.js"
    assert await script.read() == shipped.read_bytes()
    again = await window.http.get("/activity/app.js",
                                  headers={"If-None-Match": script.headers["ETag"]})  # fmt: skip
    assert again.status == 304 and not await again.read()
    assert (await window.http.get("/activity/app.py")).status == 404
    pages = await window.http.get("/")  # the servers' pages stay unframeable
    assert "frame-ancestors 'none'" in pages.headers["Content-Security-Policy"]


def test_the_built_window_is_the_build_of_its_source(tmp_path):
    """bot/web/static/activity/app.js (in the wheel: the bot runs without Node) is exactly what
    `npm --prefix web/activity run build` makes of web/activity/src, and within 150 KB gzipped."""
    import gzip
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    project = root / "web" / "activity"
    esbuild = project / "node_modules" / ".bin" / "esbuild"
    assert esbuild.exists(), "run `npm ci --prefix web/activity` first (.ci/run does)"
    built = tmp_path / "app.js"
    manifest = json.loads((project / "package.json").read_text())
    command = manifest["scripts"]["build"].split("&&")[1].split()  # the esbuild step
    command = [str(esbuild), *command[1:-1], f"--outfile={built}"]
    subprocess.run(command, cwd=project, check=True, capture_output=True, timeout=120)
    shipped = root / "bot" / "web" / "static" / "activity" / "app.js"
    rebuild = "npm --prefix web/activity run build"
    assert built.read_bytes() == shipped.read_bytes(), rebuild
    assert len(gzip.compress(shipped.read_bytes())) <= 150 * 1024


async def test_a_finished_daily_is_shared_to_the_channel_once_as_squares(window):
    session = await window.session(ANN, "ann")
    _, daily = await window.run(session, "wordle daily")
    game = daily["game"]["id"]
    share = {"Authorization": f"Bearer {session}"}
    early = await window.http.post("/activity/api/share", json={"game": game}, headers=share)
    assert early.status == 400  # not over: nothing to share, nothing posted
    answer = await answer_of(window, game)
    await window.run(session, "guess", options={"word": answer}, game=game, rows=0)
    for _ in range(2):  # a double click
        shared = await window.http.post("/activity/api/share", json={"game": game}, headers=share)
        assert shared.status == 200
    [(channel, body, files)] = window.discord.posts
    assert channel == CHANNEL and not files and body["content"].startswith(f"<@{ANN}>\n")
    assert " 1/6\n" in body["content"] and body["allowed_mentions"] == {"parse": []}
    assert "🟩🟩🟩🟩🟩" in body["content"] and answer not in body["content"].lower()
    other = await window.session(BOB)
    theirs = await window.http.post("/activity/api/share", json={"game": game},
                                    headers={"Authorization": f"Bearer {other}"})  # fmt: skip
    assert theirs.status == 403 and len(window.discord.posts) == 1


async def test_the_play_limit_is_one_for_the_chat_and_the_window(make_double, tmp_path):
    """Five plays and hints in ten seconds, whichever way they come: three guesses in chat,
    then a hint and a guess in the window, and the window's next guess waits."""
    from discord_double import CHANNEL_ID, GUILD_ID

    double = await make_double(str(tmp_path / "bot.sqlite3"), answers={"wordle": "cigar"})
    async with served(double.bot.services, GUILD_ID, CHANNEL_ID) as window:
        await double.command("wordle", "practice", user_id=ANN)
        for word in ("crane", "slate", "moist"):
            await double.command("guess", user_id=ANN, word=word)
        session = await window.session(ANN)
        _, hint = await window.run(session, "hint")
        assert not hint["refused"], hint
        _, played = await window.run(session, "guess", options={"word": "pudgy"})
        assert not played["refused"] and len(played["game"]["rows"]) == 4
        _, held = await window.run(session, "guess", options={"word": "flock"})
        assert held["refused"] and "Slow down" in held["text"]
        game = await window.services.games.game(played["game"]["id"])
        assert len(game.rows) == 4  # FLOCK was not played
        # (Kept-alive connections, the window's to the server and the server's to Discord,
        # each hold a server task open for 15 s, which the double would wait out before it
        # settles: closed now.)
        await window.auth.close()
        await window.http.session.close()
        (slow,) = await double.command("guess", user_id=ANN, word="flock")  # nor in chat
        assert slow.ephemeral and "Slow down" in slow.text


async def test_midnight_closes_a_daily_open_in_the_window(tmp_path, opened):
    """A daily begun in the window and left open past midnight is closed as a loss (as in
    chat): a guess after midnight plays nothing, and the stats count the loss."""
    from clock import Clock as Now
    from clock import at

    now = Now(at("2026-03-01T23:59:30"))
    services = await opened(str(tmp_path / "bot.sqlite3"), now)
    async with served(services) as window:
        session = await window.session(ANN)
        _, daily = await window.run(session, "wordle daily")
        game = daily["game"]
        assert game["day"] == "2026-03-01"
        _, played = await window.run(session, "guess", options={"word": "crane"},
                                     game=game["id"], rows=0)  # fmt: skip
        assert len(played["game"]["rows"]) == 1
        now.advance(60)  # 00:00:30 on 2 March
        _, late = await window.run(session, "guess", options={"word": "slate"},
                                   game=game["id"], rows=1)  # fmt: skip
        assert late["refused"], late
        stored = await window.services.games.game(game["id"])
        assert stored.status == "lost" and len(stored.rows) == 1
        stats = await window.services.stats.stats(ANN, "wordle:daily", now().date(), scope=GUILD)
        assert stats.played == 1 and stats.win_percent == 0


async def test_a_database_locked_elsewhere_is_said_busy_and_nothing_is_played(
    tmp_path, opened, lock_database
):
    """Another process holds the write lock: the window's guess is answered (busy, said in
    words), nothing is played, and the next guess, the lock gone, plays."""
    path = str(tmp_path / "bot.sqlite3")
    services = await opened(path, answers={"wordle": "cigar"})
    async with served(services) as window:
        session = await window.session(ANN)
        _, shown = await window.run(session, "wordle practice")
        game = shown["game"]["id"]
        locker = lock_database(path, 30.0)
        try:
            status, busy = await window.run(session, "guess", options={"word": "crane"},
                                            game=game, rows=0)  # fmt: skip
        finally:
            locker.kill()
            locker.wait(timeout=10)
        assert status == 200 and busy["refused"] and "busy" in busy["text"], busy  # as in chat
        assert (await window.services.games.game(game)).rows == []
        status, played = await window.run(session, "guess", options={"word": "crane"},
                                          game=game, rows=0)  # fmt: skip
        assert status == 200 and len(played["game"]["rows"]) == 1
