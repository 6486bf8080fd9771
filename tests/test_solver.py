import itertools
from collections import Counter
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pattern import score, winning
from engine.rules import Mode, check_guess, is_consistent
from engine.solver.bounds import entropy_upper_bounds, parts_ceilings
from engine.solver.exact import INF, ExactSearch, SearchSettings
from engine.solver.exact_trees import optimal_tree
from engine.solver.greedy import NEAR, best_guess, rank_guesses
from engine.solver.hints import hint
from engine.solver.measures import (
    Measure,
    best_inside,
    count_parts,
    parts_and_squares,
    rank_by_parts,
    score_patterns,
    sort_key,
    squares,
)
from engine.solver.position import (
    InconsistentHistory,
    Position,
    answer_rows,
    by_answer,
    tie_order,
)
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


@settings(max_examples=30)
@given(st.data())
def test_parts_are_the_distinct_patterns_on_every_counting_path(wordle, data) -> None:
    """Each way ``count_parts`` counts (sorted columns, first sightings, marks in a byte
    table a chunk of guesses at a time) gives each guess's number of distinct patterns."""
    n = data.draw(st.sampled_from([1, 2, 5, 55, 56, 57, 300, 2315]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(wordle.answers), size=n, replace=False))
    guesses = rng.choice(len(wordle.guesses), size=data.draw(st.sampled_from([7, 600])))
    rows = by_answer(wordle)[candidates][:, guesses]
    expected = [len(set(rows[:, j].tolist())) for j in range(len(guesses))]
    assert count_parts(rows, 243).tolist() == expected


@settings(max_examples=30)
@given(st.data())
def test_squares_compared_pairwise_equal_the_counted_ones(wordle, data) -> None:
    """The exact search's squares, every pair of candidates compared at once where the
    table is small, equal the sum of squared bucket sizes counted bucket by bucket."""
    n = data.draw(st.sampled_from([1, 2, 3, 9, 40, 63, 64, 200]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(wordle.answers), size=n, replace=False))
    guesses = rng.choice(len(wordle.guesses), size=data.draw(st.sampled_from([1, 8, 300])))
    rows = by_answer(wordle)[candidates][:, guesses]
    expected = [
        sum(c * c for c in Counter(rows[:, j].tolist()).values()) for j in range(len(guesses))
    ]
    assert squares(rows, 243).tolist() == expected == parts_and_squares(rows, 243)[1].tolist()


@settings(max_examples=30)
@given(st.data())
def test_best_answers_inside_counted_at_once_equal_each_set_counted_alone(wordle, data) -> None:
    """For sets of candidates of every size (a guess's buckets, overlapping or not), the
    batch gives each set's most parts an answer in it makes, and the first such answer in
    the tie order, as counting each set alone does."""
    matrix, rows_of, tie = by_answer(wordle), answer_rows(wordle), tie_order(wordle)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    sizes = data.draw(st.lists(st.sampled_from([1, 2, 3, 5, 17, 60, 244]), min_size=1, max_size=6))
    sets = [np.sort(rng.choice(len(wordle.answers), size=k, replace=False)) for k in sizes]
    expected = []
    for s in sets:
        inside = rows_of[s]
        parts = np.array([len(set(matrix[s, g].tolist())) for g in inside])
        best = inside[parts == parts.max()]
        expected.append((int(parts.max()), int(best[np.argmin(tie[best])])))
    assert best_inside(np.asarray(matrix), rows_of, tie, sets, 243) == expected


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


@settings(max_examples=25)
@given(st.data())
def test_parts_ceilings_are_never_below_the_parts(wordle, data) -> None:
    n = data.draw(st.sampled_from([1, 2, 16, 48, 100, 300, 2315]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(wordle.answers), size=n, replace=False))
    parts = score_patterns(by_answer(wordle)[candidates], 243).parts
    ceilings = parts_ceilings(wordle, candidates)
    assert (ceilings >= parts).all() and (ceilings <= n).all()
    assert n < 16 or (ceilings < min(n, 243)).any()  # and not vacuous


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


def brute_force(variant: Variant, mode: Mode, losses: bool = False) -> float:
    """Least total guesses over every answer, trying every allowed guess everywhere (with
    ``losses``, an answer not found within the limit costs one guess more than it)."""
    cost = optimal_costs(variant, mode, losses)
    return cost(frozenset(variant.answers.words), (), variant.max_guesses)


