"""Reading what players paste: the share texts of Wordle and its cousins, and typed histories.

``parse_shares(text)`` finds every share in a message (chatter before, between and after is
fine) and never raises: what it cannot read is reported in ``problems``.

Formats read:
- NYT Wordle: ``Wordle 1,234 4/6*`` (thousands separator ``,``, ``.``, a space or none;
  ``X/6`` for a loss; ``*`` for hard mode), then rows of squares: grey ⬛ or ⬜ (with or
  without U+FE0F), high-contrast 🟧 🟦, CRLF, or rows run together on one line (a copy that
  lost its line breaks: the run splits into rows of 5, and one that does not is not recorded).
- Primel ``Primel 123 4/6`` and Absurdle ``Absurdle 4/∞`` (``challenge`` too), the same way.
- Dordle ``Dordle #123 4&6/7`` (``X`` for a failed board), boards side by side.
- Quordle, both the older ``Daily Quordle #17`` and the newer ``🙂 Daily Quordle 1234``:
  keycap digits per board (🟥 a failed board), grids side by side in pairs.
- Octordle ``Daily Octordle #123``: keycaps plus 🔟 🕚 🕛 🕐 for 10 to 13, 🟥 a failed board.
- Multi-board results and grids whose lines ran together: keycaps are read in order, and the
  grids split by the boards' results (a pair of boards prints as many rows as its longer game,
  every row when one failed, as quordle.com's share code does).
- Special editions, read like the daily (``variant`` names the edition) but never recorded as
  it, since their numbers are not the daily's or repeat it: Merriam-Webster's Quordle
  ``Daily Sequence Quordle 1451``, ``Weekly Quordle Challenge 131``, ``🥵 Daily Extreme 532``,
  ``Daily Rescue 97`` (these two without the word Quordle) and ``Practice Quordle`` (no number,
  the answers after each pair); Octordle ``Daily Sequence|Rescue|Extreme Octordle #1450``.
  Real pastes of each: github.com/jcorbin/alphahack ``log/{Quordle,Octordle}/*``; Practice
  from quordle.com's share code. Any other edition (a Quordle or Octordle line with board
  results after it that no header here matches) is reported as not read.
- The clones of other languages (:data:`CLONES`), each from its published share code or real
  pastes (tests/fixtures/shares/README.md names the source of each): Termo and Letreco
  (Portuguese), SUTOM (French), Wordle (ES) / La palabra del día (Spanish), Wördl (German),
  Par🇮🇹le (Italian) and Słowle (Polish). Each has its own squares (SUTOM's 🟥 is a right
  letter, Letreco's a wrong one, Słowle's 🟦 a right one and 🟧 a misplaced one); the row
  length is read from the grid (4 to 11, every row the same), so a share names the variant it
  maps to (``word_list``: ``wordle-fr-7`` for a 7-letter SUTOM). Their tables are in
  :mod:`engine.shares.clones`.
- Never another game's share read as one of these: a grid whose rows are not the game's width
  (a seven-letter clone headed ``Wordle 244 2/6``) is refused, never cut to fit, and the
  shares of the clones the bot does not play (:data:`engine.shares.clones.UNPLAYED`: Dutch,
  Indonesian, Malay, Russian ...) are recognised and read as nothing (``unplayed``).
- Squares written as emoji names (``:green_square:``, Slack's ``:grand_carré_rouge:``) read as
  the squares (:mod:`engine.shares.text`).
- A one-board share whose grid is posted above its header (nothing but blank lines between) is
  read with that grid, when it is the message's first header and has none below.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any

from engine.pattern import to_digits
from engine.shares.clones import CLONE_GAMES, CLONES, UNPLAYED, Clone
from engine.shares.text import plain

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
# A multi-board number; its last digit is not a keycap's (a copy that lost the line break
# between "Daily Quordle 1234" and "6️⃣4️⃣" still reads 1234, then 6).
_BOARD_NUMBER = r"#?(?P<puzzle>\d+)(?![\ufe0f\u20e3])"
_NOT_OURS = r"(?<!wordlebot )(?<!Wordlebot )(?<!WORDLEBOT )"  # see OURS
HEADERS = [
    (
        "wordle",
        re.compile(rf"{_NOT_OURS}\bWordle\s+#?{_NUMBER}\s+(?P<score>[1-6Xx])/6(?P<hard>\*?)", re.I),
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
    ("dordle", re.compile(r"\bDordle\s+#?(?P<puzzle>\d+)\s+(?P<score>(?:\d+|X)&(?:\d+|X))/7")),
    ("quordle", re.compile(rf"\bDaily\s+(?:(?P<edition>Sequence)\s+)?Quordle\s+{_BOARD_NUMBER}")),
    ("quordle", re.compile(rf"\b(?P<edition>Weekly)\s+Quordle\s+Challenge\s+{_BOARD_NUMBER}")),
    # Merriam-Webster's Quordle names these two dailies without the word "Quordle".
    ("quordle", re.compile(rf"\bDaily\s+(?P<edition>Extreme|Rescue)\s+{_BOARD_NUMBER}")),
    ("quordle", re.compile(r"\b(?P<edition>Practice)\s+Quordle\b")),
    (
        "octordle",
        re.compile(
            rf"\bDaily\s+(?:(?P<edition>Sequence|Rescue|Extreme)\s+)?Octordle\s+{_BOARD_NUMBER}"
        ),
    ),
]
# A game's name as a word, not inside an address like m-w.com/games/quordle/ or octordle.com:
# with board results after it but no header above matching, an edition we do not know.
NAMED = re.compile(r"(?<![\w/.-])(Dordle|Quordle|Octordle)(?![\w./])", re.I)
MARKS = re.compile("[\u20e3🟥🔟🕚🕛🕐]")

MIN_LENGTH, MAX_LENGTH = 4, 11  # the word lengths a share's rows may have
LOSSES = ("X", "-")  # a lost game's score: "X/6", or SUTOM's "-/6"


ALL_SQUARES = set(SQUARES).union(*(clone.squares for clone in CLONES))
GRID_CHARACTERS = ALL_SQUARES | {" ", "\t", "\ufe0f"}  # all a line of a grid holds
ONE_BOARD = {"wordle", "primel", "absurdle", *CLONE_GAMES}  # games whose share is one grid
# Games whose share button always prints the grid: without one, a share is a header anyone could
# type, and is not recorded. Quordle's (merriam-webster.com's daily) and Octordle's print the
# boards' results alone, so there the results are all a real share shows (real posts:
# tests/fixtures/shares); shares win no prize, so a typed one reaches the share boards only.
GRID_PRINTED = ONE_BOARD | {"dordle"}


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
    # The edition: "" for the daily; "sequence", "weekly", "rescue", "extreme" or "practice"
    # for a multi-board game's; "challenge" for Absurdle's.
    variant: str = ""
    # Whether the result may be recorded: the grid backs the header up (a header with no grid,
    # or rows that contradict it, could be typed by anyone) and it is the daily puzzle (an
    # edition's number is its own, or repeats the daily's).
    recordable: bool = True
    # The word lists the grid is read against: "wordle" or "primel" for the English games, a
    # clone's "wordle-<language>-<length>" ("" when its grid did not show the length).
    word_list: str = "wordle"
    language: str = "en"
    length: int = 5  # letters a row (0: not shown)
    limit: int = 6  # guesses allowed (0: no limit, Absurdle)
    day: date | None = None  # the puzzle's day, where the clone's numbering dates it

    @property
    def title(self) -> str:
        """The game's name as its players write it."""
        clone = CLONE_GAMES.get(self.game)
        return clone.title if clone else self.game.title()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["title"] = self.title
        data["day"] = self.day.isoformat() if self.day else None
        for board in data["boards"]:
            board["rows"] = [to_digits(p, self.length) for p in board["rows"]]
        return data


