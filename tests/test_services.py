import asyncio
import dataclasses
import random
import signal
import subprocess
import sys
import textwrap
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.services import DM, Player, Services, kind_of, open_services
from bot.services.daily import DailyPuzzles
from bot.services.games import (
    BUSY,
    CHANGED,
    GAME_OVER,
    HINTS_OFF,
    HINTS_OFF_TYPED,
    NO_GAME,
    NOT_YOURS,
    WHICH,
)
from bot.services.stats import LeaderboardError
from bot.settings import load_settings
from engine.pattern import score, to_digits
from engine.rules import Mode, check_guess
from engine.variants import get_variant

ANN, BOB = Player(1, "ann"), Player(2, "bob")
GUILD, OTHER_GUILD = 100, 200
DAY = date(2026, 3, 1)
SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"  # strong enough for the seed check
PINNED = {"wordle": "cigar", "primel": "99991"}  # practice answers, so tests never win by luck


@pytest.fixture
async def services(database_url: str):
    """The services on each engine in turn (SQLite in memory, a fresh PostgreSQL database)."""
    s = await open_services(
        load_settings(
            database_url=database_url, daily_seed="5e1f0c2b9a8d7e6f4a3b2c1d0e9f8a7b-services"
        )
    )
    s.games.choose_answer = PINNED.get
    yield s
    await s.close()


async def stored_rows(services: Services, game_id: int) -> list:
    game = await services.storage.game(game_id)
    return game.state["rows"]


def on(services: Services, day: date) -> None:
    """Set the services' clock to noon (UTC) of ``day``: a daily is played on its own day
    (it closes when its day ends)."""
    services.daily.clock = lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


