"""Solving Absurdle: the adversary is deterministic, so a line of guesses is a single path.

A guess leaves exactly its largest bucket (see ``engine.absurdle``), so the minimax step
(Wordle Boss's ``get_min_feedback`` idea) is the guess whose largest bucket is smallest. A
win needs guesses that shrink the pool to one word, then that word. The searches try, at
each step, the ``width`` guesses with the smallest worst bucket; at the last step before
the win they scan every allowed guess for one that leaves a single word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.absurdle import adversary_choice
from engine.pattern import winning
from engine.rules import Mode, Row
from engine.solver.greedy import Ranking, rank_guesses
from engine.solver.hints import Hint, Suggestion, for_player
from engine.solver.measures import Measure
from engine.solver.position import Position, guess_row, tie_order
from engine.variants import Variant


@dataclass(frozen=True)
class Step:
    guess: str
    pattern: int
    remaining: int  # the bucket the adversary kept


@dataclass(frozen=True)
class Line:
    """A line of play: its steps, whether it ends in a win, and the words left at the end."""

    steps: list[Step]
    won: bool
    remaining: list[str]


def minimax_step(position: Position) -> str:
    """The guess whose worst case leaves the fewest words (ties: the smaller expected pool,
    then a possible answer)."""
    ranking = rank_guesses(position, Measure.MINIMAX, top=1)
    return position.variant.guesses.words[int(ranking.guesses[0])]


def shortest_win(
    variant: Variant, mode: Mode = Mode.NORMAL, *, max_guesses: int = 4, width: int = 40,
    progress: Callable[[int, int], None] | None = None,
) -> Line:  # fmt: skip
    """The shortest winning line found within ``max_guesses`` (the last guess wins).
    ``progress`` hears of each line length tried."""
    start, rankings = Position.start(variant, mode), Rankings()
    for total in range(2, max_guesses + 1):
        if progress is not None:
            progress(total - 2, max_guesses - 1)
        steps = _shrink(start, total - 1, width, target=None, rankings=rankings)
        if steps is not None:
            return _finish(variant, steps)
    return Line([], False, start.words)


def force_target(
    variant: Variant, target: str, mode: Mode = Mode.NORMAL, *, max_guesses: int = 6,
    width: int = 40, progress: Callable[[int, int], None] | None = None,
) -> Line:  # fmt: skip
    """A line that forces the adversary down to ``target`` and wins; ``won`` is False when
    none is found within ``max_guesses``. ``progress`` hears of each line length tried."""
    index = variant.answers.index.get(target)
    if index is None:
        return Line([], False, [])
    start, rankings = Position.start(variant, mode), Rankings()
    for total in range(2, max_guesses + 1):
        if progress is not None:
            progress(total - 2, max_guesses - 1)
        steps = _shrink(start, total - 1, width, target=index, rankings=rankings)
        if steps is not None:
            return _finish(variant, steps)
    return Line([], False, [target])


def steer(position: Position, target: str, top: int = 5, *, max_guesses: int = 3,
          width: int = 10) -> list[str]:  # fmt: skip
    """Challenge-mode hints: up to ``top`` guesses after which the adversary still keeps
    ``target``. A guess that starts a forcing line (found within ``max_guesses`` more guesses,
    ``width`` tried per step) leads; the rest follow by smallest worst bucket. Empty when the
    target is already gone."""
    index = position.variant.answers.index.get(target)
    if index is None or index not in position.candidates:
        return []
    words = position.variant.guesses.words
    if len(position.candidates) == 1:
        return [target]
    line: list[str] = []
    rankings = Rankings()
    for total in range(1, max_guesses + 1):
        steps = _shrink(position, total, width, target=index, rankings=rankings)
        if steps is not None:
            line = [steps[0].guess]
            break
    keeping: list[str] = []
    for g in rank_guesses(position, Measure.MINIMAX).guesses.tolist():
        if len(keeping) >= top:
            break
        if index in position.candidates[_kept(position, g)] and words[g] not in line:
            keeping.append(words[g])
    return (line + keeping)[:top]


def challenge_hint(
    variant: Variant, history: list[Row], mode: Mode, target: str, top: int = 5
) -> Hint:
    """A challenge-mode hint: the words left and the guesses that keep ``target`` alive, the
    start of a forcing line first (see :func:`steer`), with their minimax measures."""
    position = Position.after(variant, history, mode)
    chosen = steer(position, target, top + len(history))
    ranking = rank_guesses(position, Measure.MINIMAX)
    where = {g: i for i, g in enumerate(ranking.guesses.tolist())}
    index = variant.guesses.index
    suggestions = []
    for word in chosen:
        i = where[index[word]]
        suggestions.append(Suggestion(
            word, round(float(ranking.scores.entropy[i]), 4),
            round(float(ranking.scores.expected[i]), 4), int(ranking.scores.worst[i]),
            bool(ranking.possible[i]), None,
        ))  # fmt: skip
    found = Hint(len(position.candidates), position.words, suggestions,
                 measure=Measure.MINIMAX.value)  # fmt: skip
    return for_player(found, history, top)


def _finish(variant: Variant, steps: list[Step]) -> Line:
    return Line([*steps, Step(_only_word(variant, steps), winning(variant.length), 1)], True, [])


def _only_word(variant: Variant, steps: list[Step]) -> str:
    position = Position.start(variant)
    for step in steps:
        position = position.play(step.guess, step.pattern)
    return position.words[0]


class Rankings(dict[tuple[Row, ...], Ranking]):
    """The minimax ranking of each position a search reached, by its history: each longer
    line tried walks the shorter lines' positions again."""

    def of(self, position: Position) -> Ranking:
        if position.history not in self:
            self[position.history] = rank_guesses(position, Measure.MINIMAX)
        return self[position.history]


def _shrink(
    position: Position, guesses: int, width: int, target: int | None, rankings: Rankings
) -> list[Step] | None:
    """Steps that leave exactly one word (the target, if given) after ``guesses`` guesses."""
    variant = position.variant
    n = len(position.candidates)
    if guesses == 0 or n == 1:
        return None
    ranking = rankings.of(position)
    if guesses == 1:
        finals = ranking.guesses[ranking.scores.worst == 1]
        for g in finals[np.argsort(tie_order(variant)[finals], kind="stable")].tolist():
            if target is None or position.candidates[_kept(position, g)][0] == target:
                return [_step(position, g)]
        return None
    tried = 0
    for g in ranking.guesses.tolist():
        keep = _kept(position, g)
        if target is not None and target not in position.candidates[keep]:
            continue
        step = _step(position, g)
        child = position.play(step.guess, step.pattern)
        done = len(child.candidates) == 1 and target in (None, int(child.candidates[0]))
        rest = [] if done else _shrink(child, guesses - 1, width, target, rankings)
        if rest is not None:
            return [step, *rest]
        tried += 1
        if tried >= width:
            return None
    return None


def _kept(position: Position, guess: int) -> npt.NDArray[np.bool_]:
    patterns = guess_row(position.variant, guess)[position.candidates]
    return adversary_choice(patterns, position.variant.length)[1]


def _step(position: Position, guess: int) -> Step:
    patterns = guess_row(position.variant, guess)[position.candidates]
    pattern, keep = adversary_choice(patterns, position.variant.length)
    return Step(position.variant.guesses.words[guess], pattern, int(keep.sum()))
