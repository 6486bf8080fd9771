"""Learning agents: the environment, the seed's Q-learning agent and the rollout agent."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.agents import qlearning
from engine.agents.environment import IllegalAction, WordleEnv
from engine.agents.qlearning import QSettings, seed_reward, update
from engine.agents.rollout import RolloutAgent, RolloutSettings
from engine.agents.study import random_consistent, scores
from engine.game import Status, WordleGame
from engine.pattern import parse_pattern, winning
from engine.rules import Mode, check_guess, is_consistent
from engine.solver.greedy import best_guess
from engine.solver.measures import Measure
from engine.solver.position import Position
from engine.solver.tree import build_tree, paths
from engine.variants import Variant
from engine.words import LETTERS, WordList


def sub_variant(wordle: Variant, answers: int, others: int, seed: int = 0) -> Variant:
    """A smaller Wordle: a seeded sample of the answers, and of the other allowed words."""
    rng = np.random.default_rng(seed)
    chosen = sorted(rng.choice(len(wordle.answers), answers, replace=False).tolist())
    answer_words = [wordle.answers.words[i] for i in chosen]
    rest = sorted(set(wordle.guesses.words) - set(wordle.answers.words))
    extra = [rest[i] for i in sorted(rng.choice(len(rest), others, replace=False).tolist())]
    a = WordList.from_words(f"a{answers}-{seed}", answer_words, 5, LETTERS)
    g = WordList.from_words(f"g{answers}-{others}-{seed}", answer_words + extra, 5, LETTERS)
    return Variant(f"sub{answers}-{others}-{seed}", "Sub", 5, LETTERS, 6, a, g)


@pytest.fixture(scope="module")
def small(wordle: Variant) -> Variant:
    return sub_variant(wordle, 12, 20)


# -- the environment ---------------------------------------------------------------------------


@given(answer=st.integers(0, 2314), mode=st.sampled_from(list(Mode)), seed=st.integers(0, 999),
       penalty=st.sampled_from([0.0, 5.0]))  # fmt: skip
def test_the_environment_plays_the_engines_game(wordle, answer, mode, seed, penalty) -> None:
    """Random legal play: every step is the game's own guess, pattern, end and reward."""
    env = WordleEnv(wordle, mode, loss_penalty=penalty)
    game = WordleGame(wordle, wordle.answers.words[answer], mode)
    rng = np.random.default_rng(seed)
    history, info = env.reset(answer=answer)
    assert history == () and info["candidates"] == len(wordle.answers)
    done = False
    while not done:
        legal = env.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        history, reward, done, truncated, info = env.step(action)
        outcome = game.guess(wordle.guesses.words[action])
        assert outcome.accepted and history == tuple(game.rows)
        assert done == game.over and not truncated
        assert info["won"] == (game.status is Status.WON)
        assert reward == -1.0 - (penalty if game.status is Status.LOST else 0.0)
        assert info["candidates"] == len(Position.after(wordle, game.rows).candidates)
    with pytest.raises(IllegalAction, match="reset"):
        env.step(0)


@given(answer=st.integers(0, 2314), first=st.integers(0, 12971), second=st.integers(0, 12971))
def test_legal_actions_are_the_guesses_hard_mode_accepts(wordle, answer, first, second) -> None:
    # A first guess that wins ends the episode: no second guess to judge (hypothesis found it).
    assume(wordle.guesses.words[first] != wordle.answers.words[answer])
    env = WordleEnv(wordle, Mode.HARD)
    env.reset(answer=answer)
    env.step(first)
    legal = set(env.legal_actions().tolist())
    word = wordle.guesses.words[second]
    allowed = check_guess(wordle, word, env.history, Mode.HARD).allowed
    assert (second in legal) == allowed
    if not allowed:
        with pytest.raises(IllegalAction, match=word.upper()):
            env.step(second)


def test_legal_actions_per_mode(wordle) -> None:
    rows = wordle.guesses.index
    for mode, count in ((Mode.NORMAL, 12972), (Mode.HARD, 12972), (Mode.STRICT, 2315)):
        env = WordleEnv(wordle, mode)
        env.reset(answer="cigar")
        assert len(env.legal_actions()) == count
        env.step(rows["crane"])  # C green, R and A yellow: 🟩🟨🟨⬛⬛
    strict = env.legal_actions()
    assert {wordle.guesses.words[g] for g in strict} == set(Position.after(
        wordle, env.history).words)  # fmt: skip
    with pytest.raises(IllegalAction, match="SALET"):
        env.step(rows["salet"])


