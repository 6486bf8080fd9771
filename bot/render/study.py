"""The hard-mode study as text and as a picture: pure functions of its JSON result
(``wordlebot study hard-mode --json``). /hardmode's words are in the reader's language; the
table and the picture are the command line's (English)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import N_, _, format_number
from bot.render.alt_text import study_alt_text
from bot.render.letters import font
from bot.services.study import HardModeStudy

MODE_COLOURS = {"normal": (106, 170, 100), "hard": (201, 180, 88), "strict": (120, 124, 126)}
INK, FAINT, PAPER = (26, 26, 27), (211, 214, 218), (255, 255, 255)
PANEL_W, PANEL_H, COLUMNS, HEADER = 420, 260, 3, 70


def signed(value: float) -> str:
    """ "+0.123", "-0.045" with the current locale's decimal mark."""
    return f"{value:+.3f}"[0] + format_number(abs(value), 3)


def interval(diff: dict[str, Any]) -> str:
    if diff.get("low") is None:
        return signed(diff["mean"])
    return f"{signed(diff['mean'])} [{signed(diff['low'])}, {signed(diff['high'])}]"


def table_lines(result: dict[str, Any]) -> list[str]:
    """One row per agent and mode, then each agent's differences from normal mode."""
    limit = result["limit"]
    steps = [*(str(k) for k in range(1, limit + 1)), "X"]
    head = f"{'agent':<19} {'mode':<7} {'mean':>6} {'sd':>5} {'fails':>5} {'worst':>5}"
    lines = [head + "  " + " ".join(f"{s:>5}" for s in steps) + f" {'train s':>8} {'play s':>7}"]
    for entry in result["agents"].values():
        for mode, cell in entry["modes"].items():
            counts = " ".join(f"{cell['distribution'][s]:>5}" for s in steps)
            lines.append(
                f"{entry['label']:<19} {mode:<7} {cell['mean']:>6.3f} {cell['sd']:>5.2f} "
                f"{cell['failures']:>5} {cell['worst']!s:>5}  {counts} "
                f"{cell['training_seconds']:>8.1f} {cell['evaluation_seconds']:>7.1f}"
            )
    lines += ["", "Difference from normal mode, paired by answer (mean and 95% CI):"]
    for entry in result["agents"].values():
        parts = [f"{mode} - normal {interval(d)}" for mode, d in entry["differences"].items()]
        lines.append(f"{entry['label']:<19} " + ("; ".join(parts) or "-"))
    return lines


def hard_mode_text(result: dict[str, Any], answer: str = "") -> str:
    """The short message the bot sends: the answer, then each agent's means and difference."""
    lines = []
    if "title" in result:
        # Translators: keep the Markdown marks (**).
        lines.append(_("**Is hard mode harder? ({game})**").format(game=result["title"]))
    if answer:
        lines.append(answer)
    for entry in result["agents"].values():
        modes = entry["modes"]
        means = ", ".join(
            f"{m} {format_number(c['mean'], 3)}"
            + (" " + _("({count} lost)").format(count=c["failures"]) if c["failures"] else "")
            for m, c in modes.items() if "mean" in c
        )  # fmt: skip
        hard = entry["differences"].get("hard")
        diff = ""
        if hard:
            diff = "; " + _("hard - normal {difference}").format(difference=interval(hard))
        lines.append(f"- {entry['label']}: {means}{diff}")
    # Translators: {command} is a command line: keep it as it is.
    lines.append(_("Every one of the {count} answers, a lost game counted as {guesses} "
                   "({command}).").format(count=format_number(result["answers"]),
                                         guesses=result["limit"] + 1,
                                         command="`wordlebot study hard-mode`"))  # fmt: skip
    return "\n".join(lines)


