from collections import Counter
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pattern import score, winning
from engine.rules import Mode, check_guess, is_consistent
from engine.solver.bounds import entropy_upper_bounds
from engine.solver.exact import ExactSearch, SearchSettings, optimal_tree
from engine.solver.greedy import best_guess, rank_guesses
from engine.solver.hints import hint
from engine.solver.measures import Measure, score_patterns
from engine.solver.position import InconsistentHistory, Position, by_answer
from engine.solver.tree import build_tree, guesses_needed, paths
from engine.variants import Variant, get_variant
from engine.words import WordList


def measures_by_hand(patterns: list[int]) -> tuple[float, float, int, int]:
    sizes = np.array(list(Counter(patterns).values()), dtype=float)
    n = len(patterns)
    entropy = float(-(sizes / n * np.log2(sizes / n)).sum())
    return entropy, float((sizes**2).sum() / n), int(sizes.max()), len(sizes)


@settings(max_examples=60)
@given(st.data())
def test_measures_match_their_definitions_for_small_and_large_pools(wordle, data) -> None:
    n = data.draw(st.sampled_from([1, 2, 3, 7, 40, 63, 64, 65, 200]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(wordle.answers), size=n, replace=False))
    guesses = np.array(data.draw(st.lists(st.integers(0, 12971), min_size=1, max_size=5)))
    scores = score_patterns(by_answer(wordle)[candidates][:, guesses], 243)
    for i, g in enumerate(guesses):
        entropy, expected, worst, parts = measures_by_hand(
            [score(wordle.guesses.words[g], wordle.answers.words[a]) for a in candidates]
        )
        assert scores.entropy[i] == pytest.approx(entropy, abs=1e-9)
        assert scores.expected[i] == pytest.approx(expected)
        assert (scores.worst[i], scores.parts[i]) == (worst, parts)


@settings(max_examples=25)
@given(st.data())
def test_entropy_bound_holds_and_the_shortlist_changes_nothing(wordle, data) -> None:
    answer = data.draw(st.sampled_from(wordle.answers.words))
    guess = data.draw(st.sampled_from(wordle.guesses.words))
    position = Position.after(wordle, [(guess, score(guess, answer))])
    exact = score_patterns(by_answer(wordle)[position.candidates], 243).entropy
    assert (entropy_upper_bounds(wordle, position.candidates) >= exact - 1e-9).all()
    shortlisted = rank_guesses(position, Measure.ENTROPY, top=5)
    everything = rank_guesses(position, Measure.ENTROPY)
    assert shortlisted.guesses.tolist() == everything.guesses[:5].tolist()


def play_all(variant: Variant, measure: Measure, mode: Mode) -> dict[int, list[tuple[int, int]]]:
    start = Position.start(variant, mode)
    return paths(build_tree(start, lambda p: best_guess(p, measure)), start)


def test_strict_entropy_reproduces_wordlegames_jl(wordle) -> None:
    games = play_all(wordle, Measure.ENTROPY, Mode.STRICT)
    counts = [len(rows) for rows in games.values()]
    assert len(counts) == 2315
    assert round(sum(counts) / 2315, 4) == 3.5991  # Wordlegames.jl's published mean
    assert sum(1 for c in counts if c > 6) == 11  # and its 11 games over six
    assert wordle.guesses.words[games[0][0][0]] == "raise"


def test_greedy_entropy_and_parts_on_the_original_lists(wordle) -> None:
    entropy = [len(r) for r in play_all(wordle, Measure.ENTROPY, Mode.NORMAL).values()]
    parts = [len(r) for r in play_all(wordle, Measure.PARTS, Mode.NORMAL).values()]
    assert (sum(entropy), max(entropy)) == (8018, 6)  # mean 3.4635
    assert (sum(parts), max(parts)) == (7951, 6)  # mean 3.4346


@pytest.mark.parametrize("mode", [Mode.HARD, Mode.STRICT])
def test_every_greedy_game_obeys_its_mode(wordle, mode: Mode) -> None:
    words = wordle.guesses.words
    for answer, rows in play_all(wordle, Measure.EXPECTED, mode).items():
        history: list[tuple[str, int]] = []
        for guess, pattern in rows:
            assert check_guess(wordle, words[guess], history, mode).allowed
            assert pattern == score(words[guess], wordle.answers.words[answer])
            history.append((words[guess], pattern))
        assert history[-1] == (wordle.answers.words[answer], winning(5))


# -- exact search, checked against brute force on lists small enough to enumerate --------


def tiny_variant(answers: list[str], extra: list[str], max_guesses: int = 6) -> Variant:
    a = WordList.from_words("tiny-answers", answers, 3, "abcdef")
    g = WordList.from_words("tiny-guesses", sorted(set(answers) | set(extra)), 3, "abcdef")
    return Variant("tiny", "Tiny", 3, "abcdef", max_guesses, a, g)


def brute_force(variant: Variant, mode: Mode) -> int:
    """Least total guesses over every answer, trying every allowed guess everywhere."""
    words, answers = variant.guesses.words, variant.answers.words

    @cache
    def cost(candidates: frozenset[str], history: tuple, depth: int) -> float:
        if depth == 0:
            return float("inf")
        best = float("inf")
        for g in words:
            if mode is Mode.HARD and not check_guess(variant, g, history, Mode.HARD).allowed:
                continue
            buckets: dict[int, set[str]] = {}
            for a in candidates:
                buckets.setdefault(score(g, a), set()).add(a)
            if len(buckets) == 1 and g not in candidates:
                continue  # learns nothing
            total = len(candidates)
            for pattern, members in buckets.items():
                if pattern != winning(3):
                    total += cost(frozenset(members), (*history, (g, pattern)), depth - 1)
            best = min(best, total)
        return best

    return int(cost(frozenset(answers), (), variant.max_guesses))