def test_scoring_follows_the_repeated_letter_rule(wordle) -> None:
    """The seed marked every guess letter found in the answer yellow: SPEED against ABIDE
    was --YYY. One E of ABIDE can be matched once: ⬛⬛🟨⬛🟨."""
    env = WordleEnv(wordle, Mode.NORMAL)
    env.reset(answer="abide")
    history, *_ = env.step(wordle.guesses.index["speed"])
    assert history[-1][1] == parse_pattern("00101", 5)


def test_a_loss_ends_the_episode_with_its_penalty(wordle) -> None:
    env = WordleEnv(wordle, Mode.NORMAL, loss_penalty=10.0, max_guesses=2)
    env.reset(answer="cigar")
    _, reward, done, _, _ = env.step(wordle.guesses.index["crane"])
    assert (reward, done) == (-1.0, False)
    _, reward, done, _, info = env.step(wordle.guesses.index["crane"])
    assert (reward, done, info["won"]) == (-11.0, True, False)
    env.reset(answer="cigar")
    _, reward, done, _, info = env.step(wordle.guesses.index["cigar"])
    assert (reward, done, info["won"]) == (-1.0, True, True)


@pytest.mark.parametrize("mode", list(Mode))
def test_it_serves_as_a_gymnasium_environment(wordle, mode) -> None:
    import gymnasium  # the test extra brings it (the engine does not need it)
    from gymnasium.utils.env_checker import check_env

    from engine.agents.environment import gymnasium_env

    env = gymnasium_env(WordleEnv(wordle, mode, loss_penalty=5.0))
    check_env(env, skip_render_check=True)  # random actions: refused ones are answered too
    assert isinstance(env, gymnasium.Env)
    rows, info = env.reset(options={"answer": "cigar"})
    assert info["action_mask"].sum() == len(WordleEnv(wordle, mode).legal_actions())
    rows, reward, done, _, info = env.step(wordle.guesses.index["crane"])
    assert rows[0].tolist() == [wordle.guesses.index["crane"], parse_pattern("21100", 5)]
    assert (reward, done) == (-1.0, False)


# -- the seed's Q-learning agent ---------------------------------------------------------------


def test_the_seeds_reward_shape() -> None:
    green_grey_yellow = parse_pattern("20100", 5)  # +10 -10 +5 -10 -10
    assert seed_reward(green_grey_yellow, 5, repeated=False, won=False) == -15.0
    assert seed_reward(green_grey_yellow, 5, repeated=True, won=False) == -25.0
    assert seed_reward(winning(5), 5, repeated=False, won=True) == 60.0


def test_the_q_update_matches_a_step_by_hand() -> None:
    q = np.zeros((3, 4))
    q[0, 1], q[2, 3], q[2, 0] = 2.0, 4.0, 9.0
    # From state 0, guess 1, reward -15, to state 2 where only guesses 1 and 3 are legal:
    # 2 + 0.3 * (-15 + 0.9 * 4 - 2) = -2.02 (guess 0's 9 is not legal there).
    update(q, 0, 1, -15.0, 2, np.array([1, 3]), QSettings())
    assert q[0, 1] == pytest.approx(-2.02)
    assert q.sum() == pytest.approx(-2.02 + 13.0)


def test_q_learning_is_reproducible_for_a_seed(small) -> None:
    one = qlearning.train(small, Mode.HARD, QSettings(episodes=300, seed=4))
    two = qlearning.train(small, Mode.HARD, QSettings(episodes=300, seed=4))
    other = qlearning.train(small, Mode.HARD, QSettings(episodes=300, seed=5))
    assert np.array_equal(one, two) and not np.array_equal(one, other)


def test_the_trained_table_is_cached_by_settings(small, tmp_path) -> None:
    settings = QSettings(episodes=50, seed=1)
    q, cached = qlearning.trained_table(small, Mode.NORMAL, settings, directory=tmp_path)
    again, cached_again = qlearning.trained_table(small, Mode.NORMAL, settings,
                                                  directory=tmp_path)  # fmt: skip
    assert (cached, cached_again) == (False, True) and np.array_equal(q, again)
    other = QSettings(episodes=51, seed=1)
    assert not qlearning.trained_table(small, Mode.NORMAL, other, directory=tmp_path)[1]


def mean_guesses(variant: Variant, mode: Mode, play) -> float:  # type: ignore[no-untyped-def]
    env = WordleEnv(variant, mode)
    games = [play(env, a) for a in range(len(variant.answers))]
    return float(np.mean(scores(games, variant.max_guesses)))


