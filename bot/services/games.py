"""The game service: how a guess is taken, validated, stored and answered, for every front end.

Methods take plain values (a player, a scope, text) and return :class:`Outcome` values; a
refusal is an outcome with the game's message, never an exception. One lock per player means
two actions of the same player never interleave; the stored version check catches anything
that changed the game elsewhere (another process on the same database).
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from bot.services.daily import DailyPuzzles
from bot.services.kinds import (
    KINDS,
    EngineGame,
    answer_text,
    fresh_copy,
    guesses_used,
    kind_name,
    new_game,
    parse,
)
from bot.storage import Result, Storage, StorageBusy, StoredGame
from engine.absurdle import AbsurdleGame
from engine.aio import hint_async
from engine.game import GameStateError, Status
from engine.multiboard import MultiGame
from engine.pattern import score, to_digits
from engine.rules import Mode
from engine.solver.hints import Hint
from engine.solver.measures import Measure
from engine.solver.multiboard import MultiHint, multi_hint
from engine.solver.position import InconsistentHistory
from engine.variants import get_variant

PLAYABLE = tuple(KINDS)
DM = 0  # the scope of games played in direct messages

NO_GAME = "No game in progress"
NOT_YOURS = "This is someone else's game: start your own"
BUSY = "The game's database is busy; nothing was changed, try again in a moment"
GAME_OVER = "This game is over"
CHANGED = "Your game changed somewhere else; try again"
MAX_INPUT = 200  # characters; anything longer is refused without being read
_PARSED_LIMIT = 50_000  # parsed games kept in memory


@dataclass(frozen=True)
class Player:
    id: int
    name: str = ""


@dataclass(frozen=True)
class GameView:
    """What a front end shows of a game. The answer is present only once the game is over."""

    game_id: int
    player_id: int
    kind: str
    variant: str
    title: str
    mode: str
    day: str | None
    number: int | None
    rows: list[tuple[str, str]]  # guess, pattern digits (multi-board: the guesses, "" digits)
    status: str
    max_guesses: int  # 0: no limit (Absurdle)
    length: int
    answer: str | None
    boards: list[list[tuple[str, str]]] | None = None  # multi-board: each board's rows
    remaining: int | None = None  # Absurdle: words the adversary still has
    target: str | None = None  # Absurdle challenge

    @property
    def daily(self) -> bool:
        return self.day is not None

    @property
    def over(self) -> bool:
        return self.status != Status.PLAYING.value


@dataclass(frozen=True)
class Outcome:
    game: GameView | None = None
    message: str | None = None  # a refusal when ``ok`` is False, otherwise a note
    ok: bool = True

    @classmethod
    def refuse(cls, message: str, game: GameView | None = None) -> Outcome:
        return cls(game, message, ok=False)


@dataclass(frozen=True)
class HintOutcome:
    hint: Hint | None = None
    message: str | None = None
    multi: MultiHint | None = None  # multi-board games: per-board candidates, joint guess

    @property
    def ok(self) -> bool:
        return self.hint is not None or self.multi is not None


def kind_of(variant: str, daily: bool, challenge: bool = False) -> str:
    return f"{variant}:{'challenge' if challenge else 'daily' if daily else 'practice'}"


@dataclass
class GameService:
    storage: Storage
    daily: DailyPuzzles
    _locks: defaultdict[int, asyncio.Lock] = field(
        default_factory=lambda: defaultdict(asyncio.Lock)
    )
    # Games in progress by (player, scope), then kind: a write-through cache of the database,
    # which stays the truth (every change is stored first; a version conflict drops the entry).
    _active: dict[tuple[int, int], dict[str, StoredGame]] = field(default_factory=dict)
    # How practice answers are drawn (tests pin them).
    choose_answer: Callable[[str], str] = field(default=lambda variant: _practice_answer(variant))
    deal: Callable[[str, int], list[str]] = field(default=lambda variant, n: _deal(variant, n))
    # Parsed engine games by (player, game id, version): parsing re-scores every row, so do it
    # once. Game ids are never reused, and the owner in the key keeps players apart regardless.
    _parsed: OrderedDict[tuple[int, int, int], EngineGame] = field(default_factory=OrderedDict)

    async def _start(
        self, player: Player, scope: int, variant: str = "wordle", *, daily: bool = False,
        mode: Mode = Mode.NORMAL, zone_day: date | None = None, challenge: bool = False,
    ) -> Outcome:  # fmt: skip
        spec = KINDS.get(variant)
        if spec is None:
            return Outcome.refuse(f"Unknown game {variant[:20]!r}; play {', '.join(PLAYABLE)}")
        if daily and not spec.daily:
            return Outcome.refuse(f"{spec.title} has no daily puzzle: play practice")
        kind = kind_of(variant, daily, challenge)
        async with self._locks[player.id]:
            await self.storage.ensure_player(player.id, player.name)
            active = await self._find(player, scope, kind, fresh=True)
            if active is not None:
                return Outcome(self._view(active), "You already have a game going: here it is")
            day = None
            if daily:
                today = zone_day or await self._today(scope)
                day = today.isoformat()
                played = await self.storage.daily_game(player.id, kind, day)
                if played is not None:
                    if played.status == Status.PLAYING.value:
                        return Outcome(self._view(played), "Here is your game in progress")
                    number = self.daily.number(today)
                    return Outcome.refuse(
                        f"You have already played today's {get_variant(variant).title} "
                        f"#{number}. A new one comes tomorrow.",
                        self._view(played),
                    )
                answer = self.daily.answer(variant, today)
                await self.storage.record_daily(variant, day, self.daily.number(today), answer)
            elif spec.boards > 1:
                answers = self.deal(spec.variant, spec.boards)
            else:
                answer = self.choose_answer(spec.variant)
            target = self.choose_answer(spec.variant) if challenge else None
            game = new_game(spec, answers if spec.boards > 1 else [answer], mode, target)
            stored = await self.storage.insert_game(player.id, scope, kind, day, game.to_dict())
            if stored is None:  # created meanwhile by another process on the same database
                again = await self._find(player, scope, kind, fresh=True)
                if again is None:
                    return Outcome.refuse(CHANGED)
                return Outcome(self._view(again), "You already have a game going: here it is")
            self._remember(stored)
            return Outcome(self._view(stored))

    async def _guess(
        self, player: Player, scope: int, text: str, kind: str | None, game_id: int | None
    ) -> Outcome:
        async with self._locks[player.id]:
            stored, refusal = await self._target(player, scope, kind, game_id)
            if stored is None:
                return refusal
            view = self._view(stored)
            if stored.status != Status.PLAYING.value:
                return Outcome.refuse(GAME_OVER, view)
            if len(text) > MAX_INPUT:
                return Outcome.refuse(f"Too many {get_variant(view.variant).unit}s", view)
            game = self._game(stored)
            outcome = game.guess(text)
            if not outcome.accepted:
                assert outcome.message is not None
                return Outcome.refuse(outcome.message, view)
            result = _result(game, stored) if game.over else None
            saved = await self.storage.save_game(stored, game.to_dict(), game.status.value, result)
            if saved is None:
                self._forget(stored)
                return Outcome.refuse(CHANGED, view)
            self._remember(saved, game)
            return Outcome(self._view(saved))

    async def _give_up(
        self, player: Player, scope: int, kind: str | None = None, game_id: int | None = None
    ) -> Outcome:
        async with self._locks[player.id]:
            stored, refusal = await self._target(player, scope, kind, game_id)
            if stored is None:
                return refusal
            if stored.status != Status.PLAYING.value:
                return Outcome.refuse(GAME_OVER, self._view(stored))
            game = self._game(stored)
            result = Result(False, guesses_used(game), stored.puzzle)
            saved = await self.storage.save_game(stored, game.to_dict(), Status.LOST.value, result)
            if saved is None:
                self._forget(stored)
                return Outcome.refuse(CHANGED, self._view(stored))
            self._remember(saved)
            return Outcome(self._view(saved), f"The answer was {answer_text(game).upper()}")

    async def start(
        self, player: Player, scope: int, variant: str = "wordle", *, daily: bool = False,
        mode: Mode = Mode.NORMAL, zone_day: date | None = None, challenge: bool = False,
    ) -> Outcome:  # fmt: skip
        """Start a game, or return the one already going. A daily may be played once.
        ``challenge``: Absurdle's challenge mode, with a target to force."""
        return await _unless_busy(
            self._start(
                player,
                scope,
                variant,
                daily=daily,
                mode=mode,
                zone_day=zone_day,
                challenge=challenge,
            )
        )

    async def guess(
        self, player: Player, scope: int, text: str, kind: str | None = None,
        game_id: int | None = None,
    ) -> Outcome:  # fmt: skip
        """Play a guess in the player's game: the one ``game_id`` names (a board's button),
        else the active game of ``kind``, else the one played last."""
        return await _unless_busy(self._guess(player, scope, text, kind, game_id))

    async def give_up(
        self, player: Player, scope: int, kind: str | None = None, game_id: int | None = None
    ) -> Outcome:
        return await _unless_busy(self._give_up(player, scope, kind, game_id))

    async def current(self, player: Player, scope: int, kind: str | None = None) -> Outcome:
        stored = await self._find(player, scope, kind, fresh=True)
        return Outcome.refuse(NO_GAME) if stored is None else Outcome(self._view(stored))

    async def game(self, game_id: int) -> GameView | None:
        stored = await self.storage.game(game_id)
        return None if stored is None else self._view(stored)

    async def hint(
        self, player: Player, scope: int, kind: str | None = None, *, top: int = 5,
        daily_hints: bool | None = None, game_id: int | None = None,
    ) -> HintOutcome:  # fmt: skip
        """A hint for the player's game in progress (computed off the event loop). Whether
        daily games allow hints is the guild's setting unless ``daily_hints`` says."""
        stored, refusal = await self._target(player, scope, kind, game_id)
        if stored is None:
            return HintOutcome(message=refusal.message)
        if stored.status != Status.PLAYING.value:
            return HintOutcome(message=GAME_OVER)
        if daily_hints is None:
            daily_hints = scope == DM or (await self.storage.guild_settings(scope)).hints_in_daily
        if stored.puzzle is not None and not daily_hints:
            return HintOutcome(message="Hints are off for daily games in this server")
        game = self._game(stored)
        if isinstance(game, MultiGame):
            rows = [_multi_patterns(game, i) for i in range(len(game.guesses))]
            multi = await asyncio.to_thread(multi_hint, game.variant, list(game.guesses), rows)
            return HintOutcome(multi=multi)
        measure = Measure.MINIMAX if isinstance(game, AbsurdleGame) else Measure.ENTROPY
        try:
            result = await hint_async(game.variant.name, game.rows, game.mode, top, measure)
        except InconsistentHistory as exc:  # cannot happen for a real game; say so plainly
            return HintOutcome(message=str(exc))
        return HintOutcome(result)

    async def _today(self, scope: int) -> date:
        """Today where the day boundary is drawn: the guild's time zone, else the default."""
        zone = None if scope == DM else (await self.storage.guild_settings(scope)).timezone
        return self.daily.today(ZoneInfo(zone) if zone else None)

    async def _target(
        self, player: Player, scope: int, kind: str | None, game_id: int | None
    ) -> tuple[StoredGame | None, Outcome]:
        """The game an action is about, or the refusal to give."""
        if game_id is None:
            found = await self._find(player, scope, kind)
            return found, Outcome.refuse(NO_GAME)
        stored = await self.storage.game(game_id)
        if stored is None:
            return None, Outcome.refuse(NO_GAME)
        if stored.player_id != player.id:
            return None, Outcome.refuse(NOT_YOURS)
        return stored, Outcome.refuse(NO_GAME)

    async def _find(
        self, player: Player, scope: int, kind: str | None, *, fresh: bool = False
    ) -> StoredGame | None:
        """The player's game in progress here: of ``kind``, or the newest of any kind."""
        games = self._active.get((player.id, scope))
        if games is None or fresh:
            found = await self.storage.active_games(player.id, scope)
            games = self._active[(player.id, scope)] = {g.kind: g for g in found}
        if kind is not None:
            return games.get(kind)
        return max(games.values(), key=lambda g: g.id, default=None)

    def _remember(self, stored: StoredGame, game: EngineGame | None = None) -> None:
        if game is not None:
            self._keep_parsed(stored, game)
        games = self._active.setdefault((stored.player_id, stored.scope), {})
        if stored.status == Status.PLAYING.value:
            games[stored.kind] = stored
        else:
            games.pop(stored.kind, None)

    def forget_player(self, player_id: int) -> None:
        """Drop everything held in memory about a player (their data was deleted)."""
        for key in [k for k in self._active if k[0] == player_id]:
            del self._active[key]
        for key in [k for k in self._parsed if k[0] == player_id]:
            del self._parsed[key]
        self._locks.pop(player_id, None)

    def _forget(self, stored: StoredGame) -> None:
        self._active.pop((stored.player_id, stored.scope), None)

    def _game(self, stored: StoredGame) -> EngineGame:
        """A fresh engine game for ``stored`` (fresh: callers may play it)."""
        return fresh_copy(self._parsed_game(stored))

    def _parsed_game(self, stored: StoredGame) -> EngineGame:
        """The parsed game, shared: read it, never play it."""
        parsed = self._parsed.get(_parsed_key(stored))
        if parsed is None:
            parsed = _parse(stored)
            self._keep_parsed(stored, parsed)
        return parsed

    def _keep_parsed(self, stored: StoredGame, game: EngineGame) -> None:
        self._parsed[_parsed_key(stored)] = game
        while len(self._parsed) > _PARSED_LIMIT:
            self._parsed.popitem(last=False)

    def _view(self, stored: StoredGame) -> GameView:
        game = self._parsed_game(stored)
        spec = kind_name(stored.kind)
        variant = game.variant
        number = None
        if stored.puzzle is not None:
            number = self.daily.number(date.fromisoformat(stored.puzzle))
        status = stored.status
        over = status != Status.PLAYING.value
        boards = remaining = target = None
        if isinstance(game, MultiGame):
            rows = [(g, "") for g in game.guesses]
            boards = [[(g, to_digits(p, variant.length)) for g, p in game.rows(b)]
                      for b in range(len(game.answers))]  # fmt: skip
        else:
            rows = [(g, to_digits(p, variant.length)) for g, p in game.rows]
        if isinstance(game, AbsurdleGame):
            remaining, target = len(game.candidates), game.target
        return GameView(
            stored.id, stored.player_id, stored.kind, variant.name,
            spec.title if spec.name != "wordle" else variant.title, game.mode.value,
            stored.puzzle, number, rows, status, spec.limit, variant.length,
            answer_text(game) if over else None, boards, remaining, target,
        )  # fmt: skip


