"""The seed document's agent: tabular Q-learning over the last clue, kept as it was designed.

What is kept: the state is only the last clue (the start is the all-grey clue, as the seed's
``"-----"``); one row of action values per state over the whole guess list, starting at
zero; epsilon-greedy choice with ``argmax`` ties to the first guess in the list; the update
``Q[s, a] += alpha * (r + gamma * max Q[s'] - Q[s, a])``; the reward +10 a green tile, +5 a
yellow, -10 a grey, -10 for a guess made before in the game, +10 for the win; alpha 0.3,
gamma 0.9, epsilon 0.1, 10,000 episodes, each against an answer drawn at random.

What is corrected: the clue is the engine's exact rule (the seed marked every repeated
letter yellow); in hard and strict mode the agent explores, exploits and bootstraps only
over the guesses the mode allows (the seed explored over the whole list). The seed's
repeat penalty could not fire as written (normal mode recorded the guess before checking,
so every guess paid it; hard mode never recorded one); here it applies as stated.

A state of one clue cannot carry what earlier clues showed, so over the mode's guesses
the greedy policy is a function of the last clue alone: in normal mode it names at most
3^5 = 243 words and can never find most answers. ``guesses="possible"`` lets the table
choose only among the words that can still be the answer (the seed's own action filter,
``filter_word_list``, carried to every clue): everything else is unchanged, and what the
table learns is which of the possible words to prefer.

Training is seeded and its table is cached in the cache folder, keyed by the lists, the
mode and every setting.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.agents.environment import Observation, WordleEnv
from engine.matrix import atomic_write, cache_directory
from engine.pattern import GREEN, GREY, tiles
from engine.rules import Mode
from engine.solver.position import answer_rows
from engine.variants import Variant

Guesses = Literal["mode", "possible"]  # the mode's legal guesses, or the possible answers

FORMAT = 1  # part of the cache key: bump when the table's meaning changes


@dataclass(frozen=True)
class QSettings:
    alpha: float = 0.3
    gamma: float = 0.9
    epsilon: float = 0.1
    episodes: int = 10_000
    seed: int = 0
    guesses: Guesses = "mode"

    def key(self) -> str:
        among = "" if self.guesses == "mode" else f"-{self.guesses}"
        return f"a{self.alpha}-g{self.gamma}-e{self.epsilon}-n{self.episodes}-s{self.seed}{among}"


def legal(env: WordleEnv, guesses: Guesses) -> npt.NDArray[np.intp]:
    """The guesses the agent chooses among: the mode's, or the words still possible."""
    if guesses == "possible":
        return answer_rows(env.variant)[env.position.candidates]
    return env.legal_actions()


def seed_reward(pattern: int, length: int, repeated: bool, won: bool) -> float:
    """The seed's reward for one guess, from its clue."""
    values = {GREEN: 10.0, GREY: -10.0}
    reward = sum(values.get(tile, 5.0) for tile in tiles(pattern, length))
    return reward - (10.0 if repeated else 0.0) + (10.0 if won else 0.0)


def state_of(history: Observation) -> int:
    """The seed's state: the last clue, the all-grey clue before the first guess."""
    return history[-1][1] if history else 0


def greedy_action(q: npt.NDArray[np.float64], state: int, legal: npt.NDArray[np.intp]) -> int:
    """The legal guess of highest value, the first in the list on ties (``np.argmax``)."""
    return int(legal[int(np.argmax(q[state, legal]))])


def update(
    q: npt.NDArray[np.float64], state: int, action: int, reward: float, next_state: int,
    next_legal: npt.NDArray[np.intp], settings: QSettings,
) -> None:  # fmt: skip
    """One Q-learning step, bootstrapping from the best guess allowed in the next state."""
    future = float(q[next_state, next_legal].max()) if len(next_legal) else 0.0
    target = reward + settings.gamma * future
    q[state, action] += settings.alpha * (target - q[state, action])


def train(
    variant: Variant, mode: Mode, settings: QSettings = QSettings(),
    progress: Callable[[int, int], None] | None = None,
) -> npt.NDArray[np.float64]:  # fmt: skip
    """The action-value table after ``settings.episodes`` seeded episodes."""
    rng = np.random.default_rng(settings.seed)
    env = WordleEnv(variant, mode, seed=settings.seed)
    q = np.zeros((3**variant.length, len(variant.guesses)))
    for episode in range(settings.episodes):
        history, _ = env.reset()
        allowed = legal(env, settings.guesses)
        played: set[int] = set()
        done = False
        while not done:
            state = state_of(history)
            if rng.uniform() < settings.epsilon:
                action = int(allowed[rng.integers(len(allowed))])
            else:
                action = greedy_action(q, state, allowed)
            history, _, done, _, info = env.step(action)
            pattern = history[-1][1]
            reward = seed_reward(pattern, variant.length, action in played, info["won"])
            played.add(action)
            allowed = legal(env, settings.guesses)
            update(q, state, action, reward, pattern, allowed, settings)
        if progress is not None and (episode + 1) % 500 == 0:
            progress(episode + 1, settings.episodes)
    return q


def table_path(variant: Variant, mode: Mode, settings: QSettings, directory: Path | None) -> Path:
    lists = f"{variant.guesses.sha256}:{variant.answers.sha256}"
    key = f"qtable-v{FORMAT}:{lists}:{variant.max_guesses}:{mode}:{settings.key()}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return (directory or cache_directory()) / f"qtable-{variant.name}-{mode}-{digest}.npz"


def trained_table(
    variant: Variant, mode: Mode, settings: QSettings = QSettings(), *,
    directory: Path | None = None, use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[npt.NDArray[np.float64], bool]:  # fmt: skip
    """The trained table, from the cache when it is there; and whether it came from there."""
    path = table_path(variant, mode, settings, directory)
    shape = (3**variant.length, len(variant.guesses))
    if use_cache:
        try:
            with np.load(path) as stored:
                q: npt.NDArray[np.float64] = stored["q"]
            if q.shape == shape:
                return q, True
        except (OSError, ValueError, KeyError):
            pass
    q = train(variant, mode, settings, progress)
    if use_cache:
        _save(path, q)
    return q, False


def _save(path: Path, q: npt.NDArray[np.float64]) -> None:
    with (
        contextlib.suppress(OSError),
        atomic_write(path) as (fd, _),
        open(fd, "wb", closefd=False) as f,
    ):
        np.savez_compressed(f, q=q)


def play(
    env: WordleEnv, q: npt.NDArray[np.float64], answer: int, guesses: Guesses = "mode"
) -> int | None:
    """Guesses the greedy policy (no exploration) takes to find ``answer``; None if it fails."""
    history, _ = env.reset(answer=answer)
    done, won = False, False
    while not done:
        action = greedy_action(q, state_of(history), legal(env, guesses))
        history, _, done, _, info = env.step(action)
        won = info["won"]
    return len(history) if won else None
