"""The live daily board: what it shows (squares, never a letter), one message a server and day
across processes, a deleted board posted again once, a new day's new message, and a burst of
finishes collapsed into a few edits; on both engines."""

import asyncio
import json
import random
import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from bot_process import GUILDS, BotProcess, command, started
from bot_process import SEED as E2E_SEED
from clock import Clock, at
from discord.utils import time_snowflake
from discord_messages import member_message
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands import COMMANDS
from bot.commands.model import Caller
from bot.render.live_board import live_board_text
from bot.render.text import MESSAGE_LIMIT
from bot.services import Player, Services
from bot.services.daily import DailyPuzzles, shown_number
from bot.services.digest import DIGEST_KINDS, ChannelGone, Member
from bot.services.live_board import Debouncer, LiveBoard, LiveGame, LiveResult, MessageGone
from bot.storage.digests import DayResult, DayStart
from engine.matrix import pattern_matrix
from engine.pattern import from_tiles, score
from engine.rules import Mode
from engine.variants import Variant, get_variant

SEED = "live-board-5eed-1b2c3d4e5f60718293a4b5c6d7e8f901"
GUILD, OTHER, CHANNEL = 100, 200, 555
ANN, BOB, CAT, EVE = (Player(i, n) for i, n in ((1, "ann"), (2, "bob"), (3, "cat"), (5, "eve")))
NEVER = ("aahed", "zymic")  # allowed guesses that are never answers
SQUARES = set("🟩🟨⬛")