async def _unless_busy(action: Coroutine[Any, Any, Outcome]) -> Outcome:
    """A database locked past its timeout changes nothing; say so instead of failing."""
    try:
        return await action
    except StorageBusy:
        return Outcome.refuse(BUSY)


def _parsed_key(stored: StoredGame) -> tuple[int, int, int]:
    return (stored.player_id, stored.id, stored.version)


def _parse(stored: StoredGame) -> EngineGame:
    try:
        return parse(stored.state)
    except GameStateError as exc:
        raise GameStateError(f"stored game {stored.id} is damaged: {exc}") from exc


def _result(game: EngineGame, stored: StoredGame) -> Result:
    return Result(game.status is Status.WON, guesses_used(game), stored.puzzle)


def _deal(variant: str, boards: int) -> list[str]:
    return secrets.SystemRandom().sample(get_variant(variant).answers.words, boards)


def _multi_patterns(game: MultiGame, index: int) -> list[int | None]:
    """Each board's pattern for guess ``index``: None once that board was solved before it."""
    word = game.guesses[index]
    out: list[int | None] = []
    for board, answer in enumerate(game.answers):
        solved = game.solved_at(board)
        out.append(None if solved is not None and solved <= index else score(word, answer))
    return out


def _practice_answer(variant: str) -> str:
    return secrets.choice(get_variant(variant).answers.words)