def optimal_costs(variant: Variant, mode: Mode, losses: bool = False):
    """``cost(candidates, history, guesses left)``: the least total guesses that find every
    candidate, by brute force (see :func:`brute_force`)."""
    words = variant.guesses.words

    @cache
    def cost(candidates: frozenset[str], history: tuple, depth: int) -> float:
        if depth == 0:
            return len(candidates) if losses else float("inf")
        best = float("inf")
        for g in words:
            if mode is Mode.STRICT and g not in candidates:
                continue  # the engine's strict pool: the remaining answers (Wordlegames.jl's)
            if mode is Mode.HARD and not check_guess(variant, g, history, mode).allowed:
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

    return cost


# (mode, losses): the rules the exact search plays; strict mode counts losses, as it cannot
# always finish within the limit
SEARCHED_RULES = [
    (Mode.NORMAL, False), (Mode.HARD, False), (Mode.NORMAL, True), (Mode.STRICT, True),
]  # fmt: skip


@settings(max_examples=30)
@given(
    answers=st.lists(
        st.text("abcdef", min_size=3, max_size=3), min_size=2, max_size=9, unique=True
    ),
    extra=st.lists(st.text("abcdef", min_size=3, max_size=3), max_size=6, unique=True),
    rules=st.sampled_from(SEARCHED_RULES),
    limit=st.sampled_from([1, 2, 3, 6]),
)
def test_exact_search_with_full_width_matches_brute_force(answers, extra, rules, limit) -> None:
    mode, losses = rules
    variant = tiny_variant(answers, extra, limit)
    expected = brute_force(variant, mode, losses)
    width = len(variant.guesses)
    search = ExactSearch(variant, mode, SearchSettings(width, width, losses=losses))
    if expected == float("inf") or expected >= 1 << 30:
        with pytest.raises(ValueError):
            search.solve()
        return
    total, root = search.solve()
    assert total == expected
    start = Position.start(variant, mode)
    needed = guesses_needed(root, start)
    lost = len(answers) - len(needed)  # only with losses: each costs one past the limit
    assert sum(needed.values()) + lost * (limit + 1) == total
    assert lost == 0 or losses
    assert max(needed.values()) <= limit
    for rows in paths(root, start).values():  # the tree keeps the mode's rule
        history = [(variant.guesses.words[g], p) for g, p in rows]
        for i, (word, _) in enumerate(history):
            assert check_guess(variant, word, history[:i], mode).allowed


@settings(max_examples=40, deadline=None)
@given(
    answers=st.lists(
        st.text("abcdef", min_size=3, max_size=3), min_size=3, max_size=24, unique=True
    ),
    extra=st.lists(st.text("abcdef", min_size=3, max_size=3), max_size=12, unique=True),
    rules=st.sampled_from(SEARCHED_RULES),
    limit=st.sampled_from([3, 4, 6]),
    width=st.integers(1, 4),
    root_width=st.integers(1, 12),
)
def test_the_pruned_opener_scan_finds_what_the_full_scan_finds(
    answers, extra, rules, limit, width, root_width
) -> None:
    """Same total, same opener, same tree, whatever the lists and the widths; and every
    floor is at most the total it bounds: the first guesses' (searched or not) and the
    start's, with and without looking ahead."""
    mode, losses = rules
    variant = tiny_variant(answers, extra, limit)
    search_settings = SearchSettings(width, root_width, losses=losses)
    start = Position.start(variant, mode)
    results = {}
    for scan in ("pruned", "full"):
        search = ExactSearch(variant, mode, search_settings, opener_scan=scan)
        try:
            total, root = search.solve()
        except ValueError:
            results[scan] = None
            continue
        results[scan] = (total, root.to_json())
        for tried in search.openers:
            try:
                alone = ExactSearch(variant, mode, search_settings).solve(first=[tried.guess])[0]
            except ValueError:
                alone = INF  # this first guess cannot finish within the limit
            assert tried.floor <= alone and (tried.total is None or tried.total >= total)
        for look_ahead in (False, True):
            assert ExactSearch(variant, mode, search_settings).floor(start, look_ahead) <= total
    assert results["pruned"] == results["full"]


