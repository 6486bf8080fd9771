"""Analysing what players paste, coaching finished games (recording shares: .shares).

An NYT Wordle share or typed history is read with the NYT answer model
(:mod:`engine.answer_model`): any word the NYT accepts may be its answer, the original
answers far likelier, so a real answer outside the original list is never called impossible.

Analysis can be costly (a hard-mode grid read without its words), so it runs in a worker
pool of its own, apart from the game path (board images, hints), under a time budget, and
:class:`AnalysisGate` gives each player a cooldown and each server a limit on analyses at
once: one player cannot stop the bot for everyone.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from bot.services.kinds import parse
from engine.agents.advice import coach_with_rollout
from engine.answer_model import nyt_model
from engine.game import WordleGame
from engine.history import HistoryError, parse_history
from engine.pattern import PatternError
from engine.rules import Mode, shape_problem
from engine.shares import Share, parse_shares
from engine.solver.coach import Coaching, GridReading, coach, grid_candidates
from engine.solver.hints import Hint, hint
from engine.solver.position import InconsistentHistory
from engine.solver.weighted import model_coach, model_grid, model_hint
from engine.variants import get_variant

MAX_PASTE = 4000
BUDGET = 5.0  # seconds for the hard-mode check of one grid
T = TypeVar("T")
# One worker: analyses queue behind each other, never in front of a player's guess.
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wordlebot-analysis")


async def _off_loop(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    return await asyncio.get_running_loop().run_in_executor(
        _POOL, partial(function, *args, **kwargs)
    )


class AnalysisGate:
    """Whether an analysis may start now: one per player every ``cooldown`` seconds, and at
    most ``per_server`` running at once in a server (direct messages count as one place)."""

    def __init__(self, cooldown: float = 10.0, per_server: int = 2,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.cooldown, self.per_server, self.clock = cooldown, per_server, clock
        self._last: OrderedDict[int, float] = OrderedDict()
        self._running: defaultdict[int, int] = defaultdict(int)

    def admit(self, player_id: int, server_id: int) -> str | None:
        """None, with a slot taken (give it back with :meth:`release`), or why not."""
        now = self.clock()
        last = self._last.get(player_id)
        if last is not None and now - last < self.cooldown:
            return f"One analysis every {self.cooldown:.0f} s: try again in " \
                   f"{self.cooldown - (now - last):.0f} s"  # fmt: skip
        if self._running[server_id] >= self.per_server:
            return "Analyses are busy in this server: try again in a moment"
        self._last[player_id] = now
        self._last.move_to_end(player_id)
        while len(self._last) > 10_000:  # only recent players matter for a cooldown
            self._last.popitem(last=False)
        self._running[server_id] += 1
        return None

    def release(self, server_id: int) -> None:
        self._running[server_id] -= 1
        if self._running[server_id] <= 0:
            del self._running[server_id]


@dataclass(frozen=True)
class Analysis:
    shares: list[Share] = field(default_factory=list)
    readings: list[GridReading | None] = field(default_factory=list)  # per share
    hint: Hint | None = None  # for a typed history, or a share with its words
    coaching: Coaching | None = None  # for a Wordle share with its words
    problems: list[str] = field(default_factory=list)


async def analyze(text: str, words: str = "", *, budget: float = BUDGET) -> Analysis:
    """Shares in ``text`` (each Wordle or Primel grid read for its possible answers), or a
    typed history (answered with a hint). With ``words`` (the guesses behind a share's rows)
    the first Wordle share becomes a history: what is left and the best next guess, in hard
    mode when the share says so. Never raises: problems are listed."""
    text = text[:MAX_PASTE]
    parsed = parse_shares(text)
    if parsed.shares and words.strip():
        return await _with_words(parsed.shares, words, parsed.problems)
    if parsed.shares:
        readings = []
        for share in parsed.shares:
            board = share.boards[0]
            if share.game in ("wordle", "primel") and board.rows:
                variant = get_variant(share.game)
                patterns = [p for p in board.rows if p != 3**variant.length - 1]
                if share.game == "wordle":
                    read = partial(model_grid, nyt_model())
                else:
                    read = partial(grid_candidates, variant)
                readings.append(await _off_loop(read, patterns, share.hard, budget=budget))
            else:
                readings.append(None)
        return Analysis(parsed.shares, readings, problems=parsed.problems)
    try:
        rows = parse_history(text, get_variant("wordle-nyt"))
        if rows:
            result = await _off_loop(model_hint, nyt_model(), rows, Mode.NORMAL)
            return Analysis(hint=result)
    except (HistoryError, PatternError, InconsistentHistory) as exc:
        return Analysis(problems=[*parsed.problems, f"As a typed history: {exc}"])
    return Analysis(problems=parsed.problems)


async def _with_words(shares: list[Share], words: str, problems: list[str]) -> Analysis:
    share = next((s for s in shares if s.game in ("wordle", "primel")), None)
    if share is None:
        return Analysis(
            shares, [None] * len(shares), problems=[*problems, "No Wordle grid to pair"]
        )
    variant = get_variant(share.game)
    guesses = words.replace(",", " ").lower().split()
    rows = share.boards[0].rows
    if len(guesses) > len(rows):
        note = f"{len(guesses)} words for {len(rows)} rows: the extra words were ignored"
        problems = [*problems, note]
    history = list(zip(guesses, rows, strict=False))
    mode = Mode.HARD if share.hard else Mode.NORMAL
    bad = next(((i, g) for i, (g, _) in enumerate(history, 1) if shape_problem(g, variant)), None)
    if bad is not None:
        why = f"Word {bad[0]} ({bad[1][:20]!r}): {shape_problem(bad[1], variant)}"
        return Analysis(shares, [None] * len(shares), problems=[*problems, why])
    nyt = share.game == "wordle"
    try:
        if nyt:
            result = await _off_loop(model_hint, nyt_model(), history, mode)
        else:
            result = await _off_loop(hint, variant, history, mode)
    except (InconsistentHistory, ValueError) as exc:
        return Analysis(shares, [None] * len(shares), problems=[*problems, str(exc)])
    coaching = None
    if nyt:
        try:
            coaching = await _off_loop(model_coach, nyt_model(), history, mode)
        except ValueError as exc:  # a word the NYT does not accept: the hint still stands
            problems = [*problems, f"No coaching: {exc}"]
    return Analysis(shares, [None] * len(shares), hint=result, coaching=coaching,
                    problems=problems)  # fmt: skip


async def coach_game(
    state: dict[str, object], pool: ThreadPoolExecutor | None = None, *, rollout: bool = True
) -> Coaching | None:
    """Coaching for a stored Wordle or Primel game (None for other kinds), in the analysis
    pool or in ``pool``; with ``rollout``, each turn names the rollout agent's guess where it
    differs (up to a second more: jobs that only need the skill leave it off)."""
    game = parse(dict(state))
    if not isinstance(game, WordleGame):
        return None
    advise = coach_with_rollout if rollout else coach
    work = partial(advise, game.variant, game.rows, game.mode)
    return await asyncio.get_running_loop().run_in_executor(pool or _POOL, work)
