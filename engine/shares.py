"""Reading what players paste: the share texts of Wordle and its cousins, and typed histories.

``parse_shares(text)`` finds every share in a message (chatter before, between and after is
fine) and never raises: what it cannot read is reported in ``problems``.

Formats read:
- NYT Wordle: ``Wordle 1,234 4/6*`` (thousands separator ``,``, ``.``, a space or none;
  ``X/6`` for a loss; ``*`` for hard mode), then rows of squares: grey ⬛ or ⬜ (with or
  without U+FE0F), high-contrast 🟧 🟦, CRLF, or rows run together on one line.
- Primel ``Primel 123 4/6`` and Absurdle ``Absurdle 4/∞`` (``challenge`` too), the same way.
- Dordle ``Dordle #123 4&6/7`` (``X`` for a failed board), boards side by side.
- Quordle, both the older ``Daily Quordle #17`` and the newer ``Daily Quordle 1234``:
  keycap digits per board (🟥 a failed board), grids side by side in pairs.
- Octordle ``Daily Octordle #123`` and ``Daily Sequence Octordle #123``: keycaps plus
  🔟 🕚 🕛 🕐 for 10 to 13, 🟥 a failed board.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.pattern import to_digits

SQUARES = {"🟩": 2, "🟧": 2, "🟨": 1, "🟦": 1, "⬛": 0, "⬜": 0, "🟫": 0}
KEYCAPS = {f"{d}\ufe0f\u20e3": d for d in range(10)} | {f"{d}\u20e3": d for d in range(10)}
CLOCKS = {"🔟": 10, "🕚": 11, "🕛": 12, "🕐": 13}
FAILED = "🟥"
LIMITS = {"wordle": 6, "primel": 6, "absurdle": 0, "dordle": 7, "quordle": 9, "octordle": 13}
BOARD_COUNT = {"dordle": 2, "quordle": 4, "octordle": 8}
# The wordlebot bot's own dailies ("wordlebot Wordle #1982 3/6"): numbered by day like the
# NYT's puzzle but with other answers, so never read as an NYT result.
OURS = re.compile(r"\bwordlebot\s+(?:Wordle|Primel)\s+#\d+", re.I)

_NUMBER = r"(?P<puzzle>\d{1,3}(?:[,. ]\d{3})+|\d+)"
_NOT_OURS = r"(?<!wordlebot )(?<!Wordlebot )(?<!WORDLEBOT )"  # see OURS
HEADERS = [
    (
        "wordle",
        re.compile(rf"{_NOT_OURS}\bWordle\s+#?{_NUMBER}\s+(?P<score>[1-6Xx])/6(?P<hard>\*?)"),
    ),
    (
        "primel",
        re.compile(rf"{_NOT_OURS}\bPrimel\s+#?{_NUMBER}\s+(?P<score>[1-6Xx])/6(?P<hard>\*?)"),
    ),
    (
        "absurdle",
        re.compile(
            r"\bAbsurdle(?P<challenge>\s+challenge(?:\s+mode)?)?\s+(?:#?(?P<puzzle>\d+)\s+)?(?P<score>\d+|X)/∞(?P<hard>\*?)",
            re.I,
        ),
    ),
    ("dordle", re.compile(r"\bDordle\s+#?(?P<puzzle>\d+)\s+(?P<score>[\dX]+&[\dX]+)/7")),
    ("quordle", re.compile(r"\bDaily\s+Quordle\s+#?(?P<puzzle>\d+)")),
    ("octordle", re.compile(r"\bDaily\s+(?P<sequence>Sequence\s+)?Octordle\s+#?(?P<puzzle>\d+)")),
]


@dataclass
class BoardResult:
    solved: bool
    guesses: int | None  # guesses used to solve it (None when failed and unknown)
    rows: list[int] = field(default_factory=list)  # patterns, as integers


@dataclass
class Share:
    game: str
    puzzle: int | None
    hard: bool
    boards: list[BoardResult]
    variant: str = ""  # "sequence" for Octordle's Sequence, "challenge" for Absurdle's
    # Whether the grid backs the header up (a result is recorded only then): a header with
    # no grid, or rows that contradict it, could be typed by anyone.
    recordable: bool = True

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for board in data["boards"]:
            board["rows"] = [to_digits(p, 5) for p in board["rows"]]
        return data


@dataclass
class ParseResult:
    shares: list[Share]
    problems: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"shares": [s.to_json() for s in self.shares], "problems": self.problems}


def parse_shares(text: str) -> ParseResult:
    """Every share in ``text``, and a plain account of what could not be read."""
    try:
        return _parse(text)
    except Exception as exc:  # a paste must never crash the reader
        return ParseResult([], [f"Could not read this paste ({type(exc).__name__})"])


def _parse(text: str) -> ParseResult:
    text = text.replace("\r\n", "\n").replace("\r", "\n")[:20_000]
    found = []
    for game, pattern in HEADERS:
        for match in pattern.finditer(text):
            found.append((match.start(), match.end(), game, match))
    found.sort()
    shares, problems = [], []
    for i, (_, end, game, match) in enumerate(found):
        body = text[end : found[i + 1][0] if i + 1 < len(found) else len(text)]
        share, problem = _read(game, match, body)
        if share is not None:
            shares.append(share)
        if problem:
            problems.append(problem)
    if OURS.search(text):
        problems.append("That is a wordlebot daily: its result is already in your /stats")
    elif not found:
        if any(ch in text for ch in SQUARES):
            problems.append("Found coloured squares but no game header (like 'Wordle 1,234 4/6')")
        else:
            problems.append("No share found: paste the text your game's Share button copied")
    return ParseResult(shares, problems)


def _puzzle(match: re.Match[str]) -> int | None:
    raw = match.groupdict().get("puzzle")
    return int(re.sub(r"[,. ]", "", raw)) if raw else None


def _tiles(line: str) -> list[int]:
    return [SQUARES[ch] for ch in line if ch in SQUARES]


def _rows_of(body: str, length: int = 5) -> list[int]:
    """Single-board rows: every run of squares, split into rows of ``length`` (so rows run
    together on one line still read). Stops at the first line with other text after rows."""
    tiles: list[int] = []
    for line in body.split("\n"):
        cells = _tiles(line)
        if not cells:
            if tiles and line.strip():
                break
            continue
        tiles.extend(cells)
    return [_pattern(tiles[i : i + length]) for i in range(0, len(tiles) - length + 1, length)]


def _pattern(cells: list[int]) -> int:
    value = 0
    for cell in cells:
        value = value * 3 + cell
    return value


def _read(game: str, match: re.Match[str], body: str) -> tuple[Share | None, str | None]:
    puzzle = _puzzle(match)
    hard = bool(match.groupdict().get("hard"))
    name = f"{game.title()} {puzzle if puzzle is not None else ''}".strip()
    if game in ("wordle", "primel", "absurdle"):
        score = match["score"].upper()
        rows = _rows_of(body)
        solved = score != "X"
        guesses = int(score) if solved else None
        variant = "challenge" if game == "absurdle" and match["challenge"] else ""
        problem = None
        if rows and guesses is not None and len(rows) != guesses:
            problem = f"{name}: the header says {guesses} guesses but {len(rows)} rows were found"
            rows = rows[:guesses] if len(rows) > guesses else rows
        if solved and rows and rows[-1] != 242:
            problem = f"{name}: the last row is not all green"
        if game == "wordle" and not solved and rows and len(rows) != 6:
            problem = f"{name}: a loss should have 6 rows, found {len(rows)}"
        if 242 in rows[:-1] or (not solved and 242 in rows):
            problem = f"{name}: a row before the last is all green"
        if not rows:
            problem = f"{name}: no grid under the header, so the result is not recorded"
        board = BoardResult(solved, guesses, rows)
        return Share(game, puzzle, hard, [board], variant, recordable=problem is None), problem
    counts = _board_counts(game, match, body)
    if counts is None:
        return None, f"{name}: found the header but not each board's result"
    grids = _grids(body, len(counts))
    boards = []
    for b, count in enumerate(counts):
        rows = grids[b] if b < len(grids) else []
        if count is not None:
            rows = rows[:count]
        boards.append(BoardResult(count is not None, count, rows))
    variant = "sequence" if game == "octordle" and match["sequence"] else ""
    return Share(game, puzzle, False, boards, variant), None


def _board_counts(game: str, match: re.Match[str], body: str) -> list[int | None] | None:
    size = BOARD_COUNT[game]
    if game == "dordle":
        return [None if part == "X" else int(part) for part in match["score"].split("&")]
    marks: list[int | None] = []
    i = 0
    while i < len(body) and len(marks) < size:
        two, one = body[i : i + 3], body[i : i + 2]
        if two in KEYCAPS:
            marks.append(KEYCAPS[two])
            i += 3
        elif one in KEYCAPS:
            marks.append(KEYCAPS[one])
            i += 2
        elif body[i] in CLOCKS:
            marks.append(CLOCKS[body[i]])
            i += 1
        elif body[i] == FAILED:
            marks.append(None)
            i += 1
        elif body[i] in SQUARES and marks:
            break
        else:
            i += 1
    return marks if len(marks) == size else None


def _grids(body: str, boards: int) -> list[list[int]]:
    """Side-by-side grids: each line holds a row of two boards (a blank line between pairs)."""
    out: list[list[int]] = [[] for _ in range(boards)]
    pair = 0
    in_block = False
    for line in body.split("\n"):
        groups = [g for g in (_tiles(part) for part in line.split()) if len(g) == 5]
        if len(groups) == 2 and pair * 2 + 1 < boards:
            out[pair * 2].append(_pattern(groups[0]))
            out[pair * 2 + 1].append(_pattern(groups[1]))
            in_block = True
        elif in_block and not line.strip():
            pair += 1
            in_block = False
    return out if any(out) else []
