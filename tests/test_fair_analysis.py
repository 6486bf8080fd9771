"""Fair play where help is asked (issue 28, points 3, 9 and 11): hints off means off by every
road (typed words, a grid with its words, a grid alone; in the server or a DM; in races and
challenges); /analyze is bounded per paste and per player; a challenge word outside the
answer list gets hints and coaching like any other."""

import asyncio
from datetime import date

import pytest
from analysis_worker import until_reading
from clock import at
from discord_double import only

import bot.services.analysis as analysis_module
from bot.console import Console
from bot.services import DM, Player, open_services
from bot.services.analysis import (
    MAX_GRIDS,
    QUEUE_FULL,
    STILL_WORKING,
    AnalysisGate,
    analyze,
    coach_game,
)
from bot.services.games import HINTS_OFF
from bot.services.hint_rules import HINTS_OFF_HERE, HINTS_OFF_TYPED, NO_HINTS_WHILE_RACING
from bot.settings import load_settings
from bot.storage import GuildSettings
from engine.pattern import score, to_digits
from engine.shares import SQUARES
from engine.variants import get_variant

SEED = "3c9e1a7f5b2d8c4e6a0f2b4d6e8a1c3f-fairplay"
ANN, BOB = Player(11, "ann"), Player(22, "bob")
GUILD, OPEN_GUILD = 100, 200  # hints off there; on in the other
DAY = date(2026, 3, 1)
EMOJI = {v: k for k, v in reversed(SQUARES.items())}  # 2 green, 1 yellow, 0 the first grey
# A long hard-mode grid: checking it fully takes minutes of CPU (see tests/test_analysis.py).
COSTLY_ROWS = "⬜🟨⬜⬜⬜\n⬜⬜🟨⬜⬜\n🟨⬜⬜🟨⬜\n⬜🟨🟩⬜🟨\n🟩🟩🟩🟩🟩"


def grid(answer: str, guesses: list[str]) -> str:
    return "\n".join(
        "".join(EMOJI[int(d)] for d in to_digits(score(g, answer), 5)) for g in guesses
    )


def share(number: int, answer: str, guesses: list[str]) -> str:
    solved = guesses[-1] == answer
    return f"Wordle {number} {len(guesses) if solved else 'X'}/6\n\n{grid(answer, guesses)}"


def typed(answer: str, guesses: list[str]) -> str:
    return " ".join(f"{g} {to_digits(score(g, answer), 5)}" for g in guesses)


@pytest.fixture
async def services(database_url: str):
    s = await open_services(load_settings(database_url=database_url, daily_seed=SEED,
                                          analysis_budget_seconds=0.5))  # fmt: skip
    s.daily.clock = lambda: at("2026-03-01T12:00:00")
    s.analysis_gate.cooldown = 0  # these tests ask one after another
    await s.storage.save_guild_settings(GuildSettings(GUILD, hints_in_daily=False))
    yield s
    await s.close()


def helped(result) -> bool:
    """Whether an analysis gave any help: a hint, coaching or a grid reading."""
    return (result.hint is not None or result.coaching is not None
            or any(r is not None for r in result.readings))  # fmt: skip


# -- 3. hints off means off everywhere -------------------------------------------------------


async def test_a_daily_in_a_hints_off_server_gets_no_analysis_anywhere(services) -> None:
    """Ann's daily is going in a server with hints off: typed words, a grid with its words
    and a grid alone (whatever number it claims) are refused in the server and in a DM,
    on /analyze as on /hint; Bob, with no such game, is helped; Ann is once she is done."""
    answer = services.daily.answer("wordle", DAY)
    opener = "slate" if answer != "slate" else "crane"
    await services.games.start(ANN, GUILD, daily=True)
    await services.games.guess(ANN, GUILD, opener, kind="wordle:daily")
    history = typed(answer, [opener])
    old = share(1000, answer, [opener, answer])  # any number can be typed over today's grid
    for where in (GUILD, DM, OPEN_GUILD):
        for text, words in ((history, ""), (old, opener + " " + answer), (old, "")):
            result = await services.analysis.analyze(ANN.id, where, text, words)
            assert not helped(result) and result.problems == [HINTS_OFF_TYPED]
    assert (await services.games.hint_history(ANN, history)).message == HINTS_OFF_TYPED
    bob = await services.analysis.analyze(BOB.id, DM, history)
    assert bob.hint is not None and answer in bob.hint.candidates
    await services.games.guess(ANN, GUILD, answer, kind="wordle:daily")
    assert (await services.analysis.analyze(ANN.id, DM, history)).hint is not None