async def win_daily(services: Services, player: Player, day: date, scope: int = GUILD) -> None:
    on(services, day)
    start = await services.games.start(player, scope, daily=True)
    answer = services.daily.answer("wordle", day)
    guess = await services.games.guess(player, scope, answer, kind="wordle:daily")
    assert start.ok and guess.ok and guess.game.status == "won"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zzzzz", "Not in word list"),
        ("cra", "Not enough letters"),
        ("cranes", "Too many letters"),
        ("cr4ne", "Use only letters A to Z"),
        ("🟩🟩🟩🟩🟩", "Use only letters A to Z"),
        ("x" * 4000, "Too many letters"),
        ("'; DROP TABLE games; --", "Use only letters A to Z"),
        ("", "Not enough letters"),
    ],
)
async def test_bad_guesses_are_refused_and_store_nothing(services, text: str, message: str):
    start = await services.games.start(ANN, GUILD)
    before = await services.storage.game(start.game.game_id)
    outcome = await services.games.guess(ANN, GUILD, text)
    assert not outcome.ok and outcome.message == message
    after = await services.storage.game(start.game.game_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert (await services.storage._one("SELECT COUNT(*) FROM games"))[0] == 1


async def test_sql_looking_names_are_just_names(services):
    player = Player(9, "Robert'); DROP TABLE players;--")
    assert (await services.games.start(player, GUILD)).ok
    export = await services.storage.export_player(9)
    assert export["player"]["name"] == player.name


async def test_refusals_in_the_games_words(services):
    assert (await services.games.guess(ANN, GUILD, "crane")).message == NO_GAME
    game = (await services.games.start(ANN, GUILD, mode=Mode.HARD)).game
    first = await services.games.guess(ANN, GUILD, "crane")
    answer = (await services.storage.game(game.game_id)).state["answer"]
    assert first.game.rows == [("crane", to_digits(score("crane", answer), 5))]
    assert (await services.games.guess(BOB, GUILD, "slate", game_id=game.game_id)).message == (
        NOT_YOURS
    )
    await services.games.give_up(ANN, GUILD)
    over = await services.games.guess(ANN, GUILD, "slate", game_id=game.game_id)
    assert over.message == GAME_OVER and over.game.answer == answer


async def test_hard_mode_refusal_goes_through_the_service(services):
    await services.games.start(ANN, GUILD, mode=Mode.HARD)
    game = await services.games.current(ANN, GUILD)
    answer = (await services.storage.game(game.game.game_id)).state["answer"]
    # A guess sharing the answer's last letter shows it green; then break the rule.
    words = get_variant("wordle").guesses.words
    opener = next(w for w in words if w[4] == answer[4] and w != answer)
    breaker = next(w for w in words if w[4] != answer[4])
    assert (await services.games.guess(ANN, GUILD, opener)).ok
    refusal = await services.games.guess(ANN, GUILD, breaker)
    expected = check_guess(
        get_variant("wordle"), breaker, [(opener, score(opener, answer))], Mode.HARD
    )
    assert expected.message is not None and "letter must be" in expected.message
    assert not refusal.ok and refusal.message == expected.message
    assert len(refusal.game.rows) == 1


async def test_one_active_game_per_kind_and_a_double_click_makes_one(services):
    first, second = await asyncio.gather(
        services.games.start(ANN, GUILD), services.games.start(ANN, GUILD)
    )
    assert first.game.game_id == second.game.game_id
    other_kind = await services.games.start(ANN, GUILD, daily=True)
    assert other_kind.game.game_id != first.game.game_id
    assert (await services.storage._one("SELECT COUNT(*) FROM games"))[0] == 2


async def test_the_daily_is_the_same_for_everyone_and_played_once(services):
    on(services, DAY)
    a = await services.games.start(ANN, GUILD, daily=True)
    b = await services.games.start(BOB, OTHER_GUILD, daily=True)
    answers = [(await services.storage.game(x.game.game_id)).state["answer"] for x in (a, b)]
    assert answers[0] == answers[1] == services.daily.answer("wordle", DAY)
    await services.games.guess(ANN, GUILD, answers[0])
    again = await services.games.start(ANN, OTHER_GUILD, daily=True)
    assert not again.ok and "already played today's wordlebot Wordle" in again.message
    assert a.game.number == int(DAY.strftime("%Y%m%d"))  # the bot's own number: its date


def test_daily_answers_depend_on_the_secret_seed_and_do_not_repeat():
    zone = ZoneInfo("UTC")
    one, two = DailyPuzzles("seed-one", zone), DailyPuzzles("seed-two", zone)
    days = [DAY + timedelta(days=i) for i in range(200)]
    first = [one.answer("wordle", d) for d in days]
    assert len(set(first)) == 200  # a shuffle: no repeats within the cycle
    assert first != [two.answer("wordle", d) for d in days]
    assert first == [DailyPuzzles("seed-one", zone).answer("wordle", d) for d in days]


def at(when: str):
    """A clock stopped at an ISO instant (UTC)."""
    moment = datetime.fromisoformat(when).replace(tzinfo=UTC)
    return lambda: moment


def test_the_day_changes_at_midnight_in_the_deployment_zone():
    late = at("2026-11-22T23:30:00")
    assert DailyPuzzles("s", ZoneInfo("UTC"), late).today() == date(2026, 11, 22)
    assert DailyPuzzles("s", ZoneInfo("Pacific/Kiritimati"), late).today() == date(2026, 11, 23)


async def test_a_far_east_server_cannot_open_tomorrows_daily(services):
    """One day for everyone: a server's own zone does not open day D early (an answer learnt
    by giving up there would spoil D for everyone else), and streaks count by the same day."""
    from bot.storage import GuildSettings

    services.daily.clock = at("2026-11-22T12:00:00")  # already the 23rd at UTC+14
    await services.storage.save_guild_settings(GuildSettings(GUILD, "Pacific/Kiritimati"))
    east = await services.games.start(ANN, GUILD, daily=True)
    home = await services.games.start(BOB, OTHER_GUILD, daily=True)
    assert east.game.day == home.game.day == "2026-11-22"
    answer = services.daily.answer("wordle", date(2026, 11, 22))
    won = await services.games.guess(ANN, GUILD, answer, kind="wordle:daily")
    assert won.game.status == "won"
    services.daily.clock = at("2026-11-23T20:00:00")  # a day later, before UTC-10's evening
    streak = await services.stats.stats(ANN.id, "wordle:daily", services.daily.today())
    assert streak.current_streak == 1


async def test_stats_streaks_and_distribution(services):
    await win_daily(services, ANN, DAY)
    await win_daily(services, ANN, DAY + timedelta(days=1))
    stats = await services.stats.stats(ANN.id, "wordle:daily", DAY + timedelta(days=1))
    assert (stats.played, stats.win_percent, stats.current_streak, stats.max_streak) == (
        2,
        100,
        2,
        2,
    )
    assert stats.distribution[1] == 2 and sum(stats.distribution.values()) == 2
    # A missed day: the streak shown is broken, the best is kept.
    later = await services.stats.stats(ANN.id, "wordle:daily", DAY + timedelta(days=3))
    assert (later.current_streak, later.max_streak) == (0, 2)
    await win_daily(services, ANN, DAY + timedelta(days=3))
    restarted = await services.stats.stats(ANN.id, "wordle:daily", DAY + timedelta(days=3))
    assert (restarted.current_streak, restarted.max_streak) == (1, 2)
    # Practice games never touch the daily streak.
    await services.games.start(ANN, GUILD)
    await services.games.give_up(ANN, GUILD)
    after = await services.stats.stats(ANN.id, "wordle:daily", DAY + timedelta(days=3))
    assert after == restarted
    practice = await services.stats.stats(ANN.id, "wordle:practice", DAY)
    assert (practice.played, practice.win_percent) == (1, 0)


async def test_a_loss_breaks_the_daily_streak(services):
    await win_daily(services, ANN, DAY)
    on(services, DAY + timedelta(days=1))
    await services.games.start(ANN, GUILD, daily=True)
    await services.games.give_up(ANN, GUILD)
    stats = await services.stats.stats(ANN.id, "wordle:daily", DAY + timedelta(days=1))
    assert (stats.played, stats.win_percent, stats.current_streak) == (2, 50, 0)


async def test_leaderboards_by_guild_and_global_paginated_with_stable_ties(services):
    rows = [(p, GUILD if p <= 12 else OTHER_GUILD, "wordle:practice", None, True, 4)
            for p in range(1, 16)]  # fmt: skip
    await services.storage.bulk_results(rows)
    board = await services.stats.leaderboard("wordle:practice", "wins", guild_id=GUILD, today=DAY)
    assert board.total == 12 and board.pages == 2
    assert [e.player_id for e in board.entries] == list(range(1, 11))  # ties: by player id
    page_two = await services.stats.leaderboard(
        "wordle:practice", "wins", guild_id=GUILD, page=2, today=DAY
    )
    assert [e.rank for e in page_two.entries] == [1, 1]  # tied players share a rank
    world = await services.stats.leaderboard("wordle:practice", "wins", today=DAY)
    assert world.total == 15
    # Win rate needs a minimum number of games.
    assert (await services.stats.leaderboard("wordle:practice", "win_rate", today=DAY)).total == 0
    await services.storage.bulk_results([(3, GUILD, "wordle:practice", None, False, 6)] * 5)
    rate = await services.stats.leaderboard("wordle:practice", "win_rate", today=DAY)
    assert [(e.player_id, round(e.value, 3)) for e in rate.entries] == [(3, 0.167)]


async def test_tied_players_share_a_rank_and_the_next_rank_skips(services):
    wins = {1: 3, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 0}
    await services.storage.bulk_results(
        (p, GUILD, "wordle:practice", None, True, 4) for p, n in wins.items() for _ in range(n)
    )
    await services.storage.bulk_results([(7, GUILD, "wordle:practice", None, False, 6)])
    board = await services.stats.leaderboard("wordle:practice", "wins", guild_id=GUILD, today=DAY)
    assert [(e.rank, e.player_id) for e in board.entries] == [
        (1, 1), (2, 2), (2, 3), (4, 4), (4, 5), (4, 6)]  # fmt: skip


async def test_the_average_board_ranks_ties_alike_on_every_page(services):
    # Identical records tie whatever the mean: 1, 2, 2, 4... and page two goes on counting.
    guesses = {1: 2, 2: 3, 3: 3, 4: 4, 5: 4, 6: 4, 7: 5, 8: 5, 9: 5, 10: 5, 11: 6, 12: 6}
    await services.storage.bulk_results(
        (p, GUILD, "wordle:practice", None, True, g) for p, g in guesses.items()
    )
    ranks = []
    for page in (1, 2):
        board = await services.stats.leaderboard("wordle:practice", "average", guild_id=GUILD,
                                                 today=DAY, page=page, min_games=1)  # fmt: skip
        ranks += [(e.rank, e.player_id) for e in board.entries]
    assert ranks == [(1, 1), (2, 2), (2, 3), (4, 4), (4, 5), (4, 6), (7, 7), (7, 8), (7, 9),
                     (7, 10), (11, 11), (11, 12)]  # fmt: skip


async def test_the_average_board_is_bayesian_and_counts_a_loss_as_the_fail_score(services):
    # ann: one lucky 2; bob: ten games averaging 2.2; cat: five 3s and a loss (7, the default).
    rows = [(1, GUILD, "wordle:practice", None, True, 2)]
    rows += [(2, GUILD, "wordle:practice", None, True, 2)] * 8
    rows += [(2, GUILD, "wordle:practice", None, True, 3)] * 2
    rows += [(3, GUILD, "wordle:practice", None, True, 3)] * 5
    rows += [(3, GUILD, "wordle:practice", None, False, 6)]
    await services.storage.bulk_results(rows)
    board = await services.stats.leaderboard("wordle:practice", "average", guild_id=GUILD,
                                             today=DAY)  # fmt: skip
    mean = (2 + 22 + 15 + 7) / 17
    expected = {1: (3 * mean + 2) / 4, 2: (3 * mean + 22) / 13, 3: (3 * mean + 22) / 9}
    assert [e.player_id for e in board.entries] == sorted(expected, key=expected.get)
    assert [round(e.value, 6) for e in board.entries] == sorted(
        round(v, 6) for v in expected.values())  # fmt: skip
    assert board.entries[0].player_id == 2  # ten steady games beat one lucky better one
    settings = await services.storage.guild_settings(GUILD)
    await services.storage.save_guild_settings(dataclasses.replace(settings, fail_score=10))
    harsher = await services.stats.leaderboard("wordle:practice", "average", guild_id=GUILD,
                                               today=DAY)  # fmt: skip
    assert next(e.value for e in harsher.entries if e.player_id == 3) > expected[3]


async def test_period_boards_count_the_days_weeks_months_and_seasons_they_hold(services):
    """Three days of dailies: 27 Feb (a Friday), 1 and 2 March (a Sunday and a Monday), in
    a server with seasons of 7 days (counted from puzzle #0: one ends on 27 February)."""
    settings = await services.storage.guild_settings(GUILD)
    await services.storage.save_guild_settings(dataclasses.replace(settings, season_days=7))
    days = [date(2026, 2, 27), date(2026, 3, 1), date(2026, 3, 2)]
    for day in days:
        services.daily.clock = lambda day=day: datetime(day.year, day.month, day.day, 12,
                                                        tzinfo=UTC)  # fmt: skip
        await win_daily(services, ANN, day)
    await win_daily(services, BOB, days[1])

    async def board(period: str, **options) -> dict[int, float]:
        b = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD,
                                             today=days[-1], period=period, **options)  # fmt: skip
        return {e.player_id: e.value for e in b.entries}

    assert await board("today") == {ANN.id: 1}
    assert await board("week") == {ANN.id: 1}  # Monday 2 March starts a week
    assert await board("month") == {ANN.id: 2, BOB.id: 1}
    assert await board("all") == {ANN.id: 3, BOB.id: 1}
    assert await board("season") == {ANN.id: 2, BOB.id: 1}
    assert await board("season", previous_season=True) == {ANN.id: 1}
    season = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD,
                                              today=days[-1], period="season")  # fmt: skip
    assert season.period == "season 245 (2026-02-28 to 2026-03-06)"
    # The global board keeps seasons of 28 days: all three days fall in one.
    world = await services.stats.leaderboard("wordle:daily", "wins", today=days[-1],
                                             period="season")  # fmt: skip
    assert {e.player_id: e.value for e in world.entries} == {ANN.id: 3, BOB.id: 1}
    with pytest.raises(LeaderboardError):
        await board("fortnight")
    with pytest.raises(LeaderboardError):
        await services.stats.leaderboard("wordle:daily", "max_streak", today=DAY, period="week")


