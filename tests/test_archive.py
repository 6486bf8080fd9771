"""The archive: a past daily by number or date, once per player, its own stats line, never
a daily's streak or board; every refusal private and storing nothing."""

from datetime import UTC, date, datetime, timedelta

import pytest
from discord_double import only

from bot.console import Console
from bot.render.text import stats_text
from bot.services import Player, open_services
from bot.services.archive import play_archive
from bot.services.daily import EPOCH, shown_number
from bot.settings import load_settings
from engine.rules import Mode

SEED = "3c9e1a7f5b2d4e6a8c0f2b4d6e8a1c3f-archive"
ANN, BOB = Player(1, "ann"), Player(2, "bob")
GUILD = 100
TODAY = date(2026, 3, 2)  # wordlebot #20260302 (#1717 by the old count, the NYT's)
TABLES = ("players", "games", "results", "standings", "period_standings")


def clock(day: date):
    return lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


@pytest.fixture
async def services(database_url: str):
    s = await open_services(load_settings(database_url=database_url, daily_seed=SEED))
    s.daily.clock = clock(TODAY)
    yield s
    await s.close()


async def counts(storage) -> dict[str, int]:
    return {t: (await storage._one(f"SELECT COUNT(*) FROM {t}"))[0] for t in TABLES}


async def test_a_past_daily_counts_apart_from_the_dailies(services) -> None:
    games, daily = services.games, services.daily
    today = daily.answer("wordle", TODAY)
    await games.start(ANN, GUILD, "wordle", daily=True)
    await games.guess(ANN, GUILD, today, kind="wordle:daily")
    board_before = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD,
                                                    today=TODAY, period="week")  # fmt: skip
    started = await play_archive(games, ANN, GUILD, "wordle", number=1500)
    day = date(2025, 7, 28)
    assert started.ok and started.game.number == 20250728 and started.game.day == day.isoformat()
    assert started.game.kind == "wordle:archive" and not started.game.daily
    again = await play_archive(games, ANN, GUILD, "wordle", day="2025-07-28")  # the same game
    assert again.ok and again.game.game_id == started.game.game_id
    opener = "crane" if daily.answer("wordle", day) != "crane" else "slate"
    await games.guess(ANN, GUILD, opener, kind="wordle:archive")
    won = await games.guess(ANN, GUILD, daily.answer("wordle", day), kind="wordle:archive")
    assert won.ok and won.game.status == "won" and won.game.number == 20250728

    stats = await services.stats.stats(ANN.id, "wordle:daily", TODAY)
    assert (stats.played, stats.current_streak, stats.max_streak) == (1, 1, 1)
    assert (stats.archive.played, stats.archive.wins, stats.archive.average) == (1, 1, 2.0)
    assert "Wordle archive: Played 1 | Won 1 | Average 2.00" in stats_text(stats, "ann")
    assert (await services.stats.stats(ANN.id, "wordle:practice", TODAY)).archive is None
    board_after = await services.stats.leaderboard("wordle:daily", "wins", guild_id=GUILD,
                                                   today=TODAY, period="week")  # fmt: skip
    assert board_after == board_before
    assert (await services.storage.standing(ANN.id, "wordle:daily")).played == 1
    result = await services.storage._one("SELECT day FROM results WHERE kind = 'wordle:archive'")
    assert result[0] is None  # no daily's day: streaks and the digest never see it

    before = await counts(services.storage)
    for done in (await play_archive(games, ANN, GUILD, "wordle", number=1500),
                 await play_archive(games, ANN, GUILD, "wordle", day="2025-07-28")):  # fmt: skip
        assert not done.ok and done.message == (
            "You have already played wordlebot Wordle #20250728 from the archive")  # fmt: skip
    assert await counts(services.storage) == before


