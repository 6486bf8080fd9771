"""``wordlebot study hard-mode``: is hard mode harder? Each agent plays every answer in
normal, hard and strict mode; one table, the paired differences, a picture."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.cli.arguments import SEED, number, whole
from bot.errors import UsageError

if TYPE_CHECKING:
    from engine.agents.study import StudySettings


def cmd_study_hard_mode(args: argparse.Namespace) -> int:
    import numpy as np

    from bot.cli.progress import progress
    from engine.agents.qlearning import QSettings
    from engine.agents.rollout import RolloutSettings
    from engine.agents.study import AGENTS, StudySettings, run_study
    from engine.solver.measures import Measure
    from engine.variants import get_variant

    variant = get_variant(args.variant)
    if args.top < 1 or args.episodes < 0:
        raise UsageError("--top takes 1 or more guesses, --episodes 0 or more")
    settings = StudySettings(
        QSettings(episodes=args.episodes, seed=args.seed),
        RolloutSettings(Measure(args.base), args.top, args.loss_penalty),
        args.seed,
    )
    answers = None
    if args.answers != "all":
        if not args.answers.isdigit() or not 1 <= int(args.answers) <= len(variant.answers):
            raise UsageError(f"--answers takes 'all' or 1 to {len(variant.answers)}")
        rng = np.random.default_rng(args.seed)
        chosen = rng.choice(len(variant.answers), size=int(args.answers), replace=False)
        answers = sorted(chosen.tolist())
    agents = args.agents or list(AGENTS)
    began, cpu = time.perf_counter(), time.process_time()
    with progress(f"study {variant.name}: agent x mode") as shown:
        result = run_study(variant, agents, settings, answers, progress=shown)
    result["title"] = variant.title
    result["seconds"] = round(time.perf_counter() - began, 2)
    result["cpu_seconds"] = round(time.process_time() - cpu, 2)  # apart from the machine's load
    if not args.games:
        for entry in result["agents"].values():
            for cell in entry["modes"].values():
                cell.pop("games", None)
    if args.plot:
        from bot.render.study import study_chart  # Pillow: only when drawing

        Path(args.plot).write_bytes(study_chart(result))
    if args.json:
        print(json.dumps(result, separators=(",", ":") if args.games else None,
                         indent=None if args.games else 1))  # fmt: skip
        return 0
    print(report(result, settings))
    return 0


def report(result: dict[str, Any], settings: StudySettings) -> str:
    from bot.render.study import table_lines

    q, r = settings.q, settings.rollout
    lines = [
        f"Is hard mode harder? {result['title']}: {result['answers']:,} answers "
        f"(lists of {result['answer_list']:,} answers and {result['guess_list']:,} guesses); "
        f"a lost game counts {result['limit'] + 1}.",
        f"Q-learning: {q.episodes:,} training episodes, seed {q.seed}; rollout: base "
        f"{r.base}, top {r.top}, loss penalty {r.loss_penalty}.",
        "",
        *table_lines(result),
        "",
        f"Training (or reading it from the cache) {result['training_seconds']:.1f} s; "
        f"evaluation {result['evaluation_seconds']:.1f} s; whole study {result['seconds']:.1f} s "
        f"({result['cpu_seconds']:.1f} s of CPU).",
    ]
    return "\n".join(lines)


def add_study_parser(commands: Any, variant_option: Callable[[argparse.ArgumentParser], None],
                     wanted: Callable[[argparse.ArgumentParser], bool] = lambda p: True,
                     ) -> None:  # fmt: skip
    """``study`` and its studies; their options (named by the agents) only if ``wanted``."""
    study = commands.add_parser("study", help="studies that answer a question with numbers")
    studies = study.add_subparsers(dest="study", metavar="STUDY", required=True)
    p = studies.add_parser("hard-mode", help="is hard mode harder? every agent, every answer")
    p.set_defaults(run=cmd_study_hard_mode)
    if not wanted(p):
        return
    from engine.agents.study import AGENTS
    from engine.solver.measures import Measure

    variant_option(p)
    p.add_argument("--agents", nargs="+", choices=list(AGENTS), metavar="AGENT",
                   help=f"some of: {', '.join(AGENTS)} (default: all)")  # fmt: skip
    p.add_argument("--answers", default="all", help="'all', or a seeded sample of N answers")
    p.add_argument(
        "--episodes",
        type=whole(0, 100_000_000),
        default=10_000,
        help="Q-learning training episodes",
    )
    p.add_argument(
        "--seed", type=whole(0, SEED), default=0, help="training, sampling, random agent"
    )
    p.add_argument("--base", default="parts", choices=[m.value for m in Measure],
                   help="the rollout's base heuristic")  # fmt: skip
    p.add_argument(
        "--top", type=whole(1, 100_000), default=20, help="guesses the rollout looks ahead at"
    )
    p.add_argument("--loss-penalty", type=number(-1e9, 1e9), default=10.0,
                   help="what a lost game costs the rollout, in guesses")  # fmt: skip
    p.add_argument("--json", action="store_true", help="the result as JSON")
    p.add_argument("--games", action="store_true", help="keep each answer's guesses in --json")
    p.add_argument("--plot", metavar="FILE.png", help="draw the distributions side by side")
