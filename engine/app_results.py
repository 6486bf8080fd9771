"""Reading what the NYT's own Wordle app posts in a Discord channel, so each player it lists
gets their result recorded without pasting a share.

``parse_app_results(text)`` reads one message's text and never raises: what it cannot read is
reported in ``problems``, each naming the line it is about. Read only messages whose author is
the app (``WORDLE_APP_ID``): anyone can type these lines.

Formats read, as the app posts them (real messages: github.com/claabs/discord-wordle-stats
``data/results.json``, 120 recaps; github.com/hunterjsb/xn-wordle ``wordle_test.go``):

- The recap of yesterday's puzzle, posted the morning after::

      **Your group is on a 120 day streak!** 🔥🔥🔥 Here are yesterday's results:
      👑 3/6: @wagcmassyla <@201394242533326849>
      4/6: <@82684276755136512> <@153306386413912073>
      X/6: <@315678473911926785>

  "a" or "an", one 🔥 or three, "1 day streak" too; bold markers or none; the streak part may
  be missing (then ``streak`` is None). 👑 marks the best line. A line lists several players,
  each a mention ``<@id>`` (``<@!id>`` too) or, for a player the app could not mention, a plain
  ``@Display Name``, which may hold spaces and punctuation ("@Highest Person Ever!"), so it
  runs to the next ``@`` or mention. Lines run together (a copy that lost its line breaks)
  still read: each ``N/6:`` starts a line.
- The notice the app posts while people play: "temple was playing", "david wolfze and samboyd
  were playing", "pogoyim and 2 others were playing", "tft? is playing" (xn-wordle's tests).
  It names who started, never a score: ``kind`` is "playing", ``playing`` holds the names
  (``others`` counts the players it did not name), and there are no results.

Not substantiated: a recap of "today's" results (not read), and a first line without the
streak part ("Here are yesterday's results:" alone), in none of the real messages found but
read, as it is unambiguous. Which day "yesterday" is (the app's clock or the group's) is not
documented anywhere found: ``puzzle_for`` takes the date the caller counts the post as.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import asdict, dataclass, field
from typing import Any

WORDLE_APP_ID = 1211781489931452447  # the Wordle app's Discord user, whose messages these are
NYT_EPOCH = datetime.date(2021, 6, 19)  # NYT Wordle puzzle #0
MAX_TEXT = 20_000  # a Discord message is at most 4,000 characters

_STREAK = re.compile(r"Your\s+group\s+is\s+on\s+an?\s+(?P<streak>\d{1,6})\s+day\s+streak", re.I)
_RESULTS = re.compile(r"Here\s+are\s+yesterday['’]?s\s+results\s*:?", re.I)
# A score line's start: optional crown and bold, then "N/M:". Not inside a word or a name
# like "@abc3/6:" (a score follows a line break, a space or the header).
_SCORE = re.compile(
    r"(?<![\w/@])(?P<crown>👑\ufe0f?\s*)?(?:\*\*)?"
    r"(?P<score>[0-9Xx]{1,3})\s*/\s*(?P<of>\d{1,3})(?:\*\*)?\s*:"
)
_SCORES = {"1", "2", "3", "4", "5", "6", "X"}
_MENTION = re.compile(r"<@!?(?P<id>\d{1,20})>")
_PLAYING = re.compile(r"(?P<names>\S.{0,300}?) +(?P<verb>is|are|was|were) +playing\.?")
_OTHERS = re.compile(r"(?P<count>\d{1,4})\s+others?")


@dataclass(frozen=True)
class AppResult:
    score: str  # as the app prints it: "3/6", or "X/6" for a loss
    won: bool
    guesses: int  # 1 to 6; 0 when lost
    user_id: int | None  # the player's Discord id, when the app mentioned them
    name: str | None  # otherwise the display name it printed, to be matched to a member
    crowned: bool = False  # on the 👑 line: the best score of the day


@dataclass(frozen=True)
class AppResults:
    streak: int | None  # the group's streak in days, when the recap says it
    yesterday: bool  # the recap is of yesterday's puzzle ("Here are yesterday's results")
    results: list[AppResult]
    problems: list[str]
    kind: str = ""  # "recap", "playing" (a start notice), or "" (not an app message)
    playing: list[str] = field(default_factory=list)  # names a "playing" notice gives
    others: int = 0  # players a "playing" notice counts without naming ("and 2 others")

    def puzzle_for(self, posted: datetime.date) -> int | None:
        """The NYT puzzle number these results are of, for a recap posted on ``posted`` (the
        day the caller counts it as), or None when the recap does not say it is yesterday's."""
        if self.kind != "recap" or not self.yesterday:
            return None
        return nyt_puzzle_number(_day(posted) - datetime.timedelta(days=1))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def nyt_puzzle_number(day: datetime.date) -> int:
    """The NYT Wordle puzzle number of ``day`` (#0 was 2021-06-19; negative before it). A
    datetime counts by its own date, so convert it to the zone that decides the day first."""
    return (_day(day) - NYT_EPOCH).days


