"""Races: one answer for several players, each on a private board; places and times by a
clock the test controls, the lobby's auto-start and the time limit, refusals, two processes
finishing at once, a restart in the middle, and the race board; on both engines."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from clock import Clock
from discord_double import Sent, message, only

from bot.discord_bot import WordleBot
from bot.services import Player, Services
from bot.services.games import NO_HINTS_IN_RACES
from bot.services.races import NEED_CHANNEL, RaceOutcome
from bot.storage.records import GLOBAL
from cogs.races import scoreboard

SEED = "0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c-races"
GUILD, CHANNEL = 100, 555
START = datetime(2026, 3, 2, 12, tzinfo=UTC)
ANN, BOB, CAT, DAN = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan"), 1))


ANSWERS = {"wordle": "cigar", "primel": "10007"}


@pytest.fixture
def opened(opened):
    """conftest's factory, with this file's answers (CIGAR, 10007)."""
    return lambda url, clock: opened(url, clock, answers=ANSWERS)


async def lobby(services: Services, *players: Player, game: str = "wordle",
                mode: str = "normal") -> int:  # fmt: skip
    """A race hosted by the first player, the others joined."""
    made = await services.races.create(players[0], GUILD, CHANNEL, game, mode)
    assert made.ok and made.board is not None
    race_id = made.board.race.id
    for player in players[1:]:
        assert (await services.races.join(race_id, player)).ok
    return race_id


async def solve(services: Services, race_id: int, player: Player, *wrong: str) -> RaceOutcome:
    """The player opens their board, plays ``wrong`` guesses and then the answer."""
    board = await services.races.play(race_id, player)
    assert board.ok and board.game is not None, board.message
    race = await services.storage.races.get(race_id)
    for word in (*wrong, *race.answers):
        outcome = await services.games.guess(player, GUILD, word, game_id=board.game.game_id)
        assert outcome.ok, outcome.message
    return await services.races.finished(race_id, player.id)


async def give_up(services: Services, race_id: int, player: Player) -> RaceOutcome:
    board = await services.races.play(race_id, player)
    assert (await services.games.give_up(player, GUILD, game_id=board.game.game_id)).ok
    return await services.races.finished(race_id, player.id)


def places(outcome: RaceOutcome) -> dict[str, tuple]:
    assert outcome.board is not None
    return {r.name: (r.place, r.won, r.guesses) for r in outcome.board.players}


async def test_places_times_and_the_podium(services, clock) -> None:
    race_id = await lobby(services, ANN, BOB, CAT, DAN)
    assert (await services.races.start(race_id, ANN)).ok
    clock.advance(30)
    first = await solve(services, race_id, BOB, "crane", "moist")
    assert first.ok and places(first)["bob"] == (1, True, 3)
    clock.advance(15)
    second = await solve(services, race_id, ANN, "crane", "moist", "slate")
    assert places(second)["ann"] == (2, True, 4) and second.board.race.status == "running"
    clock.advance(5)
    await give_up(services, race_id, CAT)
    clock.advance(5)
    last = await solve(services, race_id, DAN)
    board = last.board
    assert last.ended and board.race.status == "over"  # everyone finished
    assert places(last) == {"bob": (1, True, 3), "ann": (2, True, 4), "dan": (3, True, 1),
                            "cat": (4, False, 0)}  # fmt: skip
    times = {r.name: (r.finished_at - board.race.started_at).total_seconds()
             for r in board.players}  # fmt: skip
    assert times == {"bob": 30, "ann": 45, "cat": 50, "dan": 55}
    assert board.race.answers == ["cigar"] and set(board.games) == {1, 2, 3, 4}
    # Standings, here and everyone's, added once.
    assert (await services.races.finished(race_id, DAN.id)).ok is False
    board_here = {s.name: (s.races, s.wins, s.podiums, s.mean_place)
                  for s in await services.races.standings(GUILD)}  # fmt: skip
    assert board_here == {"bob": (1, 1, 1, 1.0), "ann": (1, 0, 1, 2.0), "dan": (1, 0, 1, 3.0),
                          "cat": (1, 0, 0, 4.0)}  # fmt: skip
    assert [s.name for s in await services.storage.races.standings(GLOBAL)] == [
        "bob",
        "ann",
        "dan",
        "cat",
    ]


async def test_the_race_text_shows_colours_not_letters(services, clock) -> None:
    from bot.render.text import race_text

    race_id = await lobby(services, ANN, BOB)
    text = race_text(await services.races.board(race_id))
    assert "ann" in text and "bob" in text and "CIGAR" not in text.upper()
    await services.races.start(race_id, ANN)
    clock.advance(42)
    done = await solve(services, race_id, ANN, "crane")
    text = race_text(done.board)
    assert "0:42" in text and "2 guesses" in text and "CRANE" not in text.upper()
    assert "CIGAR" not in text.upper()
    clock.advance(10)
    over = await give_up(services, race_id, BOB)
    podium = race_text(over.board)
    assert "🥇" in podium and "CIGAR" in podium.upper()


async def test_the_lobby_starts_by_itself_and_the_time_limit_ends_it(services, clock) -> None:
    race_id = await lobby(services, ANN, BOB, CAT)
    clock.advance(59)
    assert await services.races.run_due() == []
    clock.advance(1)
    started = await services.races.run_due()
    assert [o.board.race.status for o in started] == ["running"]
    assert started[0].board.race.started_at == START + timedelta(seconds=60)
    await solve(services, race_id, BOB)
    cat = await services.races.play(race_id, CAT)  # opened, never finished
    clock.advance(599)
    assert await services.races.run_due() == []
    clock.advance(1)
    [ended] = await services.races.run_due()
    assert ended.board.race.status == "over" and places(ended) == {
        "bob": (1, True, 1),
        "ann": (2, False, None),
        "cat": (2, False, None),
    }
    # The unfinished game was given up: its answer may be shown now.
    assert (await services.games.game(cat.game.game_id)).status == "lost"
    assert await services.races.run_due() == []


async def test_a_lobby_of_one_is_called_off(services, clock) -> None:
    race_id = await lobby(services, ANN)
    refused = await services.races.start(race_id, ANN)
    assert not refused.ok and refused.message == "A race needs at least 2 players"
    clock.advance(60)
    [off] = await services.races.run_due()
    assert off.board.race.status == "over" and off.board.race.started_at is None
    assert await services.races.standings(GUILD) == []


async def test_refusals_store_nothing(services) -> None:
    dm = await services.races.create(ANN, None, CHANNEL)
    assert not dm.ok and dm.message == NEED_CHANNEL
    assert not (await services.races.create(ANN, 0, CHANNEL)).ok
    assert not (await services.races.create(ANN, GUILD, CHANNEL, "absurdle")).ok
    assert (await services.storage._one("SELECT COUNT(*) FROM races"))[0] == 0
    race_id = await lobby(services, ANN, BOB)
    twice = await services.races.join(race_id, BOB)
    assert not twice.ok and twice.message == "You're already in this race"
    not_host = await services.races.start(race_id, BOB)
    assert not not_host.ok and not_host.message == "Only the host can start the race"
    early = await services.races.play(race_id, BOB)
    assert not early.ok and early.message == "The race has not started yet"
    count = await services.storage._one("SELECT COUNT(*) FROM race_players")
    assert count[0] == 2
    for i in range(3, 26):
        assert (await services.races.join(race_id, Player(i, f"p{i}"))).ok
    full = await services.races.join(race_id, Player(26, "p26"))
    assert not full.ok and full.message == "This race is full (25 players)"
    assert (await services.storage._one("SELECT COUNT(*) FROM race_players"))[0] == 25
    assert (await services.races.start(race_id, ANN)).ok
    late = await services.races.join(race_id, Player(30, "late"))
    assert not late.ok and late.message == "This race has started"
    outsider = await services.races.play(race_id, Player(30, "late"))
    assert not outsider.ok and outsider.message == "You're not in this race"


async def test_hard_mode_and_multi_board_races(services, clock) -> None:
    hard = await lobby(services, ANN, BOB, mode="hard")
    await services.races.start(hard, ANN)
    for player in (ANN, BOB):  # hard mode for everyone
        board = await services.races.play(hard, player)
        assert board.game.mode == "hard"
        await services.games.guess(player, GUILD, "chair", game_id=board.game.game_id)
        refused = await services.games.guess(player, GUILD, "moist", game_id=board.game.game_id)
        assert not refused.ok and refused.message == "1st letter must be C"
    services.games.deal = lambda variant, n: ["cigar", "rebut", "sissy", "humph"][:n]
    race_id = await lobby(services, CAT, DAN, game="quordle")
    await services.races.start(race_id, CAT)
    board = await services.races.play(race_id, CAT)
    assert board.game.kind == "quordle:race" and len(board.game.boards) == 4
    assert (await services.races.play(race_id, DAN)).game.game_id != board.game.game_id
    for word in ("cigar", "rebut", "sissy", "humph"):
        assert (await services.games.guess(CAT, GUILD, word, game_id=board.game.game_id)).ok
    done = await services.races.finished(race_id, CAT.id)
    assert places(done)["cat"] == (1, True, 4)


async def test_race_results_never_touch_the_daily(services, clock) -> None:
    daily = await services.games.start(CAT, GUILD, daily=True)
    answer = services.daily.answer("wordle", clock().date())
    await services.games.guess(CAT, GUILD, answer, game_id=daily.game.game_id)
    before = await services.storage.standing(CAT.id, "wordle:daily")
    race_id = await lobby(services, ANN, CAT)
    await services.races.start(race_id, ANN)
    await solve(services, race_id, ANN)
    await give_up(services, race_id, CAT)
    assert await services.storage.standing(CAT.id, "wordle:daily") == before
    assert await services.storage.standing(ANN.id, "wordle:daily") is None
    assert (await services.storage.standing(ANN.id, "wordle:race")).played == 1
    exported = await services.storage.export_player(ANN.id)  # /mydata export holds races
    assert [(r["race_id"], r["place"], r["won"]) for r in exported["races"]] == [(race_id, 1, 1)]
    standings = [(r["scope"], r["races"], r["wins"]) for r in exported["race_standings"]]
    assert standings == [(-1, 1, 1), (GUILD, 1, 1)]  # everyone's board, then the server's


async def test_a_restart_in_the_middle_keeps_the_race(shared_url, clock, opened) -> None:
    first = await opened(shared_url, clock)
    race_id = await lobby(first, ANN, BOB, CAT)
    await first.races.start(race_id, ANN)
    board = await first.races.play(race_id, BOB)
    await first.games.guess(BOB, GUILD, "crane", game_id=board.game.game_id)
    clock.advance(20)
    await solve(first, race_id, ANN)
    await first.close()
    clock.advance(20)
    second = await opened(shared_url, clock)
    try:
        again = await second.races.play(race_id, BOB)  # the same board, its row kept
        assert again.game.game_id == board.game.game_id and len(again.game.rows) == 1
        done = await solve(second, race_id, BOB)
        racers = {r.name: r for r in done.board.players}
        assert racers["ann"].place == 1 and racers["bob"].place == 2
        assert racers["bob"].finished_at - done.board.race.started_at == timedelta(seconds=40)
        clock.advance(560)
        [ended] = await second.races.run_due()
        assert places(ended)["cat"] == (3, False, None)
    finally:
        await second.close()


async def test_two_processes_finish_two_players_at_once(shared_url, clock, opened) -> None:
    one, two = await opened(shared_url, clock), await opened(shared_url, clock)
    try:
        race_id = await lobby(one, ANN, BOB, CAT)
        await one.races.start(race_id, ANN)
        boards = {p.id: (await one.races.play(race_id, p)).game.game_id for p in (ANN, BOB)}
        clock.advance(30)
        await one.games.guess(ANN, GUILD, "cigar", game_id=boards[ANN.id])
        await two.games.guess(BOB, GUILD, "cigar", game_id=boards[BOB.id])
        results = await asyncio.gather(one.races.finished(race_id, ANN.id),
                                       two.races.finished(race_id, BOB.id))  # fmt: skip
        assert all(r.ok for r in results)
        racers = (await one.races.board(race_id)).players
        # The same stamp: a tie shares the place.
        assert sorted((r.name, r.place) for r in racers if r.won) == [("ann", 1), ("bob", 1)]
        # A finish reported twice, from both processes, counts once.
        again = await asyncio.gather(one.races.finished(race_id, ANN.id),
                                     two.races.finished(race_id, ANN.id))  # fmt: skip
        assert not any(r.ok for r in again)
        clock.advance(1)
        await one.games.give_up(CAT, GUILD, game_id=(await one.races.play(race_id, CAT))
                                .game.game_id)  # fmt: skip
        ends = await asyncio.gather(
            one.races.finished(race_id, CAT.id),
            two.races.finished(race_id, CAT.id),
            two.races.run_due(),
        )
        assert sum(o.ended for o in (*ends[:2], *ends[2])) == 1  # one podium
        standings = await one.races.standings(GUILD)
        assert sorted((s.name, s.races, s.wins) for s in standings) == [
            ("ann", 1, 1),
            ("bob", 1, 1),
            ("cat", 1, 0),
        ]
    finally:
        await one.close()
        await two.close()


async def test_two_processes_place_finishes_a_moment_apart(shared_url, clock, opened) -> None:
    """Clocks a moment apart, reported in the other order: places follow the stamps."""
    one, two = await opened(shared_url, Clock(START)), await opened(shared_url, Clock(START))
    try:
        race_id = await lobby(one, ANN, BOB, CAT)
        await one.races.start(race_id, ANN)
        for player, services in ((ANN, one), (BOB, two)):
            board = await services.races.play(race_id, player)
            await services.games.guess(player, GUILD, "cigar", game_id=board.game.game_id)
        one.daily.clock.advance(10)
        two.daily.clock.advance(11)
        await asyncio.gather(two.races.finished(race_id, BOB.id),
                             one.races.finished(race_id, ANN.id))  # fmt: skip
        racers = {r.name: r.place for r in (await one.races.board(race_id)).players}
        # Ann's stamp is earlier: first whichever finish is recorded first. Recorded after
        # Bob's, it takes his later stamp (stamps never go back) and shares his place.
        assert racers["ann"] == 1 and racers["bob"] in (1, 2) and racers["cat"] is None
    finally:
        await one.close()
        await two.close()


async def test_a_finish_nobody_reported_is_found_by_the_job(services, clock) -> None:
    race_id = await lobby(services, ANN, BOB)
    await services.races.start(race_id, ANN)
    board = await services.races.play(race_id, ANN)
    clock.advance(12)
    await services.games.guess(ANN, GUILD, "cigar", game_id=board.game.game_id)
    [found] = await services.races.run_due()  # the process stopped before reporting it
    assert places(found)["ann"] == (1, True, 1)


async def test_no_hints_in_a_race(services) -> None:
    race_id = await lobby(services, ANN, BOB)
    await services.races.start(race_id, ANN)
    board = await services.races.play(race_id, ANN)
    hint = await services.games.hint(ANN, GUILD, game_id=board.game.game_id)
    assert not hint.ok and hint.message == NO_HINTS_IN_RACES


# -- in Discord: the real CommandTree, buttons and guess form ----------------------------


class Channel:
    """Discord's side of channel messages through discord.py's HTTP client: the race
    message's edits and the podium posts."""

    def __init__(self, bot: WordleBot) -> None:
        self.edits: list[tuple[int, dict[str, Any]]] = []
        self.posts: list[dict[str, Any]] = []
        bot.http.request = self.request  # type: ignore[method-assign]

    async def request(self, route: Any, **kwargs: Any) -> Any:
        if route.method == "PATCH":
            self.edits.append((int(route.url.rsplit("/", 1)[1]), kwargs["json"]))
        else:
            assert (route.method, route.path) == ("POST", "/channels/{channel_id}/messages")
            self.posts.append(kwargs["json"])
        return message(kwargs["json"])


