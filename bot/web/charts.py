"""Charts drawn on the server as SVG: pure functions of figures, no script, no inline style
(the style sheet colours them through classes, so the high-contrast palette recolours every
chart at once).

Each chart is an image with a name and a description (``role="img"``, ``<title>`` and
``<desc>`` it is labelled by), followed by the same figures as a table for screen readers
and for anyone who would rather read numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 320  # the drawing's own units; the style sheet scales it to the page
ROW = 26  # a horizontal bar's height with its gap
LABEL = 28  # the room left of the bars for their labels
COLUMN_HEIGHT = 120  # the tallest column of a column chart


@dataclass(frozen=True)
class Bar:
    label: str  # what the bar counts ("3", "Mar")
    value: float | None  # None: nothing to draw (a month without a measured game)
    text: str  # the value as the table and the bar's end read it ("12", "-")
    best: bool = False  # drawn in the accent (the player's most frequent score)


def _frame(ident: str, title: str, description: str, height: int, shapes: str) -> str:
    return (
        f'<svg class="chart" id="{ident}" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(description)}</desc>{shapes}</svg>'
    )


def _figures(title: str, columns: tuple[str, str], bars: Sequence[Bar]) -> str:
    rows = "".join(f'<tr><th scope="row">{escape(b.label)}</th>'
                   f'<td class="number">{escape(b.text)}</td></tr>' for b in bars)  # fmt: skip
    head = (f'<th scope="col">{escape(columns[0])}</th>'
            f'<th scope="col" class="number">{escape(columns[1])}</th>')  # fmt: skip
    return (f'<table class="figures"><caption>{escape(title)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")  # fmt: skip


def _bar_class(bar: Bar) -> str:
    return "bar best" if bar.best else "bar"


def bar_chart(ident: str, title: str, description: str, columns: tuple[str, str],
              bars: Sequence[Bar]) -> str:  # fmt: skip
    """Horizontal bars, one a row (the NYT's guess distribution), each value at its end."""
    most = max((b.value or 0 for b in bars), default=0) or 1
    room = WIDTH - LABEL - 4
    shapes = []
    for row, bar in enumerate(bars):
        y = row * ROW
        width = max(18.0, room * (bar.value or 0) / most)  # room for the value inside
        shapes.append(
            f'<text class="label" x="{LABEL - 8}" y="{y + 16}" text-anchor="end">'
            f"{escape(bar.label)}</text>"
            f'<rect class="{_bar_class(bar)}" x="{LABEL}" y="{y + 2}" width="{width:.1f}" '
            f'height="{ROW - 6}"/>'
            f'<text class="on-bar" x="{LABEL + width - 5:.1f}" y="{y + 16}" '
            f'text-anchor="end">{escape(bar.text)}</text>'
        )
    chart = _frame(ident, title, description, ROW * len(bars), "".join(shapes))
    return f'<figure class="chart-figure">{chart}{_figures(title, columns, bars)}</figure>'


def column_chart(ident: str, title: str, description: str, columns: tuple[str, str],
                 bars: Sequence[Bar], top: float = 100) -> str:  # fmt: skip
    """Columns side by side over a scale from 0 to ``top`` (skill by month, 0 to 99); a
    column without a value is left out, its label kept."""
    step = WIDTH / max(1, len(bars))
    base = COLUMN_HEIGHT + 16  # the columns' foot, above their labels
    shapes = [f'<line class="axis" x1="0" y1="{base}" x2="{WIDTH}" y2="{base}"/>']
    for index, bar in enumerate(bars):
        x = index * step
        middle = x + step / 2
        shapes.append(f'<text class="label" x="{middle:.1f}" y="{base + 14}" '
                      f'text-anchor="middle">{escape(bar.label)}</text>')  # fmt: skip
        if bar.value is None:
            continue
        height = COLUMN_HEIGHT * min(bar.value, top) / top
        shapes.append(
            f'<rect class="{_bar_class(bar)}" x="{x + 3:.1f}" y="{base - height:.1f}" '
            f'width="{step - 6:.1f}" height="{height:.1f}"/>'
            f'<text class="label" x="{middle:.1f}" y="{base - height - 4:.1f}" '
            f'text-anchor="middle">{escape(bar.text)}</text>'
        )
    chart = _frame(ident, title, description, base + 20, "".join(shapes))
    return f'<figure class="chart-figure">{chart}{_figures(title, columns, bars)}</figure>'