@dataclass
class ParseResult:
    shares: list[Share]
    problems: list[str]
    # Shares of games the bot does not play: read as nothing, counted nowhere (each has its
    # note among the problems too).
    unplayed: list[UnplayedShare] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"shares": [s.to_json() for s in self.shares], "problems": self.problems,
                "unplayed": [asdict(u) for u in self.unplayed]}  # fmt: skip


@dataclass(frozen=True)
class UnplayedShare:
    """A share of a game of :data:`UNPLAYED`: its title, language and header as pasted."""

    title: str
    language: str
    header: str

    @property
    def note(self) -> str:
        return (f"'{self.header}': {self.title} ({self.language}) is not a game this bot "
                "plays, so it is not read or counted")  # fmt: skip


def parse_shares(text: str) -> ParseResult:
    """Every share in ``text``, and a plain account of what could not be read."""
    try:
        return _parse(text)
    except Exception as exc:  # a paste must never crash the reader
        return ParseResult([], [f"Could not read this paste ({type(exc).__name__})"])


_UNPLAYED_KEYS = {f"unplayed:{game.title}": game for game in UNPLAYED}
_HEADERS = [
    *HEADERS,
    *((clone.game, pattern) for clone in CLONES for pattern in clone.headers),
    *((key, game.header) for key, game in _UNPLAYED_KEYS.items()),
]
Found = tuple[int, int, str, re.Match[str]]  # a header: where it starts and ends, its game


