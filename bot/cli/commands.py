"""``wordlebot``: the command line. Each subcommand parses, calls the engine, prints.

Mistakes a person can make (a bad word, pattern, history or variant) print one line to
stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.cli.arguments import BIGINT, SEED, Parser, number, sample, whole
from bot.cli.study import add_study_parser
from bot.errors import UsageError

if TYPE_CHECKING:
    from bot.storage.database import DatabaseUrl
    from engine.variants import Variant

# Start-up (docs/performance.md, "Start-up of the CLI"): this module imports the standard
# library and bot.cli.arguments only. Each command imports what it uses when it runs, and the
# parser reads the engine's names (modes, strategies, games) only for the subcommand named on
# the command line, so `wordlebot score` loads neither the services nor the solvers, and
# `wordlebot --help` not even numpy. tests/test_cli_startup.py holds it to that.

# Mistakes a person can make, as (module, exception): one line on stderr and status 2. Looked
# up in the modules already imported only: a module never imported raised nothing.
USER_ERRORS = (
    ("bot.errors", "UsageError"),
    ("bot.settings", "SettingsError"),
    ("bot.storage", "StorageUnavailable"),
    ("engine.solver.position", "InconsistentHistory"),
    ("engine.solver.strategies", "StrategyError"),
    ("engine.game", "GameStateError"),
    ("engine.history", "HistoryError"),
    ("engine.words", "LookAlikeError"),
    ("engine.pattern", "PatternError"),
    ("engine.variants", "UnknownVariantError"),
    ("engine.words", "WordListError"),
)


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of USER_ERRORS (checked without importing anything)."""
    return any(
        isinstance(exc, getattr(sys.modules[module], name))
        for module, name in USER_ERRORS
        if module in sys.modules
    )


def later(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """The command ``module.name``, imported when it runs rather than when the parser is built."""

    def run(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(module), name)(args))

    run.__name__ = name
    return run


WIDTH = 100_000  # guesses tried per node or step: more than any word list holds
RUNS = 10_000_000  # games, positions, players a benchmark or simulation runs at most


def _word(text: str, variant: Variant, what: str) -> str:
    from engine.rules import shape_problem
    from engine.words import LookAlikeError

    try:
        word = variant.normalise(text)
    except LookAlikeError as exc:
        raise UsageError(f"{what} {text[:20]!r}: {exc}") from None
    problem = shape_problem(word, variant)
    if problem is not None:
        raise UsageError(f"{what} {text[:20]!r}: {problem}")
    return word


def cmd_variants(args: argparse.Namespace) -> int:
    from bot.services.kinds import KINDS
    from engine.rules import Mode
    from engine.solver.exact import preset
    from engine.solver.exact_trees import tree_path
    from engine.variants import get_variant, variant_names

    daily = {kind.variant for kind in KINDS.values() if kind.daily}
    rows = []
    for name in variant_names():
        variant = get_variant(name)
        tree = tree_path(variant, Mode.NORMAL, preset(variant, Mode.NORMAL))
        rows.append({"name": name, "language": variant.language, "length": variant.length,
                     "answers": len(variant.answers), "allowed": len(variant.guesses),
                     "daily": name in daily, "exact_tree": tree.is_file()})  # fmt: skip
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    print(f"{'variant':<16} {'lang':<4} {'length':>6} {'answers':>8} {'allowed':>8}  daily  tree")
    for row in rows:
        print(f"{row['name']:<16} {row['language']:<4} {row['length']:>6} {row['answers']:>8,} "
              f"{row['allowed']:>8,}  {'yes' if row['daily'] else 'no':<5}  "
              f"{'cached' if row['exact_tree'] else '-'}")  # fmt: skip
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from engine.pattern import score, to_digits, to_emoji
    from engine.variants import get_variant

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
    from engine.history import parse_history
    from engine.rules import Mode, check_guess, shout
    from engine.variants import get_variant

    variant = get_variant(args.variant)
    history = parse_history(args.history, variant)
    verdict = check_guess(variant, args.guess, history, Mode(args.mode))
    if args.json:
        _print_json({"allowed": verdict.allowed, "message": verdict.message})
    else:
        print(f"{shout(verdict.word)} is allowed" if verdict.allowed else verdict.message)
    return 0


def cmd_define(args: argparse.Namespace) -> int:
    from engine.definitions import definition

    found = definition(args.word, args.language)
    if args.json:
        word = args.word.strip().lower()
        _print_json({"found": True, **found.to_json()} if found else {"found": False, "word": word})
    elif found:
        print(found.word)
        for sense in found.senses:
            print(f"  ({sense.part}) {sense.gloss}" if sense.part else f"  {sense.gloss}")
        print(f"Source: {found.source}")
    else:
        print(f"No definition of {args.word.strip().lower()!r} in the {args.language!r} dictionary",
              file=sys.stderr)  # fmt: skip
    return 0 if found else 1


