"""Hints, coaching and grid readings under an answer model (candidates with probabilities).

A guess splits the candidates into buckets by pattern; a bucket has a mass M (the chance
its pattern comes up) and an effective size S = 2**H, H the entropy of the weights within it
(S is the bucket's size when its words are equally likely, and discounts unlikely words).
Every uniform measure of the engine carries over with M for |b|/n and S for |b|:

    entropy  = -sum M log2 M            expected = sum M * S           worst = max S
    EG(g)    = 1 + sum over buckets other than the win of M * F(S)   (F: engine.solver.coach)
    luck     = 99 * (mass of buckets with larger S + half the mass of those with equal S)

so with equal weights each figure is exactly the uniform one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from engine.answer_model import AnswerModel, ModelPosition
from engine.pattern import winning
from engine.rules import Mode, Row
from engine.solver.coach import (
    Coaching,
    GridReading,
    Turn,
    finish_cost,
    hard_survivors,
    skill_of,
)
from engine.solver.greedy import NEAR_GUESSES, common_mask
from engine.solver.hints import Hint, Suggestion, for_player
from engine.solver.measures import Measure, compact, compact_width, rank
from engine.solver.position import tie_order

# Guesses per bincount call, fewer where each has many candidates: the tiled weights and the
# offset labels stay in the processor's cache (256 rows of the NYT model's 14,855 candidates,
# 30 MiB each, took 2.4x the time on its opening).
_CHUNK, _CELLS = 256, 1 << 18


@dataclass(frozen=True)
class Buckets:
    """Per guess (rows) and pattern (columns; beyond six letters, distinct patterns by rank,
    see :func:`engine.solver.measures.compact`): mass M and effective size S, and the column
    of the all-green bucket of each guess (-1 where the guess is no candidate)."""

    mass: npt.NDArray[np.float64]
    size: npt.NDArray[np.float64]
    win: npt.NDArray[np.intp]

    @property
    def entropy(self) -> npt.NDArray[np.float64]:
        m = self.mass
        logs = np.log2(np.where(m > 0, m, 1.0))
        result: npt.NDArray[np.float64] = -(m * logs).sum(axis=1)
        return result

    @property
    def expected(self) -> npt.NDArray[np.float64]:
        result: npt.NDArray[np.float64] = (self.mass * self.size).sum(axis=1)
        return result

    @property
    def worst(self) -> npt.NDArray[np.float64]:
        result: npt.NDArray[np.float64] = self.size.max(axis=1)
        return result

    def to_finish(self) -> npt.NDArray[np.float64]:
        """EG: the guesses to finish, counting this one (heuristic, see the module doc)."""
        cost = self.mass * finish_cost(self.size)
        rows = np.flatnonzero(self.win >= 0)
        cost[rows, self.win[rows]] = 0.0  # guessing the answer costs only this guess
        eg: npt.NDArray[np.float64] = 1 + cost.sum(axis=1)
        return eg

    def sort_key(self, measure: Measure) -> npt.NDArray[np.float64]:
        """Smaller is better (rounded so that equal splits tie whatever the summing order)."""
        if measure is Measure.ENTROPY:
            return -np.round(self.entropy, 9)
        if measure is Measure.EXPECTED:
            return np.round(self.expected, 9)
        if measure is Measure.MINIMAX:
            return np.round(self.worst, 9)
        parts: npt.NDArray[np.float64] = (self.mass > 0).sum(axis=1).astype(np.float64)
        return -parts


def buckets(
    by_guess: npt.NDArray[np.unsignedinteger],
    weights: npt.NDArray[np.float64],
    n_patterns: int,
    *,
    by_pattern: bool = False,
) -> Buckets:
    """Masses and effective sizes from ``(guesses, candidates)`` patterns and the candidates'
    weights (summing to 1); ``by_pattern`` keeps one column per pattern at any length (for a
    guess or two whose buckets are looked up by pattern)."""
    guesses, n = by_guess.shape
    win = n_patterns - 1
    width = n_patterns if by_pattern else compact_width(n, n_patterns)
    mass = np.empty((guesses, width))
    w_log_w = np.empty((guesses, width))
    win_column = np.full(guesses, -1, dtype=np.intp)
    w_logs = weights * np.log2(weights)
    chunk = max(1, min(_CHUNK, _CELLS // max(n, 1)))
    for start in range(0, guesses, chunk):
        block = by_guess[start : start + chunk]
        rows = len(block)
        labels = block if by_pattern else compact(block.T, n_patterns)[0].T
        is_win = block == win
        has_win = is_win.any(axis=1)
        found = labels[np.arange(rows), is_win.argmax(axis=1)].astype(np.intp)
        win_column[start : start + rows] = np.where(has_win, found, -1)
        flat = (labels.astype(np.intp) + (np.arange(rows) * width)[:, None]).ravel()
        size = rows * width
        mass[start : start + rows] = np.bincount(
            flat, np.tile(weights, rows), size).reshape(rows, width)  # fmt: skip
        w_log_w[start : start + rows] = np.bincount(
            flat, np.tile(w_logs, rows), size).reshape(rows, width)  # fmt: skip
    full = mass > 0
    safe = np.where(full, mass, 1.0)
    # S = 2**H with H = log2 M - (sum w log2 w) / M: the entropy of the bucket's own weights.
    size_of = np.where(full, safe * np.exp2(-w_log_w / safe), 0.0)
    return Buckets(mass, size_of, win_column)


def model_hint(
    model: AnswerModel,
    history: Sequence[Row],
    mode: Mode = Mode.NORMAL,
    top: int = 5,
    measure: Measure | None = None,
    *,
    pruned: bool = True,
) -> Hint:
    """Candidates, most likely first, with their probabilities, and the ``top`` guesses by
    ``measure`` over the weights, or by default by EG, which counts the chance of winning
    now (with one word at 95%, guess it rather than the word that splits the rest best).
    ``pruned=False`` scores every guess exactly (the same hint, slower: the reference the
    tests and ``wordlebot bench hints`` compare with). Raises ``InconsistentHistory`` when
    no allowed word fits."""
    if not history and pruned:
        return _opening(model, mode, top, measure)  # the same for everyone: computed once
    found = _hint(ModelPosition.after(model, history, mode), top + len(history), measure,
                  pruned=pruned)  # fmt: skip
    return for_player(found, history, top)  # never a played word; one left: that word


@lru_cache(maxsize=16)
def _opening(model: AnswerModel, mode: Mode, top: int, measure: Measure | None) -> Hint:
    return _hint(ModelPosition.after(model, (), mode), top, measure)


def _hint(
    position: ModelPosition, top: int, measure: Measure | None, *, pruned: bool = True
) -> Hint:
    """The hint; ``pruned`` (by EG only) scores exactly just the guesses whose lower bound
    (:func:`contenders`) can reach the top, the rest never: the same hint, bit for bit, as
    scoring every guess (``pruned=False``, the reference the tests and benchmark compare)."""
    model, pool, weights = position.model, position.pool, position.weights
    rows = (
        contenders(position, top)
        if pruned and measure is None
        else np.arange(len(pool), dtype=np.intp)
    )
    guesses = pool[rows]
    patterns = model.patterns(guesses, position.candidates)
    same = np.arange(len(guesses))
    if pruned:  # a guess's figures depend on its row of patterns alone: each row once
        patterns, same = _unique_rows(patterns)
    split = buckets(patterns, weights, 3**model.variant.length)
    chance = np.zeros(len(model.words))
    chance[position.candidates] = weights
    possible = chance[guesses] > 0
    key: npt.NDArray[np.float64]
    if measure is None:  # near equals (NEAR_GUESSES) to a common word: SOLID, not DOITS
        bonus = NEAR_GUESSES * common_mask(model.variant)[guesses].astype(np.float64)
        key = np.asarray(np.round(split.to_finish()[same] - bonus, 9), dtype=np.float64)
    else:
        key = split.sort_key(measure)[same]
    order = rank(key, possible, tie_order(model.variant)[guesses], top)
    entropy, expected, worst = split.entropy[same], split.expected[same], split.worst[same]
    suggestions = [
        Suggestion(
            model.words[guesses[i]],
            round(float(entropy[i]), 4),
            round(float(expected[i]), 4),
            int(np.ceil(round(float(worst[i]), 6))),
            bool(possible[i]),
            None,
            round(float(chance[guesses[i]]), 6),
        )
        for i in order.tolist()
    ]
    likely = np.argsort(-weights, kind="stable")
    words = [model.words[position.candidates[i]] for i in likely.tolist()]
    probabilities = [round(float(p), 6) for p in weights[likely]]
    return Hint(len(position.candidates), words, suggestions, probabilities)


def _unique_rows(
    patterns: npt.NDArray[np.unsignedinteger],
) -> tuple[npt.NDArray[np.unsignedinteger], npt.NDArray[np.intp]]:
    """The distinct rows and, for each row, the index of its copy: ``np.unique(axis=0)``'s
    answer, each row compared as one opaque value (not as thousands of fields)."""
    rows = np.ascontiguousarray(patterns)
    opaque = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, same = np.unique(opaque, return_index=True, return_inverse=True)
    return rows[first], same.reshape(-1).astype(np.intp)


# The pruned hint. By the concavity of F in the entropy H (F = 1 + H / (2 + 0.23 H)), a
# bucket's cost M * F(S) is at least the sum of its parts' costs over any split of the
# candidates (mixing words only adds entropy). So the heaviest candidates, counted exactly,
# and a bound on the others' cost (:func:`_rest_bound`) bound every guess's EG from below,
# at the cost of those few: a guess whose bound passes the top-th best EG found so far
# cannot make the top, and only the rest are scored exactly.
_FIRST_COUNTED = 64  # the heaviest candidates the first bound counts, then 4x as many
_EXACT_CELLS = 1 << 17  # guesses x max(candidates, patterns): this few, score them exactly
_MARGIN = 1e-6  # a bound this close to the cut keeps its guess (rounding; keys are 1e-9)
_PRUNED_PATTERNS = 3**6  # longer words: every guess is scored (dense tables grow 3x a letter)


def contenders(position: ModelPosition, top: int) -> npt.NDArray[np.intp]:
    """Indices into the pool of every guess that may be among the ``top`` by EG (ties
    included): the others' lower bounds exceed the top-th best EG of some scored guesses."""
    pool, weights = position.pool, position.weights
    rows = np.arange(len(pool), dtype=np.intp)
    n = len(weights)
    if len(pool) <= top or 3**position.model.variant.length > _PRUNED_PATTERNS:
        return rows
    heaviest = np.argsort(-weights, kind="stable")
    chance = np.zeros(len(position.model.words))
    chance[position.candidates] = weights
    counted, cut = min(_FIRST_COUNTED, n), np.inf
    scored = np.full(len(pool), np.nan)  # exact EGs of the guesses probed so far
    while len(rows) * max(n, 3**position.model.variant.length) > _EXACT_CELLS:
        guesses = pool[rows]
        bound = _eg_bound(position, guesses, heaviest[:counted], chance[guesses])
        probe = rows[np.argsort(bound, kind="stable")[: 4 * top]]  # the likeliest best
        new = probe[np.isnan(scored[probe])]
        if len(new):
            scored[new] = _exact_eg(position, pool[new])
        known = scored[~np.isnan(scored)]  # every exact EG so far: the cut only falls
        cut = min(cut, float(np.partition(known, top - 1)[top - 1]))
        # A common word's key is its EG less NEAR_GUESSES: it may reach the top from there.
        rows = rows[bound <= cut + _MARGIN + NEAR_GUESSES]
        if counted == n:
            break
        counted = min(4 * counted, n)
    return rows