@pytest.fixture
async def double(database_url: str, clock: Clock, make_double):
    return await make_double(database_url, clock, answers=ANSWERS)


async def test_a_race_in_discord(double, clock) -> None:
    channel = Channel(double.bot)
    [lobby_message] = await double.command("race", user_id=ANN.id)
    assert lobby_message.a_new_message and not lobby_message.ephemeral
    assert lobby_message.custom_ids() == ["wb:race:join:1", "wb:race:start:1"]
    assert "<@1>" in lobby_message.text and lobby_message.data["allowed_mentions"]["parse"] == []
    early = await double.click("wb:race:start:1", user_id=ANN.id, on=lobby_message)
    assert [s.text for s in early] == ["A race needs at least 2 players"] and early[0].ephemeral
    joined, note = await double.click("wb:race:join:1", user_id=BOB.id, on=lobby_message)
    assert joined.an_update and "<@2>" in joined.text and note.ephemeral
    [twice] = await double.click("wb:race:join:1", user_id=BOB.id, on=lobby_message)
    assert twice.ephemeral and twice.text == "You're already in this race"
    [not_host] = await double.click("wb:race:start:1", user_id=BOB.id, on=lobby_message)
    assert not_host.ephemeral and not_host.text == "Only the host can start the race"
    started, ann_board = await double.click("wb:race:start:1", user_id=ANN.id, on=lobby_message)
    assert started.an_update and started.custom_ids() == ["wb:race:play:1"]
    assert ann_board.ephemeral and ann_board.files == ["board.png"]
    assert ann_board.custom_ids() == ["wb:game:guess:1", "wb:game:giveup:1"]  # no hint
    bob_board = only(await double.click("wb:race:play:1", user_id=BOB.id, on=started))
    deferred = bob_board.deferral
    assert deferred.kind == 5 and deferred.ephemeral  # private from the first moment
    assert bob_board.ephemeral and bob_board.custom_ids()[0] == "wb:game:guess:2"
    # Ann guesses through the board's form: her board changes, and the scoreboard.
    clock.advance(65)
    [form] = await double.click("wb:game:guess:1", user_id=ANN.id, on=ann_board)
    [won] = await double.submit(form, {"word": "cigar"}, user_id=ANN.id)
    assert won.an_update and "Solved in 1/6!" in won.text
    [(message_id, edit)] = channel.edits
    assert message_id == (await double.bot.services.storage.races.get(1)).message_id
    assert "🥇 <@1>: 1 guess, 1:05" in edit["content"] and "CIGAR" not in edit["content"]
    # Bob gives up: the race ends, the answer is told to him privately, the podium posted.
    await double.click("wb:game:giveup:2", user_id=BOB.id, on=bob_board)
    final = channel.edits[-1][1]
    assert final["components"] == [] and "CIGAR" in final["content"]
    [podium] = channel.posts
    assert podium["content"] == final["content"] and podium["allowed_mentions"]["parse"] == []
    assert "🥇 <@1>" in podium["content"] and "2. <@2>: did not solve it" in podium["content"]
    [board] = await double.command("raceboard", user_id=BOB.id)
    assert "1. <@1>: 1 win, 1 podium, mean place 1.00 (1 race)" in board.text