async def until(check, timeout: float = 10.0):
    """``check()`` once it is true (polled), or the test fails after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := check()):
        if loop.time() > deadline:
            pytest.fail(f"not true after {timeout} s: {check}")
        await asyncio.sleep(0.02)
    return value


class Discord:
    """Where boards go: keeps each message's text; a message can be deleted, a channel
    closed."""

    def __init__(self) -> None:
        self.messages: dict[int, str] = {}
        self.posts: list[int] = []
        self.channels: dict[int, int] = {}  # message -> its channel
        self.edits: list[int] = []
        self.gone: set[int] = set()
        self.closed = False
        self.failing = 0  # the next edits Discord fails (a 5xx, a 429 past retries)

    async def post(self, channel: int, board: LiveBoard) -> int:
        await asyncio.sleep(0.01)  # another process gets in here if it can
        if self.closed:
            raise ChannelGone("the bot may not post in its channel")
        message_id = 7000 + len(self.posts)
        self.posts.append(message_id)
        self.channels[message_id] = channel
        self.messages[message_id] = live_board_text(board)
        return message_id

    def boards(self, *channels: int) -> list[int]:
        """The message posted in each of ``channels`` (two servers' boards are posted at once,
        in no set order)."""
        return [next(m for m in self.posts if self.channels[m] == c) for c in channels]

    async def edit(self, channel: int, message_id: int, board: LiveBoard) -> None:
        await asyncio.sleep(0.01)
        if message_id in self.gone:
            raise MessageGone()
        if self.failing:
            self.failing -= 1
            raise RuntimeError("503 Service Unavailable")
        self.edits.append(message_id)
        self.messages[message_id] = live_board_text(board)


@pytest.fixture
async def services(database_url: str, opened):
    return await opened(database_url, Clock(at("2026-03-01T12:00")), live_board_seconds=0.2)


def live(services: Services) -> Discord:
    discord = Discord()
    services.live_boards.attach(discord.post, discord.edit)
    return discord


async def play(services: Services, player: Player, misses: int, *, finish: bool = True,
               scope: int = GUILD, mode: Mode = Mode.NORMAL) -> None:  # fmt: skip
    assert (await services.games.start(player, scope, daily=True, mode=mode)).ok
    for word in NEVER[:misses]:
        assert (await services.games.guess(player, scope, word, kind="wordle:daily")).ok
    if finish:
        answer = services.daily.answer("wordle", services.daily.today())
        assert (await services.games.guess(player, scope, answer, kind="wordle:daily")).ok


async def settled(services: Services) -> None:
    """Until no board of this process has an edit pending."""
    await until(lambda: not services.live_boards.debouncer.tasks)


def no_letters(text: str, services: Services) -> None:
    """Neither the answer nor a guess, in any case; every grid row squares alone."""
    answer = services.daily.answer("wordle", services.daily.today())
    for word in (answer, *NEVER):
        assert word not in text.lower()
    assert "||" not in text
    for line in text.splitlines():
        if set(line) & SQUARES:
            assert set(line) <= SQUARES, line


async def test_the_board_shows_counts_and_who_is_still_playing_and_the_grids_once_closed(
    services,
) -> None:
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    await play(services, ANN, 1, mode=Mode.HARD)
    await play(services, BOB, 1, finish=False)
    await play(services, CAT, 0)
    await play(services, EVE, 0, scope=OTHER)  # another server's board, not this one's
    await settled(services)
    [message] = discord.posts
    text = discord.messages[message]
    assert "**wordlebot Wordle #20260301**" in text and "(2026-03-01)" in text
    assert "1/6 cat\n2/6* ann\n" in text  # best first; hard mode marked; no grid yet
    assert not set(text) & SQUARES and "The grids are shown once the day is over." in text
    assert "Still playing: bob" in text and "*: hard mode" in text
    assert "eve" not in text
    no_letters(text, services)
    services.daily.clock.advance(12 * 3600)  # midnight: bob's game closes, then the grids
    assert await services.closing.run_due() == 1
    await settled(services)
    assert await services.closing.run_due() == 0  # nothing left: the day is over
    await settled(services)
    text = discord.messages[message]
    assert "1/6 cat\n🟩🟩🟩🟩🟩\n2/6* ann\n" in text and "X/6 bob\n" in text
    assert "The grids are shown" not in text


def possible_answers(text: str, variant: Variant) -> set[str]:
    """The answers a reader of ``text`` cannot rule out: each row of squares in it must be the
    pattern of some allowed guess against the answer (the engine's pattern matrix)."""
    tile = {"⬛": 0, "🟨": 1, "🟩": 2}
    rows = {from_tiles([tile[c] for c in line]) for line in text.splitlines()
            if line and set(line) <= SQUARES and len(line) == variant.length}  # fmt: skip
    matrix = pattern_matrix(variant.guesses, variant.answers)
    possible = np.ones(len(variant.answers), dtype=bool)
    for pattern in rows:
        possible &= (matrix == pattern).any(axis=0)
    return {w for w, kept in zip(variant.answers.words, possible, strict=True) if kept}


async def test_the_boards_text_while_its_day_is_played_leaves_every_answer_possible(
    services,
) -> None:
    """Twelve players who play as people do (an opener, then words that fit what they were
    shown): while the day can be played, the whole board read by an inference over every
    allowed guess rules out no answer; once the day is closed, the grids it shows narrow the
    answer (what they would have given away)."""
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    variant = get_variant("wordle")
    answer = services.daily.answer("wordle", services.daily.today())
    draw = random.Random(38)
    for i in range(12):
        player = Player(100 + i, f"p{i}")
        assert (await services.games.start(player, GUILD, daily=True)).ok
        word, fitting = draw.choice(variant.guesses.words), list(variant.answers.words)
        for _turn in range(variant.max_guesses):
            assert (await services.games.guess(player, GUILD, word, kind="wordle:daily")).ok
            if word == answer:
                break
            fitting = [w for w in fitting if score(word, w) == score(word, answer)]
            word = draw.choice(fitting)
    await settled(services)
    [message] = discord.posts
    during = discord.messages[message]
    assert during.count("/6 p") == 12
    assert possible_answers(during, variant) == set(variant.answers.words)
    services.daily.clock.advance(12 * 3600)
    assert await services.closing.run_due() == 0  # nothing going: the day is over at once
    await settled(services)
    after = discord.messages[message]
    assert answer in possible_answers(after, variant)
    # what the hidden grids give away, even to this weak inference (592 of 2,315 here)
    assert len(possible_answers(after, variant)) < len(variant.answers) / 2


async def test_a_deleted_player_leaves_todays_boards_at_once(services) -> None:
    """/mydata delete: every board of today that showed the player is shown again from the
    database at once, through the boards' own edits, not at its next change; the others
    playing stay on it."""
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    await services.storage.live_boards.set_channel(OTHER, CHANNEL + 1)
    discord = live(services)
    await play(services, ANN, 1)
    await play(services, BOB, 0)
    assert (await services.games.start(ANN, OTHER, "primel", daily=True)).ok  # still going
    await play(services, EVE, 0, scope=OTHER)
    await settled(services)
    here, there = discord.boards(CHANNEL, CHANNEL + 1)
    assert "2/6 ann" in discord.messages[here] and "Still playing: ann" in discord.messages[there]
    edits = len(discord.edits)
    assert await services.delete_player(ANN.id)
    await settled(services)
    assert sorted(discord.posts) == sorted([here, there]) and len(discord.edits) == edits + 2
    assert "ann" not in discord.messages[here] and "1/6 bob" in discord.messages[here]
    assert "ann" not in discord.messages[there] and "1/6 eve" in discord.messages[there]


def share_of(day: date, guesses: int) -> str:
    """An NYT Wordle share of ``day``'s puzzle solved in ``guesses``."""
    number = (day - date(2021, 6, 19)).days
    rows = "\n".join(["⬛🟨⬛⬛⬛"] * (guesses - 1) + ["🟩🟩🟩🟩🟩"])
    return f"Wordle {number:,} {guesses}/6\n\n{rows}"


async def share(services: Services, player: Player, scope: int, guesses: int) -> None:
    """``player`` records their own share posted now in ``scope`` (the Analyze menu on their
    own message: the command the menu runs, with the message's moment)."""
    caller = Caller(player, scope, place=CHANNEL, guild_id=scope)
    reply = await COMMANDS["analyze"].run(services, caller, paste=share_of(
        services.daily.today(), guesses), posted_at=services.daily.clock())  # fmt: skip
    assert "recorded" in reply.text or "updated" in reply.text, reply.text


async def test_a_result_that_leaves_a_server_leaves_its_board_at_once(services) -> None:
    """A share counts in one server at a time: a share corrected in another server and a
    share taken back (/mydata unshare) each take the player off the board that showed them,
    at once, not at that board's next change: no two boards credit one result. A daily
    played with the bot is another puzzle: it takes no share's place (issue 38)."""
    services.analysis_gate.cooldown = 0  # the shares are posted one after another
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    await services.storage.live_boards.set_channel(OTHER, CHANNEL + 1)
    discord = live(services)
    await play(services, BOB, 0)  # each server's board is up: bob here, eve there
    await play(services, EVE, 0, scope=OTHER)
    await settled(services)
    here, there = discord.boards(CHANNEL, CHANNEL + 1)

    await share(services, ANN, GUILD, 4)
    await settled(services)
    assert "4/6 ann" in discord.messages[here]
    await share(services, ANN, OTHER, 3)  # a correction, posted in the other server
    await settled(services)
    assert "3/6 ann" in discord.messages[there]
    assert "ann" not in discord.messages[here], discord.messages[here]

    await share(services, CAT, GUILD, 5)
    await settled(services)
    assert "5/6 cat" in discord.messages[here]
    await play(services, CAT, 1, scope=OTHER)  # the bot's daily there: another puzzle
    await settled(services)
    assert "2/6 cat" in discord.messages[there]
    assert "5/6 cat" in discord.messages[here], discord.messages[here]  # her share stays

    reply = await COMMANDS["mydata unshare"].run(services, Caller(ANN, OTHER, guild_id=OTHER),
                                                 game="wordle", puzzle=DailyPuzzles.number(
                                                     services.daily.today()))  # fmt: skip
    assert reply.text == "Removed."
    await settled(services)
    assert "ann" not in discord.messages[there], discord.messages[there]
    assert "1/6 bob" in discord.messages[here] and "1/6 eve" in discord.messages[there]


async def test_a_typed_share_is_shown_apart_from_the_bots_puzzle_and_never_on_top(
    services,
) -> None:
    """A typed ``Wordle 1,716 1/6`` (anyone can type one) never tops the board under the
    heading of the bot's own puzzle: the games played with the bot come first under it, the
    share in a section of its own after them, marked as a share, under the NYT's number."""
    services.analysis_gate.cooldown = 0
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    await play(services, BOB, 2)
    await share(services, EVE, GUILD, 1)
    await settled(services)
    [message] = discord.posts
    text = discord.messages[message]
    number = DailyPuzzles.number(services.daily.today())
    bots, shares = text.split(f"**Wordle #{number}**\n")
    mine = f"**wordlebot Wordle #{shown_number(services.daily.today())}**\n3/6 bob\n"
    assert mine in bots and "eve" not in bots
    assert shares.startswith("Shares typed here, not played with the bot: they win nothing\n"
                             "1/6 eve\n")  # fmt: skip
    assert "bob" not in shares


@pytest.mark.parametrize("closer", ["the closing job", "the digest"])
async def test_a_daily_closed_at_midnight_leaves_its_share_on_that_days_other_board(
    services, closer
) -> None:
    """A share counts while its player's daily of the day is still going in another server;
    once the day ends, its closing (by the job, or by the digest reading the day) makes that
    daily a loss there, and the share, of another puzzle, stays on the board that showed it
    (a game no longer takes a share's place: issue 38)."""
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    await services.storage.live_boards.set_channel(OTHER, CHANNEL + 1)
    discord = live(services)
    await play(services, BOB, 0)
    await play(services, EVE, 0, scope=OTHER)
    await play(services, CAT, 1, scope=OTHER, finish=False)  # going there
    await share(services, CAT, GUILD, 5)  # her share here counts meanwhile
    await settled(services)
    here, there = discord.boards(CHANNEL, CHANNEL + 1)
    assert "5/6 cat" in discord.messages[here]
    assert "Still playing: cat" in discord.messages[there]
    day = services.daily.today()
    services.daily.clock.advance(24 * 3600)
    if closer == "the closing job":
        assert await services.closing.run_due() == 1
    else:
        await services.digests.digest(GUILD, day)
    await settled(services)
    assert "X/6 cat" in discord.messages[there], discord.messages[there]
    assert "5/6 cat" in discord.messages[here], discord.messages[here]
    assert sorted(discord.posts) == sorted([here, there])  # the day's own boards, edited


async def test_only_a_server_with_a_channel_gets_a_board(services) -> None:
    discord = live(services)
    await play(services, ANN, 0)
    await settled(services)
    assert discord.posts == []


async def test_one_board_across_two_processes_and_a_deleted_one_is_posted_again_once(
    shared_url, opened
) -> None:
    clock = Clock(at("2026-03-01T12:00"))
    first = await opened(shared_url, clock, live_board_seconds=0.1)
    second = await opened(shared_url, clock, live_board_seconds=0.1)
    await first.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = Discord()  # one Discord for both processes
    for services in (first, second):
        services.live_boards.attach(discord.post, discord.edit)
    await asyncio.gather(play(first, ANN, 1), play(second, BOB, 0))
    await asyncio.gather(settled(first), settled(second))
    [board] = discord.posts
    assert "1/6 bob" in discord.messages[board] and "2/6 ann" in discord.messages[board]

    discord.gone.add(board)  # deleted in Discord: both processes find it at their next edit
    await asyncio.gather(play(first, CAT, 0, finish=False), play(second, EVE, 1))
    await asyncio.gather(settled(first), settled(second))
    [_, again] = discord.posts
    text = discord.messages[again]
    assert "2/6 ann" in text and "Still playing: cat" in text and "2/6 eve" in text


async def test_an_edit_of_one_process_landing_after_anothers_newer_one_is_put_right(
    shared_url, opened
) -> None:
    """Process one renders bob's finish; before its edit lands, process two renders cat's
    and edits. Discord applies one's edit last, without cat: one reads the board again,
    finds it changed, and edits it once more, so cat shows without waiting for another
    change."""
    clock = Clock(at("2026-03-01T12:00"))
    one = await opened(shared_url, clock, live_board_seconds=0.1)
    two = await opened(shared_url, clock, live_board_seconds=0.1)
    await one.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = Discord()
    for services in (one, two):
        services.live_boards.attach(discord.post, discord.edit)
    await play(one, ANN, 0)
    await settled(one)
    [board] = discord.posts

    rendered, landed = asyncio.Event(), asyncio.Event()

    async def late_edit(channel: int, message_id: int, shown: LiveBoard) -> None:
        if any(r.member.name == "bob" for game in shown.games for r in game.finished):
            rendered.set()  # one's last render: bob's finish, and not cat's
            await landed.wait()  # held until two's edit is in Discord
        await discord.edit(channel, message_id, shown)

    one.live_boards.attach(discord.post, late_edit)
    await play(one, BOB, 1)
    await rendered.wait()
    await play(two, CAT, 0)
    await settled(two)
    assert "1/6 cat" in discord.messages[board]  # two's edit, with everything
    edits = len(discord.edits)
    landed.set()
    await settled(one)
    text = discord.messages[board]
    assert "2/6 bob" in text and "1/6 cat" in text and "1/6 ann" in text
    assert len(discord.edits) == edits + 2  # the late edit, and the one that put it right


async def test_a_new_day_starts_a_new_message_and_the_last_stays(services) -> None:
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    await play(services, ANN, 1)
    await play(services, CAT, 1, finish=False)
    await settled(services)
    [yesterday] = discord.posts
    assert "Still playing: cat" in discord.messages[yesterday]
    services.daily.clock.advance(24 * 3600)
    assert await services.closing.run_due() == 1  # midnight closes cat's game: a loss
    await settled(services)
    kept = discord.messages[yesterday]
    assert "X/6 cat" in kept and "Still playing" not in kept
    await play(services, BOB, 0)
    await settled(services)
    assert discord.posts == [yesterday, yesterday + 1]
    assert discord.messages[yesterday] == kept and "(2026-03-01)" in kept
    assert "(2026-03-02)" in discord.messages[yesterday + 1]
    assert "ann" not in discord.messages[yesterday + 1]
    assert "cat" not in discord.messages[yesterday + 1]


@pytest.mark.parametrize("move", ["start today's", "guess"])
async def test_a_daily_closed_by_its_player_after_midnight_shows_on_its_days_board(
    services, move
) -> None:
    """Just after midnight, before the closing job runs, the player's own move closes
    yesterday's game: yesterday's board shows the loss, not "Still playing", for good."""
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    await play(services, CAT, 1, finish=False)
    await settled(services)
    [yesterday] = discord.posts
    assert "Still playing: cat" in discord.messages[yesterday]
    services.daily.clock.advance(12 * 3600 + 20)  # 00:00:20, the closing job not run yet
    if move == "guess":
        moved = await services.games.guess(CAT, GUILD, NEVER[1], kind="wordle:daily")
    else:
        moved = await services.games.start(CAT, GUILD, daily=True)
    assert "closed" in (moved.message or "").lower(), moved.message
    await settled(services)
    kept = discord.messages[yesterday]
    assert "X/6 cat" in kept and "Still playing" not in kept
    assert await services.closing.run_due() == 0  # nothing left for the midnight job


async def per_kind_reads(db, scope: int, kind: str, day: str) -> tuple[list, list]:
    """The board's reads before they were batched (two or three queries a kind), verbatim:
    the reference the day's batched reads must equal."""
    game, _, flavour = kind.partition(":")
    rows = await db.all(
        "SELECT r.player_id, p.name, r.kind, r.won, r.guesses, g.state FROM results r "
        "JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id "
        "WHERE r.scope = ? AND r.kind = ? AND r.day = ? ORDER BY r.id",
        (scope, kind, day),
    )
    finished = [DayResult(r[0], r[1], r[2], bool(r[3]), int(r[4]), json.loads(r[5]))
                for r in rows]  # fmt: skip
    if flavour == "daily":
        shared = await db.all(
            "SELECT s.player_id, p.name, s.won, s.guesses, s.grid, s.puzzle FROM share_results s "
            "JOIN players p ON p.id = s.player_id "
            "WHERE s.scope = ? AND s.game = ? AND s.day = ? AND s.counted = 1 ORDER BY s.id",
            (scope, game, day),
        )
        finished += [DayResult(r[0], r[1], kind, bool(r[2]), int(r[3]), {}, r[4], int(r[5]))
                     for r in shared]  # fmt: skip
    rows = await db.all(
        "SELECT g.player_id, p.name, g.kind FROM games g JOIN players p ON p.id = g.player_id "
        "WHERE g.scope = ? AND g.kind = ? AND g.puzzle = ? AND g.status = 'playing' "
        "ORDER BY g.id",
        (scope, kind, day),
    )
    return finished, [DayStart(r[0], r[1], r[2]) for r in rows]


PLAYED = ("wordle", "primel", "wordle-es-5", "wordle-en-6")  # dailies played here
SHARED = ("wordle", "dordle", "quordle", "wordle-fr-5")  # shares that count on a board


async def mixed_days(services: Services, seed: int) -> list[str]:
    """Two days of a few servers' dailies, shares and practice games, drawn from ``seed``:
    finished, lost, given up, still going; the days it made."""
    draw = random.Random(seed)
    days = []
    for _day in range(2):
        today = services.daily.today()
        days.append(today.isoformat())
        for i in range(14):
            player, scope = Player(10 + i, f"p{i}"), draw.choice([GUILD, OTHER, 0])
            for variant in draw.sample(PLAYED, draw.randint(0, 3)):
                kind = f"{variant}:daily"
                assert (await services.games.start(player, scope, variant, daily=True)).ok
                end = draw.choice(["win", "miss", "give up", "going"])
                if end == "miss" and variant == "wordle":
                    await services.games.guess(player, scope, NEVER[0], kind=kind)
                if end in ("win", "miss"):
                    answer = services.daily.answer(variant, today)
                    await services.games.guess(player, scope, answer, kind=kind)
                elif end == "give up":
                    await services.games.give_up(player, scope, kind=kind)
            if draw.random() < 0.3:  # a practice game: never on a board
                await services.games.start(player, scope)
                await services.games.give_up(player, scope, kind="wordle:practice")
            for game in draw.sample(SHARED, draw.randint(0, 2)):
                number = DailyPuzzles.number(today) if game == "wordle" else 900 + i
                await services.storage.record_share(
                    player.id, game, number, draw.random() < 0.8, draw.randint(1, 6), False,
                    "0,242|242", scope=draw.choice([GUILD, OTHER]), today=today,
                    name=player.name,
                )  # fmt: skip
        services.daily.clock.advance(24 * 3600)
    return days


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_days_reads_at_once_equal_the_reads_kind_by_kind(services, seed) -> None:
    """The board reads a day's results, shares and games going of every kind at once (three
    queries, not three a kind): the same players, in the same order, as kind by kind."""
    days = await mixed_days(services, seed)
    digests = services.storage.digests
    seen = 0
    for day in days:
        for scope in (GUILD, OTHER, 0):
            finished = await digests.finished(scope, day, DIGEST_KINDS)
            started = await digests.unfinished(scope, day, DIGEST_KINDS)
            for kind in DIGEST_KINDS:
                wanted = await per_kind_reads(digests.db, scope, kind, day)
                assert (finished.get(kind, []), started.get(kind, [])) == wanted, kind
                seen += len(wanted[0]) + len(wanted[1])
            assert set(finished) | set(started) <= set(DIGEST_KINDS)
            some = ("primel:daily", "dordle:daily")  # only the kinds asked for
            assert await digests.finished(scope, day, some) == {
                k: v for k, v in finished.items() if k in some
            }
    assert seen > 20  # the seed made a day worth comparing


async def test_a_burst_of_finishes_is_a_few_edits_and_the_last_shows_them_all(
    database_url, opened
) -> None:
    services = await opened(database_url, Clock(at("2026-03-01T12:00")), live_board_seconds=1.0)
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    players = [Player(100 + i, f"p{i}") for i in range(12)]
    await asyncio.gather(*(play(services, p, i % 2) for i, p in enumerate(players)))
    await settled(services)
    changes = len(discord.posts) + len(discord.edits)
    assert changes <= 3, (discord.posts, discord.edits)
    [board] = discord.posts
    assert all(re.search(rf"\d/6 {p.name}\n", discord.messages[board]) for p in players)


async def test_a_failed_edit_is_tried_again_until_the_board_shows_the_days_last_state(
    services,
) -> None:
    """The day's last change (a finish) meets edits Discord fails: they are tried again,
    with nothing else changing, until the board shows it; then no more edits."""
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    await play(services, ANN, 0)
    await play(services, BOB, 1, finish=False)
    await settled(services)
    [board] = discord.posts
    assert "Still playing: bob" in discord.messages[board]
    discord.failing = 3
    answer = services.daily.answer("wordle", services.daily.today())
    assert (await services.games.guess(BOB, GUILD, answer, kind="wordle:daily")).ok
    await until(lambda: "2/6 bob" in discord.messages[board])
    await settled(services)
    assert discord.failing == 0 and "Still playing" not in discord.messages[board]


async def test_a_channel_closed_to_the_bot_is_said_at_setting_time(services) -> None:
    await services.storage.live_boards.set_channel(GUILD, CHANNEL)
    discord = live(services)
    discord.closed = True
    assert await services.live_boards.show_now(GUILD) == "the bot may not post in its channel"
    await play(services, ANN, 0)  # a finish then: nothing posted, nothing raised
    await settled(services)
    discord.closed = False
    assert await services.live_boards.show_now(GUILD) is None
    assert "1/6 ann" in discord.messages[discord.posts[0]]


ROWS = st.lists(st.text("012", min_size=5, max_size=5), min_size=1, max_size=6)
RESULTS = st.builds(
    LiveResult, st.builds(Member, st.integers(1, 2**63), st.just("")),
    st.sampled_from(["1/6", "4/6*", "X/6", "3/9"]), ROWS,
)  # fmt: skip
GAMES = st.lists(st.builds(
    LiveGame, st.sampled_from(DIGEST_KINDS), st.just("**title**"),
    st.lists(RESULTS, max_size=60),
    st.lists(st.builds(Member, st.integers(1, 2**63), st.just("")), max_size=30),
    st.booleans(),
), min_size=1, max_size=4)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(GAMES, st.booleans())
def test_any_board_fits_one_message_and_holds_no_letter(games, closed) -> None:
    """Whatever was played (up to hundreds of players), the board is one Discord message
    and, past its fixed words and the players' mentions, has no letter."""
    board = LiveBoard(GUILD, date(2026, 3, 1), games, closed)
    text = live_board_text(board, name=lambda m: f"<@{m.player_id}>")
    assert len(text) <= MESSAGE_LIMIT
    assert letters_left(re.sub(r"\(and \d+ more lines?\)", "", text)) == []


# -- through the real bot process and the Discord stand-in ------------------------------

BOARD = "Today's board"


def board_posts(server, channel: int) -> list[dict]:
    """The boards the bot posted in ``channel``, as posted, oldest first."""
    return [body for where, body, _ in server.posts
            if where == channel and BOARD in (body.get("content") or "")]  # fmt: skip


def shown(server, channel: int) -> dict | None:
    """The board in ``channel`` as it is now (the latest one not deleted)."""
    boards = [m for m in server.store.by_id.values()
              if m["channel_id"] == str(channel) and BOARD in m["content"]]  # fmt: skip
    return boards[-1] if boards else None


def letters_left(text: str) -> list[str]:
    """The letters of a board past its headings, its labels, its mentions and a loss's X:
    none may be left (a guess or an answer would be)."""
    labels = (
        "Still playing:",
        "hard mode",
        "The grids are shown once the day is over.",
        "Shares typed here, not played with the bot: they win nothing",
    )
    kept = []
    for line in text.splitlines():
        if not line.startswith("**"):  # the heading and each game's title
            line = re.sub(r"<@\d+>|\bX/\d+", "", line)
            for label in labels:
                line = line.replace(label, "")
            kept.append(line)
    return [c for c in "".join(kept) if c.isalpha()]


async def test_the_live_board_through_the_real_process(server, tmp_path) -> None:
    """An admin sets the channel, told at once when the bot may not post there (the board is
    posted at once when it may); a player finishes and one
    is still playing; a burst of finishes costs a few edits; a 429 on the edit is waited
    out; a board deleted in Discord is posted again once; the next day has its own."""
    database, channel, window = str(tmp_path / "bot.sqlite3"), GUILDS[0] + 1, 1.0
    puzzles = DailyPuzzles(E2E_SEED, ZoneInfo("UTC"))
    answer = puzzles.answer("wordle", date(2026, 3, 1))
    bot = BotProcess(server, database, clock_start="2026-03-01T12:00:00+00:00",
                     live_board_seconds=str(window))  # fmt: skip
    await started(server, bot)

    async def play(user_id: int, words: list[str], **options) -> None:
        # A public answer, at once or past a deferral (a loaded host answers after 1 s).
        start = await server.interact(command("wordle", "daily", user_id=user_id, **options),
                                      settle=True)  # fmt: skip
        assert start.accepted, start.text()
        for word in words:
            reply = await server.interact(command("guess", user_id=user_id, word=word),
                                          settle=True)  # fmt: skip
            assert reply.accepted, reply.text()

    def showing(*parts: str) -> dict | None:
        board = shown(server, channel)
        return board if board is not None and all(p in board["content"] for p in parts) else None

    server.deny(channel, "send_messages")  # said at once, and nothing is posted
    refused = await server.interact(command("liveboard", "channel", user_id=20), followups=1)
    assert "The live board cannot be shown in" in refused.text()
    assert "the bot may not post in its channel" in refused.text() and server.posts == []
    assert all(int(body.get("flags") or 0) & 64 for body in [refused.data, *refused.followups])
    server.channel_permissions.pop(channel)
    chosen = await server.interact(command("liveboard", "channel", user_id=20))
    assert chosen.flags & 64 and f"<#{channel}>" in chosen.text()
    first = await until(lambda: showing("Nobody has played"))

    await play(21, ["aahed", answer], mode="hard")
    await play(22, ["aahed"])
    board = await until(lambda: showing("2/6* <@21>", "Still playing: <@22>"))
    assert board["id"] == first["id"]
    content = board["content"]
    assert letters_left(content) == [], content  # no letter at all, past the fixed words
    assert not set(content) & SQUARES  # no grid while the day is played

    edits = len(server.edited[board["id"]])
    began = asyncio.get_running_loop().time()
    players = range(30, 38)
    await asyncio.gather(*(play(p, [answer]) for p in players))
    took = asyncio.get_running_loop().time() - began
    await until(lambda: showing(*(f"1/6 <@{p}>" for p in players)))
    burst = len(server.edited[board["id"]]) - edits
    print(f"a burst of {len(players)} finishes in {took:.2f} s: {burst} edits")
    assert burst <= took / window + 2, (burst, took)

    patch = "PATCH /channels/{channel_id}/messages/{message_id}"
    server.fail(patch, 429, retry_after=0.5)
    await play(40, [answer])
    await until(lambda: showing("1/6 <@40>"))
    assert any(op == patch and status == 429 for _, op, status in server.log)

    await server.delete_message(board["id"], guild_id=GUILDS[0])
    again = await until(lambda: showing("<@21>", "<@40>"))  # the whole day, posted again
    assert again["id"] != board["id"]
    await play(41, ["aahed", "zymic", answer])
    await until(lambda: showing("3/6 <@41>"))
    assert len(board_posts(server, channel)) == 2  # the first and the one posted again
    assert (await bot.stop())[0] == 0

    kept = dict(shown(server, channel) or {})
    server.identified.clear()
    next_day = BotProcess(server, database, clock_start="2026-03-02T00:00:30+00:00",
                          live_board_seconds=str(window))  # fmt: skip
    await started(server, next_day)
    await play(21, [puzzles.answer("wordle", date(2026, 3, 2))])
    newest = await until(lambda: showing("(2026-03-02)", "1/6 <@21>"))
    assert newest["id"] != kept["id"] and "Still playing: <@22>" in kept["content"]

    def yesterdays() -> str | None:  # the same message, 22's game closed by midnight's job
        content = server.store.by_id[kept["id"]]["content"]
        return content if "X/6 <@22>" in content else None

    closed = await until(yesterdays)
    assert "(2026-03-01)" in closed and "Still playing" not in closed
    grids = await until(lambda: "🟩" in (c := server.store.by_id[kept["id"]]["content"]) and c)
    assert re.search("^2/6\\* <@21>\n[⬛🟨🟩]{5}\n🟩{5}$", grids, flags=re.M)  # the day's grids
    finished = re.findall(r"^\d/6\*? <@\d+>$", kept["content"], flags=re.M)
    assert finished and all(line in closed for line in finished)
    assert len(board_posts(server, channel)) == 3
    code, err = await next_day.stop()
    assert code == 0, err[-2000:]


async def test_edits_discord_fails_are_tried_again_until_the_board_shows_the_day(
    server, shared_url
) -> None:
    """The real process on each engine: the day's last finish meets board edits Discord
    fails, two with 503 (discord.py does not retry those) and two with 429s past
    discord.py's own five tries; the board still ends showing it, nothing else changing."""
    channel = GUILDS[0] + 1
    answer = DailyPuzzles(E2E_SEED, ZoneInfo("UTC")).answer("wordle", date(2026, 3, 1))
    # A short window: the retries' back-off starts at it and doubles (0.1 + 0.2 + 0.4 + 0.8 s)
    bot = BotProcess(server, shared_url, clock_start="2026-03-01T12:00:00+00:00",
                     live_board_seconds="0.1")  # fmt: skip
    await started(server, bot)
    await server.interact(command("liveboard", "channel", user_id=20))
    start = await server.interact(command("wordle", "daily", user_id=22), settle=True)
    assert start.accepted, start.text()

    def showing(*parts: str, absent: str = "\0") -> dict | None:
        board = shown(server, channel)
        text = board["content"] if board else ""
        return board if all(p in text for p in parts) and absent not in text else None

    await until(lambda: showing("Still playing: <@22>"))
    patch = "PATCH /channels/{channel_id}/messages/{message_id}"
    # discord.py spends the bucket's places the 503s left on its 429 retries, then waits
    # for the bucket's reset: a 0.5 s bucket, not Discord's 5 s, keeps that wait short.
    server.buckets[patch] = ("edit message", 5, 0.5)
    server.fail(patch, 503, times=2)
    server.fail(patch, 429, retry_after=0.05, times=2 * 5)
    won = await server.interact(command("guess", user_id=22, word=answer), settle=True)
    assert won.accepted, won.text()
    await until(lambda: showing("1/6 <@22>", absent="Still playing"), timeout=60)
    assert [f.times for f in server.faults] == [0, 0]
    failed = [status for _, op, status in server.log if op == patch and status >= 429]
    assert failed.count(503) == 2 and failed.count(429) == 10
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_a_share_posted_in_a_share_channel_shows_on_the_live_board(server, tmp_path):
    """A Wordle share a member posts in the server's share channel counts for today: the
    board shows its score and its poster, as a share (no squares while the day is played)."""
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"), message_content_intent="true",
                     live_board_seconds="0.5")  # fmt: skip
    await started(server, bot)
    channel = GUILDS[0] + 1
    await server.interact(command("sharechannel", user_id=50, enabled=True))
    await server.interact(command("liveboard", "channel", user_id=50))
    await until(lambda: shown(server, channel))
    now = datetime.now(UTC)
    number = (now.date() - date(2021, 6, 19)).days
    grid = "⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"
    share = member_message(f"Wordle {number:,} 2/6\n\n{grid}", channel_id=channel, author_id=52,
                           guild_id=GUILDS[0], id=str(time_snowflake(now)))  # fmt: skip
    await server.deliver_message(share)
    board = await until(lambda: (b := shown(server, channel)) and "2/6 <@52>" in b["content"] and b)
    assert f"**Wordle #{number}**\nShares typed here" in board["content"]
    assert grid not in board["content"]
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_a_deletion_takes_the_player_off_the_live_board_at_once(server, tmp_path):
    """A player who finished and one still playing are on the board; /mydata delete takes
    each off it at once (the board's next edit, from the database), while the others
    stay."""
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"), live_board_seconds="0.5",
                     clock_start="2026-03-01T12:00:00+00:00")  # fmt: skip
    await started(server, bot)
    channel = GUILDS[0] + 1
    await server.interact(command("liveboard", "channel", user_id=20))
    for user_id, words in ((21, ["aahed"]), (22, ["aahed"]), (23, ["zymic"])):
        start = await server.interact(command("wordle", "daily", user_id=user_id))
        assert start.a_new_message, start.text()
        for word in words:
            await server.interact(command("guess", user_id=user_id, word=word))
    await server.interact(command("giveup", user_id=21))  # 21 finished (X), 22 and 23 play
    playing = "Still playing: <@22> <@23>"
    board = await until(lambda: (b := shown(server, channel)) and playing in b["content"] and b)
    assert "X/6 <@21>" in board["content"]
    for user_id in (21, 22):
        deleted = await server.interact(
            command("mydata", "delete", user_id=user_id, confirm="DELETE")
        )
        assert "Deleted your games" in deleted.text()

    def without_them() -> dict | None:
        now = shown(server, channel)
        return now if now and not re.search("<@2[12]>", now["content"]) else None

    now = await until(without_them)
    assert now["id"] == board["id"] and "Still playing: <@23>" in now["content"]
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_a_share_corrected_in_another_server_leaves_the_first_ones_board(server, tmp_path):
    """A member's share counts in one server: posted in a share channel here, then corrected
    in another server's share channel, it shows there and leaves this server's board at once
    (not at its next change), so no two boards credit it."""
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"), message_content_intent="true",
                     live_board_seconds="0.5")  # fmt: skip
    await started(server, bot)
    here, there = GUILDS[0], GUILDS[1]
    for guild in (here, there):
        await server.interact(command("sharechannel", user_id=50, guild=guild, enabled=True))
        await server.interact(command("liveboard", "channel", user_id=50, guild=guild))
        await until(lambda guild=guild: shown(server, guild + 1))
    now = datetime.now(UTC)

    async def post(guild: int, guesses: int) -> None:
        text = share_of(now.date(), guesses)
        message = member_message(text, channel_id=guild + 1, author_id=52, guild_id=guild,
                                 id=str(time_snowflake(datetime.now(UTC))))  # fmt: skip
        await server.deliver_message(message)

    def board(guild: int, *parts: str, absent: str = "\0") -> dict | None:
        now = shown(server, guild + 1)
        text = now["content"] if now else ""
        return now if all(p in text for p in parts) and absent not in text else None

    await post(here, 4)
    await until(lambda: board(here, "4/6 <@52>"))
    await post(there, 3)
    await until(lambda: board(there, "3/6 <@52>"))
    await until(lambda: board(here, "Nobody has played", absent="<@52>"))
    code, err = await bot.stop()
    assert code == 0, err[-2000:]


async def test_boards_are_read_a_few_at_a_time_each_when_its_turn_comes() -> None:
    """At midnight every server's board changes at once: only ``at_once`` are read and sent
    at a time, the others wait unread, and a change made while one waits is in its one
    read (not a second edit after it)."""
    running, most, flushed = 0, 0, []
    release = asyncio.Event()

    async def flush(key: int) -> bool:
        nonlocal running, most
        running += 1
        most = max(most, running)
        flushed.append(key)
        await release.wait()
        running -= 1
        return False

    debouncer = Debouncer(0.0, flush, at_once=2)
    for key in range(6):
        debouncer.mark(key)
    await until(lambda: len(flushed) == 2)
    debouncer.mark(5)  # waiting for its turn: folded into it
    release.set()
    await until(lambda: not debouncer.tasks)
    assert most == 2 and sorted(flushed) == list(range(6)), (most, flushed)
