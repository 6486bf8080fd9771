"""Co-op channel games: points for what each row discovers, the cooldown (stored, so it holds
across restarts), one game per channel, two guesses at once from two processes, the co-op
board and deleted players, on both engines; then the cog through discord.py's real objects."""

import asyncio
import dataclasses
import json
from datetime import UTC, datetime

import pytest
from discord_double import NOTHING, DiscordDouble, only
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_bot import WordleBot
from bot.render.text import coop_rows, coop_standings_text
from bot.services import Player, Services
from bot.services.coop import (
    BOARD_CHANGED,
    NO_GAME,
    RUNNING,
    Turn,
    discovery_points,
    row_points,
)
from bot.services.games import GAME_OVER
from bot.settings import load_settings
from bot.storage.coop import CoopStanding
from engine.multiboard import MultiGame
from engine.pattern import score, to_digits
from engine.variants import get_variant

SEED = "5b7d9f1a3c5e7a9b1d3f5a7c9e2b4d6f-coop"
GUILD, CHANNEL, OTHER_CHANNEL = 100, 555, 556
START = datetime(2026, 3, 2, 12, tzinfo=UTC)
ANN, BOB, CAT = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat"), 1))
WORDLE = get_variant("wordle")


@pytest.fixture
def opened(opened):
    """conftest's factory; co-op deals ``answers`` (CIGAR unless a test says)."""
    return lambda url, clock, answers=("cigar",): opened(url, clock, deal=answers)


def row(guess: str, answer: str = "cigar") -> tuple[str, str]:
    return guess, to_digits(score(guess, answer), len(answer))


async def start(services: Services, channel: int = CHANNEL, game: str = "wordle") -> int:
    outcome = await services.coop.start(GUILD, channel, game)
    assert outcome.ok and outcome.coop is not None, outcome
    return outcome.coop.coop_id


async def rows_stored(services: Services, coop_id: int) -> list[tuple[int, int, int]]:
    return [(r.turn, r.player_id, r.points) for r in await services.storage.coop.rows(coop_id)]


async def standings(services: Services) -> list[tuple[str, int, int, int]]:
    return [(s.name, s.points, s.guesses, s.solves) for s in await services.coop.standings(GUILD)]


# -- points ------------------------------------------------------------------------------


def test_points_for_new_yellows_new_greens_and_the_solve() -> None:
    crane = row("crane")  # C green, R and A yellow: 2 + 1 + 1
    assert crane == ("crane", "21100") and discovery_points([], crane) == 4
    arbor = row("arbor")  # A yellow again (known), R green at 5 (a new position): 2
    assert arbor == ("arbor", "10002") and discovery_points([crane], arbor) == 2
    clack = row("clack")  # C green again (paid once), A yellow again (known), the rest grey
    assert clack == ("clack", "20100") and discovery_points([crane, arbor], clack) == 0
    # I, G and A green for the first time (C and R were): 2 * 3, and the solve: 5
    assert discovery_points([crane, arbor, clack], row("cigar")) == 11
    assert discovery_points([], row("cigar")) == 15  # solved at once: every green is new
    # A letter shown green before is known when it turns up yellow: C of CLUMP, then SCOFF
    assert discovery_points([row("clump")], row("scoff")) == 0
    # One new letter yellow twice counts once: SPEED's two E's against EERIE
    speed = row("speed", "eerie")
    assert speed == ("speed", "00110") and discovery_points([], speed) == 1


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[str]]:
    words = WORDLE.answers.words
    answer = draw(st.sampled_from(words))
    guesses = draw(st.lists(st.sampled_from(words), min_size=1, max_size=6))
    if draw(st.booleans()):  # often solved
        guesses = [*guesses[:5], answer]
    return answer, guesses[: guesses.index(answer) + 1] if answer in guesses else guesses


def recount(rows: list[tuple[str, str]]) -> int:
    """The points of a board, counted another way: each position ever green, each letter
    yellow in the first row that showed it, and the solve."""
    greens = {i for _, d in rows for i, tile in enumerate(d) if tile == "2"}
    first_shown: dict[str, str] = {}
    for guess, digits in rows:
        seen = {}
        for letter, tile in zip(guess, digits, strict=True):
            if tile != "0":
                seen[letter] = "1" if tile == "1" or seen.get(letter) == "1" else tile
        for letter, tile in seen.items():
            first_shown.setdefault(letter, tile)
    yellows = sum(1 for tile in first_shown.values() if tile == "1")
    solved = bool(rows) and rows[-1][1] == "22222"
    return 2 * len(greens) + yellows + 5 * solved


