"""The solver's commands: hint, solve, show, tree. Each parses, asks the engine, prints."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bot.cli.progress import progress
from bot.errors import UsageError
from bot.render.text import percent
from engine.answer_model import AnswerModel, ModelPosition, nyt_model
from engine.history import HistoryError, parse_history
from engine.pattern import PatternError, parse_pattern, to_digits, to_emoji, winning
from engine.rules import Mode, Row, shape_problem, shout
from engine.solver.exact import SearchTimeout
from engine.solver.exact_trees import cached_optimal_tree
from engine.solver.hints import Hint, hint
from engine.solver.measures import score_patterns
from engine.solver.position import InconsistentHistory, Position, guess_row, patterns_of
from engine.solver.strategies import strategy_tree
from engine.solver.tree import Node, paths
from engine.solver.weighted import model_coach, model_hint
from engine.variants import Variant, get_variant

SHOWN_CANDIDATES = 30


def tree_for_hints(variant: Variant, mode: Mode) -> Node | None:
    """The exact tree if it has been searched before (``wordlebot tree --strategy optimal``)."""
    return cached_optimal_tree(variant, mode)


def format_hint(result: Hint) -> str:
    first = result.candidates[:SHOWN_CANDIDATES]
    if result.probabilities:  # the NYT answer model: each word's chance, most likely first
        first = [f"{w} {p:.2%}" for w, p in zip(first, result.probabilities, strict=False)]
    words = ", ".join(first)
    more = len(result.candidates) - SHOWN_CANDIDATES
    lines = [
        f"{result.remaining} possible answer{'s' if result.remaining != 1 else ''}: "
        + words
        + (f" and {more} more" if more > 0 else "")
    ]
    lines.append("Best guesses:  bits  expected left  worst  can win  guesses to finish")
    for i, s in enumerate(result.suggestions, 1):
        finish = f"{s.expected_guesses:.3f}" if s.expected_guesses is not None else "-"
        can_win = ("yes" if s.chance is None else percent(s.chance)) if s.possible else "no"
        lines.append(
            f"{i:>2}. {shout(s.guess):<8} {s.entropy:5.2f}  {s.expected:13.2f}  {s.worst:5d}"
            f"  {can_win:>7}  {finish:>17}"
        )
    return "\n".join(lines)


def puzzle_model(args: argparse.Namespace, variant: Variant) -> AnswerModel | None:
    """The NYT model for ``--puzzle N`` (today's number by this computer's date when not
    given), knowing every answer before it; None for a variant other than the NYT's."""
    puzzle = getattr(args, "puzzle", None)
    if variant.name != "wordle-nyt":
        if puzzle is not None:
            raise UsageError("--puzzle is the NYT's puzzle number: use it with --variant "
                             "wordle-nyt")  # fmt: skip
        return None
    from datetime import date

    from engine.nyt_history import puzzle_number

    return nyt_model(puzzle_number(date.today()) if puzzle is None else puzzle)