async def test_a_guild_board_counts_only_that_guilds_games(services):
    await win_daily(services, ANN, DAY, scope=GUILD)
    await services.games.start(ANN, OTHER_GUILD)
    await services.games.give_up(ANN, OTHER_GUILD)
    here = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD, today=DAY)
    there = await services.stats.leaderboard(
        "wordle:daily", "wins", guild_id=OTHER_GUILD, today=DAY
    )
    assert [e.player_id for e in here.entries] == [ANN.id] and there.total == 0


async def test_many_concurrent_guesses_store_exactly_the_accepted_ones(services):
    words = get_variant("wordle").guesses.words
    rng = random.Random(4)
    players = [Player(i, f"p{i}") for i in range(1, 31)]
    games = {p.id: (await services.games.start(p, GUILD)).game.game_id for p in players}
    attempts = [(p, rng.choice(words) if rng.random() < 0.8 else "qqqqq") for p in players
                for _ in range(10)]  # fmt: skip
    rng.shuffle(attempts)
    outcomes = await asyncio.gather(*(services.games.guess(p, GUILD, w) for p, w in attempts))
    for player in players:
        mine = [(w, o) for (p, w), o in zip(attempts, outcomes, strict=True) if p == player]
        accepted = sorted((o for _, o in mine if o.ok), key=lambda o: len(o.game.rows))
        stored = [guess for guess, _ in await stored_rows(services, games[player.id])]
        assert [len(o.game.rows) for o in accepted] == list(range(1, len(accepted) + 1))
        assert [o.game.rows[-1][0] for o in accepted] == stored
        for word, outcome in mine:
            if not outcome.ok:
                assert outcome.message in {"Not in word list", NO_GAME}, (word, outcome.message)