@pytest.mark.parametrize(("seed", "mode"), [(16, Mode.NORMAL), (4, Mode.HARD)])
def test_the_pruned_scan_agrees_where_its_first_opener_is_not_the_best(wordle, seed, mode) -> None:
    """Samples of the real lists where the opener with the lowest floor loses to a later
    one: the pruned scan must go on past it and stop only where the full scan's answer is."""
    rng = np.random.default_rng(seed)
    answers, guesses = int(rng.integers(300, 900)), int(rng.integers(200, 1500))
    chosen = sorted(rng.choice(wordle.answers.words, answers, replace=False).tolist())
    extra = rng.choice(wordle.guesses.words, guesses, replace=False).tolist()
    alphabet = wordle.alphabet
    variant = Variant(
        f"sample{seed}", "Sample", 5, alphabet, 6,
        WordList.from_words("sample-answers", chosen, 5, alphabet),
        WordList.from_words("sample-guesses", sorted(set(chosen) | set(extra)), 5, alphabet),
    )  # fmt: skip
    pruned = ExactSearch(variant, mode, SearchSettings(2, 10))
    full = ExactSearch(variant, mode, SearchSettings(2, 10), opener_scan="full")
    total, root = pruned.solve()
    full_total, full_root = full.solve()
    assert (total, root.to_json()) == (full_total, full_root.to_json())
    searched = [o for o in pruned.openers if o.total is not None]
    assert searched[0].guess != root.guess  # the case this sample is here for
    assert len(searched) < len([o for o in full.openers if o.total is not None])
    for tried in pruned.openers:
        alone = ExactSearch(variant, mode, SearchSettings(2, 10)).solve(first=[tried.guess])[0]
        assert tried.floor <= alone


def test_floors_never_exceed_the_optimum(wordle) -> None:
    """On brute-forced lists a floor bounds the optimum itself (every guess in the width)."""
    for answers, extra in [
        (["abc", "abd", "abe", "acf", "bcd", "fed", "cab", "dab"], ["aaa", "fff", "dca"]),
        (["aaa", "aab", "aba", "baa", "bbb", "abb", "bab", "bba"], ["abc", "cab"]),
    ]:
        variant = tiny_variant(answers, extra, 6)
        width = len(variant.guesses)
        for mode in (Mode.NORMAL, Mode.HARD):
            optimum = brute_force(variant, mode)
            search = ExactSearch(variant, mode, SearchSettings(width, width))
            assert search.floor(Position.start(variant, mode), look_ahead=True) <= optimum
            assert search.solve()[0] == optimum
    # And on the real lists, after one guess: each bucket's floor is at most its search.
    search = ExactSearch(wordle, Mode.NORMAL, SearchSettings(8, 8))
    for answer in ("cigar", "nymph", "eerie", "fluff"):
        position = Position.after(wordle, [("salet", score("salet", answer))])
        floor = search.floor(position, look_ahead=True)
        total = ExactSearch(wordle, Mode.NORMAL, SearchSettings(8, 8)).solve(position)[0]
        assert len(position.candidates) <= floor <= total


def reachable(variant: Variant, mode: Mode, guesses: int):
    """(history, candidates) of every position up to ``guesses`` guesses from the start
    (hard mode: by the guesses it allows) where three candidates or more are left."""
    frontier = [((), variant.answers.words)]
    for _ in range(guesses):
        later = []
        for history, candidates in frontier:
            for g in variant.guesses.words:
                if mode is Mode.HARD and not check_guess(variant, g, history, mode).allowed:
                    continue
                buckets: dict[int, list[str]] = {}
                for a in candidates:
                    buckets.setdefault(score(g, a), []).append(a)
                for pattern, members in buckets.items():
                    if len(members) >= 3 and len(members) < len(candidates):
                        later.append(((*history, (g, pattern)), members))
        yield from later
        frontier = later


def played_at(variant: Variant, candidates, history, depth: int, cost, guess: int) -> float:
    """The least total when ``guess`` is played at a position (``cost``: optimal_costs')."""
    g = variant.guesses.words[guess]
    split: dict[int, set[str]] = {}
    for a in candidates:
        split.setdefault(score(g, a), set()).add(a)
    return len(candidates) + sum(
        cost(frozenset(members), (*history, (g, p)), depth - 1)
        for p, members in split.items() if p != winning(3)
    )  # fmt: skip


# Lists where some positions' best guess is a word that cannot be the answer, others' an
# answer splitting all but one pair: where the floors 2|S| and 2|S| - 1 are the optimum.
FLOOR_LISTS = [
    (["abc", "abd", "abe", "acf", "bcd", "fed", "cab", "dab"], ["aaa", "fff", "dca"]),
    (["bad", "bed", "bee", "fad", "fed", "fee", "dab", "deb"], ["bef", "fbd", "edb"]),
    (["aab", "aac", "aad", "aae", "aaf", "bbc"], ["bcd", "def", "cef"]),
    (["abc", "acb", "bac", "bca", "cab", "cba", "aaa"], ["abf", "fca"]),
]


