"""``wordlebot bench nyt``: the NYT answer model replayed on real, dated answers.

A time split: for each day from ``--from``, the model knows only the answers before that day
(:func:`engine.answer_model.model_with_history` on the file's earlier rows, its reuse rate
fitted on them alone), and the same game is played by the model without history, in the
same run. Each game opens with a fixed word, then plays the bot's top hint until solved.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine.answer_model import AnswerModel, model_with_history, nyt_model
from engine.nyt_history import PastAnswer
from engine.pattern import score, winning
from engine.rules import Row
from engine.solver.weighted import model_hint

ROWS = (1, 2, 3)  # the rows after which top-1 and top-5 are counted
MAX_GUESSES = 12  # a game not solved by then counts as this many (never reached so far)


@dataclass
class Tally:
    """One model's figures over the days played."""

    games: int = 0
    top1: dict[int, int] = field(default_factory=lambda: dict.fromkeys(ROWS, 0))
    top5: dict[int, int] = field(default_factory=lambda: dict.fromkeys(ROWS, 0))
    bits: float = 0.0  # -log2 of the answer's prior probability, summed
    impossible: int = 0  # answers the model gave probability 0 (before or after a row)
    guesses: int = 0
    failed: list[str] = field(default_factory=list)  # days not solved in six

    def to_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        return {
            "games": self.games,
            **{f"top1_after_{r}": round(self.top1[r] / n, 4) for r in ROWS},
            **{f"top5_after_{r}": round(self.top5[r] / n, 4) for r in ROWS},
            "log_loss_bits": round(self.bits / n, 4),
            "impossible": self.impossible,
            "mean_guesses": round(self.guesses / n, 4),
            "not_in_six": len(self.failed),
        }


def play(model: AnswerModel, answer: str, opener: str, tally: Tally, label: str) -> None:
    """One game against ``answer``: the opener, then the model's top hint each turn."""
    index = model.variant.guesses.index.get(answer)
    tally.games += 1
    if index is None or model.prior[index] <= 0:
        tally.impossible += 1
        return
    tally.bits += -math.log2(float(model.prior[index]))
    history: list[Row] = []
    guess, win = opener, winning(model.variant.length)
    while True:
        pattern = score(guess, answer)
        history.append((guess, pattern))
        rows = len(history)
        if pattern == win or rows >= MAX_GUESSES:
            break
        result = model_hint(model, history, top=1)
        if answer not in result.candidates:
            tally.impossible += 1
            break
        rank = result.candidates.index(answer)
        if rows in ROWS:
            tally.top1[rows] += rank == 0
            tally.top5[rows] += rank < 5
        guess = result.suggestions[0].guess
    if pattern == win:  # solved at this row: after it and later rows the answer is known
        for later in ROWS:
            if later >= rows:
                tally.top1[later] += 1
                tally.top5[later] += 1
    tally.guesses += rows
    if pattern != win or rows > 6:
        tally.failed.append(label)


def bench_nyt(
    answers: Sequence[PastAnswer], start: date | None, opener: str = "crane",
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Play every day of ``answers`` from ``start`` (all days when None) with and without
    the history of the days before it (see the module doc)."""
    days = [a for a in answers if start is None or a.day >= start]
    plain, knowing = Tally(), Tally()
    base = nyt_model()
    rate_sum = 0.0
    for i, today in enumerate(days):
        history = tuple(a for a in answers if a.number < today.number)
        model = model_with_history(history)
        rate_sum += _used_share(model, history)
        label = f"{today.day} {today.answer}"
        play(base, today.answer, opener, plain, label)
        play(model, today.answer, opener, knowing, label)
        if progress is not None:
            progress(i + 1, len(days))
    reused = sum(
        1 for t in days if any(a.answer == t.answer for a in answers if a.number < t.number)
    )
    return {
        "days": len(days),
        "first": days[0].day.isoformat() if days else None,
        "last": days[-1].day.isoformat() if days else None,
        "opener": opener,
        "reused_answers": reused,
        "mean_used_share": round(rate_sum / max(len(days), 1), 4),
        "without_history": plain.to_json(),
        "with_history": knowing.to_json(),
        "not_in_six": {"without_history": plain.failed, "with_history": knowing.failed},
    }


def _used_share(model: AnswerModel, history: Sequence[PastAnswer]) -> float:
    """The weight the model gives the words used before: the fitted reuse rate (or less)."""
    index = model.variant.guesses.index
    rows = {index[a.answer] for a in history if a.answer in index}
    return float(model.prior[list(rows)].sum()) if rows else 0.0


def cmd_bench_nyt(args: Any) -> int:
    """Print (or ``--json``) the figures of :func:`bench_nyt` for ``--answers FILE``."""
    import json

    from bot.cli.progress import progress
    from bot.errors import UsageError
    from engine.nyt_history import read_answers

    try:
        answers = read_answers(args.answers)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--answers: {exc}") from None
    start = args.start
    opener = args.opener.lower()
    if opener not in nyt_model().variant.guesses.index:
        raise UsageError(f"--opener {args.opener[:20]!r} is not a word the NYT accepts")
    with progress("bench nyt: days") as shown:
        figures = bench_nyt(answers, start, opener, shown)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['days']} days, {figures['first']} to {figures['last']} "
          f"({figures['reused_answers']} answer{'s' * (figures['reused_answers'] != 1)} used "
          f"before), opener "
          f"{opener.upper()}, then the top hint; the history is every earlier day of the file "
          f"(used words' mean weight {figures['mean_used_share']:.4f})")  # fmt: skip
    print(f"{'':16}{'top-1 after 1/2/3':>20}  {'top-5 after 1/2/3':>20}  {'log-loss':>9}  "
          f"{'impossible':>10}  {'guesses':>7}  {'not in 6':>8}")  # fmt: skip
    for name in ("without_history", "with_history"):
        t = figures[name]
        top1 = "/".join(f"{t[f'top1_after_{r}']:.3f}" for r in ROWS)
        top5 = "/".join(f"{t[f'top5_after_{r}']:.3f}" for r in ROWS)
        bits, label = t["log_loss_bits"], name.replace("_", " ")
        print(f"{label:16}{top1:>20}  {top5:>20}  {bits:>6.2f} b  {t['impossible']:>10}  "
              f"{t['mean_guesses']:>7.3f}  {t['not_in_six']:>8}")  # fmt: skip
    return 0