def _headers(text: str) -> list[Found]:
    """Every game header in ``text``, in order; where two overlap, the one that starts first
    (the longer at one place), so no header is read as part of another game's."""
    found = sorted(
        (
            (m.start(), m.end(), game, m)
            for game, pattern in _HEADERS
            for m in pattern.finditer(text)
        ),
        key=lambda f: (f[0], -f[1]),
    )
    kept: list[Found] = []
    for header in found:
        if not kept or header[0] >= kept[-1][1]:
            kept.append(header)
    return kept


def _parse(text: str) -> ParseResult:
    text = plain(text)
    found = _headers(text)
    shares, problems, unplayed = [], [], []
    for i, (start, end, game, match) in enumerate(found):
        body = text[end : found[i + 1][0] if i + 1 < len(found) else len(text)]
        if i == 0 and game in ONE_BOARD and not any(ch in ALL_SQUARES for ch in body):
            body = _grid_above(text[:start]) + body
        if game in _UNPLAYED_KEYS:
            other = _UNPLAYED_KEYS[game]
            unplayed.append(
                UnplayedShare(other.title, other.language, " ".join(match[0].split())[:40])
            )
            problems.append(unplayed[-1].note)
            continue
        clone = CLONE_GAMES.get(game)
        share, found_problems = (
            _read_clone(clone, match, body) if clone else _read(game, match, body)
        )
        if share is not None:
            shares.append(share)
        problems.extend(found_problems)
    unknown = _unknown_editions(text, found)
    problems.extend(unknown)
    if OURS.search(text):
        problems.append("That is a wordlebot daily: its result is already in your /stats")
    elif not found and not unknown:
        if any(ch in text for ch in ALL_SQUARES):
            problems.append("Found coloured squares but no game header (like 'Wordle 1,234 4/6')")
        else:
            problems.append("No share found: paste the text your game's Share button copied")
    return ParseResult(shares, problems, unplayed)


def _grid_above(before: str) -> str:
    """The rows of squares that end the text above a message's first header, where nothing but
    blank lines parts them from the header's line: some post the grid above the header (Josh
    Wardle's own tweet announcing the share button did). No other header's grid can be there."""
    lines = before.split("\n")
    if lines[-1].strip():
        return ""  # words before the header on its line: what is above is not its grid
    rows: list[str] = []
    for line in reversed(lines[:-1]):
        if line.strip() and not set(line) - GRID_CHARACTERS:
            rows.append(line)
        elif line.strip():
            break
    return "\n" + "\n".join(reversed(rows))


def _unknown_editions(text: str, found: list[tuple[int, int, str, re.Match[str]]]) -> list[str]:
    """A game's name on a line no header was read from, with board results after it: an
    edition we do not know, said so rather than passed over in silence."""
    covered = {text.rfind("\n", 0, at) + 1 for start, end, _, _ in found for at in (start, end)}
    starts = [start for start, _, _, _ in found]  # sorted
    problems = []
    for match in NAMED.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        before = bisect_right(starts, match.start()) - 1
        if start in covered or (before >= 0 and found[before][1] > match.start()):
            continue
        covered.add(start)  # one report a line
        if MARKS.search(text, match.end(), match.end() + 200):
            end = text.find("\n", match.end())
            line = " ".join(text[start : len(text) if end < 0 else end].split())[:60]
            game = match[1].title()
            article = "an" if game[0] in "AEIOU" else "a"
            problems.append(f"'{line}': {article} {game} edition this reader does not know")
    return problems


def _puzzle(match: re.Match[str]) -> int | None:
    raw = match.groupdict().get("puzzle")
    return int(re.sub(r"[,. ]", "", raw)) if raw else None


def _tiles(line: str) -> list[int]:
    return [SQUARES[ch] for ch in line if ch in SQUARES]


