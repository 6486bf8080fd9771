"""Analysing what players paste, coaching finished games (recording shares: .shares).

An NYT Wordle share or typed history is read with the NYT answer model
(:mod:`engine.answer_model`): any word the NYT accepts may be its answer, the original
answers far likelier, so a real answer outside the original list is never called impossible.
A share is read with the model of its own number (the answers before it less likely), a typed
history with today's (:mod:`bot.services.answers`); a solved share with its words is a vote
for its answer, from which the bot learns answers after the shipped list ends.

Analysis can be costly (a hard-mode grid read without its words), so it runs in a worker
pool of its own, apart from the game path (board images, hints), and is bounded per paste
and per player, wherever they ask (:class:`AnalysisService`, which every front end calls):
at most :data:`MAX_GRIDS` grids of a paste are read, within one time budget for the whole
paste (``ANALYSIS_BUDGET_SECONDS``); :class:`AnalysisGate` lets a player have one analysis
at a time (in any server, DM or group DM) and one every cooldown, keeps the queue bounded
(:data:`QUEUE_LIMIT` at once) and limits each place to a few at once. Where hints are off,
no paste is read into one (:mod:`bot.services.hint_rules`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any, TypeVar

from bot.i18n import N_, _, ngettext
from bot.i18n.reasons import reason_text
from bot.services.answers import AnswerBook
from bot.services.daily import DailyPuzzles
from bot.services.hint_rules import (
    CLONE_OFF,
    HINTS_OFF_HERE,
    READ_GAMES,
    closed_note,
    closed_puzzles,
    read_list,
    typed_refusal,
)
from bot.services.kinds import parse
from bot.storage import Storage
from bot.storage.records import StoredGame
from engine.absurdle import AbsurdleGame
from engine.agents.advice import coach_with_rollout
from engine.answer_model import AnswerModel, allowed_model, nyt_model
from engine.history import HistoryError, parse_history
from engine.multiboard import MultiGame
from engine.pattern import PatternError
from engine.rules import Mode, shape_reason
from engine.shares import ParseResult, Share, parse_shares
from engine.solver.coach import (
    BoardsCoaching,
    Coaching,
    GridReading,
    WorstCaseCoaching,
    coach,
    coach_boards,
    coach_worst_case,
    grid_candidates,
)
from engine.solver.hints import Hint, hint
from engine.solver.position import InconsistentHistory
from engine.solver.weighted import model_coach, model_grid, model_hint
from engine.variants import get_variant

MAX_PASTE = 4000
MAX_GRIDS = 3  # grids read per paste; the rest are listed, not read
BUDGET = 5.0  # seconds one paste's grid readings may take, all together (a setting)
QUEUE_LIMIT = 8  # analyses admitted at once (running or waiting for the worker), everywhere
# Translators: {header} is the pasted share's first line ("Katla 45 3/6"), {game} its game.
UNPLAYED_NOTE = N_("{header}: {game} is not a game this bot plays, so its share is not read "
                   "and counts nowhere")  # fmt: skip
STILL_WORKING = N_("Still working on your last one: its answer comes first")
QUEUE_FULL = N_("The analyser is busy with others: try again in a minute")
T = TypeVar("T")
# One worker: analyses queue behind each other, never in front of a player's guess.
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wordlebot-analysis")


async def _off_loop(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    return await asyncio.get_running_loop().run_in_executor(
        _POOL, partial(function, *args, **kwargs)
    )


def _timed(function: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """``function``'s result and the seconds it took (in the worker: not the wait before)."""
    began = time.monotonic()
    result = function(*args, **kwargs)
    return result, time.monotonic() - began


