"""Games of set answers (races, challenges, past dailies): one per player and puzzle, their
own stats, never a daily's streak, on both engines."""

from datetime import date

import pytest

from bot.services import Player, open_services
from bot.settings import load_settings

ANN = Player(1, "ann")
GUILD = 100


@pytest.fixture
async def services(database_url: str):
    s = await open_services(
        load_settings(database_url=database_url, daily_seed="7f3a9c1e5b2d4f6a8c0e2b4d6f8a1c3e-sets")
    )
    yield s
    await s.close()


async def test_a_set_game_is_played_once_per_player_and_puzzle(services) -> None:
    games = services.games
    first = await games.start_set(ANN, GUILD, "wordle:race", "race:7", ["cigar"])
    again = await games.start_set(ANN, GUILD, "wordle:race", "race:7", ["cigar"])
    assert first.ok and again.ok and again.game.game_id == first.game.game_id
    assert first.game.number is None and first.game.day is None and not first.game.daily
    won = await games.guess(ANN, GUILD, "cigar", game_id=first.game.game_id)
    assert won.ok and won.game.status == "won"
    after = await games.start_set(ANN, GUILD, "wordle:race", "race:7", ["cigar"])
    assert not after.ok and after.message == "You have already played this one"
    assert after.game.game_id == first.game.game_id
    assert (await games.start_set(ANN, GUILD, "wordle:race", "race:8", ["rebut"])).ok
    # Its own stats line; the daily's streak and standings are untouched.
    stats = await services.stats.stats(ANN.id, "wordle:race", date(2026, 3, 1))
    assert (stats.played, stats.win_percent, stats.distribution[1]) == (1, 100, 1)
    assert await services.storage.standing(ANN.id, "wordle:daily") is None
    result = await services.storage._one("SELECT day, played_on FROM results")
    assert result[0] is None and result[1] is not None


async def test_a_past_daily_shows_its_number_and_is_not_a_daily(services) -> None:
    day = date(2026, 1, 5)
    answer = services.daily.answer("wordle", day)
    started = await services.games.start_set(ANN, GUILD, "wordle:archive", day.isoformat(),
                                             [answer])  # fmt: skip
    assert started.game.number == 20260105  # the bot's own number: its date
    assert started.game.day == "2026-01-05" and not started.game.daily
    done = await services.games.guess(ANN, GUILD, answer, kind="wordle:archive")
    assert done.ok and done.game.status == "won"
    assert await services.storage.standing(ANN.id, "wordle:daily") is None


async def test_a_set_game_waits_for_another_of_its_kind_here(services) -> None:
    await services.games.start_set(ANN, GUILD, "wordle:race", "race:1", ["cigar"])
    blocked = await services.games.start_set(ANN, GUILD, "wordle:race", "race:2", ["rebut"])
    assert not blocked.ok and blocked.message.startswith("Finish your Wordle race game")