def test_q_learning_learns_and_in_strict_mode_beats_random_play(wordle, small) -> None:
    """What the seed's design can learn: in strict mode, where every legal guess could be
    the answer, a preference among them beats guessing at random (40 answers: 2.40 against
    2.60); in normal mode, where the last clue is all it sees, it still learns something
    (untrained, it repeats one word)."""
    forty = sub_variant(wordle, 40, 0)
    random_mean = np.mean([
        mean_guesses(forty, Mode.STRICT, lambda env, a, s=s: random_consistent(env, a, s))
        for s in range(10)
    ])  # fmt: skip
    q = qlearning.train(forty, Mode.STRICT, QSettings(episodes=5000))
    assert mean_guesses(forty, Mode.STRICT, lambda env, a: qlearning.play(env, q, a)) < random_mean
    untrained = qlearning.train(small, Mode.NORMAL, QSettings(episodes=0))
    trained = qlearning.train(small, Mode.NORMAL, QSettings(episodes=3000))
    before = mean_guesses(small, Mode.NORMAL, lambda env, a: qlearning.play(env, untrained, a))
    after = mean_guesses(small, Mode.NORMAL, lambda env, a: qlearning.play(env, trained, a))
    assert after < before


def test_q_learning_among_possible_words_beats_random_play(wordle) -> None:
    """The seed's agent choosing among the words still possible: in normal mode too (and so
    in every mode: the possible words are the same), its learned preference beats guessing
    among them at random."""
    mode = Mode.NORMAL
    forty = sub_variant(wordle, 40, 0)
    random_mean = np.mean([
        mean_guesses(forty, mode, lambda env, a, s=s: random_consistent(env, a, s))
        for s in range(10)
    ])  # fmt: skip
    q = qlearning.train(forty, mode, QSettings(episodes=5000, guesses="possible"))
    learned = mean_guesses(forty, mode, lambda env, a: qlearning.play(env, q, a, "possible"))
    assert learned < random_mean
    env = WordleEnv(forty, mode)
    for answer in range(len(forty.answers)):  # every guess could have been the answer
        qlearning.play(env, q, answer, "possible")
        assert all(is_consistent(w, env.history[:i]) for i, (w, _) in enumerate(env.history))


def test_over_the_modes_guesses_the_last_clue_names_few_words(small) -> None:
    """Why the seed's design cannot beat random play in normal mode: its greedy guess is a
    function of the last clue, so it names at most one word per clue (3^length), and an
    answer it never names is never found."""
    q = qlearning.train(small, Mode.NORMAL, QSettings(episodes=2000))
    env = WordleEnv(small, Mode.NORMAL)
    named: dict[int, set[str]] = {}
    for answer in range(len(small.answers)):
        qlearning.play(env, q, answer)
        for i, (word, _) in enumerate(env.history):
            named.setdefault(qlearning.state_of(env.history[:i]), set()).add(word)
    assert all(len(words) == 1 for words in named.values())


def test_q_learning_plays_only_legal_hard_mode_guesses(small) -> None:
    q = qlearning.train(small, Mode.HARD, QSettings(episodes=500))
    env = WordleEnv(small, Mode.HARD)
    for answer in range(len(small.answers)):
        qlearning.play(env, q, answer)  # the environment refuses an illegal guess
        game = WordleGame(small, env.answer, Mode.HARD)
        assert all(game.guess(word).accepted for word, _ in env.history)


# -- the rollout agent -------------------------------------------------------------------------


def base_guesses(position: Position, answer: int, measure: Measure) -> int:
    """Guesses the base policy takes to find ``answer`` from ``position``, one game played
    guess by guess (no profiles, no memo)."""
    variant, taken = position.variant, 0
    while True:
        guess = best_guess(position, measure)
        taken += 1
        pattern = int(variant.matrix[guess, answer])
        if pattern == winning(variant.length):
            return taken
        position = position.play(variant.guesses.words[guess], pattern)


def brute_force_cost(position: Position, guess: int, settings: RolloutSettings) -> float:
    variant = position.variant
    left = variant.max_guesses - len(position.history) - 1
    total = 0.0
    for answer in position.candidates.tolist():
        pattern = int(variant.matrix[guess, answer])
        more = 0
        if pattern != winning(variant.length):
            child = position.play(variant.guesses.words[guess], pattern)
            more = base_guesses(child, answer, settings.base)
        total += 1 + (more if more <= left else left + settings.loss_penalty)
    return total