def _day(day: datetime.date) -> datetime.date:
    return day.date() if isinstance(day, datetime.datetime) else day


def parse_app_results(text: str) -> AppResults:
    """The results (or the playing notice) in one message from the Wordle app."""
    try:
        return _parse(text)
    except Exception as exc:  # a message must never crash the reader
        return AppResults(None, False, [], [f"Could not read this message ({type(exc).__name__})"])


def _parse(text: str) -> AppResults:
    text = text.replace("\r\n", "\n").replace("\r", "\n")[:MAX_TEXT]
    streak = _STREAK.search(text)
    said = _RESULTS.search(text)
    if streak is None and said is None:
        playing = _playing(text)
        if playing is not None:
            return playing
        return AppResults(None, False, [], [_NOT_APP])
    body_start = max(m.end() for m in (streak, said) if m is not None)
    body = re.sub(r"^[\s*!🔥\ufe0f]+", "", text[body_start:])  # the rest of the first line
    number = int(streak["streak"]) if streak else None
    results, problems = _recap(body)
    if not results and not problems:
        problems.append("The recap lists no results (no lines like '4/6: @name')")
    if said is None:
        if not results:
            return AppResults(None, False, [], [_NOT_APP])
        problems.insert(0, 'The recap does not say "Here are yesterday\'s results": which day?')
    return AppResults(number, said is not None, results, problems, kind="recap")


_NOT_APP = (
    "Not a Wordle app recap: it starts 'Your group is on a … day streak! "
    "Here are yesterday's results:'"
)


def _recap(body: str) -> tuple[list[AppResult], list[str]]:
    """The score lines after the header: each player once, and what was wrong with a line."""
    results: list[AppResult] = []
    problems: list[str] = []
    seen: dict[int | str, str] = {}
    marks = list(_SCORE.finditer(body))
    lead = body[: marks[0].start() if marks else len(body)]
    if lead.strip(" \n\t*"):
        problems.append(f"{_quote(lead)}: not a score line like '4/6: @name', nothing read")
    for i, mark in enumerate(marks):
        line = body[mark.start() : marks[i + 1].start() if i + 1 < len(marks) else len(body)]
        score, of = mark["score"].upper(), mark["of"]
        if of != "6" or score not in _SCORES:
            problems.append(
                f"{_quote(line)}: {score}/{of} is not a Wordle score (1/6 to 6/6, or X/6), "
                "nothing recorded for it"
            )
            continue
        players, stray = _players(line[mark.end() - mark.start() :])
        if stray:
            problems.append(f"{_quote(line)}: '{stray[:30]}' is not a player, so it was skipped")
        if not players:
            problems.append(f"{_quote(line)}: no players on this line, nothing recorded for it")
            continue
        won = score != "X"
        for user_id, name in players:
            key: int | str = user_id if user_id is not None else (name or "").casefold()
            if key in seen:
                problems.append(
                    f"{_quote(line)}: {_who(user_id, name)} is also on the {seen[key]} line; "
                    "the first counts"
                )
                continue
            seen[key] = f"{score}/6"
            results.append(
                AppResult(
                    f"{score}/6", won, int(score) if won else 0, user_id, name, bool(mark["crown"])
                )
            )
    return results, problems


def _players(text: str) -> tuple[list[tuple[int | None, str | None]], str]:
    """The mentions and plain "@Name"s on a line, in order, and any text that is neither. A plain
    name runs to the next "@", mention or line break: names may hold spaces."""
    players: list[tuple[int | None, str | None]] = []
    stray: list[str] = []
    at = 0
    for mention in [*_MENTION.finditer(text), None]:
        chunk = text[at : mention.start() if mention else len(text)]
        head, *names = chunk.split("@")
        if head.strip(" \n\t*"):
            stray.append(head.strip())
        for piece in names:
            name, _, rest = piece.partition("\n")  # a name ends with its line
            name = name.strip()
            if name.endswith("**"):  # bold closing the line
                name = name[:-2].rstrip()
            if name:
                players.append((None, name[:100].rstrip()))
            if rest.strip(" \n\t*"):
                stray.append(rest.strip())
        if mention is None:
            break
        players.append((int(mention["id"]), None))
        at = mention.end()
    return players, " ".join(" ".join(stray).split())  # one line, as the problem quotes it


def _playing(text: str) -> AppResults | None:
    """The app's "… was playing" notice: who started, and no scores."""
    match = _PLAYING.fullmatch(text.strip())
    if match is None:
        return None
    names, others = [], 0
    for part in re.split(r",\s*|\s+and\s+", match["names"]):
        part = part.strip()
        count = _OTHERS.fullmatch(part)
        if count:
            others += int(count["count"])
        elif part:
            names.append(part[:100].rstrip())
    return AppResults(None, False, [], [], kind="playing", playing=names, others=others)


def _quote(line: str) -> str:
    text = " ".join(line.split())
    return f"'{text[:40]}…'" if len(text) > 40 else f"'{text}'"


def _who(user_id: int | None, name: str | None) -> str:
    return f"<@{user_id}>" if user_id is not None else f"@{name}"