def cmd_hint(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    mode = Mode(args.mode)
    history = parse_history(" ".join(args.history), variant)
    model = puzzle_model(args, variant)
    if model is not None:  # the NYT's puzzle: any word it accepts, weighted
        result = model_hint(model, history, mode, args.top)
    else:
        result = hint(variant, history, mode, args.top, tree=tree_for_hints(variant, mode))
    print(json.dumps(result.to_json()) if args.json else format_hint(result))
    return 0


def cmd_solve(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Suggest, read the feedback the player saw, repeat until solved."""
    variant = get_variant(args.variant)
    mode = Mode(args.mode)
    model = puzzle_model(args, variant)  # the NYT's puzzle: any word it accepts, weighted
    tree = None if model is not None else tree_for_hints(variant, mode)
    history: list[Row] = []
    write("For each guess, type the colours you saw (01202, BYGBG, or the squares);")
    write("if you played another word, type the word first: 'crane 01202'. 'quit' stops.")
    while len(history) < variant.max_guesses:
        if model is not None:
            result = model_hint(model, history, mode, top=1)
        else:
            result = hint(variant, history, mode, top=1, tree=tree)
        if result.remaining == 1:
            write(f"It is {shout(result.candidates[0])}.")
            return 0
        suggestion = result.suggestions[0].guess
        write(f"{result.remaining} possible. Try {shout(suggestion)}")
        try:
            line = read("feedback> ").strip()
        except EOFError:
            return 0
        if line.lower() in {"quit", "exit", "q"}:
            return 0
        try:
            row = _read_feedback(line, suggestion, variant)
            if model is not None:
                ModelPosition.after(model, [*history, row], mode)
            else:
                Position.after(variant, [*history, row], mode)
        except (PatternError, UsageError, InconsistentHistory) as exc:
            write(f"  {exc}")
            continue
        history.append(row)
        if row[1] == winning(variant.length):
            write(f"Solved in {len(history)}!")
            return 0
    write("Out of guesses.")
    return 0


def _read_feedback(line: str, suggestion: str, variant: Variant) -> Row:
    parts = line.split()
    if len(parts) == 2:
        word = variant.normalise(parts[0])
        problem = shape_problem(word, variant)
        if problem:
            raise UsageError(problem)
        return word, parse_pattern(parts[1], variant.length)
    return suggestion, parse_pattern(line, variant.length)


def cmd_show(args: argparse.Namespace) -> int:
    """One game, turn by turn, as Wordlegames.jl's showgame! prints it."""
    variant = get_variant(args.variant)
    answer = variant.normalise(args.answer)
    if answer not in variant.answers.index:
        raise UsageError(f"{args.answer[:20]!r} is not an answer of {variant.name}")
    target = variant.answers.index[answer]
    start, root = strategy_tree(variant, args.strategy, Mode(args.mode), [target], width=args.width)
    rows = paths(root, start)[target]
    print(f"{'row':>3}  {'pool':>5}  {'guess':<6} {'expected':>9} {'entropy':>8}  pattern")
    position = start
    for i, (guess, pattern) in enumerate(rows, 1):
        scores = score_patterns(
            patterns_of(variant, np.array([guess]), position.candidates), 3**variant.length
        )
        word = variant.guesses.words[guess]
        print(
            f"{i:>3}  {len(position.candidates):>5}  {word:<6} {scores.expected[0]:>9.3f}"
            f" {scores.entropy[0]:>8.3f}  {to_emoji(pattern, variant.length)}"
        )
        if pattern != winning(variant.length):
            position = position.play(word, pattern)
    return 0


def cmd_tree(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    if args.out_cache:
        return _tree_to_cache(variant, args)
    with progress(f"{args.strategy} tree: first guesses") as shown:
        try:
            start, root = strategy_tree(variant, args.strategy, Mode(args.mode),
                                        width=args.width, progress=shown)  # fmt: skip
        except SearchTimeout as exc:
            raise UsageError(f"No exact tree for {variant.name}: {exc}") from None
    if args.from_history is not None:
        text = subtree_text(variant, start, root, args.from_history, args.depth)
    else:
        text = answer_lines(variant, start, root)
    if args.out:
        Path(args.out).write_text(text + "\n")
    else:
        print(text)
    return 0


def _tree_to_cache(variant: Variant, args: argparse.Namespace) -> int:
    """Search (or find) the exact tree the bot reads, in the cache directory the bot's
    processes share (WORDLEBOT_CACHE_DIR): built once before a deployment, read by all."""
    from engine.solver.exact import SearchTimeout, preset
    from engine.solver.exact_trees import optimal_tree, tree_path

    if args.strategy != "optimal" or args.width is not None:
        raise UsageError("--out-cache builds the bot's exact tree: use --strategy optimal, "
                         "without --width")  # fmt: skip
    mode = Mode(args.mode)
    path = tree_path(variant, mode, preset(variant, mode))
    had = path.exists()
    with progress(f"exact search ({mode.value}): first guesses") as shown:
        try:
            total, _ = optimal_tree(variant, mode, progress=shown)
        except SearchTimeout as exc:
            print(f"{variant.name} {mode.value}: no exact tree ({exc}); hints use the greedy "
                  "strategies")  # fmt: skip
            return 1
    answers = len(variant.answers.words)
    print(f"{variant.name} {mode.value}: {total} guesses for {answers} answers "
          f"({total / answers:.4f} each), {'already' if had else 'now'} in {path}")  # fmt: skip
    return 0


def answer_lines(variant: Variant, start: Position, root: Node) -> str:
    """One line per answer: each guess and its pattern on the way to it."""
    words = variant.guesses.words
    lines = []
    for answer, rows in sorted(paths(root, start).items()):
        steps = " ".join(f"{words[g]}:{to_digits(p, variant.length)}" for g, p in rows)
        lines.append(f"{variant.answers.words[answer]}  {steps}")
    return "\n".join(lines)


def subtree_text(variant: Variant, start: Position, root: Node, history: str, depth: int) -> str:
    """The subtree at the position ``history`` reaches, indented, ``depth`` guesses deep."""
    node, position = root, start
    for guess, pattern in parse_history(history, variant):
        if variant.guesses.words[node.guess] != guess or pattern not in node.children:
            raise UsageError(f"The tree never plays {shout(guess)} with that feedback there")
        node, position = node.children[pattern], position.play(guess, pattern)
    lines: list[str] = []

    def walk(node: Node, position: Position, indent: int, label: str) -> None:
        word = shout(variant.guesses.words[node.guess])
        lines.append(f"{'  ' * indent}{label}{word} ({node.size} left)")
        if indent >= depth:
            return
        patterns = guess_row(variant, node.guess)[position.candidates]
        for pattern, child in sorted(node.children.items()):
            members = position.candidates[patterns == pattern]
            child_position = Position(
                variant, position.mode, (*position.history, (word.lower(), pattern)), members
            )
            walk(child, child_position, indent + 1, f"{to_emoji(pattern, variant.length)} ")

    walk(node, position, 0, "")
    return "\n".join(lines)


def cmd_absurdle_solve(args: argparse.Namespace) -> int:
    """A shortest win from the start, or a line that forces ``--target``."""
    from engine.solver.absurdle import force_target, shortest_win

    variant = get_variant("wordle")
    mode = Mode(args.mode)
    if args.target:
        target = variant.normalise(args.target)
        if target not in variant.answers.index:
            raise UsageError(f"{args.target[:20]!r} is not a possible answer")
        with progress("absurdle solve: line lengths tried") as shown:
            line = force_target(variant, target, mode, max_guesses=args.max_guesses,
                                width=args.width, progress=shown)  # fmt: skip
    else:
        with progress("absurdle solve: line lengths tried") as shown:
            line = shortest_win(variant, mode, max_guesses=args.max_guesses, width=args.width,
                                progress=shown)  # fmt: skip
    if args.json:
        print(json.dumps({"won": line.won, "guesses": [s.guess for s in line.steps],
                          "remaining": line.remaining}))  # fmt: skip
        return 0
    if not line.won:
        goal = f"forces {shout(args.target)}" if args.target else "wins"
        print(f"No line that {goal} within {args.max_guesses} guesses (width {args.width}).")
        return 0
    for i, step in enumerate(line.steps, 1):
        print(f"{i}. {shout(step.guess)}  {to_emoji(step.pattern, variant.length)}  "
              f"{step.remaining} left")  # fmt: skip
    print(f"Won in {len(line.steps)}.")
    return 0


def cmd_absurdle_play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Absurdle at the terminal; with --challenge, a target to force (random if not given)."""
    import random

    from engine.absurdle import TARGET_GONE, AbsurdleGame

    variant = get_variant("wordle")
    target = None
    if args.challenge is not None:
        target = (
            variant.normalise(args.challenge)
            if args.challenge
            else random.choice(variant.answers.words)
        )
        if target not in variant.answers.index:
            raise UsageError(f"{args.challenge[:20]!r} is not a possible answer")
    game = AbsurdleGame(variant, Mode(args.mode), target)
    write("Absurdle: the answer changes to dodge you. " + (
        f"Challenge: force it to {shout(target)}." if target else "Corner it."
    ))  # fmt: skip
    while not game.over:
        try:
            text = read(f"{len(game.rows) + 1}> ")
        except EOFError:
            return 0
        if text.strip().lower() in {"quit", "exit"}:
            return 0
        outcome = game.guess(text)
        if not outcome.accepted:
            write(f"  {outcome.message}")
            continue
        assert outcome.pattern is not None
        write(
            f"  {to_emoji(outcome.pattern, variant.length)} {shout(outcome.word)}  "
            f"{len(game.candidates)} word{'s' if len(game.candidates) != 1 else ''} left"
        )
    if game.status.value == "won":
        write(f"You won in {len(game.rows)} guesses.")
    else:
        write(TARGET_GONE + ".")
    return 0


def cmd_coach(args: argparse.Namespace) -> int:
    """Coaching for a finished game: the words played (feedback optional) and the answer."""
    from engine.pattern import score
    from engine.solver.coach import coach

    variant = get_variant(args.variant)
    answer = variant.normalise(args.answer)
    if shape_problem(answer, variant) or answer not in variant.guesses:
        raise UsageError(f"--answer {args.answer[:20]!r} is not a word of {variant.name}")
    text = " ".join(args.history)
    try:  # words with their feedback, in any notation
        words = [guess for guess, _ in parse_history(text, variant)]
    except HistoryError:  # or the words alone
        words = text.replace(",", " ").split()
    history = []
    for word in words:
        guess = variant.normalise(word)
        problem = shape_problem(guess, variant)
        if problem:
            raise UsageError(f"{word[:20]!r}: {problem}")
        history.append((guess, score(guess, answer)))
    model = puzzle_model(args, variant)
    if model is not None:
        result = model_coach(model, history, Mode(args.mode))
    else:
        result = coach(variant, history, Mode(args.mode))
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{'turn':>4}  {'guess':<6} {'left':>9}  {'best':<6} {'EG':>6} {'best EG':>8} "
          f"{'skill':>5} {'luck':>4}")  # fmt: skip
    for i, t in enumerate(result.turns, 1):
        skill = "-" if t.skill is None else str(t.skill)
        exact = "" if t.exact else "~"
        print(
            f"{i:>4}  {shout(t.guess):<6} {t.before:>4}->{t.after:<4} {shout(t.best):<6} "
            f"{exact}{t.expected:>5.2f} {exact}{t.best_expected:>7.2f} {skill:>5} {t.luck:>4}"
        )
    skill = "-" if result.skill is None else str(result.skill)
    print(f"Skill {skill}/99, luck {result.luck}/99 ({'won' if result.won else 'not solved'}); "
          "~ marks heuristic estimates.")  # fmt: skip
    return 0