@given(games())
def test_points_are_never_negative_and_sum_to_a_fresh_recount(game) -> None:
    answer, guesses = game
    rows = [row(g, answer) for g in guesses]
    points = [discovery_points(rows[:i], r) for i, r in enumerate(rows)]
    assert all(p >= 0 for p in points)
    assert sum(points) == recount(rows)
    greens_paid = [sum(1 for j, t in enumerate(r[1]) if t == "2" and all(p[1][j] != "2"
                   for p in rows[:i])) for i, r in enumerate(rows)]  # fmt: skip
    assert sum(greens_paid) == len({j for r in rows for j, t in enumerate(r[1]) if t == "2"})


@given(st.lists(st.sampled_from(WORDLE.answers.words), min_size=2, max_size=2, unique=True),
       st.lists(st.sampled_from(WORDLE.answers.words), min_size=1, max_size=7))  # fmt: skip
def test_a_multi_board_row_scores_each_board_it_is_played_on(answers, guesses) -> None:
    from bot.services.coop import _game_view
    from bot.storage.coop import CoopGame

    game = MultiGame(WORDLE, answers)
    for guess in guesses:
        if not game.over:
            game.guess(guess)
    view = _game_view(CoopGame(1, GUILD, CHANNEL, "dordle", {}, "playing", 0), game,
                      game.status.value)  # fmt: skip
    assert view.boards is not None
    total = sum(row_points(view, i) for i in range(len(view.rows)))
    assert total == sum(recount(board) for board in view.boards)


# -- playing through the service -----------------------------------------------------------


async def test_a_game_played_by_three_scores_each_row_and_the_board(services, clock) -> None:
    coop_id = await start(services)
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok  # 4
    assert (await services.coop.guess(BOB, coop_id, "arbor")).ok  # 2
    clock.advance(30)
    assert (await services.coop.guess(ANN, coop_id, "clack")).ok  # 0
    done = await services.coop.guess(CAT, coop_id, "CIGAR ")  # 11
    assert done.ok and done.coop is not None and done.coop.status == "won"
    assert done.coop.game.answer == "cigar"
    assert [(t.name, t.points) for t in done.coop.turns] == [
        ("ann", 4), ("bob", 2), ("ann", 0), ("cat", 11)]  # fmt: skip
    assert [t.points for t in done.coop.turns] == [
        row_points(done.coop.game, i) for i in range(4)]  # fmt: skip
    assert await standings(services) == [("cat", 11, 1, 1), ("ann", 4, 2, 0), ("bob", 2, 1, 0)]
    lines = coop_rows(done.coop)
    assert lines[0] == "🟩🟨🟨⬛⬛  `CRANE`  ann +4" and lines[3].endswith("`CIGAR`  cat +11")
    assert coop_standings_text(await services.coop.standings(GUILD)).splitlines()[0] == (
        " 1. cat: 11 points, 1 guess, 1 solve")  # fmt: skip
    again = await services.coop.guess(BOB, coop_id, "crane")
    assert not again.ok and again.message == GAME_OVER


async def test_refused_words_store_nothing(services) -> None:
    coop_id = await start(services)
    for text, message in (("zzzzz", "Not in word list"), ("cran", "Not enough letters"),
                          ("x" * 4000, "Too many letters")):  # fmt: skip
        outcome = await services.coop.guess(ANN, coop_id, text)
        assert not outcome.ok and outcome.message == message
    assert await rows_stored(services, coop_id) == []
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok  # no cooldown was started
    missing = await services.coop.guess(ANN, 999, "crane")
    assert not missing.ok and missing.message == NO_GAME
    assert not (await services.coop.start(GUILD, OTHER_CHANNEL, "absurdle")).ok


async def test_a_game_out_of_guesses_is_lost_and_a_new_one_may_start(services, clock) -> None:
    coop_id = await start(services)
    for word in ("crane", "slate", "moist", "pudgy", "below", "thumb"):
        outcome = await services.coop.guess(ANN, coop_id, word)
        assert outcome.ok, outcome
        clock.advance(30)
    assert outcome.coop is not None and outcome.coop.status == "lost"
    assert outcome.coop.game.answer == "cigar"
    assert await start(services) != coop_id