async def test_a_restart_mid_game_loses_nothing(tmp_path):
    settings = load_settings(database_path=str(tmp_path / "bot.sqlite3"), daily_seed=SEED)
    first = await open_services(settings)
    first.games.choose_answer = PINNED.get
    await first.games.start(ANN, GUILD)
    await first.games.guess(ANN, GUILD, "crane")
    await first.close()
    second = await open_services(settings)
    again = await second.games.current(ANN, GUILD)
    assert again.ok and [g for g, _ in again.game.rows] == ["crane"]
    assert (await second.games.guess(ANN, GUILD, "slate")).ok
    await second.close()


async def test_a_guess_on_a_copy_another_process_changed_is_refused_showing_the_game(shared_url):
    """Two processes: one plays a guess; the other, holding the game as it was, is refused
    with the game shown (nothing written over the first guess), and its next try plays."""
    settings = load_settings(database_url=shared_url, daily_seed=SEED)
    first, second = await open_services(settings), await open_services(settings)
    for services in (first, second):
        services.games.choose_answer = PINNED.get
    await first.games.start(ANN, GUILD)
    assert (await second.games.current(ANN, GUILD)).ok  # second holds the game unplayed
    assert (await first.games.guess(ANN, GUILD, "crane")).ok
    stale = await second.games.guess(ANN, GUILD, "slate")
    assert not stale.ok and stale.message == CHANGED
    assert stale.game is not None and stale.game.rows == []  # the game as second held it
    again = await second.games.guess(ANN, GUILD, "slate")
    assert again.ok and [g for g, _ in again.game.rows] == ["crane", "slate"]
    await first.close()
    await second.close()


