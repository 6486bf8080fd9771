"""The console under random command lines: never a traceback, never a change to a game the
line did not reach (another player's game, the same player's game in a server)."""

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import Console
from bot.services import Player, open_services
from bot.settings import load_settings

SEED = "f0e1d2c3b4a5968778695a4b3c2d1e0f-fuzz"
COMMANDS = [
    "", "/wordle", "/wordle daily", "/wordle practice", "/primel", "/absurdle", "/quordle",
    "/dordle", "/octordle", "/guess", "/giveup", "/hint", "/stats", "/streak", "/leaderboard",
    "/analyze", "/coach", "/export", "/help", "/nonsense", "crane", "Wordle 1,234 3/6",
    "/leaderboard metric:", "/stats game:", "/wordle archive number:", "/mydata delete",
    "/coop start", "/hint history:",
]  # fmt: skip
lines = st.builds(
    lambda command, rest: f"{command} {rest}".strip(),
    st.sampled_from(COMMANDS),
    st.one_of(st.just(""), st.text(max_size=24), st.sampled_from(["hard", "2", "wins ²", "🟩"])),
)


async def session(typed: list[str]) -> None:
    services = await open_services(load_settings(database_path=":memory:", daily_seed=SEED))
    try:
        other = await services.games.start(Player(2, "other"), 0, "wordle")
        mine_elsewhere = await services.games.start(Player(5, "tess"), 100, "primel")
        before = [await services.storage.game(o.game.game_id) for o in (other, mine_elsewhere)]
        queue = list(typed)

        async def read(_: str) -> str | None:
            return queue.pop(0) if queue else None

        out: list[str] = []
        await Console(services, Player(5, "tess"), out.append, colour=False).run(read)
        after = [await services.storage.game(o.game.game_id) for o in (other, mine_elsewhere)]
        assert after == before
        assert not any("Traceback" in line for line in out)
    finally:
        await services.close()


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, max_size=8))
def test_random_command_lines_never_raise_nor_touch_other_games(typed: list[str]) -> None:
    asyncio.run(session(typed))