def cmd_parse(args: argparse.Namespace) -> int:
    """Shares (and typed histories) read from standard input."""
    from engine.shares import parse_shares

    text = sys.stdin.read()
    result = parse_shares(text)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    for share in result.shares:
        number = f" #{share.puzzle}" if share.puzzle is not None else ""
        print(f"{share.game.title()}{number}{' (hard mode)' if share.hard else ''}")
        for b, board in enumerate(share.boards, 1):
            state = f"solved in {board.guesses}" if board.solved else "not solved"
            label = f"  board {b}: " if len(share.boards) > 1 else "  "
            print(f"{label}{state}, {len(board.rows)} rows read")
    for problem in result.problems:
        print(f"  ! {problem}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from bot import event_loop
    from bot.settings import NO_TOKEN, load_settings, usable_token

    settings = load_settings()
    if settings.discord_token is None:  # said before discord.py is imported (0.3 s)
        print(NO_TOKEN)
        return 1
    usable_token(settings)  # before any connection, the database's too
    from bot.discord_bot import run_bot

    return event_loop.run(run_bot(settings))


def cmd_web(args: argparse.Namespace) -> int:
    from bot import event_loop
    from bot.discord_bot import configure
    from bot.settings import load_settings
    from bot.web.server import run_web

    settings = load_settings()
    configure(settings)
    return event_loop.run(run_web(settings))


def cmd_sync(args: argparse.Namespace) -> int:
    import asyncio

    from bot.settings import NO_TOKEN, load_settings, usable_token

    settings = load_settings()
    if settings.discord_token is None:
        print(NO_TOKEN)
        return 1
    usable_token(settings)
    from bot.discord_bot import sync_commands

    return asyncio.run(sync_commands(settings))


def cmd_console(args: argparse.Namespace) -> int:
    import asyncio

    from bot import console
    from bot.settings import load_settings

    asyncio.run(console.run_console(load_settings(), locale=args.locale))
    return 0


def cmd_bench_matrix(args: argparse.Namespace) -> int:
    from bot.cli import benchmarks

    figures = benchmarks.bench_matrix(args.variant, args.repeat, baseline=not args.no_baseline)
    if args.json:
        _print_json(figures)
        return 0
    rows, columns = figures["shape"]
    origin = "loaded from the cache" if figures["from_cache"] else "built into the cache"
    print(f"pattern matrix {figures['variant']} {rows:,} x {columns:,} {figures['dtype']}, "
          f"{figures['size_mib']:,.1f} MiB: {origin} "
          f"in {figures['cache_seconds']:.3f} s")  # fmt: skip
    print(f"  cold build   {figures['build_seconds']:.3f} s (median of {args.repeat}; "
          f"first {figures['first_build_seconds']:.3f} s; at most {figures['build_peak_mib']:,.0f} "
          "MiB allocated, the matrix written to its mapped file)")  # fmt: skip
    print(f"  warm load    {figures['load_seconds']:.4f} s (memory map of the cached file)")
    if "baseline_seconds" in figures:
        print(f"  plain numpy  {figures['baseline_seconds']:.3f} s "
              f"(the engine is {figures['speedup']}x faster)")  # fmt: skip
    return 0


def cmd_bench_play(args: argparse.Namespace) -> int:
    from bot.cli import benchmarks
    from bot.cli.progress import progress
    from engine.rules import Mode, shout
    from engine.variants import get_variant

    if args.root_width is not None and not (args.cold and args.strategy == "optimal"):
        raise UsageError("--root-width is for a cold exact search: --strategy optimal --cold")
    pool = len(get_variant(args.variant).answers)
    if args.answers != "all" and int(args.answers) > pool:
        raise UsageError(f"--answers takes 'all' or 1 to {pool:,}")
    with progress(f"{args.strategy} search: first guesses") as shown:
        figures = benchmarks.bench_play(args.variant, args.strategy, Mode(args.mode),
                                        args.answers, width=args.width, cold=args.cold,
                                        progress=shown, opener_scan=args.opener_scan,
                                        baseline=not args.no_baseline,
                                        root_width=args.root_width)  # fmt: skip
    if args.json:
        _print_json(figures)
        return 0
    print(
        f"{figures['strategy']} ({figures['mode']}) on {figures['variant']}, "
        f"opener {shout(figures['opener'])}: {figures['games']} games, total {figures['total']},"
        f" mean {figures['mean']:.4f}, max {figures['max']}, failures {figures['failures']},"
        f" {figures['seconds']:.2f} s"
    )
    if "opener_seconds" in figures:
        searched = sum(1 for o in figures["openers"] if o["searched"])
        print(f"  choosing the opener {figures['opener_seconds']:.2f} s ({figures['opener_scan']}"
              f" scan, {searched} of {len(figures['openers'])} first guesses searched); "
              f"with the opener known {figures['opener_known_seconds']:.2f} s")  # fmt: skip
        if "baseline" in figures:
            base = figures["baseline"]
            print(f"  baseline, same run: the full scan {base['search_seconds']:.2f} s, "
                  f"choosing the opener {base['opener_seconds']:.2f} s")  # fmt: skip
        if "reference" in figures:
            ref = figures["reference"]
            print(f"  reference, same run: the plain numpy beam of {ref['width']} given "
                  f"{shout(ref['opener'])}, total {ref['total']}, max {ref['max']}, "
                  f"{ref['seconds']:.2f} s ({ref['cpu_seconds']:.2f} s CPU); the whole cold "
                  f"search {ref['search_cpu_seconds']:.2f} s CPU, {ref['ratio']:.3f}x")  # fmt: skip
    elif "baseline" in figures:  # the hints' strategy against plain entropy
        base = figures["baseline"]
        print(f"  baseline, same run: {base['strategy']}, opener {shout(base['opener'])}, "
              f"total {base['total']}, mean {base['mean']:.4f}, failures {base['failures']}; "
              f"preferring possible answers and common words costs {base['cost']:+.4f} "
              f"guesses a game")  # fmt: skip
        print(f"  guesses before the win that are common words (on the answer list): "
              f"{figures['common']:.1%}, plain entropy {base['common']:.1%}")  # fmt: skip
    print(benchmarks.bar_chart(figures["distribution"]))
    return 0


def cmd_bench_openers(args: argparse.Namespace) -> int:
    from bot.cli import benchmarks
    from engine.rules import shout

    figures = benchmarks.bench_openers(args.variant, args.top)
    if args.json:
        _print_json(figures)
        return 0
    for measure, data in figures["measures"].items():
        print(f"{measure}: ranked every guess in {data['seconds']:.3f} s")
        for i, o in enumerate(data["openers"], 1):
            print(
                f"  {i:>2}. {shout(o['guess']):<6} entropy {o['entropy']:.4f}  expected "
                f"{o['expected']:8.3f}  worst {o['worst']:4d}  parts {o['parts']:3d}"
            )
    return 0


def labelled_runs(figures: dict[str, Any], baseline: str | None) -> list[tuple[str, Any]]:
    """A paired benchmark's runs, this code's first, each with the label it is printed by."""
    runs = [("this code", figures["this"])]
    if "baseline" in figures:
        runs.append((f"baseline {baseline}", figures["baseline"]))
    return runs


def cmd_bench_footprint(args: argparse.Namespace) -> int:
    from bot.cli.footprint_bench import paired
    from engine.variants import variant_names

    names = args.variants or list(variant_names())
    figures = paired(["footprint", *names], args.baseline)
    if args.json:
        _print_json(figures)
        return 0
    runs = labelled_runs(figures, args.baseline)
    print("each run: one process, an empty cache folder; per list a first hint after one "
          "guess (CPU s), a game hinted to its end and coached (CPU s), another game "
          "coached (again), the cache written (MiB) and VmRSS after the list")  # fmt: skip
    print(f"{'list':<16}" + "".join(
        f" | {label[:49]:<49}" for label, _ in runs))  # fmt: skip
    print(f"{'':<16}" + " | first hint s  coach s  again s  cache MiB  RSS MiB" * len(runs))
    for name in names:
        cells = []
        for _, run in runs:
            row = run["lists"][name]
            again = row.get("coach_again_cpu_s", float("nan"))
            cells.append(f" | {row['first_hint_cpu_s']:>12.2f} {row['coach_cpu_s']:>8.2f} "
                         f"{again:>8.2f} {row['cache_mib']:>10.1f} "
                         f"{row['rss_mib_after']:>8.1f}")  # fmt: skip
        print(f"{name:<16}" + "".join(cells))
    for label, run in runs:
        print(f"{label}: cache {run['cache_mib']:.1f} MiB in all, resident {run['rss_mib']} MiB "
              "at the end (mapped pages included)")  # fmt: skip
    return 0


def cmd_bench_coach(args: argparse.Namespace) -> int:
    from bot.cli.footprint_bench import paired

    both = paired(["coach", args.variant, str(args.games)], args.baseline)
    if args.json:
        _print_json(both)
        return 0
    runs = labelled_runs(both, args.baseline)
    for label, run in runs:
        first, *again = run["coach_cpu_s"]
        later = ", ".join(f"{s:.2f}" for s in again)
        print(f"{label}: {run['variant']}, CPU of a coaching: the first {first:.2f} s (an "
              f"empty cache, a fresh process)" + (f", then {later} s" if again else "")
              + f"; verdicts {run['verdicts']}")  # fmt: skip
    if "baseline" in both:
        ratio = both["this"]["coach_cpu_s"][0] / max(both["baseline"]["coach_cpu_s"][0], 1e-9)
        same = both["this"]["verdicts"] == both["baseline"]["verdicts"]
        print(f"first coaching this / baseline: {ratio:.2f}x; same verdicts: "
              f"{'yes' if same else 'NO'}")  # fmt: skip
    return 0


def cmd_bench_grid(args: argparse.Namespace) -> int:
    from bot.cli.footprint_bench import paired

    both = paired(["grid", args.variant, str(args.grids)], args.baseline)
    if args.json:
        _print_json(both)
        return 0
    for label, run in labelled_runs(both, args.baseline):
        times = ", ".join(f"{s:.2f}" for s in run["grid_cpu_s"])
        kept = ", ".join(f"{hard} of {normal}" for normal, hard in run["answers_normal_hard"])
        print(f"{label}: {run['variant']}, CPU of reading a hard-mode grid to its end: "
              f"{times} s (answers kept: {kept}); readings {run['readings']}")  # fmt: skip
    if "baseline" in both:
        ratio = sum(both["this"]["grid_cpu_s"]) / max(sum(both["baseline"]["grid_cpu_s"]), 1e-9)
        same = both["this"]["readings"] == both["baseline"]["readings"]
        print(f"grids this / baseline: {ratio:.2f}x; same readings: {'yes' if same else 'NO'}")
    return 0


def cmd_bench_hints(args: argparse.Namespace) -> int:
    from bot.cli import benchmarks
    from bot.cli.progress import progress

    if args.baseline is not None:
        from bot.cli.footprint_bench import paired

        both = paired(["hints", args.variant, str(args.positions)], args.baseline)
        if args.json:
            _print_json(both)
            return 0
        for label, run in (("this code", both["this"]), ("baseline", both["baseline"])):
            print(f"{label}: {run['variant']}, {run['positions']} positions, CPU per hint "
                  f"p50 {run['cpu_p50_ms']:.1f} ms, p99 {run['cpu_p99_ms']:.1f} ms, max "
                  f"{run['cpu_max_ms']:.1f} ms; first hint {run['first_cpu_s']:.2f} s from an "
                  f"empty cache; picks {run['picks']}")  # fmt: skip
        ratio = both["this"]["cpu_p99_ms"] / max(both["baseline"]["cpu_p99_ms"], 1e-9)
        same = both["this"]["picks"] == both["baseline"]["picks"]
        print(f"p99 this / baseline: {ratio:.2f}x; same picks: {'yes' if same else 'NO'}")
        return 0

    with progress("hints: positions") as shown:
        figures = benchmarks.bench_hints(args.variant, args.positions, args.seed, shown)
    if args.nyt_positions:  # the NYT answer model, in the same run (issue 17)
        from bot.cli.model_bench import bench_model_hints

        with progress("NYT model hints: positions") as shown:
            figures["nyt_model"] = bench_model_hints(
                args.nyt_positions, args.seed, shown, not args.no_baseline
            )
    if args.json:
        _print_json(figures)
        return 0
    print(
        f"hints for {figures['positions']} random positions after one or two guesses: "
        f"p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
        f"max {figures['max_ms']:.1f} ms (candidates: median {figures['median_candidates']}, "
        f"max {figures['max_candidates']})"
    )
    if "nyt_model" in figures:
        nyt = figures["nyt_model"]
        print(
            f"NYT answer model, {nyt['positions']} positions (NYT-era answers): "
            f"p50 {nyt['p50_ms']:.1f} ms, p99 {nyt['p99_ms']:.1f} ms, max {nyt['max_ms']:.1f} ms, "
            f"first {nyt['first_ms']:.0f} ms, peak {nyt['peak_mib']:.0f} MiB a hint "
            f"(candidates: median {nyt['median_candidates']}, "
            f"max {nyt['max_candidates']} of 14,855 weighted)"
        )
        opening = nyt["opening"]
        print(f"  before any guess (once per model): {opening['seconds']:.2f} s, "
              f"peak {opening['peak_mib']:.0f} MiB")  # fmt: skip
        if "baseline" in nyt:
            base = nyt["baseline"]
            print(f"  baseline, same run (every guess scored, same suggestions): "
                  f"p50 {base['p50_ms']:.1f} ms, p99 {base['p99_ms']:.1f} ms, "
                  f"max {base['max_ms']:.1f} ms, peak {base['peak_mib']:.0f} MiB a hint; "
                  f"before any guess {base['opening']['seconds']:.2f} s, "
                  f"peak {base['opening']['peak_mib']:.0f} MiB")  # fmt: skip
    return 0


def _bench_nyt(args: argparse.Namespace) -> int:
    from bot.cli.nyt_bench import cmd_bench_nyt  # the model loads only for this benchmark

    return cmd_bench_nyt(args)


def cmd_sim(args: argparse.Namespace) -> int:
    from bot.cli import benchmarks
    from bot.cli.progress import progress
    from engine.solver.multiboard import WRITE_UP, simulate

    with progress(f"{args.game}, {args.strategy}: games") as shown:
        figures = simulate(args.game, args.strategy, args.games, args.seed, progress=shown)
    if args.compare:
        figures["compare"] = {}
        for name in WRITE_UP:
            if name != args.strategy:
                with progress(f"{args.game}, {name}: games") as shown:
                    other = simulate(args.game, name, args.games, args.seed, progress=shown)
                figures["compare"][name] = {k: v for k, v in other.items()
                                            if k in ("win_rate", "mean", "seconds")}  # fmt: skip
    if args.json:
        _print_json(figures)
        return 0
    mean = "-" if figures["mean"] is None else f"{figures['mean']:.4f}"
    print(
        f"{args.game}, {args.strategy}: {figures['games']} games, win rate "
        f"{figures['win_rate']:.1%}, mean {mean} guesses (won games), {figures['seconds']} s"
    )
    print(benchmarks.bar_chart(figures["distribution"]))
    for name, other in figures.get("compare", {}).items():
        other_mean = "-" if other["mean"] is None else f"{other['mean']:.4f}"
        print(f"  {name:<14} win rate {other['win_rate']:.1%}, mean {other_mean}")
    return 0


def cmd_bench_service(args: argparse.Namespace) -> int:
    from bot.cli.progress import progress
    from bot.cli.service_bench import bench_service

    if args.repeat < 1:
        raise UsageError("--repeat takes 1 or more")
    with progress("bench service: steps (guess runs, then boards)") as shown:
        figures = bench_service(args.bench_database, args.players, args.games,
                                args.board_players, args.results, progress=shown,
                                repeat=args.repeat,
                                postgresql_only=args.postgresql_only)  # fmt: skip
    if args.json:
        _print_json(figures)
        return 0
    for run in figures["runs"]:
        each = run["each_run"]
        median = f"; median of {', '.join(map(str, each))}" if len(each) > 1 else ""
        print(
            f"{run['engine']:<10} {run['processes']} process{'es' if run['processes'] > 1 else ''}"
            f": {run['guesses_per_second']:>6} guesses/s ({run['vs_sqlite']}x SQLite), "
            f"{run['accepted_guesses']} accepted from {run['players']} concurrent players, "
            f"p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms, "
            f"bot CPU {run['bot_cpu_ms_per_guess']} ms per guess{median}; "
            f"{run['games_finished_per_second']} games finished/s (all giving up at once)"
        )
    for engine, board in figures["boards"].items():
        print(
            f"{engine} leaderboard over {board['board_players']:,} players and "
            f"{board['board_results']:,} results (loaded in {board['board_load_seconds']} s): "
            f"slowest page {board['page_ms_max']} ms (the first pass, right after the load: "
            f"{board['first_pass_page_ms_max']} ms); the digest of one server's day "
            f"{board['digest_ms']} ms (its reads of the day {board['digest_reads_ms']} ms)"
        )
        for name, ms in board["page_ms"].items():
            print(f"  {name:<22} {ms:6.2f} ms")
    return 0


def cmd_bench_storage_layer(args: argparse.Namespace) -> int:
    from bot.cli.service_bench import bench_storage_layer

    figures = bench_storage_layer()
    if args.json:
        _print_json(figures)
        return 0
    print(
        f"guess path (read + compare-and-set), {figures['players']} players x "
        f"{figures['guesses_each']} guesses on one SQLite file: wordlebot's storage "
        f"{figures['wordlebot']} guesses/s, SQLAlchemy Core async {figures['sqlalchemy']} "
        f"guesses/s: SQLAlchemy would cost {figures['sqlalchemy_cost']:.0%}"
    )
    return 0


def cmd_bench_soak(args: argparse.Namespace) -> int:
    from bot.cli import benchmarks

    kinds = [args.kind] if args.kind else list(benchmarks.SOAK_KINDS)
    quiet = args.json
    figures = benchmarks.bench_soak(args.games, kinds, args.every,
                                    report=(lambda _: None) if quiet else print)  # fmt: skip
    if args.json:
        _print_json(figures)
        return 0
    for kind, data in figures["kinds"].items():
        print(
            f"{kind}: {figures['games_per_kind']} games in {data['seconds']} s, RSS after "
            f"warm-up grew {data['growth_after_warmup_mib']} MiB (samples {data['rss_mib']})"
        )
    print(f"held in memory at the end: {figures['held_at_end']}")
    return 0


def cmd_bench_discord(args: argparse.Namespace) -> int:
    """The ramp: the real bot process against the Discord stand-in of the test suite, which
    lives in a checkout's ``tests/`` (it is not installed with the package)."""
    if min(args.start, args.step, args.seconds, args.players) <= 0 or args.limit < args.start:
        raise UsageError("bench discord needs --start, --step, --seconds and --players above 0 "
                         "and --limit at least --start")  # fmt: skip
    tests = Path(__file__).resolve().parents[2] / "tests"
    if not (tests / "load_ramp.py").exists():
        raise UsageError("bench discord needs a checkout: the Discord stand-in is in tests/")
    sys.path.insert(0, str(tests))
    import load_ramp  # type: ignore[import-not-found]

    from bot import event_loop

    if args.first_start:
        print(f"one bot process with an empty cache, {args.players} players, {args.start} a "
              "second while its first start's background work runs, and after")  # fmt: skip
        during, after = event_loop.run(load_ramp.first_start(
            args.start, args.seconds, args.players, args.ramp_database))  # fmt: skip
        p99 = during.percentile(0.99), after.percentile(0.99)
        print(f"during: {during.line()}\nafter:  {after.line()}")
        print(f"p99 during the first start's work {p99[0] * 1000:.0f} ms, after "
              f"{p99[1] * 1000:.0f} ms: {p99[0] / p99[1]:.2f}x (target <= 1.5x)")  # fmt: skip
        return 0
    rates = list(range(args.start, args.limit + 1, args.step))
    print(f"one bot process, {args.players} players, {args.seconds:g} s a step; target: "
          f"p99 <= {load_ramp.TARGET_P99 * 1000:.0f} ms, none past 3 s, none lost")  # fmt: skip
    # On the bot's loop: the stand-in shares the machine with the bot, the cheaper the better
    steps = event_loop.run(load_ramp.ramp(rates, args.seconds, args.players, args.ramp_database))
    print(load_ramp.summary(steps))
    return 0


# View Channels, Send Messages, Embed Links, Attach Files, Read Message History (/import)
# (README.md, "Inviting the bot"): 117760
INVITE_PERMISSIONS = 1024 | 2048 | 16384 | 32768 | 65536


def cmd_invite(args: argparse.Namespace) -> int:
    """The install links. A bot token's first part is its user id, the application's id."""
    app_id = args.app_id
    if app_id is None:
        from bot.settings import bot_id_of, load_settings

        token = load_settings().discord_token
        if token is None:
            raise UsageError("give --app-id (Developer Portal > General Information) or set "
                             "DISCORD_TOKEN")  # fmt: skip
        app_id = bot_id_of(token.get_secret_value())
        if app_id is None:
            raise UsageError("DISCORD_TOKEN does not look like a bot token: give --app-id")
    base = f"https://discord.com/oauth2/authorize?client_id={app_id}"
    server = f"integration_type=0&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    print(f"Add to a server:  {base}&{server}")
    print(f"Add to your apps: {base}&integration_type=1&scope=applications.commands")
    print("In the Developer Portal (Installation), turn on Guild Install and User Install.")
    print("Then run `wordlebot sync` once so the slash commands appear.")
    return 0


def date_argument(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text[:20]!r}") from None


def cmd_digest(args: argparse.Namespace) -> int:
    import asyncio

    from bot.render.text import digest_text
    from bot.services import open_services
    from bot.settings import load_settings

    async def run() -> str:
        services = await open_services(load_settings())
        try:
            digests = services.digests
            zone = (await services.storage.guild_settings(args.guild)).timezone
            day = args.day or digests.due_day(zone)
            problem = digests.day_problem(day, zone)
            if problem is not None:
                raise UsageError(problem)
            return digest_text(await digests.digest(args.guild, day))
        finally:
            await services.close()

    print(asyncio.run(run()))
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    import asyncio
    import sqlite3

    from bot.settings import load_settings
    from bot.storage import Storage

    if args.db_command == "copy":
        return cmd_db_copy(args)

    async def run() -> str:
        settings = load_settings()
        storage = await Storage.open(settings.database, migrate=False)
        try:
            if args.db_command == "migrate":
                before = await storage.schema_version()
                applied = await storage.migrate()
                return (
                    f"schema version {before} -> {applied[-1]}"
                    if applied
                    else (f"schema version {before}: up to date")
                )
            if storage.engine != "sqlite":
                await storage.backup(args.path)  # says to use pg_dump
            target = Path(args.path)  # checked before anything is written
            if not args.path.strip():
                raise UsageError("give the backup's file: wordlebot db backup PATH")
            if not target.parent.is_dir():
                raise UsageError(f"cannot back up to {args.path}: no folder {target.parent}")
            if target.exists():
                raise UsageError(f"{args.path} exists: choose a new file for the backup")
            await storage.migrate()
            try:
                await storage.backup(args.path)
            except sqlite3.Error as exc:
                raise UsageError(f"cannot back up to {args.path}: {exc}") from None
            return f"backed up {settings.database.shown} to {args.path}"
        finally:
            await storage.close()

    print(asyncio.run(run()))
    return 0


def cmd_db_copy(args: argparse.Namespace) -> int:
    import asyncio

    from bot.cli.progress import progress
    from bot.storage import Storage, parse_database_url
    from bot.storage.copy import copy_database, counts
    from bot.storage.database import MEMORY

    try:
        source_url, target_url = parse_database_url(args.source), parse_database_url(args.target)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if _same_database(source_url, target_url):
        raise UsageError("--from and --to name the same database")
    if source_url.engine == "sqlite" and (
        source_url.target == MEMORY or not Path(source_url.target).is_file()
    ):  # opening it would create it: a mistyped path must copy nothing and create nothing
        raise UsageError(f"--from: no database file {source_url.target}: nothing to copy")

    async def run() -> None:
        source = await Storage.open(source_url, migrate=False)
        try:
            if await source.schema_version() == 0:  # a PostgreSQL database never used
                raise UsageError(f"--from: {source_url.shown} holds no data: nothing to copy")
            await source.migrate()  # an older schema is copied as the bot would read it
            before = await counts(source)
            if not any(before.values()):  # checked before the target is opened (or created)
                raise UsageError(f"--from: {source_url.shown} holds no data: nothing to copy")
            target = await Storage.open(target_url)
            try:
                with progress(f"copying {sum(before.values()):,} rows") as shown:
                    copied = await copy_database(
                        source, target, progress=shown, replace=args.replace
                    )
                done = "replaced the data of" if args.replace else "copied"
                print(f"{done} {source_url.shown} -> {target_url.shown}; rows checked:")
                for table, n in copied.items():
                    print(f"  {table:15} source {before[table]:>10,}  target {n:>10,}")
            finally:
                await target.close()
        finally:
            await source.close()

    asyncio.run(run())
    return 0


def _same_database(a: DatabaseUrl, b: DatabaseUrl) -> bool:
    """One SQLite file however its path is written (relative, absolute, through a link)."""
    from bot.storage.database import MEMORY

    if a.engine == b.engine == "sqlite" and MEMORY not in (a.target, b.target):
        return Path(a.target).resolve() == Path(b.target).resolve()
    return a == b


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False))


