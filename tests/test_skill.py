"""The skill board: the coach's skill of each finished daily, added once to its player's
boards by the leader job, and ranked like the other boards, on both engines."""

import asyncio
from datetime import timedelta

from clock import at
from test_digest import DAY, GUILD, SEED, play  # noqa: F401 - SEED: conftest's opened reads it

from bot.services import Player, Services
from bot.services.kinds import parse
from bot.services.skill import coach_dailies
from bot.storage.periods import period_key
from engine.solver.coach import coach

ANN, BOB, CAT = Player(1, "ann"), Player(2, "bob"), Player(3, "cat")
NOON = at("2026-03-02T12:00")


async def skill_of(services: Services, player: Player) -> int | None:
    """The coach's skill of the player's daily, measured here, apart from the job."""
    game = parse((await services.storage.daily_game(player.id, "wordle:daily",
                                                    DAY.isoformat())).state)  # fmt: skip
    return coach(game.variant, game.rows, game.mode).skill


async def skill_board(services: Services, period: str, scope: int = GUILD) -> dict[str, float]:
    rows, _ = await services.storage.leaderboard(
        scope, "wordle:daily", "skill", period=period_key(period, DAY, 28), per_page=50,
        today=DAY,
    )  # fmt: skip
    return {r.row["name"]: r.value for r in rows}


async def test_the_job_coaches_each_daily_once_and_the_board_ranks_mean_skill(
    database_url, opened
) -> None:
    services = await opened(database_url, NOON)
    await play(services, ANN, DAY, 2)
    await play(services, BOB, DAY, 1)
    await play(services, CAT, DAY, 0)  # won at the first guess: the coach measures no skill
    assert await skill_board(services, "today") == {}  # not coached yet
    assert await coach_dailies(services.storage, batch=2) == 2  # newest first, a batch a run
    assert await coach_dailies(services.storage) == 1
    assert await coach_dailies(services.storage) == 0
    expected = {"ann": await skill_of(services, ANN), "bob": await skill_of(services, BOB)}
    assert all(value is not None for value in expected.values())
    assert await skill_of(services, CAT) is None
    for period in ("today", "week", "month", "season", "all"):
        for scope in (GUILD, -1):
            assert await skill_board(services, period, scope) == expected, (period, scope)

    await play(services, ANN, DAY + timedelta(days=1), 1)  # a second daily: the mean of two
    await coach_dailies(services.storage)
    rows, _ = await services.storage.leaderboard(GUILD, "wordle:daily", "skill", today=DAY)
    second = parse((await services.storage.daily_game(
        ANN.id, "wordle:daily", (DAY + timedelta(days=1)).isoformat())).state)  # fmt: skip
    mean = (expected["ann"] + coach(second.variant, second.rows, second.mode).skill) / 2
    assert {r.row["name"]: r.value for r in rows}["ann"] == mean
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks) and [r.value for r in rows] == sorted(
        (r.value for r in rows), reverse=True)  # fmt: skip
    await services.close()


async def test_two_runners_add_each_skill_once(shared_url, opened) -> None:
    first, second = await opened(shared_url, NOON), await opened(shared_url, NOON)
    for i in range(6):
        await play(first, Player(10 + i, f"p{i}"), DAY, 1 + i % 2)
    done = await asyncio.gather(coach_dailies(first.storage), coach_dailies(second.storage))
    assert sum(done) >= 6  # both may read a game; only one adds it
    rows = await first.storage._all(
        "SELECT skilled FROM standings WHERE kind = 'wordle:daily' AND scope = ?", (GUILD,)
    )
    assert sorted(int(r[0]) for r in rows) == [1] * 6
    await first.close()
    await second.close()


async def test_the_skill_board_needs_a_few_games_over_long_periods(database_url, opened):
    services = await opened(database_url, NOON)
    await play(services, ANN, DAY, 1)
    await coach_dailies(services.storage)
    stats = services.stats
    today = await stats.leaderboard("wordle:daily", "skill", guild_id=GUILD, today=DAY,
                                    period="today")  # fmt: skip
    assert [e.name for e in today.entries] == ["ann"]
    month = await stats.leaderboard("wordle:daily", "skill", guild_id=GUILD, today=DAY,
                                    period="month")  # fmt: skip
    assert month.entries == [] and month.total == 0  # five games at least
    await services.close()


async def test_a_game_the_coach_cannot_read_is_marked_and_never_retried(database_url, opened):
    services = await opened(database_url, NOON)
    storage = services.storage
    await storage.ensure_player(ANN.id, "ann")
    game = await storage.insert_game(ANN.id, GUILD, "wordle:daily", DAY.isoformat(), {})
    await storage._write(
        "INSERT INTO results (game_id, player_id, scope, kind, day, won, guesses, finished_at, "
        "played_on) VALUES (?, ?, ?, 'wordle:daily', ?, 1, 3, 'x', ?)",
        (game.id, ANN.id, GUILD, DAY.isoformat(), DAY.isoformat()),
    )
    assert await coach_dailies(storage) == 1
    assert await coach_dailies(storage) == 0
    assert tuple(await storage._one("SELECT coached, skill FROM results")) == (1, None)
    await services.close()