CRASHER = textwrap.dedent(
    """
    import asyncio, sys, time
    from bot.services import Player, open_services
    from bot.settings import load_settings

    async def main():
        settings = load_settings(database_path=sys.argv[1], daily_seed=sys.argv[2])
        services = await open_services(settings)
        services.games.choose_answer = lambda variant: "cigar"
        await services.games.start(Player(1), 5)
        for word in ("crane", "slate"):
            await services.games.guess(Player(1), 5, word)
        print("guessed", flush=True)
        time.sleep(60)

    asyncio.run(main())
    """
)


async def test_a_crash_between_guesses_keeps_every_committed_guess(tmp_path):
    path = str(tmp_path / "crash.sqlite3")
    process = subprocess.Popen(
        [sys.executable, "-c", CRASHER, path, SEED], stdout=subprocess.PIPE, text=True
    )
    with process:  # (its pipe closed after)
        assert process.stdout.readline().strip() == "guessed"
        process.send_signal(signal.SIGKILL)  # no close, no cleanup
    services = await open_services(load_settings(database_path=path, daily_seed=SEED))
    current = await services.games.current(Player(1), 5)
    assert [g for g, _ in current.game.rows] == ["crane", "slate"]
    await services.close()


async def test_a_database_locked_too_long_gets_a_message(tmp_path, lock_database):
    path = str(tmp_path / "db.sqlite3")
    services = await open_services(load_settings(database_path=path, daily_seed=SEED))
    services.games.choose_answer = PINNED.get
    await services.games.start(ANN, GUILD)
    await services.storage.db._db.execute("PRAGMA busy_timeout = 200")
    locker = lock_database(path, 1.5)
    outcome = await services.games.guess(ANN, GUILD, "crane")
    locker.wait()
    assert not outcome.ok and outcome.message == BUSY
    retry = await services.games.guess(ANN, GUILD, "crane")
    assert retry.ok and [g for g, _ in retry.game.rows] == ["crane"]
    await services.close()