def known_variant(name: str) -> str:
    """A --variant value: a listed name, else one line saying where the list is."""
    from engine.variants import variant_names

    if name not in variant_names():
        raise argparse.ArgumentTypeError(f"unknown variant {name[:20]!r}: wordlebot variants "
                                         "lists them")  # fmt: skip
    return name


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, the options that need the engine's names (modes,
    strategies, games) are added for that subcommand alone ("": for none), which is what it
    parses: the others keep their name and help."""
    parser = Parser(prog="wordlebot", description="Play, check and benchmark Wordle-family games.")
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def wanted(p: argparse.ArgumentParser) -> bool:
        return only is None or p.prog.split()[1] == only

    def variant_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", default="wordle", type=known_variant, metavar="NAME",
                       help="a game's word list (wordlebot variants lists them)")  # fmt: skip

    def database_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--database", metavar="URL", help="sqlite:///path or postgresql://... "
                       "(else DATABASE_URL, else DATABASE_PATH)")  # fmt: skip

    p = commands.add_parser("invite", help="the links that install the bot (server or user)")
    p.add_argument(
        "--app-id", type=whole(1, BIGINT), help="the application id (else read from the token)"
    )
    p.set_defaults(run=cmd_invite)
    p = commands.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    database_option(p)
    p.set_defaults(run=cmd_run)
    p = commands.add_parser("web", help="serve servers' pages alone (needs WEB_PORT)")
    database_option(p)
    p.set_defaults(run=cmd_web)
    p = commands.add_parser("sync", help="publish the slash commands globally, once")
    p.set_defaults(run=cmd_sync)
    p = commands.add_parser(
        "console", help="the bot's commands at a terminal, on the same database (no Discord)"
    )
    database_option(p)
    p.add_argument(
        "--locale",
        help="the language the console speaks: es, pt-BR, fr, de, it, pl or en (the nearest "
        "shipped one; default English); a player's /settings me language wins",
    )
    p.set_defaults(run=cmd_console)
    p = commands.add_parser("digest", help="a server's daily digest, as the bot posts it")
    p.add_argument(
        "--guild", type=whole(0, BIGINT), required=True, help="the server's id (0: direct messages)"
    )
    p.add_argument("--day", type=date_argument, help="YYYY-MM-DD (default: the latest one due)")
    database_option(p)
    p.set_defaults(run=cmd_digest)

    p = commands.add_parser("variants", help="every variant: language, length, list sizes")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_variants)

    p = commands.add_parser("score", help="the feedback GUESS gets against ANSWER")
    p.add_argument("guess")
    p.add_argument("answer")
    variant_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_score)

    p = commands.add_parser("define", help="a short definition of a word, with its source")
    p.add_argument("word")
    p.add_argument(
        "--language",
        default="en",
        help="the dictionary's language: en, it, de (wordlists/README.md)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_define)

    def mode_option(p: argparse.ArgumentParser, default: str = "normal") -> None:
        if wanted(p):
            from engine.rules import Mode

            p.add_argument("--mode", default=default, choices=[m.value for m in Mode])

    p = commands.add_parser("check", help="whether a guess is allowed after a history")
    p.add_argument("guess")
    p.add_argument("--history", default="", help='e.g. "crane:01002 slate:00202"')
    mode_option(p, default="hard")
    variant_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_check)

    def strategy_option(p: argparse.ArgumentParser, default: str = "entropy") -> None:
        if wanted(p):
            from engine.solver.strategies import STRATEGIES

            p.add_argument("--strategy", default=default, choices=STRATEGIES)
        p.add_argument(
            "--width", type=whole(1, WIDTH), help="optimal only: guesses tried per node (K)"
        )

    p = commands.add_parser("hint", help="what is left after a history, and the best guesses")
    p.add_argument("history", nargs="*", help="e.g. crane 01002 slate 00202, or crane:BYBBG")
    variant_option(p)
    mode_option(p)
    p.add_argument("--puzzle", type=whole(0, 100_000), metavar="N",
                   help="wordle-nyt: the NYT's puzzle number (default today's): the model "
                   "knows every answer before it")  # fmt: skip
    p.add_argument("--top", type=whole(1, 1000), default=5)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_hint"))

    p = commands.add_parser("solve", help="help with a game played elsewhere, guess by guess")
    variant_option(p)
    p.add_argument("--puzzle", type=whole(0, 100_000), metavar="N",
                   help="wordle-nyt: the NYT's puzzle number (default today's): the model "
                   "knows every answer before it")  # fmt: skip
    mode_option(p)
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_solve"))

    p = commands.add_parser("show", help="one game of a strategy, turn by turn")
    p.add_argument("answer")
    variant_option(p)
    strategy_option(p)
    mode_option(p)
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_show"))

    p = commands.add_parser("tree", help="a strategy's decision tree")
    variant_option(p)
    strategy_option(p)
    mode_option(p)
    p.add_argument("--out", help="write to this file instead of standard output")
    p.add_argument("--from", dest="from_history", help="print the subtree after this history")
    p.add_argument("--depth", type=whole(0, 100), default=2, help="levels of the subtree to print")
    p.add_argument(
        "--out-cache", action="store_true", help="optimal: build the bot's tree into the cache"
    )
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_tree"))

    absurdle = commands.add_parser("absurdle", help="the adversarial Wordle: play or solve")
    absurdle_commands = absurdle.add_subparsers(dest="absurdle_command", required=True,
                                                metavar="ACTION")  # fmt: skip
    p = absurdle_commands.add_parser("play", help="play at the terminal")
    p.add_argument(
        "--challenge",
        nargs="?",
        const="",
        default=None,
        metavar="WORD",
        help="force the adversary to WORD (a random answer if none is given)",
    )
    mode_option(p)
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_absurdle_play"))
    p = absurdle_commands.add_parser("solve", help="a shortest win, or a line forcing a target")
    p.add_argument("--target", help="challenge mode: the word to force")
    p.add_argument("--max-guesses", type=whole(1, 100), default=6)
    p.add_argument("--width", type=whole(1, WIDTH), default=40, help="guesses tried per step")
    mode_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_absurdle_solve"))

    p = commands.add_parser("sim", help="simulate multi-board games with a strategy")
    if wanted(p):
        from engine.multiboard import BOARDS
        from engine.solver.multiboard import BEST
        from engine.solver.multiboard import STRATEGIES as MULTI_STRATEGIES

        p.add_argument("--game", default="quordle", choices=tuple(BOARDS))
        p.add_argument("--strategy", default=BEST, choices=tuple(MULTI_STRATEGIES))
    p.add_argument("--games", type=whole(1, RUNS), default=1000)
    p.add_argument("--seed", type=whole(0, SEED), default=2026)
    p.add_argument(
        "--compare",
        action="store_true",
        help="also run the Quordle write-up's four strategies on the same games",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_sim)

    p = commands.add_parser("parse", help="read pasted shares from standard input")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_parse)

    p = commands.add_parser("coach", help="skill and luck, turn by turn, for a finished game")
    p.add_argument("history", nargs="+", help="the words played, e.g. crane moist cigar")
    p.add_argument("--answer", required=True)
    variant_option(p)
    mode_option(p)
    p.add_argument("--puzzle", type=whole(0, 100_000), metavar="N",
                   help="wordle-nyt: the NYT's puzzle number (default today's): the model "
                   "knows every answer before it")  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=later("bot.cli.solver_commands", "cmd_coach"))
    add_study_parser(commands, variant_option, wanted)

    db = commands.add_parser("db", help="the database: migrate, back up")
    db_commands = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    p = db_commands.add_parser("migrate", help="apply pending schema migrations")
    database_option(p)
    p.set_defaults(run=cmd_db)
    p = db_commands.add_parser("backup", help="a consistent copy of the live database")
    p.add_argument("path")
    database_option(p)
    p.set_defaults(run=cmd_db)
    p = db_commands.add_parser("copy", help="move a whole database, e.g. SQLite to PostgreSQL")
    p.add_argument("--from", dest="source", required=True, metavar="URL")
    p.add_argument("--to", dest="target", required=True, metavar="URL",
                   help="an empty database (a SQLite file is created)")  # fmt: skip
    p.add_argument("--replace", action="store_true", help="the target holds data: delete it "
                   "all, in the copy's transaction (kept if the copy fails)")  # fmt: skip
    p.set_defaults(run=cmd_db)

    nyt = commands.add_parser("nyt", help="the NYT answers learned: show, pin, unpin")
    nyt_commands = nyt.add_subparsers(dest="nyt_command", required=True, metavar="ACTION")
    p = nyt_commands.add_parser("show", help="each number's answer, why, and its votes")
    p.add_argument("number", nargs="?", type=whole(0, 1_000_000), metavar="N")
    database_option(p)
    p.set_defaults(run=later("bot.cli.nyt_commands", "cmd_nyt"))
    p = nyt_commands.add_parser("pin", help="set N's answer by hand: it beats every vote")
    p.add_argument("number", type=whole(0, 1_000_000), metavar="N")
    p.add_argument("word", metavar="WORD")
    database_option(p)
    p.set_defaults(run=later("bot.cli.nyt_commands", "cmd_nyt"))
    p = nyt_commands.add_parser("unpin", help="remove N's pin (or legacy answer): votes decide")
    p.add_argument("number", type=whole(0, 1_000_000), metavar="N")
    database_option(p)
    p.set_defaults(run=later("bot.cli.nyt_commands", "cmd_nyt"))

    bench = commands.add_parser("bench", help="benchmarks that print their figures")
    benches = bench.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    p = benches.add_parser("matrix", help="cold build and warm load of the pattern matrix")
    variant_option(p)
    p.add_argument("--repeat", type=whole(1, 1000), default=3)
    p.add_argument("--no-baseline", action="store_true", help="skip the plain numpy baseline")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_matrix)

    p = benches.add_parser("play", help="play every answer (or a sample) with a strategy")
    variant_option(p)
    strategy_option(p)
    mode_option(p)
    p.add_argument(
        "--answers", type=sample, default="all", help="all, or a number for a seeded sample"
    )
    p.add_argument("--cold", action="store_true", help="optimal: search again, ignore the cache")
    p.add_argument(
        "--root-width", type=whole(1, WIDTH), help="optimal, cold: first guesses tried (R)"
    )
    p.add_argument(
        "--opener-scan",
        choices=("pruned", "full"),
        default="pruned",
        help="optimal, cold: skip first guesses whose floor cannot win, or try all",
    )
    p.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the same run's full scan and reference beam",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_play)

    p = benches.add_parser("openers", help="the best first guesses by each greedy measure")
    variant_option(p)
    p.add_argument("--top", type=whole(1, WIDTH), default=10)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_openers)

    p = benches.add_parser("hints", help="hint latency over random positions")
    variant_option(p)
    p.add_argument("--positions", type=whole(1, RUNS), default=1000)
    p.add_argument("--nyt-positions", type=whole(0, RUNS), default=100,
                   help="also time the NYT answer model's hints (0: skip)")  # fmt: skip
    p.add_argument("--no-baseline", action="store_true",
                   help="skip the NYT hints' reference (every guess scored)")  # fmt: skip
    p.add_argument("--seed", type=whole(0, SEED), default=0)
    p.add_argument("--baseline", type=Path, metavar="DIR",
                   help="also each hint's CPU time here and on the checkout DIR (the code "
                        "before, say), each in a process of its own, in the same run")  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_hints)

    def paired_bench(
        name: str, about: str, count: str, run: Callable[[argparse.Namespace], int]
    ) -> None:
        """A bench of ``count`` items on one list, with this code and a baseline in turn."""
        p = benches.add_parser(name, help=about)
        variant_option(p)
        p.add_argument(f"--{count}", type=whole(1, 100), default=3)
        p.add_argument("--baseline", type=Path, metavar="DIR",
                       help="the same on the checkout DIR (the code before, say), in the same "
                            "run")  # fmt: skip
        p.add_argument("--json", action="store_true")
        p.set_defaults(run=run)

    paired_bench("coach", "CPU of coaching games, the first from an empty cache", "games",
                 cmd_bench_coach)  # fmt: skip
    paired_bench("grid", "CPU of reading hard-mode grids without their words", "grids",
                 cmd_bench_grid)  # fmt: skip

    p = benches.add_parser("footprint", help="cache, memory and first-hint CPU of every list")
    p.add_argument("--variant", dest="variants", action="append", type=known_variant,
                   metavar="NAME", help="this list only (repeat; default: all)")  # fmt: skip
    p.add_argument("--baseline", type=Path, metavar="DIR",
                   help="the same on the checkout DIR, in the same run")  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_footprint)

    p = benches.add_parser("nyt", help="the NYT answer model on real dated answers (time split)")
    p.add_argument("--answers", required=True, metavar="FILE",
                   help="date, number, answer a line: wordle-nyt-history.tsv")  # fmt: skip
    p.add_argument("--from", dest="start", type=date_argument, metavar="DATE",
                   help="play the days from DATE (default: every day of the file)")  # fmt: skip
    p.add_argument("--opener", default="crane", help="every game's first guess")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=_bench_nyt)

    p = benches.add_parser("startup", help="start-up of the light subcommands beside python")
    p.add_argument("--runs", type=whole(1, 1000), default=20, help="processes of each command")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=later("bot.cli.startup_bench", "cmd_bench_startup"))

    p = benches.add_parser("service", help="guesses per second and leaderboard page time")
    p.add_argument("--database", dest="bench_database", metavar="URL", help="also PostgreSQL: "
                   "an empty database it "
                   "may fill, or 'embedded' for a throwaway server")  # fmt: skip
    p.add_argument("--players", type=whole(1, 100_000), default=200)
    p.add_argument("--games", type=whole(1, 100_000), default=5, help="practice games per player")
    p.add_argument(
        "--repeat",
        type=whole(1, 100),
        default=1,
        help="run the engines in turn this many times; print each one's median (the lower "
        "middle run for an even count)",
    )
    p.add_argument("--board-players", type=whole(1, RUNS), default=10_000)
    p.add_argument("--results", type=whole(1, 100 * RUNS), default=200_000)
    p.add_argument("--postgresql-only", action="store_true",
                   help="leave SQLite out (with --database)")  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_service)
    p = benches.add_parser("web", help="a server's pages: render time and weight")
    p.add_argument("--players", type=whole(1, 100_000), default=200)
    p.add_argument("--days", type=whole(1, 10_000), default=365, help="days of dailies")
    p.add_argument("--passes", type=whole(1, 1000), default=5, help="reads of every page")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--database", dest="web_database", metavar="URL",
                   help="also PostgreSQL: an empty database, or 'embedded'")  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=later("bot.cli.web_bench", "cmd_bench_web"))
    p = benches.add_parser("liveboard", help="a server's live daily board built from the database")
    p.add_argument("--players", type=whole(1, 100_000), default=100)
    p.add_argument("--builds", type=whole(1, 100_000), default=200)
    p.add_argument("--database", dest="board_database", metavar="URL",
                   help="also PostgreSQL: an empty database, or 'embedded'")  # fmt: skip
    p.set_defaults(run=later("bot.cli.live_board_bench", "cmd_bench_live_board"))
    p = benches.add_parser("growth", help="a server's year in the database, table by table")
    p.add_argument("--players", type=whole(1, 1_000_000), default=1000)
    p.add_argument("--days", type=whole(1, 10_000), default=365)
    p.add_argument(
        "--real-days",
        type=whole(0, 10_000),
        default=2,
        help="the last days played through the services (the rest bulk-loaded)",
    )
    p.add_argument(
        "--sharers",
        type=number(0, 1),
        default=0.05,
        help="of the players, those who also post their NYT share each day",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--database", dest="growth_database", metavar="URL",
                   help="also PostgreSQL: an empty database, or 'embedded'")  # fmt: skip
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=later("bot.cli.growth_bench", "cmd_bench_growth"))
    p = benches.add_parser("storage-layer", help="our SQL layer against SQLAlchemy Core")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_storage_layer)
    p = benches.add_parser("soak", help="resident memory over many games of every kind")
    p.add_argument(
        "--games", type=whole(1, RUNS), default=4000, help="games per kind, each a new player"
    )
    if wanted(p):
        from bot.cli.benchmarks import SOAK_KINDS

        p.add_argument("--kind", choices=SOAK_KINDS)
    p.add_argument("--every", type=whole(1, RUNS), default=1000, help="print memory every N games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench_soak)
    p = benches.add_parser(
        "discord", help="the ramp: interactions per second until replies miss the target"
    )
    p.add_argument(
        "--start", type=whole(1, RUNS), default=100, help="interactions per second at first"
    )
    p.add_argument("--step", type=whole(1, RUNS), default=50)
    p.add_argument("--limit", type=whole(1, RUNS), default=800)
    p.add_argument("--seconds", type=number(0.01, 86_400), default=8.0, help="length of each step")
    p.add_argument("--players", type=whole(1, RUNS), default=1000)
    p.add_argument("--database", dest="ramp_database", metavar="URL",
                   help="default: a new SQLite file")  # fmt: skip
    p.add_argument("--first-start", action="store_true",
                   help="p99 at --start interactions a second while a first start's background "
                   "work runs (an empty cache), and after it")  # fmt: skip
    p.set_defaults(run=cmd_bench_discord)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wordlebot")
    except PackageNotFoundError:  # run from a checkout without installing
        return "unknown"


class VersionAction(argparse.Action):
    """--version: the installed version, read (from the package metadata) only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")  # fmt: skip

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(f"wordlebot {_version()}")  # on stdout, as argparse's own version action
        parser.exit()


def _command_word(argv: Sequence[str]) -> str:
    """The subcommand named on the command line ("" for none): the first word that is not an
    option (the top level's options, --help and --version, take no value)."""
    return next((word for word in argv if not word.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(only=_command_word(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code == 2:  # a mistake in the arguments, already said in one line
            return 2
        raise  # --help, --version
    if args.command is None:  # `wordlebot` alone: what it can do
        parser.print_help()
        return 0
    if getattr(args, "database", None) is not None:  # read and checked with the settings
        os.environ["DATABASE_URL"] = args.database
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if is_user_error(exc):
            print(f"wordlebot: error: {exc}", file=sys.stderr)
            return 2
        if isinstance(exc, BrokenPipeError):
            # The reader left early (`wordlebot tree | head`): not an error.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        if isinstance(exc, OSError):  # a file argument that cannot be read or written
            where = f": {str(exc.filename)[:100]}" if exc.filename else ""
            print(f"wordlebot: error: {exc.strerror or exc}{where}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