def study_chart(result: dict[str, Any]) -> bytes:
    """Each agent's distribution of guesses, the three modes side by side, as a PNG."""
    agents = list(result["agents"].values())
    rows = (len(agents) + COLUMNS - 1) // COLUMNS
    width, height = COLUMNS * PANEL_W, HEADER + rows * PANEL_H
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = result.get("title", result["variant"])
    draw.text((16, 12), f"{title}: share of games by guesses, "
              f"{result['answers']:,} answers", fill=INK, font=font(22))  # fmt: skip
    x = 16
    for mode, colour in MODE_COLOURS.items():
        draw.rectangle((x, 46, x + 14, 60), fill=colour)
        draw.text((x + 20, 44), mode, fill=INK, font=font(16))
        x += 110
    for i, entry in enumerate(agents):
        left, top = (i % COLUMNS) * PANEL_W, HEADER + (i // COLUMNS) * PANEL_H
        _panel(draw, entry, result["limit"], left, top)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _panel(draw: ImageDraw.ImageDraw, entry: dict[str, Any], limit: int, left: int,
           top: int) -> None:  # fmt: skip
    steps = [*(str(k) for k in range(1, limit + 1)), "X"]
    plot_left, plot_top, plot_bottom = left + 40, top + 48, top + PANEL_H - 36
    plot_width = PANEL_W - 60
    draw.text((left + 16, top + 4), entry["label"], fill=INK, font=font(18))
    cells = entry["modes"]
    means = "  ".join(f"{m[0].upper()} {c['mean']:.2f}" for m, c in cells.items())
    draw.text((left + 16, top + 26), means, fill=INK, font=font(14))
    for share in (0.25, 0.5, 0.75, 1.0):
        y = plot_bottom - share * (plot_bottom - plot_top)
        draw.line((plot_left, y, plot_left + plot_width, y), fill=FAINT)
        draw.text((left + 6, y - 8), f"{share:.0%}", fill=INK, font=font(12))
    draw.line((plot_left, plot_bottom, plot_left + plot_width, plot_bottom), fill=INK)
    slot = plot_width / len(steps)
    bar = (slot - 8) / max(len(MODE_COLOURS), 1)
    for j, step in enumerate(steps):
        x0 = plot_left + j * slot + 4
        for k, (mode, colour) in enumerate(MODE_COLOURS.items()):
            cell = cells[mode]
            games = sum(cell["distribution"].values()) or 1
            share = cell["distribution"][step] / games
            y = plot_bottom - share * (plot_bottom - plot_top)
            if share > 0:
                draw.rectangle((x0 + k * bar, y, x0 + (k + 1) * bar - 1, plot_bottom),
                               fill=colour)  # fmt: skip
        draw.text((x0 + slot / 2 - 8, plot_bottom + 6), step, fill=INK, font=font(14))


def answer_sentences(result: dict[str, Any]) -> str:
    """The study's answer in two sentences, worded from its numbers: the best agent's
    hard-minus-normal difference, then the greedy agents' and random play's."""
    agents = result["agents"]
    best = next((a for a in ("exact", "rollout") if "hard" in agents.get(a, {}).get(
        "differences", {})), None)  # fmt: skip
    if best is None:
        return ""
    d, modes = agents[best]["differences"]["hard"], agents[best]["modes"]
    if d.get("low") is not None and d["low"] > 0:
        verdict = _("Yes, slightly") if d["mean"] < 0.2 else _("Yes")
    elif d.get("high") is not None and d["high"] < 0:
        verdict = _("No, it is easier")
    else:
        verdict = _("Not measurably")
    lost = (modes["hard"]["failures"], modes["normal"]["failures"])
    template = FIRST[(d["mean"] > 0, lost == (0, 0))]
    first = _(template).format(
        verdict=verdict, agent=agents[best]["label"], difference=interval(d),
        count=f"{1 / d['mean']:.0f}" if d["mean"] > 0 else "", hard=lost[0],
        normal=lost[1],
    )  # fmt: skip
    greedy = [
        _("{difference} ({agent}, {count} lost in hard mode)").format(
            difference=interval(agents[a]["differences"]["hard"]), agent=agents[a]["label"],
            count=agents[a]["modes"]["hard"]["failures"])
        for a in ("entropy", "parts") if "hard" in agents.get(a, {}).get("differences", {})
    ]  # fmt: skip
    costs = greedy[0] if len(greedy) == 1 else _("{items} and {last}").format(
        items=", ".join(greedy[:-1]), last=greedy[-1]) if greedy else ""  # fmt: skip
    random = "hard" in agents.get("random", {}).get("differences", {})
    if greedy and random:
        second = _("For greedy players it costs {costs}, while random consistent play, whose "
                   "every guess could be the answer and so obeys hard mode anyway, is "
                   "unaffected.").format(costs=costs)  # fmt: skip
    elif greedy:
        second = _("For greedy players it costs {costs}.").format(costs=costs)
    elif random:
        second = _("Random consistent play, whose every guess could be the answer and so obeys "
                   "hard mode anyway, is unaffected.")  # fmt: skip
    else:
        return first
    return f"{first} {second}"


# The study's first sentence, by (hard mode costs more, no game lost in either mode).
FIRST = {
    (True, True): N_("{verdict}: played as well as the engine can ({agent}), hard mode costs "
                     "{difference} guesses a game (one guess more every {count} games), losing "
                     "no game in either mode."),
    (True, False): N_("{verdict}: played as well as the engine can ({agent}), hard mode costs "
                      "{difference} guesses a game (one guess more every {count} games), losing "
                      "{hard} games against {normal} in normal mode."),
    (False, True): N_("{verdict}: played as well as the engine can ({agent}), hard mode costs "
                      "{difference} guesses a game, losing no game in either mode."),
    (False, False): N_("{verdict}: played as well as the engine can ({agent}), hard mode costs "
                       "{difference} guesses a game, losing {hard} games against {normal} in "
                       "normal mode."),
}  # fmt: skip


@dataclass(frozen=True)
class HardModeAnswer:
    """/hardmode's reply: the study's answer in words, with its picture."""

    text: str  # Markdown, short enough for one message
    picture: bytes | None  # PNG
    filename: str
    alt: str = ""  # the picture in words (its attachment's description)


def hard_mode_answer(study: HardModeStudy) -> HardModeAnswer:
    """The reply for a stored study (:func:`bot.services.study.hard_mode_study`)."""
    if study.result is None:
        return HardModeAnswer(study.message or "", None, "")  # already in the reader's language
    text = hard_mode_text(study.result, answer_sentences(study.result))
    return HardModeAnswer(text, study.picture, study.filename, study_alt_text(study.result))
