"""Analysis cannot stop the bot: a time budget, a worker pool of its own, a cooldown per
player and a limit per server."""

import asyncio
import time

from analysis_worker import until_reading

from bot.render import images
from bot.services import GameView, Player, open_services
from bot.services.analysis import AnalysisGate, analyze
from bot.settings import load_settings
from engine.pattern import parse_pattern
from engine.solver.coach import grid_candidates

SEED = "a1b2c3d4e5f60718293a4b5c6d7e8f90-analysis"
# A long hard-mode grid: checking it fully takes minutes of CPU.
COSTLY = "Wordle 1,500 5/6*\n\n⬜🟨⬜⬜⬜\n⬜⬜🟨⬜⬜\n🟨⬜⬜🟨⬜\n⬜🟨🟩⬜🟨\n🟩🟩🟩🟩🟩"


def test_the_gate_gives_a_cooldown_per_player_and_a_limit_per_server() -> None:
    now = [0.0]
    gate = AnalysisGate(cooldown=10, per_server=2, clock=lambda: now[0])
    assert gate.admit(1, 100) is None
    gate.release(1, 100)
    assert "try again in 10 s" in gate.admit(1, 100)  # the same player, too soon
    assert gate.admit(2, 100) is None and gate.admit(5, 100) is None
    assert "busy in this server" in gate.admit(3, 100)  # two running there already
    assert gate.admit(3, 200) is None  # another server is not held up
    gate.release(5, 100)
    assert gate.admit(4, 100) is None
    now[0] = 10.5
    gate.release(2, 100)
    gate.release(4, 100)
    assert gate.admit(1, 100) is None  # cooled down


def test_a_hard_grid_reading_stops_at_its_budget_and_says_so(wordle) -> None:
    ticks = iter(range(10**6))
    patterns = [parse_pattern(p, 5) for p in ("00000", "01000", "00100", "10010", "01201")]
    reading = grid_candidates(wordle, patterns, hard=True, budget=20, clock=lambda: next(ticks))
    assert not reading.complete
    assert reading.count <= grid_candidates(wordle, patterns).count
    ample = grid_candidates(wordle, [parse_pattern("22222", 5)], hard=True, budget=10**5,
                            clock=lambda: next(ticks))  # fmt: skip
    assert ample.complete and ample.count == 2315


async def test_a_flood_of_costly_analyses_leaves_the_game_path_responsive() -> None:
    services = await open_services(load_settings(database_path=":memory:", daily_seed=SEED))
    try:
        services.games.choose_answer = lambda variant: "cigar"
        flood = [asyncio.ensure_future(analyze(COSTLY, budget=0.6)) for _ in range(6)]
        await until_reading()  # the analyses are running
        view = GameView(1, 1, "wordle:practice", "wordle", "Wordle", "normal", None, None,
                        [("crane", "21100")], "playing", 6, 5, None)  # fmt: skip
        begin = time.perf_counter()
        await services.games.start(Player(1), 5)
        guess = await services.games.guess(Player(1), 5, "crane")
        png = await asyncio.to_thread(images.board_png, view)  # the default pool is free
        took = time.perf_counter() - begin
        # No wall-clock bound (the machine may be loaded): each analysis holds the analysis
        # thread for its whole 1.5 s budget, so a game path queued behind even one of them
        # would end after it. Ending before any did is the property.
        before_any = not any(f.done() for f in flood)
        results = await asyncio.gather(*flood)
    finally:
        await services.close()
    assert guess.ok and png.startswith(b"\x89PNG")
    assert before_any, f"the game path waited {took:.2f} s, until an analysis ended"
    reading = results[0].readings[0]
    assert reading is not None and not reading.complete  # answered with what was found