def _exact_eg(position: ModelPosition, guesses: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """EG of ``guesses`` as the reference computes it (so bit for bit its values)."""
    model = position.model
    split = buckets(
        model.patterns(guesses, position.candidates), position.weights, 3**model.variant.length
    )
    eg: npt.NDArray[np.float64] = split.to_finish()
    return eg


def _eg_bound(
    position: ModelPosition,
    guesses: npt.NDArray[np.intp],
    counted: npt.NDArray[np.intp],
    chance: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """A lower bound on each guess's EG: 1 + the cost of the buckets of the ``counted``
    candidates (indices into the position's) + a bound on the others' (:func:`_rest_bound`)
    - the guess's own chance (its winning bucket costs nothing). Both sums of a bucket, its
    mass and sum of w log2 w, are added in one pass, as a complex number's two parts; only
    the buckets some candidate falls in are computed."""
    model, weights = position.model, position.weights
    n_patterns = 3**model.variant.length
    w = weights[counted]
    terms = np.tile(w + 1j * (w * np.log2(w)), _CHUNK)
    patterns_of = model.pattern_source(position.candidates[counted])
    chunk = min(_CHUNK, (1 << 16) // n_patterns)  # flat indices fit in uint16
    offsets = (np.arange(chunk, dtype=np.uint16) * n_patterns)[:, None]
    table = np.zeros(chunk * n_patterns, dtype=np.complex128)
    seen = np.zeros(chunk * n_patterns, dtype=bool)  # faster to scan than the table
    out = np.empty(len(guesses))
    for start in range(0, len(guesses), chunk):
        block = patterns_of(guesses[start : start + chunk])
        k = len(block)
        flat = np.add(block, offsets[:k], dtype=np.uint16).ravel()
        np.add.at(table, flat, terms[: flat.size])
        seen[flat] = True
        full = np.flatnonzero(seen)
        sums = table[full]
        table[full], seen[full] = 0, False
        m = sums.real
        bits = np.maximum(np.log2(m) - sums.imag / m, 0.0)  # H of the bucket's own weights
        cost = m * (1 + bits / (2 + 0.23 * bits))  # M * F(2**H)
        firsts = np.searchsorted(full, np.arange(k) * n_patterns)
        out[start : start + k] = np.add.reduceat(cost, firsts)
    rest = np.ones(len(weights), dtype=bool)
    rest[counted] = False
    bound: npt.NDArray[np.float64] = 1 + out + _rest_bound(position, rest, guesses) - chance
    return bound


def _rest_bound(
    position: ModelPosition, rest: npt.NDArray[np.bool_], guesses: npt.NDArray[np.intp]
) -> npt.NDArray[np.float64]:
    """A lower bound on the cost of the buckets of the candidates in ``rest`` (a mask) under
    each guess, their winning bucket included: W (1 + k max(0, H - I)).

    W is their mass and H the entropy of their weights; given a guess, H - I is the mean
    entropy left in a bucket, I the entropy of the guess's pattern, at most the sum of its
    letter groups' (each group's squares depend only on where its letter is in the answer,
    and the entropy of a tuple is at most the sum of its parts'). F is concave in H with
    F = 1 at H = 0, so on 0 <= H <= log2 n (no bucket holds more than the n words) it lies
    above its chord, 1 + k H with k = 1 / (2 + 0.23 log2 n)."""
    weights = position.weights[rest]
    mass = float(weights.sum())
    if len(weights) < 2:
        return np.full(len(guesses), mass)
    p = weights / mass
    entropy = float(-(p * np.log2(p)).sum())
    model = position.model
    letter_at, outcome = _letter_outcomes(model)
    spots = 1 << model.variant.length
    where = letter_at[position.candidates[rest]]  # (words, letters): where each letter is
    letters = where.shape[1]
    by_letter = np.bincount(
        (where + np.arange(letters) * spots).ravel(), np.repeat(p, letters), letters * spots
    ).reshape(letters, spots)
    keys, ids, _ = model.groups
    n_patterns = 3**model.variant.length
    group_letter = keys % letters
    flat = (outcome + (np.arange(len(keys)) * n_patterns)[:, None]).ravel()
    split = np.bincount(flat, by_letter[group_letter].ravel(), len(keys) * n_patterns)
    split = split.reshape(len(keys), n_patterns)
    logs = np.log2(np.where(split > 0, split, 1.0))
    group_entropy = np.append(-(split * logs).sum(axis=1), 0.0)  # last: no group
    told = np.minimum(group_entropy[ids[guesses]].sum(axis=1), np.log2(n_patterns))
    slope = 1 / (2 + 0.23 * np.log2(len(weights)))
    result: npt.NDArray[np.float64] = mass * (1 + slope * np.maximum(entropy - told, 0.0))
    return result


@lru_cache(maxsize=4)
def _letter_outcomes(
    model: AnswerModel,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """``letter_at[a, c]``: the positions of letter c in word a, as a bit mask; and
    ``outcome[k, m]``: the squares letter group k (see :attr:`AnswerModel.groups`) gets when
    its letter is at the positions of mask m in the answer (the game's rule: greens first,
    then yellows left to right while the answer has letters of it left over)."""
    if model.base is not None:
        return _letter_outcomes(model.base)
    length = model.variant.length
    array = model.variant.guesses.array
    letters = len(model.variant.alphabet)
    bit = 1 << np.arange(length)
    letter_at = ((array[:, :, None] == np.arange(letters)) * bit[:, None]).sum(axis=1)
    keys, _, _ = model.groups
    masks = (keys // letters)[:, None]
    spots = np.arange(1 << length)[None, :]
    in_answer = np.zeros(spots.shape, dtype=np.intp)
    for k in range(length):
        in_answer = in_answer + (spots >> k & 1)
    left = in_answer - np.zeros_like(masks)
    for k in range(length):
        left = left - ((masks >> k & 1) & (spots >> k & 1))
    outcome = np.zeros((len(keys), 1 << length), dtype=np.intp)
    for k in range(length):
        mine, green = masks >> k & 1, spots >> k & 1
        yellow = mine * (1 - green) * (left > 0)
        left = left - yellow
        outcome += 3 ** (length - 1 - k) * (2 * mine * green + yellow)
    return letter_at.astype(np.intp), outcome


def expected_guesses(
    position: ModelPosition, pool: npt.NDArray[np.intp]
) -> npt.NDArray[np.float64]:
    """EG of every guess in ``pool`` (see the module doc)."""
    model = position.model
    split = buckets(
        model.patterns(pool, position.candidates), position.weights, 3**model.variant.length
    )
    return split.to_finish()


def model_coach(model: AnswerModel, history: Sequence[Row], mode: Mode = Mode.NORMAL) -> Coaching:
    """Turn by turn under the model: candidates before and after, the best guess by EG,
    skill and luck (see :func:`engine.solver.coach.coach`). The exact search is not used: it
    assumes equally likely answers, so every EG here is the heuristic's."""
    position = ModelPosition.after(model, (), mode)
    turns = []
    for i, (guess, pattern) in enumerate(history):
        pool = position.pool
        row = _row_of(model, guess)
        if i == 0:  # no skill on the opener: only the best and the one played count
            best_index, best_eg = _best_opener(model, mode)
            played_eg = float(expected_guesses(position, row)[0])
            skill = None
        else:
            eg = _eg_after(model, mode, position.history)
            best_index = int(np.lexsort((tie_order(model.variant)[pool], np.round(eg, 9)))[0])
            best_eg = float(eg[best_index])
            mine = np.flatnonzero(pool == row[0])
            played_eg = float(eg[mine[0]] if len(mine) else expected_guesses(position, row)[0])
            skill = skill_of(float(eg.mean()), best_eg, played_eg)
        luck = _luck(position, guess, pattern)
        after = position.play(guess, pattern)
        turns.append(Turn(guess, pattern, len(position.candidates), len(after.candidates),
                          model.words[int(pool[best_index])], round(played_eg, 3),
                          round(best_eg, 3), False, skill, luck))  # fmt: skip
        position = after
    skills = [t.skill for t in turns if t.skill is not None]
    won = bool(history) and history[-1][1] == winning(model.variant.length)
    skill = round(sum(skills) / len(skills)) if skills else None
    luck = round(sum(t.luck for t in turns) / len(turns)) if turns else 0
    return Coaching(turns, skill, luck, won)


@lru_cache(maxsize=8)
def _best_opener(model: AnswerModel, mode: Mode) -> tuple[int, float]:
    """The best opener by EG (its index into the pool, ties broken as in every turn) and its
    EG: the same for every game of a model, worked out once, among the guesses whose lower
    bound can reach it (:func:`contenders`): 0.5 s of CPU on the NYT model, where every
    guess's EG takes 2.2 s, and the same values to the last bit."""
    position = ModelPosition.after(model, (), mode)
    rows = contenders(position, 1)
    eg = _exact_eg(position, position.pool[rows])
    tie = tie_order(model.variant)[position.pool[rows]]
    best = int(np.lexsort((tie, np.round(eg, 9)))[0])
    return int(rows[best]), float(eg[best])


@lru_cache(maxsize=64)
def _eg_after(model: AnswerModel, mode: Mode, history: tuple[Row, ...]) -> npt.NDArray[np.float64]:
    """EG of every guess of the pool after ``history``: the players of a day's puzzle who
    opened alike reach the same position (a second each on the allowed words; 64 kept, 8 MiB)."""
    position = ModelPosition.after(model, history, mode)
    eg = expected_guesses(position, position.pool)
    eg.flags.writeable = False  # shared by every caller
    return eg


def _row_of(model: AnswerModel, guess: str) -> npt.NDArray[np.intp]:
    row = model.variant.guesses.index.get(guess)
    if row is None:
        raise ValueError(f"{guess.upper()} is not in the NYT's word list")
    return np.array([row], dtype=np.intp)


def _luck(position: ModelPosition, guess: str, pattern: int) -> int:
    patterns = position.model.row(guess)[position.candidates][None, :]
    split = buckets(patterns, position.weights, 3**position.model.variant.length, by_pattern=True)
    mass, size = split.mass[0], np.round(split.size[0], 9)
    actual = size[pattern]
    worse = mass[size > actual].sum() + 0.5 * mass[size == actual].sum()
    return round(float(99 * worse))


def model_grid(
    model: AnswerModel, patterns: Sequence[int], hard: bool = False, top: int = 10, *,
    budget: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> GridReading:  # fmt: skip
    """:func:`engine.solver.coach.grid_candidates` under the model: the words each row's
    pattern could come from, ranked by prior x how many guesses could give each row (the
    chance of the grid if guesses were picked at random), the hard-mode check spending its
    budget on the likeliest first."""
    hits = model.hits
    alive = np.ones(len(model.words), dtype=bool)
    score = np.log(model.prior)
    for p in patterns:
        alive &= hits[p] > 0
        score += np.log(np.maximum(hits[p], 1))
    candidates = np.flatnonzero(alive)
    candidates, complete = candidates[np.argsort(-score[candidates], kind="stable")], True
    if hard:
        candidates, complete = hard_survivors(
            model.variant, candidates, patterns, model.column, budget, clock
        )
    words = [model.words[a] for a in candidates[:top].tolist()]
    return GridReading(len(candidates), words, complete)