async def test_an_archive_day_lost_given_up_or_won_is_never_played_again(services) -> None:
    """Over is over, however it ended, and a deletion the same day changes nothing."""
    games = services.games

    def answer(number: int) -> str:
        return services.daily.answer("wordle", EPOCH + timedelta(days=number))

    async def lose(number: int) -> None:  # six wrong guesses
        wrong = [w for w in ("crane", "slate", "moist", "pound", "fjord", "glyph", "vixen")
                 if w != answer(number)]  # fmt: skip
        for word in wrong[:6]:
            last = await games.guess(ANN, GUILD, word, kind="wordle:archive")
        assert last.game.status == "lost"

    async def give_up(number: int) -> None:
        assert (await games.give_up(ANN, GUILD, kind="wordle:archive")).game.status == "lost"

    async def win(number: int) -> None:
        won = await games.guess(ANN, GUILD, answer(number), kind="wordle:archive")
        assert won.game.status == "won"

    ended = {1400: lose, 1401: give_up, 1402: win}
    for number, end in ended.items():
        assert (await play_archive(games, ANN, GUILD, "wordle", number=number)).ok
        await end(number)

    def shown(number: int) -> int:  # the old count of days names the same day
        return shown_number(EPOCH + timedelta(days=number))

    async def all_refused() -> None:
        before = await counts(services.storage)
        for number in ended:
            for way in ({"number": number}, {"day": str(EPOCH + timedelta(days=number))}):
                again = await play_archive(games, ANN, GUILD, "wordle", **way)
                assert not again.ok and again.message == (
                    f"You have already played wordlebot Wordle #{shown(number)} from the archive"
                )
                late = await games.guess(ANN, GUILD, answer(number), kind="wordle:archive")
                assert not late.ok and late.message == "No game in progress"
        assert await counts(services.storage) == before

    await all_refused()
    assert await services.delete_player(ANN.id)
    await all_refused()
    assert (await play_archive(games, ANN, GUILD, "wordle", number=1403)).ok  # another day


async def test_refusals_are_clear_and_store_nothing(services) -> None:
    games = services.games
    services.daily.clock = clock(date(2026, 3, 1))  # yesterday's daily, played as the daily
    await games.start(BOB, GUILD, "wordle", daily=True)
    services.daily.clock = clock(TODAY)
    before = await counts(services.storage)
    cases = [
        ({"number": 1718}, "wordlebot Wordle #20260303 is not out yet: today's is #20260302"),
        ({"number": 99_999_999_999}, "is not out yet"),
        (
            {"number": 1717},
            "wordlebot Wordle #20260302 is today's puzzle: play it with /wordle daily",
        ),
        ({"day": "2026-03-02"}, "is today's puzzle"),
        ({"number": 0}, "The archive starts at wordlebot Wordle #20210620 (2021-06-20)"),
        ({"number": -1}, "The archive starts at wordlebot Wordle #20210620"),
        ({"day": "2021-06-19"}, "The archive starts at wordlebot Wordle #20210620"),
        ({"day": "2026-02-30"}, "Not a date: '2026-02-30'. Give it as YYYY-MM-DD"),
        ({"day": "yesterday"}, "Not a date: 'yesterday'"),
        ({"day": "20260301"}, "Not a date"),
        ({"day": "9" * 4000}, "Not a date: '99999999999999999999'"),
        ({}, "Give a puzzle number or a date"),
        ({"number": 3, "day": "2021-06-22"}, "Give a puzzle number or a date"),
    ]
    for player in (ANN, BOB):
        for options, message in cases:
            refused = await play_archive(games, player, GUILD, "wordle", **options)
            assert not refused.ok and message in refused.message and refused.game is None
    as_daily = await play_archive(games, BOB, GUILD, "wordle", number=1716)
    assert not as_daily.ok
    assert as_daily.message == "You played wordlebot Wordle #20260301 as the daily"
    primel = await play_archive(games, ANN, GUILD, "primel", number=1717)
    assert primel.message == (
        "wordlebot Primel #20260302 is today's puzzle: play it with /primel daily"
    )
    assert not (await play_archive(games, ANN, GUILD, "quordle", number=3)).ok
    assert await counts(services.storage) == before
    assert (await play_archive(games, ANN, GUILD, "wordle", number=1716)).ok  # Ann may