@pytest.mark.parametrize("mode", [Mode.NORMAL, Mode.HARD])
def test_the_rollout_choice_equals_brute_force(wordle, mode) -> None:
    variant = sub_variant(wordle, 40, 40, seed=3)
    settings = RolloutSettings(Measure.PARTS, top=200, loss_penalty=3.0)  # top: every guess
    agent = RolloutAgent(mode, settings)
    start = Position.start(variant, mode)
    first = agent.choose(start)
    patterns = np.asarray(variant.matrix[first])  # the largest bucket: the hardest position
    values, sizes = np.unique(patterns, return_counts=True)
    position = start.play(variant.guesses.words[first], int(values[np.argmax(sizes)]))
    assert len(position.candidates) > 2
    pool = position.pool
    assert sorted(agent.shortlist(position).tolist()) == sorted(pool.tolist())
    by_hand = np.array([brute_force_cost(position, g, settings) for g in pool.tolist()])
    assert np.allclose(agent.costs(position, pool), by_hand)
    choice = agent.choose(position)
    assert by_hand[pool.tolist().index(choice)] == by_hand.min()


def test_the_rollout_is_reproducible_and_legal_in_hard_mode(wordle) -> None:
    variant = sub_variant(wordle, 150, 300, seed=1)
    start = Position.start(variant, Mode.HARD)
    settings = RolloutSettings(top=5)
    trees = [build_tree(start, RolloutAgent(Mode.HARD, settings).choose) for _ in range(2)]
    assert trees[0].to_json() == trees[1].to_json()
    words = variant.guesses.words
    for rows in paths(trees[0], start).values():
        history = [(words[g], p) for g, p in rows]
        for i, (word, _) in enumerate(history):
            assert check_guess(variant, word, history[:i], Mode.HARD).allowed


def priced_cost(variant: Variant, mode: Mode, strategy, penalty: float) -> float:  # type: ignore[no-untyped-def]
    start = Position.start(variant, mode)
    needed = [len(rows) for rows in paths(build_tree(start, strategy), start).values()]
    limit = variant.max_guesses
    return sum(n if n <= limit else limit + penalty for n in needed)


@pytest.mark.parametrize("mode", list(Mode))
def test_the_rollout_improves_on_its_base_policy(wordle, mode) -> None:
    """Rollout's cost improvement: a greedy base policy is sequentially consistent, so the
    one-step lookahead over its rollouts never does worse than the base itself."""
    variant = sub_variant(wordle, 150, 300, seed=2)
    settings = RolloutSettings(top=5)
    base = priced_cost(variant, mode, lambda p: best_guess(p, settings.base), 10.0)
    rollout = priced_cost(variant, mode, RolloutAgent(mode, settings).choose, 10.0)
    assert rollout <= base


def test_the_rollout_mean_is_pinned_on_a_seeded_subset(wordle) -> None:
    """A regression pin: 400 seeded answers and 1,200 other words, the study's settings."""
    variant = sub_variant(wordle, 400, 1200, seed=0)
    totals = {}
    for mode in Mode:
        start = Position.start(variant, mode)
        tree = build_tree(start, RolloutAgent(mode, RolloutSettings(top=20)).choose)
        needed = [len(rows) for rows in paths(tree, start).values()]
        assert len(needed) == 400 and max(needed) <= 6
        totals[mode] = sum(needed)
    # Means 2.920, 2.935 and 2.945.
    assert totals == {Mode.NORMAL: 1168, Mode.HARD: 1174, Mode.STRICT: 1178}


def test_the_coach_names_the_rollout_choice_where_it_differs(wordle) -> None:
    from bot.render.text import coaching_text
    from engine.agents.advice import ADVICE, coach_with_rollout
    from engine.pattern import score

    history = [(w, score(w, "vinyl")) for w in ("slate", "round", "pinky", "winch", "vinyl")]
    coaching = coach_with_rollout(wordle, history)
    assert coaching.turns[0].rollout is None  # the opener is left alone
    agent, position, named = RolloutAgent(Mode.NORMAL, ADVICE), Position.start(wordle), []
    for turn, (guess, pattern) in zip(coaching.turns, history, strict=True):
        if turn.rollout is not None:
            assert turn.rollout == wordle.guesses.words[agent.choose(position)]
            assert turn.rollout not in (turn.guess, turn.best)
            named.append(turn.rollout)
        position = position.play(guess, pattern)
    assert named  # after SLATE, ROUND: 87 left, where the rollout plays GRODY
    assert f"(rollout: {named[0].upper()})" in coaching_text(coaching)