async def test_primel_and_quordle_play_together_too(database_url, clock, opened) -> None:
    services = await opened(database_url, clock, ("cigar", "rebut", "sissy", "humph"))
    quordle = await start(services, game="quordle")
    outcome = await services.coop.guess(ANN, quordle, "cigar")
    assert outcome.ok and outcome.coop is not None and outcome.coop.game.boards is not None
    assert outcome.coop.turns[0].points == row_points(outcome.coop.game, 0) >= 15
    services.coop.deal = lambda variant, n: ["99991"]
    primel = await start(services, OTHER_CHANNEL, "primel")
    assert (await services.coop.guess(BOB, primel, "99991")).coop.status == "won"
    await services.close()


# -- the cooldown ------------------------------------------------------------------------


async def test_a_guess_inside_the_cooldown_is_refused_and_stores_nothing(services, clock) -> None:
    coop_id = await start(services)
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok
    clock.advance(10)
    refused = await services.coop.guess(ANN, coop_id, "slate")
    assert not refused.ok and refused.message == (
        "Wait 20 s before your next co-op guess (one guess every 30 s each)")  # fmt: skip
    assert refused.coop is not None and len(refused.coop.game.rows) == 1
    assert await rows_stored(services, coop_id) == [(1, ANN.id, 4)]
    assert (await services.storage.coop.game(coop_id)).version == 1
    assert not (await services.coop.ready(ANN, coop_id)).ok
    assert (await services.coop.guess(BOB, coop_id, "slate")).ok  # each their own
    clock.advance(20)
    assert (await services.coop.ready(ANN, coop_id)).ok
    assert (await services.coop.guess(ANN, coop_id, "moist")).ok


async def test_the_admin_setting_changes_the_cooldown(services, clock) -> None:
    assert await services.coop.cooldown(GUILD) == 30
    await services.coop.set_cooldown(GUILD, 5)
    coop_id = await start(services)
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok
    clock.advance(4)
    assert "Wait 1 s" in (await services.coop.guess(ANN, coop_id, "slate")).message
    clock.advance(1)
    assert (await services.coop.guess(ANN, coop_id, "slate")).ok
    await services.coop.set_cooldown(GUILD, 0)
    assert (await services.coop.guess(ANN, coop_id, "moist")).ok
    settings = await services.storage.guild_settings(GUILD)  # other settings stay as they were
    await services.storage.save_guild_settings(dataclasses.replace(settings, season_days=7))
    assert await services.coop.cooldown(GUILD) == 0


async def test_the_cooldown_holds_across_a_restart(shared_url, clock, opened) -> None:
    first = await opened(shared_url, clock)
    coop_id = await start(first)
    assert (await first.coop.guess(ANN, coop_id, "crane")).ok
    await first.close()
    clock.advance(29)
    restarted = await opened(shared_url, clock)
    refused = await restarted.coop.guess(ANN, coop_id, "slate")
    assert not refused.ok and "Wait 1 s" in refused.message
    clock.advance(1)
    assert (await restarted.coop.guess(ANN, coop_id, "slate")).ok
    await restarted.close()


# -- one game per channel, and two guesses at once -------------------------------------


async def test_one_game_per_channel_a_second_start_shows_it(services) -> None:
    coop_id = await start(services)
    again = await services.coop.start(GUILD, CHANNEL, "primel")
    assert again.ok and again.message == RUNNING and again.coop.coop_id == coop_id
    assert again.coop.game.variant == "wordle"
    assert await start(services, OTHER_CHANNEL) != coop_id  # another channel, another game
    assert (await services.coop.current(CHANNEL)).coop.coop_id == coop_id


async def test_two_starts_at_once_make_one_game(shared_url, clock, opened) -> None:
    first, second = await opened(shared_url, clock), await opened(shared_url, clock)
    outcomes = await asyncio.gather(first.coop.start(GUILD, CHANNEL),
                                    second.coop.start(GUILD, CHANNEL))  # fmt: skip
    assert len({o.coop.coop_id for o in outcomes}) == 1
    await first.close()
    await second.close()


async def test_two_guesses_at_once_from_two_processes_exactly_one_applies(
    shared_url, clock, opened
) -> None:
    first, second = await opened(shared_url, clock), await opened(shared_url, clock)
    coop_id = await start(first)
    both_read = asyncio.Barrier(2)  # each reads the board before either writes
    for services in (first, second):
        hold_first_read(services, both_read)
    outcomes = await asyncio.gather(first.coop.guess(ANN, coop_id, "crane"),
                                    second.coop.guess(BOB, coop_id, "slate"))  # fmt: skip
    assert sorted(o.ok for o in outcomes) == [False, True]
    lost = next(o for o in outcomes if not o.ok)
    assert lost.message == BOARD_CHANGED
    won = next(o for o in outcomes if o.ok)
    stored = await rows_stored(first, coop_id)
    assert len(stored) == 1 and [t.player_id for t in won.coop.turns] == [stored[0][1]]
    assert len(await standings(first)) == 1
    await first.close()
    await second.close()


