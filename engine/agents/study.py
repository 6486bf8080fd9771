"""Is hard mode harder? Every answer played by each agent in normal, hard and strict mode.

A game is lost after the variant's guess limit; in means, standard deviations and
differences a lost game counts as one guess more than the limit (7 in Wordle), the usual
way to average scores with failures. The difference between two modes is paired by answer:
each answer's guesses in one mode minus its guesses in the other, with a 95% t interval.

Deterministic agents (greedy, rollout, exact) are played as decision trees against every
answer at once (shared prefixes computed once); random-consistent and Q-learning play each
answer through :class:`~engine.agents.environment.WordleEnv`.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from engine.agents import qlearning
from engine.agents.environment import WordleEnv
from engine.agents.qlearning import QSettings
from engine.agents.rollout import RolloutAgent, RolloutSettings
from engine.rules import Mode
from engine.solver.exact_trees import optimal_tree
from engine.solver.greedy import best_guess
from engine.solver.measures import Measure
from engine.solver.position import Position, answer_rows
from engine.solver.tree import Node, build_tree, guesses_needed
from engine.variants import Variant

AGENTS: dict[str, str] = {
    "random": "random consistent",
    "qlearning": "seed Q-learning",
    "qpossible": "seed Q, possible",
    "entropy": "greedy entropy",
    "parts": "greedy most parts",
    "rollout": "rollout",
    "exact": "exact optimum",
}
MODES = (Mode.NORMAL, Mode.HARD, Mode.STRICT)
Games = list[int | None]  # guesses per answer, None for a lost game


@dataclass(frozen=True)
class StudySettings:
    q: QSettings = field(default_factory=lambda: QSettings(episodes=10_000))
    rollout: RolloutSettings = field(default_factory=lambda: RolloutSettings(top=20))
    seed: int = 0  # random-consistent's games

    def to_json(self) -> dict[str, Any]:
        return {"qlearning": vars(self.q), "rollout": {**vars(self.rollout),
                "base": str(self.rollout.base)}, "seed": self.seed}  # fmt: skip


def random_consistent(env: WordleEnv, answer: int, seed: int) -> int | None:
    """A game of guessing uniformly among the answers still possible (legal in every mode);
    seeded by (seed, answer), so each answer's game is the same whatever else is played."""
    rng = np.random.default_rng([seed, answer])
    rows = answer_rows(env.variant)
    env.reset(answer=answer)
    won = False
    while not env.done:
        candidates = env.position.candidates
        _, _, _, _, info = env.step(int(rows[candidates[rng.integers(len(candidates))]]))
        won = info["won"]
    return len(env.history) if won else None


def tree_games(variant: Variant, mode: Mode, root: Node, answers: Sequence[int]) -> Games:
    limit = variant.max_guesses
    needed = guesses_needed(root, Position.start(variant, mode))
    return [g if (g := needed.get(a)) is not None and g <= limit else None for a in answers]


def train(
    variant: Variant, agent: str, mode: Mode, settings: StudySettings,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Any, bool]:  # fmt: skip
    """What an agent needs before it plays (a Q table, an exact tree), from the cache when it
    is there; and whether it came from there."""
    if agent in ("qlearning", "qpossible"):
        q = settings.q if agent == "qlearning" else replace(settings.q, guesses="possible")
        return qlearning.trained_table(variant, mode, q, progress=progress)
    if agent == "exact":
        from engine.solver.exact import preset
        from engine.solver.exact_trees import tree_path

        cached = tree_path(variant, mode, preset(variant, mode)).exists()
        return optimal_tree(variant, mode, progress=progress)[1], cached
    return None, True