async def test_an_edit_that_comes_late_shows_the_race_as_it_stands(double, clock) -> None:
    """Two finishes at once each edit the race message, and the first one's edit may be
    sent last (seen under load, end to end): every edit shows the race as it stands, so the
    message never goes back to a race still running."""
    channel = Channel(double.bot)
    races = double.bot.services.races
    [lobby_message] = await double.command("race", user_id=ANN.id)
    await double.click("wb:race:join:1", user_id=BOB.id, on=lobby_message)
    started, ann_board = await double.click("wb:race:start:1", user_id=ANN.id, on=lobby_message)
    bob_board = only(await double.click("wb:race:play:1", user_id=BOB.id, on=started))
    [form] = await double.click("wb:game:guess:1", user_id=ANN.id, on=ann_board)
    await double.submit(form, {"word": "cigar"}, user_id=ANN.id)
    when_ann_won = RaceOutcome(await races.board(1), changed=True)
    assert "<@2>: playing" in scoreboard(when_ann_won.board)["content"]
    await double.click("wb:game:giveup:2", user_id=BOB.id, on=bob_board)
    final = channel.edits[-1][1]
    assert final["components"] == [] and "did not solve it" in final["content"]
    await double.bot.get_cog("Races").show(when_ann_won)  # its edit, late
    assert channel.edits[-1][1] == final and len(channel.posts) == 1