@settings(max_examples=15)
@given(
    answers=st.lists(
        st.text("abcdef", min_size=3, max_size=3), min_size=2, max_size=9, unique=True
    ),
    extra=st.lists(st.text("abcdef", min_size=3, max_size=3), max_size=6, unique=True),
    mode=st.sampled_from([Mode.NORMAL, Mode.HARD]),
    limit=st.sampled_from([3, 6]),
)
def test_exact_search_with_full_width_matches_brute_force(answers, extra, mode, limit) -> None:
    variant = tiny_variant(answers, extra, limit)
    expected = brute_force(variant, mode)
    width = len(variant.guesses)
    search = ExactSearch(variant, mode, SearchSettings(width, width))
    if expected == float("inf") or expected >= 1 << 30:
        with pytest.raises(ValueError):
            search.solve()
        return
    total, root = search.solve()
    assert total == expected
    start = Position.start(variant, mode)
    needed = guesses_needed(root, start)
    assert sum(needed.values()) == total and len(needed) == len(answers)
    assert max(needed.values()) <= limit


def test_exact_search_finds_the_optimal_wordle_tree(wordle, tmp_path) -> None:
    """The known optimum: SALET first, 7,920 guesses over 2,315 answers, none over 5."""
    total, root = optimal_tree(wordle, Mode.NORMAL, directory=tmp_path)
    start = Position.start(wordle)
    needed = guesses_needed(root, start)
    assert wordle.guesses.words[root.guess] == "salet"
    assert total == sum(needed.values()) == 7920
    assert max(needed.values()) == 5 and len(needed) == 2315
    # Read back from the disk cache, not searched again.
    again_total, again = optimal_tree(wordle, Mode.NORMAL, directory=tmp_path)
    assert again_total == 7920 and again.to_json() == root.to_json()
    # A hint on the tree's path leads with the tree's guess and its exact expectation.
    pattern = score("salet", "cigar")
    result = hint(wordle, [("salet", pattern)], tree=root)
    child = root.children[pattern]
    finish = guesses_needed(child, start.play("salet", pattern))
    assert result.suggestions[0].guess == wordle.guesses.words[child.guess]
    assert result.suggestions[0].expected_guesses == round(sum(finish.values()) / child.size, 4)


# -- hints ---------------------------------------------------------------------------------


@settings(max_examples=30)
@given(st.data())
def test_hint_candidates_are_exactly_the_consistent_answers(wordle, data) -> None:
    answer = data.draw(st.sampled_from(wordle.answers.words))
    played = data.draw(st.lists(st.sampled_from(wordle.guesses.words), min_size=1, max_size=2))
    history = [(g, score(g, answer)) for g in played]
    result = hint(wordle, history, top=3)
    expected = [w for w in wordle.answers.words if is_consistent(w, history)]
    assert result.candidates == expected and result.remaining == len(expected)
    assert answer in result.candidates
    assert len(result.suggestions) == 3
    assert [s.entropy for s in result.suggestions] == sorted(
        (s.entropy for s in result.suggestions), reverse=True
    )


def test_an_inconsistent_history_names_the_row(wordle) -> None:
    history = [("crane", int("01002", 3)), ("slate", int("00202", 3))]  # A grey, then green
    with pytest.raises(InconsistentHistory) as info:
        hint(wordle, history)
    assert info.value.row == 2
    assert "after row 2 (SLATE)" in str(info.value)


def test_a_guess_only_the_nyt_list_allows_is_still_read(wordle) -> None:
    nyt = get_variant("wordle-nyt")
    word = sorted(set(nyt.guesses.words) - set(wordle.guesses.words))[0]
    assert word not in wordle.guesses
    result = hint(wordle, [(word, score(word, "cigar"))])
    assert "cigar" in result.candidates


def test_hard_mode_hints_only_suggest_allowed_guesses(wordle) -> None:
    history = [("crane", score("crane", "cigar"))]
    for s in hint(wordle, history, Mode.HARD, top=10).suggestions:
        assert check_guess(wordle, s.guess, history, Mode.HARD).allowed
    for s in hint(wordle, history, Mode.STRICT, top=10).suggestions:
        assert s.possible and is_consistent(s.guess, history)


def test_primel_hint(primel) -> None:
    result = hint(primel, [("12345", score("12345", "10007"))])
    assert "10007" in result.candidates


def test_exact_search_in_hard_mode_reaches_the_proven_optimum(wordle, tmp_path) -> None:
    """Hard mode's proven optimum is 8,122; every game within six guesses, every guess legal."""
    total, root = optimal_tree(wordle, Mode.HARD, directory=tmp_path)
    start = Position.start(wordle, Mode.HARD)
    games = paths(root, start)
    assert total == sum(len(rows) for rows in games.values()) <= 8123
    assert len(games) == 2315 and max(len(rows) for rows in games.values()) <= 6
    words = wordle.guesses.words
    for rows in list(games.values())[::7]:
        history: list[tuple[str, int]] = []
        for guess, pattern in rows:
            assert check_guess(wordle, words[guess], history, Mode.HARD).allowed
            history.append((words[guess], pattern))