def hold_first_read(services: Services, barrier: asyncio.Barrier) -> None:
    """The service's first read of a game waits at ``barrier`` once it has read."""
    read, waited = services.storage.coop.game, []

    async def game(coop_id: int):
        found = await read(coop_id)
        if not waited:
            waited.append(True)
            await asyncio.wait_for(barrier.wait(), 10)
        return found

    services.storage.coop.game = game  # type: ignore[method-assign]


# -- the moderator's end, and deleted players ------------------------------------------------


async def test_a_moderator_ends_a_game_and_nobody_scores(services) -> None:
    coop_id = await start(services)
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok
    ended = await services.coop.end(CHANNEL)
    assert ended.ok and ended.coop.status == "ended" and ended.coop.game.answer == "cigar"
    assert not (await services.coop.end(CHANNEL)).ok
    assert (await services.coop.guess(BOB, coop_id, "cigar")).message == GAME_OVER
    assert await standings(services) == [("ann", 4, 1, 0)]
    assert await start(services) != coop_id


async def test_deleting_a_player_removes_their_rows_and_the_board_plays_on(services) -> None:
    coop_id = await start(services)
    assert (await services.coop.guess(ANN, coop_id, "crane")).ok
    assert (await services.coop.guess(BOB, coop_id, "arbor")).ok
    exported = json.loads(await services.export_player(ANN.id))
    assert exported["coop_rows"][0]["points"] == 4 and exported["coop_standings"][0]["points"] == 4
    assert await services.delete_player(ANN.id)
    view = (await services.coop.current(CHANNEL)).coop
    assert view.turns == [Turn(None, "", 0), Turn(BOB.id, "bob", 2)]
    assert coop_rows(view)[0].endswith("(deleted)") and len(view.game.rows) == 2
    done = await services.coop.guess(CAT, coop_id, "cigar")
    assert done.ok and [t.name for t in done.coop.turns] == ["", "bob", "cat"]
    assert await rows_stored(services, coop_id) == [(2, BOB.id, 2), (3, CAT.id, 11)]
    assert await services.coop.standings(GUILD) == [
        CoopStanding(CAT.id, "cat", 11, 1, 1), CoopStanding(BOB.id, "bob", 2, 1, 0)]  # fmt: skip


# -- the cog ---------------------------------------------------------------------------------

ANN_ID, BOB_ID = 111, 222


@pytest.fixture
async def double(clock, make_double):
    return await make_double(clock=clock, deal=["cigar"])


async def test_a_shared_board_in_discord_guessed_by_two_players(double, clock) -> None:
    board = only(await double.command("coop", "start", user_id=ANN_ID))
    assert board.a_new_message and not board.ephemeral and board.files == ["board.png"]
    assert "Wordle co-op" in board.text and "Guess 1 of 6" in board.text
    [button] = board.custom_ids()
    assert button.startswith("wb:coop:guess:")
    modal = only(await double.click(button, user_id=ANN_ID, on=board))
    assert modal.kind == 9 and modal.data["title"] == "Co-op guess 1 of 6"
    updated = only(await double.submit(modal, {"word": "crane"}, user_id=ANN_ID))
    assert updated.an_update and f"`CRANE`  <@{ANN_ID}> +4" in updated.text  # letters shown
    wait = only(await double.click(button, user_id=ANN_ID, on=updated))
    assert wait.ephemeral and wait.text.startswith("Wait 30 s before your next co-op guess")
    late = only(await double.submit(modal, {"word": "slate"}, user_id=ANN_ID))  # an old form
    assert late.ephemeral and late.text.startswith("Wait 30 s")
    bad = only(await double.submit(modal, {"word": "zzzzz"}, user_id=BOB_ID))
    assert bad.ephemeral and bad.text == "Not in word list"
    again = only(await double.command("coop", "start", user_id=BOB_ID, game="primel"))
    assert again.text.startswith(RUNNING) and "`CRANE`" in again.text
    won = only(await double.submit(modal, {"word": "cigar"}, user_id=BOB_ID))
    assert won.an_update and "Solved in 2/6!" in won.text and won.custom_ids() == []
    over = only(await double.click(button, user_id=BOB_ID, on=board))  # an old copy
    assert over.ephemeral and over.text == GAME_OVER
    standings = only(await double.command("coop", "board", user_id=ANN_ID))
    assert not standings.ephemeral and standings.body["data"]["allowed_mentions"]["parse"] == []
    assert f"1. <@{BOB_ID}>: 13 points, 1 guess, 1 solve" in standings.text
    assert f"2. <@{ANN_ID}>: 4 points" in standings.text