async def test_a_race_in_direct_messages_is_refused(double) -> None:
    [refusal] = await double.command("race", user_id=ANN.id, guild=False)
    assert refusal.ephemeral and refusal.text == NEED_CHANNEL


async def test_the_loop_starts_a_lobby_and_edits_its_message(double, clock) -> None:
    channel = Channel(double.bot)
    [lobby_message] = await double.command("race", user_id=ANN.id, game="primel", mode="hard")
    await double.click("wb:race:join:1", user_id=BOB.id, on=lobby_message)
    clock.advance(60)
    await double.bot.get_cog("Races").run_due()
    [(_, edit)] = channel.edits
    assert "Primel race (hard mode)" in edit["content"] and "press Play" in edit["content"]
    board = only(await double.click("wb:race:play:1", user_id=BOB.id, on=Sent("PATCH", "", edit)))
    assert board.ephemeral and "Primel race (hard mode)" in board.text


# -- at the console: local players (/as NAME) race through the same services --------------


async def test_a_race_at_the_console(tmp_path, clock, opened) -> None:
    from bot.console import Console, player_named

    services = await opened(str(tmp_path / "console.sqlite3"), clock)
    shown: list[str] = []
    console = Console(services, player_named("ann"), shown.append, colour=False)
    lines = ["/race wordle hard", "/start", "/as bob", "/join", "/join", "/start", "/as ann",
             "/start", "crane", "cigar", "/as bob", "/join", "cigar", "/race absurdle",
             "/race game:primel mode:easy", "/raceboard"]  # fmt: skip
    try:
        for line in lines:
            if line == "cigar":
                clock.advance(20)
            await console.handle(line)
    finally:
        await services.close()
    out = "\n".join(shown)
    assert "Wordle race (hard mode): press Join to race (1/25 in)" in out
    assert "A race needs at least 2 players" in out and "You're already in this race" in out
    assert "Only the host can start the race" in out and "Wordle race (hard mode)" in out
    assert "🥇 ann: 2 guesses, 0:20" in out and "🥈 bob: 1 guess, 0:40" in out
    assert "Wordle race (hard mode) is over! The answer was CIGAR." in out
    assert out.count("is over!") == 1  # Discord's options, by name or by position:
    assert "/race: 'absurdle' is not understood; /race takes game (wordle, primel," in out
    assert "mode takes normal, hard, not 'easy'" in out
    assert "Races here\n1. ann: 1 win, 1 podium, mean place 1.00 (1 race)\n2. bob: 0 wins" in out
