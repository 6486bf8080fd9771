"""End to end, sharded: two real `wordlebot run` processes split four shards on one PostgreSQL
database, against the Discord stand-in; one is SIGKILLed mid-run and started again."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from bot_process import TOKEN, BotProcess, clean_env, kill_running
from discord_messages import submitted_form
from discord_server import APP_ID, DiscordServer, Reply, snowflake, user

from engine.variants import get_variant

SHARDS = 4
SEED = "e2e-5eed-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
PLAYERS = 80  # enough that every shard, and direct messages, see many players at once
GUESSES = 5  # submits per player: under Wordle's 6, so no game ends by running out
# Seconds a player waits for an answer. Discord's 3 s window is lifted here, as in the
# 200-player test: the sharding and the kill are tested, not the latency (printed, and
# measured by `wordlebot bench discord`), and a host running two suites at once held the
# bots past 3 s. An event sent to the killed shards is never answered: it costs this wait.
TIMEOUT = 6.0
# Accepted guesses (of PLAYERS x GUESSES) when the process holding shards 0 and 1 is killed,
# once the witnesses hold what it sent: mid-play, about one guess each
KILL_WHEN = PLAYERS
PLAY_FOR = 35.0  # no player starts anything after this many seconds of play
THINK = (0.5, 2.0)  # seconds a player thinks before pressing Guess: still playing at the kill
# Seconds a player takes to type a guess into the modal: from none at all (a submit the
# instant the form arrives, before discord.py would have stored it: played all the same,
# cogs/games.py GuessModal) to half a second.
TYPING = (0.0, 0.5)


def guild_on(shard: int, n: int) -> int:
    """A guild snowflake that Discord routes to ``shard`` of :data:`SHARDS`."""
    top = (971000000000000000 >> 22) // SHARDS * SHARDS + SHARDS * n + shard
    return (top << 22) | 0x2A


GUILDS = [guild_on(s, n) for s, n in [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (2, 1)]]


def dm_channel(user_id: int) -> int:
    return 980000000000000000 + user_id


def interaction(kind: int, user_id: int, guild: int | None, data: dict[str, Any]) -> dict:
    """An interaction as Discord sends it: in a guild (``member``), or in the bot's direct
    messages (``guild`` None: no guild_id, ``user``, context 1, a DM channel)."""
    common = {
        "id": snowflake(), "application_id": str(APP_ID), "type": kind, "token": snowflake(),
        "version": 1, "locale": "en-US", "app_permissions": "2251799813685247",
        "entitlements": [], "attachment_size_limit": 8388608, "data": data,
    }  # fmt: skip
    if guild is None:
        channel = str(dm_channel(user_id))
        return common | {
            "channel_id": channel, "context": 1, "user": user(user_id),
            "authorizing_integration_owners": {"0": "0"},
            "channel": {"id": channel, "type": 1, "last_message_id": None, "flags": 0,
                        "recipients": [user(user_id)]},
        }  # fmt: skip
    return common | {
        "channel_id": str(guild + 1), "guild_id": str(guild), "guild_locale": "en-US",
        "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
        "member": {"user": user(user_id), "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                   "deaf": False, "mute": False, "flags": 0, "permissions": "2251799813685247"},
    }  # fmt: skip


def message_stub(channel: int, on: dict | None = None) -> dict:
    on = on or {}
    return {"id": snowflake(), "channel_id": str(channel), "type": 0, "content": "",
            "author": user(APP_ID, "wordlebot", bot=True), "embeds": on.get("embeds", []),
            "components": on.get("components", []), "attachments": [], "mentions": [],
            "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None,
            "flags": 0}  # fmt: skip


def practice(user_id: int, guild: int | None) -> dict:
    """/wordle practice (a global command: no guild_id in its data)."""
    data = {"id": snowflake(), "name": "wordle", "type": 1,
            "options": [{"name": "practice", "type": 1, "options": []}]}  # fmt: skip
    return interaction(2, user_id, guild, data)


def click(custom_id: str, user_id: int, guild: int | None, on: dict) -> dict:
    """A button press on the board message ``on``."""
    channel = dm_channel(user_id) if guild is None else guild + 1
    return interaction(3, user_id, guild, {"custom_id": custom_id, "component_type": 2}) | {
        "message": message_stub(channel, on)
    }


def submit(modal: dict, value: str, user_id: int, guild: int | None) -> dict:
    channel = dm_channel(user_id) if guild is None else guild + 1
    data = {"custom_id": modal["custom_id"], "components": submitted_form(modal, [value])}
    return interaction(5, user_id, guild, data) | {"message": message_stub(channel)}


def rows_of(body: dict) -> list[str]:
    """The guesses a board message shows, in order."""
    description = "".join(e.get("description") or "" for e in body.get("embeds") or [])
    return [w.lower() for w in re.findall(r"`([A-Z]+)`", description)]


def guess_button(body: dict) -> str | None:
    return next((c["custom_id"] for row in body.get("components") or []
                 for c in row.get("components", []) if ":guess:" in c.get("custom_id", "")),
                None)  # fmt: skip


def ephemeral(body: dict) -> bool:
    return bool(int(body.get("flags") or 0) & 64)


class Process(BotProcess):
    """A real `wordlebot run` holding some shards, on the PostgreSQL database (stopped as
    test_e2e's single process is)."""

    def __init__(self, server: DiscordServer, url: str, shards: str, log: Path) -> None:
        env = clean_env(
            discord_token=TOKEN, discord_api_base=server.api_base,
            discord_gateway_url=f"ws://127.0.0.1:{server.port}/gateway", daily_seed=SEED,
            build_trees="false", log_level="WARNING", database_url=url,
            shard_count=str(SHARDS), shard_ids=shards, guild_ready_seconds="0.1",
            identify_seconds="0",  # the stand-in takes every shard's IDENTIFY at once
        )  # fmt: skip
        self.shards = [int(s) for s in shards.split(",")]
        self.spawn(env, str(log))

    def peak_mib(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0


async def ready(server: DiscordServer, process: Process) -> None:
    try:
        for shard in process.shards:
            await server.shard_ready(shard, timeout=60)
    except TimeoutError:
        _, err = process.kill()
        pytest.fail(f"shards {process.shards} never became ready: {err[-2000:]}")


@dataclass
class Player:
    number: int
    guild: int | None  # None: plays in direct messages
    shard: int
    log: list[tuple[str, str]] = field(default_factory=list)  # (word, accepted/refused/unknown)
    failures: list[str] = field(default_factory=list)  # anything but a timeout
    timeouts: int = 0
    board: dict | None = None  # the last board message the player saw
    board_before_kill: bool = False  # that board was sent by the process later killed
    old_button_worked: bool = False

    @property
    def user_id(self) -> int:
        return 5000 + self.number


@dataclass
class Run:
    server: DiscordServer
    words: list[str]
    killed: asyncio.Event = field(default_factory=asyncio.Event)
    restarted: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0
    accepted: int = 0
    witnesses_ready: int = 0  # witnesses holding a board and an open form, before the kill

    async def ask(self, player: Player, payload: dict) -> Reply | None:
        try:
            return await self.server.interact(payload, timeout=TIMEOUT, settle=True)
        except TimeoutError:
            player.timeouts += 1
            return None

    async def start(self, player: Player) -> bool:
        while time.perf_counter() < self.deadline:
            reply = await self.ask(player, practice(player.user_id, player.guild))
            if reply is None:
                continue
            body = reply.answer
            if guess_button(body) is None:
                player.failures.append(f"start: {reply.kind} {reply.text()[:200]!r}")
                return False
            player.board = body
            player.board_before_kill = not self.killed.is_set()
            return True
        return False

    async def open_modal(self, player: Player) -> dict | None:
        """Press the board's Guess button until a modal comes (or time is up)."""
        assert player.board is not None
        button = guess_button(player.board)
        assert button is not None
        while time.perf_counter() < self.deadline:
            old = player.board_before_kill and self.restarted.is_set()
            reply = await self.ask(
                player, click(button, player.user_id, player.guild, player.board)
            )
            if reply is None:
                continue
            if reply.kind != 9:
                player.failures.append(f"guess button: {reply.kind} {reply.text()[:200]!r}")
                return None
            player.old_button_worked |= old
            return reply.data
        return None

    async def guess(self, player: Player, modal: dict, word: str) -> None:
        reply = await self.ask(player, submit(modal, word, player.user_id, player.guild))
        if reply is None:
            player.log.append((word, "unknown"))  # stored or not: the database says
            return
        body = reply.answer
        rows = rows_of(body)
        if ephemeral(body) or not rows or rows[-1] != word:
            player.log.append((word, "refused"))
            player.failures.append(f"guess {word}: {reply.kind} {reply.text()[:200]!r}")
            return
        player.log.append((word, "accepted"))
        self.accepted += 1
        player.board = body
        player.board_before_kill = not self.killed.is_set()

    async def play(self, player: Player) -> None:
        think = random.Random(player.number)
        await asyncio.sleep(think.uniform(0, 2))
        if not await self.start(player):
            return
        for _ in range(GUESSES):
            await asyncio.sleep(think.uniform(*THINK))
            modal = await self.open_modal(player)
            if modal is None:
                return
            await asyncio.sleep(think.uniform(*TYPING))
            await self.guess(player, modal, think.choice(self.words))
            if player.board is not None and guess_button(player.board) is None:
                return  # solved: the board has no buttons left

    async def witness(self, player: Player) -> None:
        """Before the kill: a board and an open guess modal from the process then killed.
        After the restart: the old modal is submitted, then the old board's button used. The
        words are allowed guesses but never answers, so the game goes on."""
        assert not {"aahed", "zymic"} & set(get_variant("wordle").answers.words)
        assert await self.start(player) and player.board_before_kill
        modal = await self.open_modal(player)
        assert modal is not None
        self.witnesses_ready += 1
        before = player.board
        await self.restarted.wait()
        await asyncio.sleep(TYPING[0])
        await self.guess(player, modal, "aahed")  # a modal the killed process opened
        assert player.log[-1] == ("aahed", "accepted"), (player.log, player.failures)
        button = guess_button(before)
        assert button is not None
        old = await self.ask(player, click(button, player.user_id, player.guild, before))
        assert old is not None and old.kind == 9, old
        await asyncio.sleep(TYPING[0])
        await self.guess(player, old.data, "zymic")
        assert player.log[-1] == ("zymic", "accepted"), (player.log, player.failures)


def matches(stored: list[str], log: list[tuple[str, str]]) -> bool:
    """The stored rows are exactly the accepted guesses in order, with none refused; a guess
    whose answer never came (its process was killed) may be there or not."""
    if not log:
        return not stored
    (word, outcome), rest = log[0], log[1:]
    if outcome == "accepted":
        return bool(stored) and stored[0] == word and matches(stored[1:], rest)
    if outcome == "refused":
        return matches(stored, rest)
    return (bool(stored) and stored[0] == word and matches(stored[1:], rest)) or matches(
        stored, rest
    )


@pytest.fixture
async def server():
    s = DiscordServer(GUILDS, shards=SHARDS)
    await s.start()
    yield s
    kill_running()  # a failed test's bots: the stand-in would wait on their connections
    await s.stop()
    assert s.violations == [], s.violations


@pytest.fixture
def processes() -> list[Process]:
    """The bot processes a test starts (any still running when it ends, a failed test's, are
    killed by tests/conftest.py's no_bot_left_running)."""
    return []


async def test_two_processes_share_four_shards_and_survive_a_sigkill(
    server, postgres_url, processes, tmp_path, capsys
):
    assert {server.shard_of(g) for g in GUILDS} == set(range(SHARDS))
    server.window = float("inf")  # late first answers are counted (server.late), not refused

    def launch(shards: str, name: str) -> Process:
        processes.append(Process(server, postgres_url, shards, tmp_path / f"{name}.log"))
        return processes[-1]

    low, high = launch("0,1", "low"), launch("2,3", "high")  # both at once, on an empty database
    await ready(server, low)
    await ready(server, high)
    await asyncio.wait_for(server.identified.wait(), 5)
    assert server.connected() == {0, 1, 2, 3}
    assert sorted(server.identifies) == [(s, SHARDS) for s in range(SHARDS)]
    # Two web pages: one of a server of shard 0 that removed the bot, one of a server of
    # shard 2. The restarted process (shards 0 and 1) drops the first at its READY, and
    # leaves the second, which is not its to judge.
    gone, kept = guild_on(0, 5), GUILDS[2]
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.executemany(
            "INSERT INTO web_pages (guild_id, slug, created_at) VALUES ($1, $2, '2026-01-01')",
            [(gone, "gone-page"), (kept, "kept-page")],
        )
    finally:
        await connection.close()

    run = Run(server, list(get_variant("wordle").guesses.words))
    players = []
    for n in range(PLAYERS):  # one in eight in direct messages (shard 0), the rest in guilds
        guild = None if n % 8 == 1 else GUILDS[n % len(GUILDS)]
        players.append(Player(n, guild, server.shard_of(guild)))
    # Witnesses on the process to be killed: one in a guild of shard 1, one in direct messages.
    witnesses = [Player(PLAYERS, GUILDS[1], 1), Player(PLAYERS + 1, None, 0)]
    peaks: dict[str, float] = {}

    async def kill_and_restart() -> Process:
        for _ in range(int(PLAY_FOR / 0.05)):
            if run.witnesses_ready == len(witnesses) and run.accepted >= KILL_WHEN:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail(f"{run.accepted} guesses accepted, {run.witnesses_ready} witnesses ready")
        peaks["killed"] = low.peak_mib()
        run.killed.set()
        low.kill()
        await server.shard_gone(0)
        await server.shard_gone(1)
        again = launch("0,1", "again")
        await ready(server, again)
        run.restarted.set()
        return again

    begin = time.perf_counter()
    run.deadline = begin + PLAY_FOR
    restart = asyncio.ensure_future(kill_and_restart())
    await asyncio.gather(
        *(run.play(p) for p in players), *(run.witness(w) for w in witnesses), restart
    )
    seconds = time.perf_counter() - begin
    again = restart.result()
    # the restarted process identified afresh: new sessions, nothing replayed from the old
    assert [len([s for s in server.sessions.values() if s.shard == shard]) for shard in
            range(SHARDS)] == [2, 2, 1, 1]  # fmt: skip

    # -- the database: each accepted guess stored once, in order; nothing else ----------
    connection = await asyncpg.connect(postgres_url)
    try:
        games = await connection.fetch("SELECT player_id, state FROM games")
        for _ in range(100):  # the restarted process's READY has long passed: at most a moment
            pages = {row[0] for row in await connection.fetch("SELECT guild_id FROM web_pages")}
            if gone not in pages:
                break
            await asyncio.sleep(0.05)
    finally:
        await connection.close()
    assert pages == {kept}
    by_player: dict[int, list[Any]] = {}
    for game in games:
        by_player.setdefault(game["player_id"], []).append(game)
    wrong = []
    for player in [*players, *witnesses]:
        stored = by_player.get(player.user_id, [])
        if len(stored) > 1 or (player.board is not None and len(stored) != 1):
            wrong.append((player.number, f"{len(stored)} games"))
            continue
        rows = [row[0] for row in json.loads(stored[0]["state"])["rows"]] if stored else []
        if not matches(rows, player.log):
            wrong.append((player.number, rows, player.log))
    assert wrong == [], wrong[:5]

    # -- the surviving process: no failure of any kind; elsewhere only timeouts -----------
    survivors = [p for p in players if p.shard in (2, 3)]
    assert survivors and all(p.board is not None for p in survivors)
    assert [(p.number, p.timeouts) for p in survivors if p.timeouts] == []
    assert [(p.number, p.failures) for p in [*players, *witnesses] if p.failures] == []
    short = [p.number for p in survivors if guess_button(p.board or {}) is not None
             and [outcome for _, outcome in p.log] != ["accepted"] * GUESSES]  # fmt: skip
    assert short == []
    # players of the killed shards went on with boards it had sent
    assert any(p.old_button_worked for p in players if p.shard in (0, 1))

    peaks["restarted"], peaks["survivor"] = again.peak_mib(), high.peak_mib()
    for process in (again, high):
        code, err = await process.stop()
        assert code == 0 and "Traceback" not in err, err[-3000:]

    latencies = sorted(r.latency for r in server.replies.values() if r.latency is not None)
    lost = sum(p.timeouts for p in [*players, *witnesses])
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[int(len(latencies) * 0.99)] * 1000
    with capsys.disabled():
        print(
            f"\nshards: {PLAYERS} players ({len(survivors)} on shards 2-3), 2 processes x 2 "
            f"shards, SIGKILL + restart of shards 0-1; {len(latencies)} interactions answered, "
            f"{lost} timed out; {run.accepted} accepted guesses in {seconds:.1f} s "
            f"({run.accepted / seconds:.1f}/s); reply latency p50 {p50:.0f} ms, p99 {p99:.0f} ms,"
            f" {server.late} over 3 s;"
            f" peak memory (VmHWM): killed {peaks['killed']:.0f} MiB, restarted "
            f"{peaks['restarted']:.0f} MiB, survivor {peaks['survivor']:.0f} MiB"
        )


async def test_the_stand_in_shards_as_discord_does():
    """The stand-in itself, over raw websockets: its shard count, READY per shard, routing,
    events kept for RESUME and lost on a fresh IDENTIFY, and the violations it records."""
    import aiohttp

    s = DiscordServer(GUILDS, shards=SHARDS)
    await s.start()
    url = f"ws://127.0.0.1:{s.port}/gateway"

    async def identify(http: aiohttp.ClientSession, shard: list[int] | None) -> Any:
        ws = await http.ws_connect(url)
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": "t"} | ({"shard": shard} if shard else {})})
        return ws

    def event(guild: int | None) -> dict:
        return {"id": snowflake()} | ({} if guild is None else {"guild_id": str(guild)})

    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{s.api_base}/gateway/bot") as response:
                assert (await response.json())["shards"] == SHARDS
            ws0 = await identify(http, [0, SHARDS])
            ready = await ws0.receive_json()
            assert ready["t"] == "READY" and ready["d"]["shard"] == [0, SHARDS]
            assert [int(g["id"]) for g in ready["d"]["guilds"]] == s.guilds_of(0) == GUILDS[::4]
            for guild in s.guilds_of(0):
                created = await ws0.receive_json()
                assert created["t"] == "GUILD_CREATE" and int(created["d"]["id"]) == guild
            await s.shard_ready(0, timeout=5)
            assert s.connected() == {0} and not s.identified.is_set()

            await s.dispatch("INTERACTION_CREATE", event(GUILDS[2]))  # shard 2: nobody, lost
            ws2 = await identify(http, [2, SHARDS])
            ready2 = await ws2.receive_json()
            assert ready2["s"] == 1 and ready2["d"]["session_id"] != ready["d"]["session_id"]
            for _ in s.guilds_of(2):
                await ws2.receive_json()
            await s.dispatch("INTERACTION_CREATE", dm := event(None))  # direct messages: 0
            assert (await ws0.receive_json())["d"] == dm

            await s.shard_ready(2, timeout=5)
            seen = ready2["s"] + len(s.guilds_of(2))  # READY and each GUILD_CREATE
            session = ready2["d"]["session_id"]
            await ws2.close()
            await s.shard_gone(2, timeout=5)
            await s.dispatch("INTERACTION_CREATE", kept := event(GUILDS[5]))  # waits for RESUME
            ws2 = await http.ws_connect(url)
            await ws2.receive_json()
            await ws2.send_json({"op": 6, "d": {"token": "t", "seq": seen, "session_id": session}})
            assert (await ws2.receive_json())["d"] == kept
            assert (await ws2.receive_json())["t"] == "RESUMED"
            await ws2.close()
            await s.shard_gone(2, timeout=5)
            await s.dispatch("INTERACTION_CREATE", event(GUILDS[2]))  # lost: a fresh IDENTIFY
            ws2 = await identify(http, [2, SHARDS])
            assert (await ws2.receive_json())["t"] == "READY"
            for _ in s.guilds_of(2):
                assert (await ws2.receive_json())["t"] == "GUILD_CREATE"
            await s.dispatch("INTERACTION_CREATE", last := event(GUILDS[2]))
            assert (await ws2.receive_json())["d"] == last  # and not the one sent meanwhile

            assert s.violations == []
            twice = await identify(http, [0, SHARDS])  # shard 0 is still connected
            assert (await twice.receive_json())["t"] == "READY"
            wrong = await identify(http, [1, 2])
            assert (await wrong.receive()).type == aiohttp.WSMsgType.CLOSE
            assert wrong.close_code == 4010
            assert s.violations == [
                "shard 0 identified twice at once",
                f"IDENTIFY with shard [1, 2]; the gateway said {SHARDS} shards",
            ]
            for ws in (ws0, ws2, twice):
                await ws.close()
    finally:
        await s.stop()