async def test_hints_for_the_game_and_the_daily_setting(services):
    await services.games.start(ANN, GUILD)
    await services.games.guess(ANN, GUILD, "crane")
    result = await services.games.hint(ANN, GUILD)
    assert result.ok and result.hint.remaining >= 1
    await services.games.start(ANN, GUILD, daily=True)
    refused = await services.games.hint(ANN, GUILD, kind="wordle:daily", daily_hints=False)
    assert not refused.ok and "off for daily" in refused.message
    assert (await services.games.hint(BOB, GUILD)).message == NO_GAME


async def test_export_and_delete_through_the_services(services):
    await win_daily(services, ANN, DAY)
    exported = await services.export_player(ANN.id)
    assert '"kind": "wordle:daily"' in exported
    assert await services.delete_player(ANN.id)
    assert (await services.stats.stats(ANN.id, "wordle:daily", DAY)).played == 0


async def test_primel_plays_through_the_same_service(services):
    start = await services.games.start(ANN, GUILD, "primel")
    assert start.game.kind == kind_of("primel", False)
    assert (await services.games.guess(ANN, GUILD, "12345")).message == "Not a prime number"
    assert (await services.games.guess(ANN, GUILD, "10007")).ok


@pytest.mark.parametrize("variant", ["'; DROP TABLE games; --", "sedecordle", "x" * 4000, "🟩"])
async def test_an_unknown_game_is_refused_in_words(services, variant: str):
    outcome = await services.games.start(ANN, GUILD, variant)
    assert not outcome.ok and outcome.message.startswith("Unknown game")
    assert len(outcome.message) < 100
    assert (await services.storage._one("SELECT COUNT(*) FROM games"))[0] == 0


async def test_an_unknown_board_is_refused_with_the_choices(services):
    from bot.services.stats import LeaderboardError

    with pytest.raises(LeaderboardError, match="choose one of wins"):
        await services.stats.leaderboard("wordle:daily", "'; DROP TABLE standings", today=DAY)