def evaluate(
    variant: Variant, agent: str, mode: Mode, trained: Any, answers: Sequence[int],
    settings: StudySettings,
) -> Games:  # fmt: skip
    """Each answer's game with ``agent`` in ``mode``."""
    start = Position.start(variant, mode)
    if agent in ("entropy", "parts"):
        measure = Measure(agent)
        root = build_tree(start, lambda p: best_guess(p, measure), answers)
        return tree_games(variant, mode, root, answers)
    if agent == "rollout":
        root = build_tree(start, RolloutAgent(mode, settings.rollout).choose, answers)
        return tree_games(variant, mode, root, answers)
    if agent == "exact":
        return tree_games(variant, mode, trained, answers)
    env = WordleEnv(variant, mode)
    if agent == "qlearning":
        return [qlearning.play(env, trained, a) for a in answers]
    if agent == "qpossible":
        return [qlearning.play(env, trained, a, "possible") for a in answers]
    if agent == "random":
        return [random_consistent(env, a, settings.seed) for a in answers]
    raise ValueError(f"Unknown agent {agent!r}; choose from {', '.join(AGENTS)}")


def scores(games: Games, limit: int) -> list[int]:
    """Guesses per game, a lost game counting ``limit + 1``."""
    return [limit + 1 if g is None else g for g in games]


def summary(games: Games, limit: int) -> dict[str, Any]:
    values = scores(games, limit)
    counts = {str(k): sum(1 for g in games if g == k) for k in range(1, limit + 1)}
    return {
        "mean": round(statistics.fmean(values), 4),
        "sd": round(statistics.stdev(values), 4) if len(values) > 1 else 0.0,
        "failures": sum(1 for g in games if g is None),
        "worst": "X" if None in games else max(g for g in games if g is not None),
        "distribution": {**counts, "X": sum(1 for g in games if g is None)},
    }


# Student's t, 97.5th percentile, for 1..30 degrees of freedom; beyond, a series in 1/df.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip


def t975(df: int) -> float:
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964  # Cornish-Fisher expansion: within 1e-4 of the exact value from df 30
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def paired_difference(a: Games, b: Games, limit: int) -> dict[str, float | None]:
    """Mean of ``a - b`` over the same answers, and its 95% confidence interval."""
    diffs = [x - y for x, y in zip(scores(a, limit), scores(b, limit), strict=True)]
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return {"mean": round(mean, 4), "low": None, "high": None}
    half = t975(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4)}


def run_study(
    variant: Variant,
    agents: Sequence[str] = tuple(AGENTS),
    settings: StudySettings = StudySettings(),
    answers: Sequence[int] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """Every agent in every mode over ``answers`` (all by default): the JSON the study
    prints, with training (or cache loading) and evaluation times kept apart."""
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        raise ValueError(f"Unknown agent {unknown[0]!r}; choose from {', '.join(AGENTS)}")
    answers = list(range(len(variant.answers))) if answers is None else list(answers)
    limit = variant.max_guesses
    result: dict[str, Any] = {
        "variant": variant.name, "answers": len(answers), "answer_list": len(variant.answers),
        "guess_list": len(variant.guesses), "limit": limit, "settings": settings.to_json(),
        "agents": {}, "training_seconds": 0.0, "evaluation_seconds": 0.0,
    }  # fmt: skip
    cells = [(agent, mode) for agent in agents for mode in MODES]
    for done, (agent, mode) in enumerate(cells):
        if progress is not None:
            progress(done, len(cells))
        entry = result["agents"].setdefault(agent, {"label": AGENTS[agent], "modes": {}})
        began = clock()
        trained, cached = train(variant, agent, mode, settings)
        trained_at = clock()
        games = evaluate(variant, agent, mode, trained, answers, settings)
        finished = clock()
        entry["modes"][str(mode)] = {
            **summary(games, limit), "games": games, "cached": cached,
            "training_seconds": round(trained_at - began, 2),
            "evaluation_seconds": round(finished - trained_at, 2),
        }  # fmt: skip
        result["training_seconds"] += trained_at - began
        result["evaluation_seconds"] += finished - trained_at
    if progress is not None:
        progress(len(cells), len(cells))
    for entry in result["agents"].values():
        modes = entry["modes"]
        base = modes.get("normal", {}).get("games")
        entry["differences"] = {
            str(m): paired_difference(modes[str(m)]["games"], base, limit)
            for m in (Mode.HARD, Mode.STRICT)
            if base is not None and "games" in modes.get(str(m), {})
        }
    for key in ("training_seconds", "evaluation_seconds"):
        result[key] = round(result[key], 2)
    return result
