"""The coach's turns with what the rollout agent would have played (where it differs from
both the played and the coach's best guess), for a finished game.

The opener is left alone: it is not scored, and the rollout's first guess is the costliest
decision of all (every answer is still possible).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.agents.rollout import RolloutAgent, RolloutSettings
from engine.rules import Mode, Row
from engine.solver.coach import Coaching, coach
from engine.solver.position import Position
from engine.variants import Variant

ADVICE = RolloutSettings(top=5)  # a narrower lookahead than the study's: coaching is interactive


def with_rollout(
    coaching: Coaching, variant: Variant, history: Sequence[Row], mode: Mode = Mode.NORMAL,
    settings: RolloutSettings = ADVICE,
) -> Coaching:  # fmt: skip
    agent = RolloutAgent(mode, settings)
    position = Position.start(variant, mode)
    turns = []
    for i, (turn, (guess, pattern)) in enumerate(zip(coaching.turns, history, strict=True)):
        choice = None
        if i > 0 and len(position.candidates) > 2:
            word = variant.guesses.words[agent.choose(position)]
            choice = None if word in (turn.guess, turn.best) else word
        turns.append(replace(turn, rollout=choice))
        position = position.play(guess, pattern)
    return replace(coaching, turns=turns)


def coach_with_rollout(
    variant: Variant, history: Sequence[Row], mode: Mode = Mode.NORMAL
) -> Coaching:
    """:func:`engine.solver.coach.coach`, each turn naming the rollout's choice."""
    return with_rollout(coach(variant, history, mode), variant, history, mode)