async def test_absurdle_through_the_service(services):
    start = await services.games.start(ANN, GUILD, "absurdle")
    assert start.ok and start.game.kind == "absurdle:practice" and start.game.remaining == 2315
    for word in ("arise", "yauld", "tench"):
        outcome = await services.games.guess(ANN, GUILD, word)
    assert outcome.game.remaining == 1 and not outcome.game.over
    won = await services.games.guess(ANN, GUILD, "whoop")
    assert won.game.status == "won" and won.game.answer == "whoop"
    stats = await services.stats.stats(ANN.id, "absurdle:practice", DAY)
    assert stats.played == 1 and stats.distribution[4] == 1
    assert (await services.games.start(ANN, GUILD, "absurdle", daily=True)).message == (
        "Absurdle has no daily puzzle: play practice"
    )


async def test_an_absurdle_challenge_ends_when_the_target_goes(services):
    start = await services.games.start(ANN, GUILD, "absurdle", challenge=True)
    assert start.game.kind == "absurdle:challenge" and start.game.target == "cigar"
    lost = await services.games.guess(ANN, GUILD, "cigar")  # the adversary dodges it
    assert lost.game.status == "lost" and "gone" not in (lost.message or "")
    assert (await services.stats.stats(ANN.id, "absurdle:challenge", DAY)).played == 1


async def test_a_quordle_through_the_service(services):
    services.games.deal = lambda variant, n: ["cigar", "rebut", "sissy", "humph"][:n]
    start = await services.games.start(ANN, GUILD, "quordle")
    assert start.game.kind == "quordle:practice" and start.game.max_guesses == 9
    first = await services.games.guess(ANN, GUILD, "cigar")
    assert first.game.boards[0] == [("cigar", "22222")] and len(first.game.boards[1]) == 1
    hint = await services.games.hint(ANN, GUILD)
    assert hint.ok and hint.multi.candidates[0] == [] and "rebut" in hint.multi.candidates[1]
    for word in ("rebut", "sissy", "humph"):
        outcome = await services.games.guess(ANN, GUILD, word)
    assert outcome.game.status == "won" and outcome.game.answer == "cigar, rebut, sissy, humph"
    stats = await services.stats.stats(ANN.id, "quordle:practice", DAY)
    assert stats.distribution[4] == 1 and len(stats.distribution) == 9


# -- every action lands on the game the player is looking at -------------------------------

CHANNEL = 555


async def test_a_give_up_goes_to_the_game_shown_in_that_place_not_the_newest(services):
    practice = await services.games.start(ANN, GUILD, place=CHANNEL)
    daily = await services.games.start(ANN, GUILD, daily=True, place=CHANNEL + 1)
    # The practice board is what Ann looks at in CHANNEL; the daily is newer.
    gave_up = await services.games.give_up(ANN, GUILD, place=CHANNEL)
    assert gave_up.ok and gave_up.game.game_id == practice.game.game_id
    assert (await services.storage.game(daily.game.game_id)).status == "playing"


async def test_when_several_games_could_be_meant_nothing_is_played_and_both_are_offered(services):
    practice = await services.games.start(ANN, GUILD)
    daily = await services.games.start(ANN, GUILD, daily=True)
    for action in (
        services.games.guess(ANN, GUILD, "slate"),
        services.games.give_up(ANN, GUILD),
        services.games.guess(ANN, GUILD, "slate", place=CHANNEL),  # nothing shown there yet
    ):
        outcome = await action
        assert not outcome.ok and outcome.message == WHICH
        assert [c.game_id for c in outcome.choices] == [practice.game.game_id, daily.game.game_id]
    for game in (practice, daily):
        stored = await services.storage.game(game.game.game_id)
        assert stored.status == "playing" and stored.state["rows"] == []
    # Naming one (a board's button carries its id) plays it and makes it the one shown.
    assert (await services.games.guess(ANN, GUILD, "slate", game_id=daily.game.game_id)).ok


async def test_a_letters_guess_to_a_primel_game_says_which_game_it_went_to(services):
    await services.games.start(ANN, GUILD, "primel")
    refused = await services.games.guess(ANN, GUILD, "crane")
    assert not refused.ok and "Primel practice" in refused.message


