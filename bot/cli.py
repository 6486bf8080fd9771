"""``wordlebot``: the command line. Each subcommand parses, calls the engine, prints.

Mistakes a person can make (a bad word, pattern, history or variant) print one line to
stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from bot import benchmarks, console
from engine.game import GameStateError
from engine.history import HistoryError, parse_history
from engine.pattern import PatternError, score, to_digits, to_emoji
from engine.rules import Mode, check_guess, normalise, shape_problem
from engine.variants import VARIANT_NAMES, UnknownVariantError, Variant, get_variant
from engine.words import WordListError

USER_ERRORS = (
    GameStateError,
    HistoryError,
    PatternError,
    UnknownVariantError,
    WordListError,
)


class UsageError(ValueError):
    """A command-line argument that makes no sense; shown to the user as it is."""


def _word(text: str, variant: Variant, what: str) -> str:
    word = normalise(text)
    problem = shape_problem(word, variant)
    if problem is not None:
        raise UsageError(f"{what} {text[:20]!r}: {problem}")
    return word


def cmd_score(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    guess = _word(args.guess, variant, "guess")
    answer = _word(args.answer, variant, "answer")
    pattern = score(guess, answer)
    if args.json:
        _print_json(
            {"guess": guess, "answer": answer, "pattern": to_digits(pattern, variant.length)}
        )
    else:
        print(to_emoji(pattern, variant.length))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    history = parse_history(args.history, variant)
    verdict = check_guess(variant, args.guess, history, Mode(args.mode))
    if args.json:
        _print_json({"allowed": verdict.allowed, "message": verdict.message})
    else:
        print(f"{verdict.word.upper()} is allowed" if verdict.allowed else verdict.message)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    console.play(args.variant, Mode(args.mode), args.seed)
    return 0


def cmd_bench_matrix(args: argparse.Namespace) -> int:
    figures = benchmarks.bench_matrix(args.variant, args.repeat, baseline=not args.no_baseline)
    if args.json:
        _print_json(figures)
        return 0
    print(f"pattern matrix {figures['variant']} {figures['shape'][0]} x {figures['shape'][1]}")
    print(f"  cold build   {figures['build_seconds']:.3f} s (median of {args.repeat}; "
          f"first {figures['first_build_seconds']:.3f} s)")  # fmt: skip
    print(f"  warm load    {figures['load_seconds']:.4f} s (memory map of the cached file)")
    if "baseline_seconds" in figures:
        print(f"  plain numpy  {figures['baseline_seconds']:.3f} s "
              f"(the engine is {figures['speedup']}x faster)")  # fmt: skip
    return 0


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wordlebot", description="Play, check and benchmark Wordle-family games."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def variant_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", default="wordle", choices=VARIANT_NAMES)

    p = commands.add_parser("play", help="play a game in the terminal")
    variant_option(p)
    p.add_argument("--mode", default="normal", choices=[m.value for m in Mode])
    p.add_argument("--seed", type=int, help="pick the answer reproducibly")
    p.set_defaults(run=cmd_play)

    p = commands.add_parser("score", help="the feedback GUESS gets against ANSWER")
    p.add_argument("guess")
    p.add_argument("answer")
    variant_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_score)

    p = commands.add_parser("check", help="whether a guess is allowed after a history")
    p.add_argument("guess")
    p.add_argument("--history", default="", help='e.g. "crane:01002 slate:00202"')
    p.add_argument("--mode", default="hard", choices=[m.value for m in Mode])
    variant_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_check)

    bench = commands.add_parser("bench", help="benchmarks that print their figures")
    benches = bench.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    p = benches.add_parser("matrix", help="cold build and warm load of the pattern matrix")
    variant_option(p)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--no-baseline", action="store_true", help="skip the plain numpy baseline")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_matrix)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (UsageError, *USER_ERRORS) as exc:
        print(f"wordlebot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