async def test_puzzle_one_is_the_first_in_the_archive(services) -> None:
    first = await play_archive(services.games, ANN, GUILD, "wordle", number=1)
    assert first.ok and first.game.number == 20210620 and first.game.day == "2021-06-20"
    assert first.game.rows == [] and first.game.answer is None  # no answer before the end
    primel = await play_archive(services.games, ANN, GUILD, "primel", day="2021-06-20",
                                mode=Mode.HARD)  # fmt: skip
    assert primel.ok and primel.game.variant == "primel" and primel.game.mode == "hard"
    blocked = await play_archive(services.games, ANN, GUILD, "wordle", number=2)
    assert not blocked.ok and blocked.message == "Finish your wordlebot Wordle #20210620 first"


async def test_the_console_plays_the_archive(services) -> None:
    shown: list[str] = []
    console = Console(services, ANN, shown.append, colour=False)
    answer = services.daily.answer("wordle", date(2026, 2, 1))
    for line in ("/wordle archive 1717", "/wordle archive", "/wordle archive 2026-02-01 hard",
                 answer, "/stats", "/primel archive #12"):  # fmt: skip
        await console.handle(line)
    text = "\n".join(shown)
    assert "  wordlebot Wordle #20260302 is today's puzzle: play it with /wordle daily" in text
    assert "  Give a puzzle number or a date (YYYY-MM-DD)" in text  # Discord's words too
    assert "wordlebot Wordle #20260201 (hard mode)" in text and "Solved in 1/6!" in text
    assert "Wordle archive: Played 1 | Won 1 | Average 1.00" in text
    assert "wordlebot Primel #20210701" in text


# -- in Discord -------------------------------------------------------------------------


@pytest.fixture
async def double(make_double):
    return await make_double(clock=clock(TODAY))


async def test_an_archive_board_in_a_channel_hides_its_letters(double) -> None:
    answer = double.bot.services.daily.answer("wordle", date(2025, 7, 28))
    board = only(await double.command("wordle", "archive", user_id=ANN.id, number=1500))
    assert board.a_new_message and not board.ephemeral
    assert "wordlebot Wordle #20250728" in board.text
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=ANN.id, on=board))
    opener = "crane" if answer != "crane" else "slate"
    played = only(await double.submit(modal, {"word": opener}, user_id=ANN.id))
    assert f"||{opener.upper()}||" in played.text  # others may still play this one
    ended, told, gone = await double.command("giveup", user_id=ANN.id)
    assert gone.method == "DELETE"  # the game's older board in the channel
    assert answer.upper() not in ended.text.replace(f"||{answer.upper()}||", "")
    assert told.ephemeral and answer.upper() in told.text
    stats = only(await double.command("stats", user_id=ANN.id))
    assert "Played 0" in stats.text and "Wordle archive: Played 1 | Won 0" in stats.text


async def test_coaching_an_archive_day_stays_private_even_when_shared(double) -> None:
    """Issue 38, point 5. Think like a cheater: play a past day from the archive (any day
    anyone who has not played it may still play), then /coach share:true: the report names
    every guess and the answer. It stays private, as today's daily does, and says why."""
    answer = double.bot.services.daily.answer("wordle", date(2025, 7, 28))
    board = only(await double.command("wordle", "archive", user_id=ANN.id, number=1500))
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=ANN.id, on=board))
    await double.submit(modal, {"word": answer}, user_id=ANN.id)
    replies = await double.command("coach", user_id=ANN.id, share=True)
    report = replies[-1]
    assert report.ephemeral and answer.upper() in report.text
    assert "stays private: others can still play it" in report.text
    assert all(r.ephemeral or answer.upper() not in r.text.upper() for r in replies)


async def test_archive_refusals_in_discord_are_private_and_store_nothing(double) -> None:
    storage = double.bot.services.storage
    before = await counts(storage)
    for options, message in (({"number": 1718}, "is not out yet"),
                             ({"number": 1717}, "play it with /wordle daily"),
                             ({"date": "2026-13-01"}, "Not a date"),
                             ({"number": 0}, "The archive starts at wordlebot Wordle #20210620"),
                             ({}, "Give a puzzle number or a date")):  # fmt: skip
        refused = only(await double.command("wordle", "archive", user_id=ANN.id, **options))
        assert refused.ephemeral and message in refused.text
    refused = only(await double.command("primel", "archive", user_id=ANN.id, date="2026-03-03"))
    assert refused.ephemeral and "wordlebot Primel #20260303 is not out yet" in refused.text
    assert await counts(storage) == before