# -- caches cannot be confused, and stay small -------------------------------------------


async def test_a_deleted_players_cached_game_never_answers_for_a_new_game(services):
    services.games.choose_answer = lambda variant: "cigar"
    await services.games.start(ANN, GUILD)
    await services.games.guess(ANN, GUILD, "crane")  # parsed and cached against CIGAR
    assert await services.delete_player(ANN.id)
    services.games.choose_answer = lambda variant: "rebut"
    await services.games.start(BOB, GUILD)
    first = await services.games.guess(BOB, GUILD, "crane")
    assert first.game.rows == [("crane", to_digits(score("crane", "rebut"), 5))]
    won = await services.games.guess(BOB, GUILD, "rebut")
    assert won.game.status == "won" and won.game.answer == "rebut"


async def test_memory_held_does_not_grow_with_finished_games_and_players(services):
    for n in range(40):
        player = Player(1000 + n)
        await services.games.start(player, GUILD, place=CHANNEL)
        await services.games.guess(player, GUILD, "crane", place=CHANNEL)
        await services.games.give_up(player, GUILD, place=CHANNEL)
    held = services.games.memory_held()
    assert held["locks"] == 0  # a lock lives only while someone holds or waits for it
    assert held["parsed"] == 0  # finished games are not kept parsed
    await asyncio.gather(*(services.games.start(Player(n), GUILD) for n in range(3000, 3050)))
    assert services.games.memory_held()["locks"] == 0


# -- hints: the server's setting holds on every path; hints that help ----------------------


async def test_daily_hints_off_holds_in_a_dm_and_for_typed_histories(services):
    from bot.storage import GuildSettings

    services.daily.clock = at("2026-03-01T12:00:00")
    await services.storage.save_guild_settings(GuildSettings(GUILD, hints_in_daily=False))
    daily = await services.games.start(ANN, GUILD, daily=True)
    answer = services.daily.answer("wordle", DAY)
    opener = "slate" if answer != "slate" else "crane"
    await services.games.guess(ANN, GUILD, opener, kind="wordle:daily")
    # The server's daily opened in a DM: its Hint button names the game.
    in_dm = await services.games.hint(ANN, DM, game_id=daily.game.game_id)
    assert not in_dm.ok and in_dm.message == HINTS_OFF
    history = f"{opener} {to_digits(score(opener, answer), 5)}"
    typed = await services.games.hint_history(ANN, history)
    assert not typed.ok and typed.message == HINTS_OFF_TYPED
    assert (await services.games.hint_history(BOB, history)).ok  # Bob has no daily going
    await services.games.guess(ANN, GUILD, answer, kind="wordle:daily")
    assert (await services.games.hint_history(ANN, history)).ok  # finished: no harm now


async def test_a_challenge_hint_steers_the_adversary_to_the_target(services):
    services.games.choose_answer = lambda variant: "whoop"
    start = await services.games.start(ANN, GUILD, "absurdle", challenge=True)
    assert start.game.target == "whoop"
    outcome = start
    for _ in range(6):
        hint = await services.games.hint(ANN, GUILD)
        assert hint.ok and hint.hint.suggestions
        outcome = await services.games.guess(ANN, GUILD, hint.hint.suggestions[0].guess)
        if outcome.game.over:
            break
    assert outcome.game.status == "won"  # following the hints corners the target


async def test_a_multi_board_hint_before_the_first_guess_gives_a_real_opener(services):
    from engine.solver.greedy import rank_guesses
    from engine.solver.measures import Measure
    from engine.solver.position import Position

    await services.games.start(ANN, GUILD, "quordle")
    hint = await services.games.hint(ANN, GUILD)
    assert [len(words) for words in hint.multi.candidates] == [2315] * 4
    wordle = get_variant("wordle")
    best = rank_guesses(Position.start(wordle), Measure.ENTROPY, top=20).guesses.tolist()
    assert hint.multi.guess in {wordle.guesses.words[g] for g in best}