async def test_a_hints_off_server_reads_nothing_that_could_be_todays_puzzle(services):
    """In a server with hints off, a grid numbered as today's puzzle (or the day before or
    after: the NYT's number somewhere in the world) is listed, not read, and typed words
    (a history, a grid's words) are not read at all: which puzzle they are of, nobody can
    tell. An older puzzle's grid is read; everything is in a DM or where hints are on."""
    number = services.daily.number(DAY)
    plays = ["crane", "moist", "cigar"]
    history = typed("cigar", plays[:2])
    for day in (-1, 0, 1):
        today = share(number + day, "cigar", plays)
        result = await services.analysis.analyze(BOB.id, GUILD, today)
        assert result.readings == [None] and "hints are off in this server" in result.problems[0]
    older = share(number - 30, "cigar", plays)
    assert (await services.analysis.analyze(BOB.id, GUILD, older)).readings[0] is not None
    for text, words in ((history, ""), (older, " ".join(plays))):
        words_here = await services.analysis.analyze(BOB.id, GUILD, text, words)
        assert not helped(words_here) and words_here.problems[-1] == HINTS_OFF_HERE
    assert (await services.games.hint_history(BOB, history, scope=GUILD)).message == (
        HINTS_OFF_HERE
    )  # fmt: skip
    for where in (DM, OPEN_GUILD):
        elsewhere = await services.analysis.analyze(BOB.id, where, share(number, "cigar", plays))
        assert elsewhere.readings[0] is not None
        assert (await services.analysis.analyze(BOB.id, where, history)).hint is not None
        assert (await services.games.hint_history(BOB, history, scope=where)).ok


async def test_no_typed_help_during_a_race_or_a_challenge_of_a_hints_off_server(services):
    """A race allows no hints anywhere, a challenge none in a server with hints off: nor
    does a history typed to /hint or /analyze from a DM while either is going."""
    history = typed("cigar", ["crane"])
    race = await services.games.start_set(ANN, OPEN_GUILD, "wordle:race", "race:1", ["cigar"])
    assert race.ok
    assert (await services.games.hint_history(ANN, history)).message == NO_HINTS_WHILE_RACING
    result = await services.analysis.analyze(ANN.id, DM, history)
    assert not helped(result) and result.problems == [NO_HINTS_WHILE_RACING]
    await services.games.give_up(ANN, OPEN_GUILD, kind="wordle:race")
    assert (await services.games.hint_history(ANN, history)).ok

    challenge = (await services.challenges.create(BOB, GUILD, 7, "cigar")).challenge
    played = await services.challenges.play(ANN, challenge.id)
    assert played.ok
    own = await services.games.hint(ANN, DM, game_id=played.game.game_id)
    assert own.message == HINTS_OFF
    for refused in (await services.games.hint_history(ANN, history),
                    await services.analysis.analyze(ANN.id, DM, history)):  # fmt: skip
        assert "Hints are off in the server where your Wordle challenge is in progress" in (
            refused.message if hasattr(refused, "message") else refused.problems[0]
        )
    # The same challenge in a server with hints on: help as usual.
    elsewhere = (await services.challenges.create(ANN, OPEN_GUILD, 7, "cigar")).challenge
    bobs = await services.challenges.play(BOB, elsewhere.id)
    assert (await services.games.hint(BOB, DM, game_id=bobs.game.game_id)).ok
    assert (await services.games.hint_history(BOB, history)).ok


