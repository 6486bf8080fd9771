"""Wordle as a reinforcement-learning environment: the usual reset/step over any variant and
mode, with the engine's exact scoring and each mode's legal guesses.

An action is a row of the variant's guess list. The observation is the board so far: a
tuple of (guess, pattern) rows, as everywhere in the engine. Each guess earns -1 and a loss
earns ``-loss_penalty`` more, so an episode's return is minus the guesses it took (minus the
penalty when it fails). :func:`gymnasium_env` wraps it for Gymnasium when that is installed;
nothing here needs it.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from engine.pattern import winning
from engine.rules import Mode, Row, check_guess
from engine.solver.position import Position, guess_row
from engine.variants import Variant

Observation = tuple[Row, ...]


class IllegalAction(ValueError):
    """A guess the mode does not allow here (the message is the game's), or a step after the
    episode ended."""


class WordleEnv:
    """One game at a time against a hidden answer; :meth:`reset` draws it (seeded) or takes it."""

    def __init__(
        self,
        variant: Variant,
        mode: Mode = Mode.NORMAL,
        *,
        loss_penalty: float = 0.0,
        max_guesses: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.variant = variant
        self.mode = mode
        self.loss_penalty = loss_penalty
        self.max_guesses = max_guesses or variant.max_guesses
        self.rng = np.random.default_rng(seed)
        self._win = winning(variant.length)
        self._answer = -1
        self.position = Position.start(variant, mode)
        self.done = True

    @property
    def answer(self) -> str:
        """The hidden word (for evaluation and tests; an agent has no business reading it)."""
        return self.variant.answers.words[self._answer]

    @property
    def history(self) -> Observation:
        return self.position.history

    def reset(
        self, *, seed: int | None = None, answer: int | str | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game: against ``answer`` (an index or a word of the answer list), else a
        random answer from the environment's generator (re-seeded by ``seed``)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        if answer is None:
            self._answer = int(self.rng.integers(len(self.variant.answers)))
        elif isinstance(answer, str):
            if answer not in self.variant.answers.index:
                raise ValueError(f"{answer!r} is not an answer of {self.variant.name}")
            self._answer = self.variant.answers.index[answer]
        else:
            self._answer = int(answer)
        self.position = Position.start(self.variant, self.mode)
        self.done = False
        return self.history, self._info()

    def legal_actions(self) -> npt.NDArray[np.intp]:
        """Rows of the guess list the mode allows now: all (normal), those keeping every
        revealed letter (hard), the remaining possible answers (strict)."""
        return self.position.pool

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play guess row ``action``: (observation, reward, terminated, truncated, info)."""
        if self.done:
            raise IllegalAction("The episode is over: call reset()")
        word = self.variant.guesses.words[action]
        if self.mode is not Mode.NORMAL and not (self.legal_actions() == action).any():
            verdict = check_guess(self.variant, word, self.history, self.mode)
            raise IllegalAction(f"{word.upper()}: {verdict.message or 'not a possible answer'}")
        pattern = int(guess_row(self.variant, action)[self._answer])
        self.position = self.position.play(word, pattern)
        won = pattern == self._win
        lost = not won and len(self.history) >= self.max_guesses
        self.done = won or lost
        reward = -1.0 - (self.loss_penalty if lost else 0.0)
        return self.history, reward, self.done, False, self._info(won=won)

    def _info(self, won: bool = False) -> dict[str, Any]:
        return {"candidates": len(self.position.candidates), "won": won}


def gymnasium_env(env: WordleEnv) -> Any:
    """``env`` as a ``gymnasium.Env``: observations as a ``(max_guesses, 2)`` array of
    (guess row, pattern), -1 for rows not yet played; the legal guesses as
    ``info["action_mask"]``. A guess outside the mask is refused, not played: the board
    stays, the reward is -1 and ``info["refused"]`` says why. Needs Gymnasium
    (``pip install gymnasium``)."""
    gym = importlib.import_module("gymnasium")
    spaces = importlib.import_module("gymnasium.spaces")
    variant = env.variant
    high = max(len(variant.guesses), 3**variant.length)

    def encode(history: Observation) -> npt.NDArray[np.int64]:
        rows = np.full((env.max_guesses, 2), -1, dtype=np.int64)
        for i, (word, pattern) in enumerate(history):
            rows[i] = (variant.guesses.index[word], pattern)
        return rows

    def with_mask(info: dict[str, Any]) -> dict[str, Any]:
        mask = np.zeros(len(variant.guesses), dtype=np.int8)
        mask[env.legal_actions()] = 1
        return {**info, "action_mask": mask}

    env_base: Any = gym.Env

    class WordleGymEnv(env_base):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

        def __init__(self) -> None:
            self.action_space = spaces.Discrete(len(variant.guesses))
            self.observation_space = spaces.Box(-1, high, (env.max_guesses, 2), np.int64)

        def reset(
            self, *, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[npt.NDArray[np.int64], dict[str, Any]]:
            super().reset(seed=seed)
            history, info = env.reset(seed=seed, answer=(options or {}).get("answer"))
            return encode(history), with_mask(info)

        def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            try:
                history, reward, terminated, truncated, info = env.step(int(action))
            except IllegalAction as refusal:  # an agent ignoring the mask: refused, not played
                return encode(env.history), -1.0, env.done, False, with_mask(
                    {"candidates": len(env.position.candidates), "won": False,
                     "refused": str(refusal)}
                )  # fmt: skip
            return encode(history), reward, terminated, truncated, with_mask(info)

    return WordleGymEnv()