def _rows_of(body: str, length: int = 5) -> tuple[list[int], str | None]:
    """Single-board rows, and why they are not this game's grid. Each line of squares is a
    row of ``length``, or several run together (a copy that lost its line breaks); a line of
    another width is another game's grid (a clone's of another length), refused, never cut
    to fit. Stops at the first line with other text after rows."""
    tiles: list[int] = []
    for line in body.split("\n"):
        cells = _tiles(line)
        if not cells:
            if tiles and line.strip():
                break
            continue
        if len(cells) % length:
            return [], (f"the squares do not split into rows of {length} (a line of "
                        f"{len(cells)} squares), so it is not recorded")  # fmt: skip
        tiles.extend(cells)
    return [_pattern(tiles[i : i + length]) for i in range(0, len(tiles), length)], None


def _pattern(cells: list[int]) -> int:
    value = 0
    for cell in cells:
        value = value * 3 + cell
    return value


def _read(game: str, match: re.Match[str], body: str) -> tuple[Share | None, list[str]]:
    puzzle = _puzzle(match)
    hard = bool(match.groupdict().get("hard"))
    name = f"{game.title()} {puzzle if puzzle is not None else ''}".strip()
    if game in ("wordle", "primel", "absurdle"):
        score = match["score"].upper()
        rows, grid_problem = _rows_of(body)
        solved = score != "X"
        guesses = int(score) if solved else None
        variant = "challenge" if game == "absurdle" and match["challenge"] else ""
        loss_rows = 6 if game == "wordle" else None
        rows, problem = _checked(name, rows, solved, guesses, 3**5 - 1, loss_rows, grid_problem)
        board = BoardResult(solved, guesses, rows)
        lists = "primel" if game == "primel" else "wordle"
        limit = LIMITS[game]
        share = Share(game, puzzle, hard, [board], variant, recordable=problem is None,
                      word_list=lists, limit=limit)  # fmt: skip
        return share, [problem] if problem else []
    edition = (match.groupdict().get("edition") or "").lower()
    if edition:
        name = f"{game.title()} {edition.title()} {puzzle if puzzle is not None else ''}".strip()
    counts = _board_counts(game, match, body)
    if counts is None:
        return None, [f"{name}: found the header but not each board's result"]
    grids, problem = _grids(body, counts, LIMITS[game])
    problems = [f"{name}: {problem}"] if problem else []
    boards = []
    for b, count in enumerate(counts):
        rows = grids[b] if b < len(grids) else []
        if count is not None:
            rows = rows[:count]
        boards.append(BoardResult(count is not None, count, rows))
    gridless = game in GRID_PRINTED and not any(board.rows for board in boards)
    if gridless and not problem:
        problems.append(f"{name}: no grid under the header, so the result is not recorded")
    if edition:
        problems.append(f"{name}: read, but only the daily puzzle is recorded")
    recordable = not (edition or gridless)
    return Share(game, puzzle, False, boards, edition, recordable=recordable), problems


def _checked(
    name: str, rows: list[int], solved: bool, guesses: int | None, win: int,
    loss_rows: int | None, grid_problem: str | None = None,
) -> tuple[list[int], str | None]:  # fmt: skip
    """A single board's rows, and the last thing found wrong with them (None: the grid backs
    the header up). A grid that does not is not read at all (rows cut to fit the header would
    be another game's read as this one's). ``loss_rows``: the rows a loss shows, where the
    game says."""
    problem = None
    if rows and guesses is not None and len(rows) != guesses:
        problem = f"{name}: the header says {guesses} guesses but {len(rows)} rows were found"
    if solved and rows and rows[-1] != win:
        problem = f"{name}: the last row is not all green"
    if loss_rows is not None and not solved and rows and len(rows) != loss_rows:
        problem = f"{name}: a loss should have {loss_rows} rows, found {len(rows)}"
    if win in rows[:-1] or (not solved and win in rows):
        problem = f"{name}: a row before the last is all green"
    if grid_problem:
        problem = f"{name}: {grid_problem}"
    if not rows and not grid_problem:
        problem = f"{name}: no grid under the header, so the result is not recorded"
    return ([] if problem else rows), problem


