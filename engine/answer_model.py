"""The NYT-era answer model: any word the NYT accepts may be the answer, some far likelier.

Since the NYT took Wordle over, its editors have picked answers outside the original 2,315,
so reading or coaching an NYT puzzle on that list alone can call the real answer impossible.
Here every one of the NYT's 14,855 allowed words is a candidate, weighted by a prior:

- the original answers that the NYT-era list (``wordle-nyt-answers.txt``) keeps share
  ``ORIGINAL_SHARE`` of the weight equally (today's hints, almost unchanged),
- the NYT-era list's additions share ``NYT_ERA_SHARE`` equally,
- every other word (the original list's 13 dropped words among them) shares the rest in
  proportion to its frequency (wordfreq's, in ``wordle-nyt-zipf.tsv``) to the power
  ``FREQUENCY_POWER``, so common words lead but a rare one is never weightless.

Each tier's every word outweighs every word of the next. ``nyt_model(puzzle)`` knows the
answers the NYT used before that puzzle (:mod:`engine.nyt_history`): their weight is scaled
down so that together they hold the reuse rate fitted on the days before it, so a used word
is less likely, never impossible. The model has no pattern matrix
(14,855 squared would be 220 MB, twice over for its transpose): patterns are built for the
guesses and candidates a question needs, which after one row are a few hundred candidates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.matrix import (
    _save_atomically,
    build_pattern_matrix,
    cache_directory,
    group_keys,
    group_table,
    pattern_dtype,
)
from engine.nyt_history import PastAnswer, answers_before, reuse_rate
from engine.rules import Mode, Row
from engine.solver.position import InconsistentHistory, hard_mode_pool, patterns_over
from engine.variants import Variant, get_variant
from engine.words import encode, load_wordlist
from wordlists import DIRECTORY as WORDLISTS

ORIGINAL_SHARE = 0.95
NYT_ERA_SHARE = 0.04
FREQUENCY_POWER = 0.4  # tames frequency: "years" should not outweigh an NYT-era answer
ZIPF_FILE = "wordle-nyt-zipf.tsv"


def read_zipf(words: Sequence[str]) -> npt.NDArray[np.float64]:
    """The Zipf frequency of each of ``words`` from the shipped table (0: unknown word)."""
    table = {}
    for line in (WORDLISTS / ZIPF_FILE).read_text(encoding="ascii").splitlines():
        word, value = line.split("\t")
        table[word] = float(value)
    return np.array([table.get(w, 0.0) for w in words])


def nyt_prior(variant: Variant) -> npt.NDArray[np.float64]:
    """The prior over ``variant.guesses`` (the NYT-allowed words), summing to 1."""
    words = variant.guesses
    era = load_wordlist(WORDLISTS / "wordle-nyt-answers.txt", 5, variant.alphabet)
    original = get_variant("wordle").answers
    tier = np.full(len(words), 2)  # 0 original and kept, 1 NYT-era addition, 2 the rest
    for i, word in enumerate(words.words):
        if word in era:
            tier[i] = 0 if word in original else 1
    prior = np.zeros(len(words))
    for level, share in ((0, ORIGINAL_SHARE), (1, NYT_ERA_SHARE)):
        prior[tier == level] = share / np.count_nonzero(tier == level)
    rest = tier == 2
    by_frequency = 10.0 ** (FREQUENCY_POWER * read_zipf(words.words)[rest])
    prior[rest] = (1 - ORIGINAL_SHARE - NYT_ERA_SHARE) * by_frequency / by_frequency.sum()
    return prior


@dataclass(frozen=True, eq=False)
class AnswerModel:
    """Candidates are ``variant.guesses``; ``prior[i]`` is how likely word i is the answer."""

    variant: Variant
    prior: npt.NDArray[np.float64]
    # The model this one reweights (its pattern tables are shared, not built again).
    base: AnswerModel | None = None

    @property
    def words(self) -> tuple[str, ...]:
        return self.variant.guesses.words

    @cached_property
    def _groups(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[Any]]:
        """The words' letter groups (see engine.matrix): their keys, each word's group ids
        by position (``len(keys)`` where none is led), and each group's pattern contribution
        against every word, with a last row of zeros for the positions that lead none."""
        if self.base is not None:
            return self.base._groups
        array, size = self.variant.guesses.array, len(self.variant.alphabet)
        keys, ids = group_keys(array, size)
        dtype = pattern_dtype(self.variant.length)
        table = np.zeros((len(keys) + 1, len(self.words)), dtype=dtype)
        table[:-1] = group_table(array, size, keys, dtype)
        return keys, ids, table

    @property
    def groups(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[Any]]:
        """The words' letter groups: keys ``mask * alphabet + letter``, each word's group
        ids by position and each group's pattern contribution against every word (shared
        with the base model; see :func:`engine.matrix.group_keys`)."""
        return self._groups

    def row(self, guess: str) -> npt.NDArray[np.unsignedinteger]:
        """Patterns of ``guess`` (any word of the right shape) against every candidate."""
        word = encode([guess], self.variant.alphabet, self.variant.length)
        keys, _, table = self._groups
        mine, ids = group_keys(word, len(self.variant.alphabet))
        found = np.minimum(np.searchsorted(keys, mine), len(keys) - 1)
        if len(keys) == 0 or (keys[found] != mine).any():  # a group no word holds
            built: npt.NDArray[np.unsignedinteger] = build_pattern_matrix(
                word, self.variant.guesses.array, len(self.variant.alphabet)
            )[0]
            return built
        rows: npt.NDArray[np.unsignedinteger] = table[found[ids[0][ids[0] < len(mine)]]].sum(
            axis=0, dtype=table.dtype
        )
        return rows

    def column(self, answer: int) -> npt.NDArray[np.unsignedinteger]:
        """Patterns of every word, as a guess, against the word ``answer``."""
        _, ids, table = self._groups
        out: npt.NDArray[np.unsignedinteger] = patterns_over(table[:, [answer]], ids)[0]
        return out

    def patterns(
        self, pool: npt.NDArray[np.intp], candidates: npt.NDArray[np.intp]
    ) -> npt.NDArray[np.unsignedinteger]:
        """``(pool, candidates)`` patterns: guess rows of the pool against the candidates."""
        return self.pattern_source(candidates)(pool)

    def pattern_source(
        self, candidates: npt.NDArray[np.intp]
    ) -> Callable[[npt.NDArray[np.intp]], npt.NDArray[np.unsignedinteger]]:
        """Patterns against ``candidates`` for any guess rows asked, a block at a time:
        the shared group table's columns of the candidates are taken once (no group keys
        are recomputed per question), then a guess's row is the sum of its groups' rows."""
        _, ids, table = self._groups
        columns = table.take(candidates, axis=1)  # C order: take below copies whole rows

        def rows(pool: npt.NDArray[np.intp]) -> npt.NDArray[np.unsignedinteger]:
            mine = ids[pool]
            out: npt.NDArray[np.unsignedinteger] = columns.take(mine[:, 0], axis=0)
            for i in range(1, mine.shape[1]):
                out += columns.take(mine[:, i], axis=0)
            return out

        return rows

    @cached_property
    def hits(self) -> npt.NDArray[np.uint16]:
        """``hits[p, a]``: how many allowed guesses give pattern ``p`` when word ``a`` is the
        answer (reading a grid without its words). Built once (seconds) into the matrices'
        disk cache, and read from there after."""
        if self.base is not None:
            return self.base.hits
        key = hashlib.sha256(f"hits-v1:{self.variant.guesses.sha256}".encode()).hexdigest()
        path = cache_directory() / f"hits-{key[:24]}.npy"
        shape = (3**self.variant.length, len(self.words))
        try:
            loaded: npt.NDArray[np.uint16] = np.load(path)
            if loaded.shape == shape and loaded.dtype == np.uint16:
                return loaded
        except (OSError, ValueError):
            pass
        built = self._count_hits()
        _save_atomically(path, built)
        return built

    def _count_hits(self) -> npt.NDArray[np.uint16]:
        n, patterns = len(self.words), 3**self.variant.length
        out = np.empty((patterns, n), dtype=np.uint16)
        everyone = np.arange(n, dtype=np.intp)
        block = 512
        for start in range(0, n, block):
            answers = everyone[start : start + block]
            by_guess = self.patterns(everyone, answers).astype(np.intp)
            flat = (by_guess * len(answers) + np.arange(len(answers))).ravel()
            counts = np.bincount(flat, minlength=patterns * len(answers))
            out[:, start : start + len(answers)] = counts.reshape(patterns, len(answers))
        return out


def nyt_model(puzzle: int | None = None, learned: Iterable[tuple[int, str]] = ()) -> AnswerModel:
    """The model for the NYT's puzzle number ``puzzle``, on the ``wordle-nyt`` variant's
    allowed words, knowing the answers of every earlier number (the shipped list, then
    ``learned`` (number, answer) pairs beyond it); without ``puzzle``, no history at all."""
    if puzzle is None:
        return allowed_model("wordle-nyt")
    return model_with_history(answers_before(puzzle, learned))


def model_with_history(history: Sequence[PastAnswer]) -> AnswerModel:
    """The NYT model knowing ``history`` (every answer before the puzzle in question): the
    words used in it share :func:`engine.nyt_history.reuse_rate` of the weight (fitted on the
    history alone), or their prior share if that is smaller; the other words share the rest
    as the prior shares it among them."""
    used = frozenset(past.answer for past in history)
    return _reweighted(used, round(reuse_rate(history), 6))


@lru_cache(maxsize=8)
def _reweighted(used: frozenset[str], rate: float) -> AnswerModel:
    base = allowed_model("wordle-nyt")
    index = base.variant.guesses.index
    mask = np.zeros(len(base.words), dtype=bool)
    mask[[index[w] for w in used if w in index]] = True
    held = float(base.prior[mask].sum())
    if not 0 < held < 1:
        return base
    scale = min(1.0, rate * (1 - held) / ((1 - rate) * held))
    prior = np.where(mask, base.prior * scale, base.prior)
    return AnswerModel(base.variant, prior / prior.sum(), base)


@cache
def allowed_model(variant_name: str) -> AnswerModel:
    """The model for a puzzle whose answer may be any word ``variant_name`` accepts (a
    player's challenge word, TARES as well as CIGAR): its allowed words, weighted like the
    NYT's, so the answer is never ruled out and suggestions are words the game accepts."""
    variant = get_variant(variant_name)
    return AnswerModel(variant, nyt_prior(variant))


@dataclass(frozen=True, eq=False)
class ModelPosition:
    """Candidates (indices into the model's words) left after ``history``."""

    model: AnswerModel
    mode: Mode
    history: tuple[Row, ...]
    candidates: npt.NDArray[np.intp]

    @classmethod
    def after(
        cls, model: AnswerModel, history: Sequence[Row], mode: Mode = Mode.NORMAL
    ) -> ModelPosition:
        """Raises :class:`InconsistentHistory` if no allowed word fits."""
        position = cls(model, mode, (), np.arange(len(model.words), dtype=np.intp))
        for guess, pattern in history:
            position = position.play(guess, pattern)
        return position

    def play(self, guess: str, pattern: int) -> ModelPosition:
        left = self.candidates[self.model.row(guess)[self.candidates] == pattern]
        if len(left) == 0:
            raise InconsistentHistory(len(self.history) + 1, guess)
        return ModelPosition(self.model, self.mode, (*self.history, (guess, pattern)), left)

    @cached_property
    def weights(self) -> npt.NDArray[np.float64]:
        """The candidates' probabilities of being the answer: the prior, renormalised."""
        prior = self.model.prior[self.candidates]
        weights: npt.NDArray[np.float64] = prior / prior.sum()
        return weights

    @cached_property
    def pool(self) -> npt.NDArray[np.intp]:
        """Guesses allowed here, as in :attr:`engine.solver.position.Position.pool`."""
        if self.mode is Mode.STRICT:
            return self.candidates
        if self.mode is Mode.HARD and self.history:
            return hard_mode_pool(self.model.variant, self.history)
        return np.arange(len(self.model.words), dtype=np.intp)