async def test_coop_needs_a_server_channel_and_end_needs_manage_messages(double) -> None:
    dm = only(await double.command("coop", "start", user_id=ANN_ID, guild=False))
    assert dm.ephemeral and "in a server" in dm.text
    await double.command("coop", "start", user_id=ANN_ID)
    refused = only(await double.command("coop", "end", user_id=BOB_ID, permissions=NOTHING))
    assert refused.ephemeral and "Manage Messages" in refused.text
    ended = only(await double.command("coop", "end", user_id=ANN_ID))
    assert "Ended by a moderator. The answer was CIGAR." in ended.text
    assert ended.custom_ids() == []
    nothing = only(await double.command("coop", "end", user_id=ANN_ID))
    assert nothing.ephemeral and nothing.text == NO_GAME


async def test_the_settings_command_sets_the_coop_cooldown(double) -> None:
    refused = only(await double.command("settings", "server", user_id=ANN_ID, permissions=NOTHING,
                                        coop_cooldown=0))  # fmt: skip
    assert refused.ephemeral and "Manage Server" in refused.text
    done = only(await double.command("settings", "server", user_id=ANN_ID, coop_cooldown=0))
    assert done.ephemeral and "Co-op: one guess every 0 s per player." in done.text
    board = only(await double.command("coop", "start", user_id=ANN_ID))
    [button] = board.custom_ids()
    modal = only(await double.click(button, user_id=ANN_ID, on=board))
    only(await double.submit(modal, {"word": "crane"}, user_id=ANN_ID))
    assert only(await double.click(button, user_id=ANN_ID, on=board)).kind == 9  # no wait


async def test_the_board_button_and_form_work_after_a_restart(tmp_path, clock) -> None:
    settings = load_settings(database_path=str(tmp_path / "coop.sqlite3"), daily_seed=SEED)
    bots = []
    for _ in range(2):
        bot = WordleBot(settings, warm_engine=False)
        await bot._async_setup_hook()
        await bot.setup_hook()
        bot.services.daily.clock = clock
        bot.services.coop.deal = lambda variant, n: ["cigar"]
        bots.append(bot)
        if len(bots) == 1:
            board = only(await DiscordDouble(bot).command("coop", "start", user_id=ANN_ID))
            modal = only(await DiscordDouble(bot).click(board.custom_ids()[0], user_id=ANN_ID,
                                                        on=board))  # fmt: skip
            await bot.close()
    double = DiscordDouble(bots[1])
    won = only(await double.submit(modal, {"word": "cigar"}, user_id=BOB_ID))
    assert won.an_update and "Solved in 1/6!" in won.text
    await bots[1].close()


# -- the console -----------------------------------------------------------------------------


async def test_the_console_plays_coop_with_local_players(database_url, clock, opened) -> None:
    from bot.console import Console

    services = await opened(database_url, clock)
    shown: list[str] = []
    lines = iter(["/coop", "/cg crane", "/cg slate", "/as bob", "/coop start game:quordle",
                  "/cg cigar", "/coop board", "/coop nonsense", "/cg crane", "/coop end",
                  "/quit"])  # fmt: skip

    async def read(_: str) -> str | None:
        return next(lines, None)

    await Console(services, ANN, shown.append, colour=False).run(read)
    await services.close()
    text = "\n".join(shown)
    assert "Wordle co-op\n  Guess 1 of 6" in text
    assert "🟩🟨🟨⬛⬛  CRANE  ann +4" in text
    assert "Wait 30 s before your next co-op guess" in text
    assert f"{RUNNING}\nWordle co-op" in text  # /coop quordle shows the running game
    assert "🟩🟩🟩🟩🟩  CIGAR  bob +13\n  Solved in 2/6!" in text
    assert " 1. bob: 13 points, 1 guess, 1 solve\n 2. ann: 4 points, 1 guess, 0 solves" in text
    assert "/coop: 'nonsense' is not understood; /coop takes start, board or end" in text
    assert text.count(NO_GAME) == 2  # /cg and /coop end once the game is over