def _read_clone(clone: Clone, match: re.Match[str], body: str) -> tuple[Share, list[str]]:
    """A clone's one-board share: its rows in the clone's squares, their length from the grid."""
    puzzle = int(match["puzzle"])
    score = match["score"].upper()
    solved = score not in LOSSES
    guesses = int(score) if solved else None
    name = f"{clone.title} {puzzle}"
    rows, length, grid_problem = _clone_grid(body, clone)
    if grid_problem is None and guesses is not None and not 1 <= guesses <= clone.limit:
        grid_problem = f"the header says {guesses} guesses, but {clone.title} allows {clone.limit}"
    if grid_problem is None and len(rows) > clone.limit:
        grid_problem = f"{len(rows)} rows, but {clone.title} allows {clone.limit} guesses"
    if grid_problem is not None:
        rows = []
        grid_problem += ", so it is not recorded"
    rows, problem = _checked(name, rows, solved, guesses, 3**length - 1, clone.limit, grid_problem)
    length = length or clone.usual_length or 0
    day = None
    if clone.first_day is not None and 1 <= puzzle <= 100_000:
        day = clone.first_day + timedelta(days=puzzle - 1)
    share = Share(clone.game, puzzle, bool(match.groupdict().get("hard")),
                  [BoardResult(solved, guesses, rows)], recordable=problem is None,
                  word_list=f"wordle-{clone.language}-{length}" if length else "",
                  language=clone.language, length=length, limit=clone.limit, day=day)  # fmt: skip
    return share, [problem] if problem else []


def _clone_grid(body: str, clone: Clone) -> tuple[list[int], int, str | None]:
    """The rows under a clone's header, their length (0 when none), and why they could not be
    read. Each line of squares is a row, all of one length from 4 to 11; one line that is a
    run of several rows of the clone's usual length (line breaks lost) splits into them."""
    lines: list[list[int]] = []
    for line in body.split("\n"):
        cells = [clone.squares[ch] for ch in line if ch in clone.squares]
        if cells:
            lines.append(cells)
        elif lines and line.strip():
            break  # other text after the grid: the grid is over
    if not lines:
        return [], 0, None
    sizes = sorted({len(cells) for cells in lines})
    usual = clone.usual_length
    if len(lines) == 1 and usual and sizes[0] > MAX_LENGTH and sizes[0] % usual == 0:
        lines = [lines[0][i : i + usual] for i in range(0, sizes[0], usual)]
        sizes = [usual]
    if len(sizes) > 1:
        shown = ", ".join(map(str, sizes[:4])) + (", ..." if len(sizes) > 4 else "")
        return [], 0, f"its rows are of unequal length ({shown} squares)"
    if not MIN_LENGTH <= sizes[0] <= MAX_LENGTH:
        return [], 0, f"its rows have {sizes[0]} squares, not {MIN_LENGTH} to {MAX_LENGTH}"
    return [_pattern(cells) for cells in lines], sizes[0], None


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


def _groups(line: str, length: int = 5) -> list[list[int]]:
    """A line's runs of squares (split at spaces), each cut into rows of ``length``; a run of
    another size is not a grid row (a stray square in chatter)."""
    out: list[list[int]] = []
    for part in line.split():
        cells = _tiles(part)
        if cells and len(cells) % length == 0:
            out.extend(cells[i : i + length] for i in range(0, len(cells), length))
    return out


def _grids(body: str, counts: list[int | None], limit: int) -> tuple[list[list[int]], str | None]:
    """Side-by-side grids, and what kept them from being read. Each line holds a row of two
    boards, a blank line between pairs. When the line breaks were lost the rows run together;
    they still split by the boards' results: a pair prints as many rows as its longer game, or
    all ``limit`` when one failed (a lone pair just alternates)."""
    pairs = len(counts) // 2
    blocks: list[list[list[int]]] = []  # each pair's groups, left and right alternating
    current: list[list[int]] = []
    run_together = False
    for line in body.split("\n"):
        groups = _groups(line)
        if len(groups) >= 2:
            run_together = run_together or len(groups) > 2
            current.extend(groups)
        elif not line.strip() and current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    if not blocks:
        return [], None
    if run_together or len(blocks) < pairs:
        flat = [group for block in blocks for group in block]
        lengths = []
        for p in range(pairs):
            a, b = counts[2 * p], counts[2 * p + 1]
            lengths.append(max(a, b) if a is not None and b is not None else limit)
        if pairs == 1 and len(flat) % 2 == 0:
            lengths = [len(flat) // 2]
        if 2 * sum(lengths) == len(flat):
            blocks = []
            for length in lengths:
                blocks.append(flat[: 2 * length])
                flat = flat[2 * length :]
        elif run_together:
            return [], f"{len(flat)} grid rows ran together and do not split into the boards"
    out: list[list[int]] = [[] for _ in counts]
    for p, block in enumerate(blocks[:pairs]):
        out[2 * p] = [_pattern(g) for g in block[0::2]]
        out[2 * p + 1] = [_pattern(g) for g in block[1::2]]
    return out, None