class AnalysisGate:
    """Whether an analysis may start now: one at a time per player (wherever they ask), one
    per player every ``cooldown`` seconds, at most ``limit`` admitted at once in all, and at
    most ``per_server`` at once in one place (a server, a DM or a group DM)."""

    def __init__(self, cooldown: float = 10.0, per_server: int = 2, limit: int = QUEUE_LIMIT,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.cooldown, self.per_server, self.limit, self.clock = cooldown, per_server, limit, clock
        self._last: OrderedDict[int, float] = OrderedDict()
        self._running: defaultdict[int, int] = defaultdict(int)
        self._working: set[int] = set()  # players with an analysis admitted

    def admit(self, player_id: int, server_id: int) -> str | None:
        """None, with a slot taken (give it back with :meth:`release`), or why not (in the
        current locale)."""
        if player_id in self._working:
            return _(STILL_WORKING)
        now = self.clock()
        last = self._last.get(player_id)
        if last is not None and now - last < self.cooldown:
            return _("One analysis every {cooldown} s: try again in {wait} s").format(
                cooldown=f"{self.cooldown:.0f}", wait=f"{self.cooldown - (now - last):.0f}"
            )
        if len(self._working) >= self.limit:
            return _(QUEUE_FULL)
        if self._running[server_id] >= self.per_server:
            return _("Analyses are busy in this server: try again in a moment")
        self._last[player_id] = now
        self._last.move_to_end(player_id)
        while len(self._last) > 10_000:  # only recent players matter for a cooldown
            self._last.popitem(last=False)
        self._running[server_id] += 1
        self._working.add(player_id)
        return None

    def release(self, player_id: int, server_id: int) -> None:
        self._working.discard(player_id)
        self._running[server_id] -= 1
        if self._running[server_id] <= 0:
            del self._running[server_id]


@dataclass(frozen=True)
class Analysis:
    shares: list[Share] = field(default_factory=list)
    readings: list[GridReading | None] = field(default_factory=list)  # per share
    hint: Hint | None = None  # for a typed history, or a share with its words
    coaching: Coaching | None = None  # for a Wordle share with its words
    problems: list[str] = field(default_factory=list)
    refused: str | None = None  # not analysed at all (the gate): why, for the player alone


@dataclass
class AnalysisService:
    """/analyze and the "Analyze Wordle result" menu for every front end, with the limits
    and the hint rules applied here, once."""

    storage: Storage
    daily: DailyPuzzles
    gate: AnalysisGate = field(default_factory=AnalysisGate)
    budget: float = BUDGET

    async def analyze(
        self, player_id: int, scope: int, text: str, words: str = "", *,
        admitted: Callable[[], Awaitable[object]] | None = None, guild: int | None = None,
    ) -> Analysis:  # fmt: skip
        """:func:`analyze` for ``player_id`` asking in ``scope`` (a server; 0: a DM), or
        ``refused`` when the gate turns it away. ``admitted`` runs once it is let in,
        before any work (a front end acknowledges there: "thinking..."). ``guild``: the
        Discord server asked in, if any (not a group DM's channel, which anyone can make):
        where a learned NYT answer's vote was cast (:class:`AnswerBook`)."""
        refusal = self.gate.admit(player_id, scope)
        if refusal is not None:
            return Analysis(refused=refusal)
        try:
            if admitted is not None:
                await admitted()
            book = AnswerBook(self.storage, self.daily)
            result = await analyze(
                text, words, budget=self.budget,
                refused=await typed_refusal(self.storage, player_id),
                closed=await closed_puzzles(self.storage, self.daily, scope),
                puzzle=book.today(), learned=await book.learned(),
            )  # fmt: skip
            if result.hint is not None and result.shares and words.strip():
                share = next((s for s in result.shares if s.game in READ_GAMES), None)
                if share is not None:
                    words_played = words.replace(",", " ").split()
                    await book.observe(player_id, share, words_played, guild or 0)
            return result
        finally:
            self.gate.release(player_id, scope)


async def analyze(
    text: str, words: str = "", *, budget: float = BUDGET, refused: str | None = None,
    closed: Collection[int] = (), puzzle: int | None = None,
    learned: Sequence[tuple[int, str]] = (),
) -> Analysis:  # fmt: skip
    """Shares in ``text`` (the first :data:`MAX_GRIDS` Wordle or Primel grids read for their
    possible answers, within ``budget`` seconds for them all), or a typed history (answered
    with a hint). With ``words`` (the guesses behind a share's rows) the first Wordle share
    becomes a history: what is left and the best next guess, in hard mode when the share
    says so. ``refused``: no help at all, only the shares listed, and why (hints are off for
    this player); ``closed``: where hints are off, today's puzzle numbers, whose grids are
    not read, and no typed words are read either (nobody can tell which puzzle they are of);
    ``puzzle``: today's NYT number, whose model reads a typed history or a share without a
    number (None: the model without history), ``learned``: answers the deployment learned
    beyond the shipped list. Never raises: problems are listed."""

    def model_of(share: Share | None) -> AnswerModel:
        number = share.puzzle if share is not None and share.puzzle is not None else puzzle
        return nyt_model(number, learned)

    text = text[:MAX_PASTE]
    parsed = parse_shares(text)
    parsed.problems = unplayed_told(parsed)
    if refused is not None:
        return Analysis(parsed.shares, [None] * len(parsed.shares), problems=[refused])
    if parsed.shares and words.strip():
        if closed:  # hints are off here: a grid's words could be today's, whatever its number
            return Analysis(parsed.shares, [None] * len(parsed.shares),
                            problems=[*parsed.problems, _(HINTS_OFF_HERE)])  # fmt: skip
        return await _with_words(parsed.shares, words, parsed.problems, model_of)
    if parsed.shares:
        readings: list[GridReading | None] = []
        problems, read, skipped, spent = list(parsed.problems), 0, 0, 0.0
        for share in parsed.shares:
            board = share.boards[0]
            reading = None
            if read_list(share) is not None and board.rows:
                if closed and share.game not in READ_GAMES:  # its numbers are no day of ours
                    problems.append(_(CLONE_OFF).format(game=share.title))
                elif share.puzzle is not None and share.puzzle in closed:
                    problems.append(closed_note(share.game, share.puzzle))
                elif read >= MAX_GRIDS:
                    skipped += 1
                else:
                    read += 1
                    left = max(0.0, budget - spent)
                    reader = _reader(share, model_of(share))
                    reading, took = await _off_loop(_timed, reader, board.rows, share.hard, left)
                    spent += took
            readings.append(reading)
        if skipped:
            problems.append(ngettext(
                "{count} more grid not read: at most {most} are read per paste",
                "{count} more grids not read: at most {most} are read per paste", skipped,
            ).format(count=skipped, most=MAX_GRIDS))  # fmt: skip
        return Analysis(parsed.shares, readings, problems=problems)
    if parsed.unplayed:  # another game's share: no typed history either
        return Analysis(problems=parsed.problems)
    try:
        rows = parse_history(text, get_variant("wordle-nyt"))
        if rows and closed:
            return Analysis(problems=[_(HINTS_OFF_HERE)])
        if rows:
            result = await _off_loop(model_hint, model_of(None), rows, Mode.NORMAL)
            return Analysis(hint=result)
    except (HistoryError, PatternError, InconsistentHistory) as exc:
        return Analysis(
            problems=[*parsed.problems, _("As a typed history: {problem}").format(problem=exc)]
        )
    return Analysis(problems=parsed.problems)


def unplayed_told(parsed: ParseResult) -> list[str]:
    """The reading's problems, each share of a game the bot does not play said in the
    reader's language."""
    notes = {u.note for u in parsed.unplayed}
    told = [_(UNPLAYED_NOTE).format(header=u.header, game=u.title) for u in parsed.unplayed]
    return [p for p in parsed.problems if p not in notes] + told


def _reader(share: Share, model: AnswerModel) -> Callable[[list[int], bool, float], GridReading]:
    """Read a grid's possible answers (its winning row says nothing) within a budget; an NYT
    grid with ``model``."""
    variant = get_variant(read_list(share) or share.game)
    win = 3**variant.length - 1

    def read(rows: list[int], hard: bool, budget: float) -> GridReading:
        patterns = [p for p in rows if p != win]
        if share.game == "wordle":
            return model_grid(model, patterns, hard, budget=budget)
        return grid_candidates(variant, patterns, hard, budget=budget)

    return read


async def _with_words(
    shares: list[Share], words: str, problems: list[str],
    model_of: Callable[[Share | None], AnswerModel],
) -> Analysis:  # fmt: skip
    share = next((s for s in shares if read_list(s) is not None), None)
    if share is None:
        return Analysis(
            shares, [None] * len(shares), problems=[*problems, _("No Wordle grid to pair")]
        )
    variant = get_variant(read_list(share) or share.game)
    guesses = words.replace(",", " ").lower().split()
    rows = share.boards[0].rows
    if len(guesses) > len(rows):
        note = _("{words} words for {rows} rows: the extra words were ignored").format(
            words=len(guesses), rows=len(rows)
        )
        problems = [*problems, note]
    history = list(zip(guesses, rows, strict=False))
    mode = Mode.HARD if share.hard else Mode.NORMAL
    bad = next(((i, g, problem) for i, (g, _row) in enumerate(history, 1)
                if (problem := shape_reason(g, variant)) is not None), None)  # fmt: skip
    if bad is not None:
        why = _("Word {number} ({word}): {problem}").format(
            number=bad[0], word=repr(bad[1][:20]), problem=reason_text(bad[2])
        )
        return Analysis(shares, [None] * len(shares), problems=[*problems, why])
    nyt = share.game == "wordle"
    try:
        if nyt:
            result = await _off_loop(model_hint, model_of(share), history, mode)
        else:
            result = await _off_loop(hint, variant, history, mode)
    except (InconsistentHistory, ValueError) as exc:
        return Analysis(shares, [None] * len(shares), problems=[*problems, str(exc)])
    coaching = None
    if nyt:
        try:
            coaching = await _off_loop(model_coach, model_of(share), history, mode)
        except ValueError as exc:  # a word the NYT does not accept: the hint still stands
            problems = [*problems, _("No coaching: {problem}").format(problem=exc)]
    return Analysis(shares, [None] * len(shares), hint=result, coaching=coaching,
                    problems=problems)  # fmt: skip


Report = Coaching | BoardsCoaching | WorstCaseCoaching
NOTHING_TO_COACH = N_("Your last game ended before its first guess: there is nothing to coach")
DAILY_PRIVATE = N_("(Today's daily stays private until the day is over.)")
SHARED_PUZZLE_PRIVATE = N_("(This puzzle stays private: others can still play it.)")


def coaching_kept_private(stored: StoredGame, today: date) -> str | None:
    """Why coaching ``stored`` in a channel would spoil a puzzle others can still play (a
    note, marked for the catalogs), or None: its report names every guess and the answer.
    Only a game of its own answer (practice: no puzzle) or a daily whose day is over may be
    shown. An archive day stays playable by everyone who has not played it, any day; a
    challenge and a race are set for others too."""
    if stored.puzzle is None:
        return None
    if stored.kind.endswith(":daily"):
        return DAILY_PRIVATE if stored.puzzle >= today.isoformat() else None
    return SHARED_PUZZLE_PRIVATE


async def coach_game(
    state: dict[str, object], pool: ThreadPoolExecutor | None = None, *, rollout: bool = True
) -> Report | None:
    """Coaching for a stored game, in the analysis pool or in ``pool``: a Wordle or Primel
    game turn by turn (with ``rollout``, each turn names the rollout agent's guess where it
    differs: up to a second more, jobs that only need the skill leave it off), a multi-board
    game board by board, an Absurdle game by its worst cases. None for a game with no guess."""
    game = parse(dict(state))
    work: Callable[[], Report]
    if isinstance(game, MultiGame):
        if not game.guesses:
            return None
        work = partial(coach_boards, game.variant, game.answers, game.guesses, game.mode)
    elif isinstance(game, AbsurdleGame):
        if not game.rows:
            return None
        work = partial(coach_worst_case, game.variant, game.rows, game.mode)
    elif not game.rows:
        return None
    elif game.answer not in game.variant.answers:  # a challenge's word: any allowed word
        work = partial(model_coach, allowed_model(game.variant.name), game.rows, game.mode)
    else:
        advise = coach_with_rollout if rollout else coach
        work = partial(advise, game.variant, game.rows, game.mode)
    return await asyncio.get_running_loop().run_in_executor(pool or _POOL, work)