@pytest.mark.parametrize(("answers", "extra"), FLOOR_LISTS)
def test_the_floors_of_every_position_never_exceed_its_optimum(answers, extra) -> None:
    """Every position two guesses deep, and the start, on brute-forced lists: its floor (with
    and without looking ahead), each first guess's floor in its search (pruned scan), and
    the ranking's bounds (each guess's, and the least over the pool, narrow or wide) are at
    most the optimum they bound. Mutants: the pool's least bound raised by one, in
    engine/solver/measures.py's rank_by_parts (``lowest``) or in the wide ranking of
    engine/solver/exact.py (``int(bound.min())``), went unnoticed (the start's floors are far
    below its optimum); so would a floor of 2|S| raised by one on the lists of the other
    floor tests, which only the slow samples of the real lists catch."""
    variant = tiny_variant(answers, extra, 5)
    width = len(variant.guesses)
    for mode in (Mode.NORMAL, Mode.HARD):
        cost = optimal_costs(variant, mode)
        for history, candidates in [((), variant.answers.words),
                                    *reachable(variant, mode, 2)]:  # fmt: skip
            depth = variant.max_guesses - len(history)
            optimum = cost(frozenset(candidates), history, depth)
            position = Position.after(variant, list(history), mode)
            for look_ahead in (False, True):
                search = ExactSearch(variant, mode, SearchSettings(width, width))
                assert search.floor(position, look_ahead) <= optimum, (history, look_ahead)

            def played(guess: int, here=(candidates, history, depth, cost)) -> float:
                return played_at(variant, *here, guess)

            search = ExactSearch(variant, mode, SearchSettings(width, width))
            assert search.solve(position)[0] == optimum
            for tried in search.openers:
                assert tried.floor <= played(tried.guess), (history, tried.guess)
            # The ranking's bounds (3|S| - parts - won), of each guess and of the whole pool:
            # a few passes for a narrow search, the pool's columns for a wide one.
            hard = search._hard_key(list(history)) if mode is Mode.HARD else None
            for w in (1, 2, width):
                ranked = ExactSearch(variant, mode, SearchSettings(w, w))._ranked(
                    position.candidates, hard, w)  # fmt: skip
                assert ranked.lower <= optimum, (history, w)
                for guess, bound in zip(ranked.guesses.tolist(), ranked.bounds.tolist(),
                                        strict=True):  # fmt: skip
                    assert bound <= played(guess), (history, w, guess)


def test_minimax_breaks_ties_by_expected_size_then_list_order() -> None:
    """Every answer leaves at most two; AEA (first in list order) leaves two pairs, CDF one."""
    variant = tiny_variant(["aea", "cdf", "ded", "eef", "eff", "fcf"], ["cea", "dbd", "fdb"])
    start = Position.start(variant)
    ranking = rank_guesses(start, Measure.MINIMAX)
    words = [variant.guesses.words[g] for g in ranking.guesses.tolist()]
    assert ranking.scores.worst[: len(words) - 1].tolist() == [2] * (len(words) - 1)
    # Worst 2 and expected 8/6: answers first, then the others, each in list order; then
    # worst 2 and expected 10/6; DBD, whose worst is 3, last.
    assert words == ["cdf", "ded", "eff", "fcf", "cea", "fdb", "aea", "eef", "dbd"]
    assert variant.guesses.words[best_guess(start, Measure.MINIMAX)] == "cdf"


@settings(max_examples=40)
@given(st.data())
def test_minimax_orders_by_worst_then_squares_for_small_and_large_pools(wordle, data) -> None:
    n = data.draw(st.sampled_from([3, 7, 40, 63, 64, 65, 200]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(wordle.answers), size=n, replace=False))
    guesses = rng.choice(len(wordle.guesses), size=30, replace=False)
    key = sort_key(by_answer(wordle)[candidates][:, guesses], Measure.MINIMAX, 243)
    by_hand = []
    for g in guesses.tolist():
        sizes = Counter(score(wordle.guesses.words[g], wordle.answers.words[a]) for a in candidates)
        by_hand.append((max(sizes.values()), sum(c * c for c in sizes.values())))
    for i in range(len(guesses)):
        for j in range(len(guesses)):
            assert (key[i] < key[j]) == (by_hand[i] < by_hand[j])


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