async def test_the_console_obeys_the_same_rule(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "c.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    try:
        await services.storage.save_guild_settings(GuildSettings(GUILD, hints_in_daily=False))
        await services.games.start(ANN, GUILD, daily=True)  # Ann's daily, in the server
        shown: list[str] = []
        console = Console(services, ANN, shown.append, colour=False)
        await console.run(_script("/analyze crane 01002 slate 00202", "/hint crane 01002"))
    finally:
        await services.close()
    text = "\n".join(shown)
    assert text.count(HINTS_OFF_TYPED) == 2 and "possible" not in text


async def test_discord_obeys_it_too_in_a_dm_and_with_the_message_menu(double) -> None:
    from discord_double import message

    admin, player = 1, 2
    await double.command("settings", "server", user_id=admin, hints_in_daily=False)
    await double.command("wordle", "daily", user_id=player)
    double.bot.services.analysis_gate.cooldown = 0
    typed_in_dm = only(await double.command("analyze", user_id=player, guild=False,
                                          paste="crane 01002 slate 00202"))  # fmt: skip
    assert typed_in_dm.ephemeral and HINTS_OFF_TYPED in typed_in_dm.text
    assert "possible" not in typed_in_dm.text
    pasted = message({"content": share(1000, "cigar", ["crane", "cigar"])}, author_id=admin)
    menu = only(await double.message_command("Analyze Wordle result", pasted, user_id=player))
    assert HINTS_OFF_TYPED in menu.text and "The grid alone fits" not in menu.text


# -- 9. /analyze is bounded per paste and per player -----------------------------------------


def costly_paste(count: int) -> str:
    return "\n\n".join(f"Wordle {1500 + n} 5/6*\n\n{COSTLY_ROWS}" for n in range(count))


async def test_a_paste_reads_at_most_a_few_grids_within_one_budget(monkeypatch) -> None:
    """A paste of ten costly hard-mode grids: three are read, sharing one budget of half a
    second (not half a second each), and the player is told the rest were skipped."""
    await analyze(costly_paste(1), budget=0.1)  # the reading's tables, built or loaded once
    # Each read's budget and time, as the worker saw them: the share is checked exactly, not
    # by a wall-clock bound that a loaded machine would break.
    reads: list[tuple[float, float]] = []
    measure = analysis_module._timed

    def timed(function, *args):
        result, took = measure(function, *args)
        reads.append((args[-1], took))
        return result, took

    monkeypatch.setattr(analysis_module, "_timed", timed)
    result = await analyze(costly_paste(10), budget=0.5)
    assert len(result.shares) == 10
    assert sum(r is not None for r in result.readings) == MAX_GRIDS == 3
    assert result.readings[3:] == [None] * 7
    assert "7 more grids not read: at most 3 are read per paste" in result.problems
    assert len(reads) == 3 and reads[0][0] == 0.5
    for i, (budget, _) in enumerate(reads):  # what the reads before it left
        assert budget == pytest.approx(max(0.0, 0.5 - sum(took for _, took in reads[:i])))
    # Generous (a loaded machine): a read that ignored its budget would run for minutes.
    assert all(took < budget + 5 for budget, took in reads), reads


def test_the_gate_holds_one_analysis_per_player_wherever_and_bounds_the_queue() -> None:
    gate = AnalysisGate(cooldown=0, per_server=2, limit=3)
    assert gate.admit(1, 501) is None  # a group DM
    assert gate.admit(1, 502) == STILL_WORKING  # another group DM: the same player
    assert gate.admit(1, DM) == STILL_WORKING
    assert gate.admit(2, 503) is None and gate.admit(3, 504) is None
    assert gate.admit(4, 505) == QUEUE_FULL  # three at once, wherever they are
    gate.release(1, 501)
    assert gate.admit(4, 505) is None and gate.admit(1, 506) == QUEUE_FULL


async def test_a_player_gets_one_analysis_at_a_time_through_the_service(services) -> None:
    """While Ann's costly paste is being read, her next one (from another place) is turned
    away at once; Bob's is not."""
    services.analysis.budget = 1.0
    first = asyncio.ensure_future(services.analysis.analyze(ANN.id, 501, costly_paste(1)))
    await until_reading()
    again = await services.analysis.analyze(ANN.id, 502, typed("cigar", ["crane"]))
    assert again.refused == STILL_WORKING
    bobs = await services.analysis.analyze(BOB.id, 503, typed("cigar", ["crane"]))
    assert bobs.refused is None and bobs.hint is not None
    assert (await first).readings[0] is not None
    assert (await services.analysis.analyze(ANN.id, 502, "crane 01002")).refused is None


def test_the_budget_is_a_setting(monkeypatch) -> None:
    monkeypatch.setenv("ANALYSIS_BUDGET_SECONDS", "0.25")
    assert load_settings().analysis_budget_seconds == 0.25
    monkeypatch.setenv("ANALYSIS_BUDGET_SECONDS", "0")
    with pytest.raises(ValueError, match="ANALYSIS_BUDGET_SECONDS"):
        load_settings()


async def test_the_services_take_the_budget_from_the_settings() -> None:
    settings = load_settings(database_path=":memory:", daily_seed=SEED,
                             analysis_budget_seconds=0.25)  # fmt: skip
    services = await open_services(settings)
    try:
        assert services.analysis.budget == 0.25
    finally:
        await services.close()


# -- 11. a challenge word that is allowed but not an answer ---------------------------------


async def test_a_challenge_word_outside_the_answers_gets_hints_and_coaching(services) -> None:
    assert "tares" not in get_variant("wordle").answers
    challenge = (await services.challenges.create(ANN, OPEN_GUILD, 7, "tares")).challenge
    game = (await services.challenges.play(BOB, challenge.id)).game
    accepted = get_variant("wordle").guesses
    for word in ("crane", "slate"):
        await services.games.guess(BOB, OPEN_GUILD, word, game_id=game.game_id)
        hint = await services.games.hint(BOB, OPEN_GUILD, game_id=game.game_id)
        assert hint.ok, hint.message
        assert "tares" in hint.hint.candidates
        assert all(s.guess in accepted for s in hint.hint.suggestions)  # words it accepts
    done = await services.games.guess(BOB, OPEN_GUILD, "tares", game_id=game.game_id)
    assert done.game.status == "won"
    stored = await services.storage.last_finished_game(BOB.id)
    report = await coach_game(stored.state)
    assert report is not None and report.won and [t.guess for t in report.turns] == [
        "crane", "slate", "tares"
    ]  # fmt: skip
    assert report.turns[-1].after == 1


async def test_a_hint_never_tells_an_answer_list_word_from_another(services) -> None:
    """CIGAR (an answer) and TARES (not one) give FJORD the same colours: their challenges
    get the same hint, so a hint never says whether the word is on the answer list."""
    assert score("fjord", "cigar") == score("fjord", "tares")
    hints = []
    for word in ("cigar", "tares"):
        challenge = (await services.challenges.create(ANN, OPEN_GUILD, 7, word)).challenge
        game = (await services.challenges.play(BOB, challenge.id)).game
        await services.games.guess(BOB, OPEN_GUILD, "fjord", game_id=game.game_id)
        hints.append((await services.games.hint(BOB, OPEN_GUILD, game_id=game.game_id)).hint)
        await services.games.give_up(BOB, OPEN_GUILD, game_id=game.game_id)
    assert hints[0] == hints[1] and {"cigar", "tares"} <= set(hints[0].candidates)


async def test_the_console_hints_and_coaches_a_challenge_word_outside_the_answers(tmp_path):
    settings = load_settings(database_path=str(tmp_path / "t.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    shown: list[str] = []
    try:
        console = Console(services, ANN, shown.append, colour=False)
        await console.run(_script("/challenge tares", "/as bob", "/play 1", "crane", "/hint",
                                  "slate", "/hint", "tares", "/coach"))  # fmt: skip
    finally:
        await services.close()
    text = "\n".join(shown)
    assert "No answer fits" not in text and text.count("possible:") == 2
    assert "TARES" in text.split("Solved in 3/6!")[0].split("SLATE", 1)[1]  # in the hints
    assert "Turn  guess" in text and "TARES" in text.split("Turn  guess")[1]


def _script(*lines: str):
    queue = list(lines)

    async def read(_: str) -> str | None:
        return queue.pop(0) if queue else None

    return read