def test_the_strict_mode_optimum_counts_its_lost_games(wordle, tmp_path) -> None:
    """Strict mode cannot find every answer in six: the optimum, a lost game counting 7, is
    8,145 from SLATE with four lost (every guess of every node tried below the root; the
    scan of every first guess, ``bench play --root-width 100000``, finds the same)."""
    total, root = optimal_tree(wordle, Mode.STRICT, directory=tmp_path)
    start = Position.start(wordle, Mode.STRICT)
    needed = guesses_needed(root, start)
    assert wordle.guesses.words[root.guess] == "slate"
    lost = 2315 - len(needed)
    assert (total, lost) == (8145, 4) and sum(needed.values()) + 7 * lost == total
    for rows in paths(root, start).values():
        history = [(wordle.guesses.words[g], p) for g, p in rows]
        assert all(is_consistent(word, history[:i]) for i, (word, _) in enumerate(history))
    # At the start, a hint's expectation is the tree's mean, lost games included.
    assert hint(wordle, [], Mode.STRICT, tree=root).suggestions[0].expected_guesses == round(
        total / 2315, 4
    )


def test_exact_search_reaches_the_best_known_total_on_the_nyt_era_lists(tmp_path) -> None:
    """3,158 answers, 14,855 guesses: TARSE first, 11,219 guesses, the best known."""
    variant = get_variant("wordle-nyt-era")
    total, root = optimal_tree(variant, Mode.NORMAL, directory=tmp_path)
    needed = guesses_needed(root, Position.start(variant))
    assert variant.guesses.words[root.guess] == "tarse"
    assert total == sum(needed.values()) == 11219 and len(needed) == 3158


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
    # one word left: that word alone (every other guess is worth 0 bits); never a played word
    if len(expected) > 1:
        assert len(result.suggestions) == 3
    else:  # solved already (the answer played) leaves nothing to suggest
        assert [s.guess for s in result.suggestions] == [w for w in expected if w not in played]
    assert not {s.guess for s in result.suggestions} & set(played)
    # by entropy, near equals (NEAR bits a preference) to a possible answer, a common word
    common = set(wordle.answers.words)
    value = [s.entropy + NEAR * (s.possible + (s.guess in common)) for s in result.suggestions]
    assert all(a >= b - 1e-4 for a, b in itertools.pairwise(value))  # entropies: 4 places


def test_among_near_equals_a_hint_prefers_a_possible_answer_then_a_common_word(wordle) -> None:
    """Issue 31.7: SOARE splits the answers best, by 0.008 bits over RAISE, which can be the
    answer and is a common word: the hint offers RAISE first, and every possible answer
    within 2 * NEAR bits before SOARE; plain entropy keeps SOARE."""
    start = Position.start(wordle)
    assert wordle.guesses.words[int(rank_guesses(start, Measure.ENTROPY, top=1).guesses[0])] == (
        "soare"
    )
    picks = hint(wordle, [], top=10).suggestions
    words = [s.guess for s in picks]
    assert words[0] == "raise" and "soare" in words
    soare = picks[words.index("soare")]
    for s in picks[: words.index("soare")]:  # possible answers it beats by under 2 * NEAR
        assert s.possible and s.entropy < soare.entropy and s.entropy > soare.entropy - 2 * NEAR
    assert wordle.guesses.words[best_guess(start, Measure.ENTROPY, prefer=True)] == "raise"


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


@settings(max_examples=25)
@given(st.data())
def test_ranking_a_few_candidates_equals_the_plain_ranking(wordle, data) -> None:
    """The exact search's ranking of a small set (the cut read off the scores' counts) picks
    the guesses, bounds and least bound that sorting every guess's bound, squares and tie
    order gives."""
    n = data.draw(st.sampled_from([1, 2, 3, 5, 12, 30, 47]))
    top = data.draw(st.sampled_from([1, 3, 8, 100]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    candidates = np.sort(rng.choice(len(wordle.answers), size=n, replace=False))
    pool = np.sort(rng.choice(len(wordle.guesses), size=data.draw(st.sampled_from([5, 2000]))))
    rows = by_answer(wordle)[candidates][:, pool]
    won = np.isin(pool, answer_rows(wordle)[candidates])
    tie = rng.permutation(len(pool)) if data.draw(st.booleans()) else np.zeros(len(pool), int)
    scores = score_patterns(rows, 243)
    bound = 3 * n - scores.parts - won
    plain = np.lexsort((tie, np.rint(scores.expected * n), bound))[:top]
    guesses, bounds, lowest = rank_by_parts(rows, won, tie, top, 243)
    assert guesses.tolist() == plain.tolist()
    assert bounds.tolist() == bound[plain].tolist() and lowest == bound.min()
