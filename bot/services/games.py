"""The game service: how a guess is taken, validated, stored and answered, for every front end.

Methods take plain values (a player, a scope, text) and return :class:`Outcome` values; a
refusal is an outcome with the game's message, never an exception. One lock per player means
two actions of the same player never interleave; the stored version check catches anything
that changed the game elsewhere (another process on the same database).
"""

from __future__ import annotations

import asyncio
import secrets
import string
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Coroutine, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from bot.i18n import N_, _
from bot.i18n.reasons import reason_text, refusal_text
from bot.services.achievements import award
from bot.services.answers import AnswerBook
from bot.services.closing import (
    close_game,
    closed_message,
    closed_note,
    game_day,
    over_message,
)
from bot.services.cooldowns import CHALLENGES_PER_TARGET
from bot.services.daily import DailyPuzzles, shown_number
from bot.services.deletion import CHALLENGE, LASTING, MARKS, played_mark, player_mark
from bot.services.hint_rules import HINTS_OFF_HERE, hints_allowed, typed_refusal
from bot.services.hint_rules import HINTS_OFF_TYPED as HINTS_OFF_TYPED
from bot.services.kinds import (
    GAMES,
    KINDS,
    EngineGame,
    answer_text,
    fresh_copy,
    guess_limit_of,
    guesses_used,
    kind_name,
    new_game,
    parse,
    shown_title,
)
from bot.storage import Result, Storage, StorageBusy, StoredGame
from bot.storage.cooldowns import stamp
from bot.storage.records import Deletion
from engine.absurdle import AbsurdleGame
from engine.aio import hint_async
from engine.answer_model import allowed_model
from engine.game import GameStateError, Status
from engine.history import HistoryError, parse_history
from engine.multiboard import MultiGame
from engine.pattern import PatternError, score, to_digits
from engine.rules import Mode, shout, too_many
from engine.solver.absurdle import challenge_hint
from engine.solver.hints import Hint
from engine.solver.measures import Measure
from engine.solver.multiboard import MultiHint, multi_hint
from engine.solver.position import InconsistentHistory
from engine.solver.weighted import model_hint
from engine.variants import get_variant

PLAYABLE = GAMES  # the games a player names (each language's Wordle: by its options)
DM = 0  # the scope of games played in direct messages

# Marked for the catalogs; the outcomes carry them translated (the reader's locale is set
# for the whole interaction): compare an outcome with ``_(CONSTANT)``, or by its flags.
NO_GAME = N_("No game in progress")
NOT_YOURS = N_("This is someone else's game: start your own")
BUSY = N_("The game's database is busy; nothing was changed, try again in a moment")
GAME_OVER = N_("This game is over")
CHANGED = N_("Your game changed somewhere else; try again")
# The database holds an older version of the game than its player was shown (a crash undid
# moves, a backup was restored): nothing is played on it until the player has seen it.
ROLLED_BACK = N_("This game changed: here it is as stored. Nothing was played; guess again")
WHICH = N_("You have several games going: which one?")
HINTS_OFF = N_("Hints are off for daily games in this server")
NO_HINTS_IN_RACES = N_("No hints in a race: everyone plays on their own")
ALREADY_GOING = N_("You already have a game going: here it is")
IN_PROGRESS = N_("Here is your game in progress")
PLAYED_THIS = N_("You have already played this one")
# A challenge's word may be any word the game accepts (TARES as well as CIGAR): its hints
# read every allowed word, whatever the word, so they never tell an answer-list word apart.
ANY_WORD_KINDS = ("wordle:custom",)
MAX_INPUT = 200  # characters; anything longer is refused without being read
# Memory stays flat however many players come and go: parsed games are the heavy part (an
# Absurdle game holds its candidates), so only a few are kept; games in progress and the
# game each player last looked at are small, kept for the most recent players.
PARSED_LIMIT = 1_000
ACTIVE_LIMIT = 20_000
FOCUS_LIMIT = 50_000


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
        return self.kind.endswith(":daily")

    @property
    def over(self) -> bool:
        return self.status != Status.PLAYING.value


@dataclass(frozen=True)
class Outcome:
    game: GameView | None = None
    message: str | None = None  # a refusal when ``ok`` is False, otherwise a note
    ok: bool = True
    # Several games could be meant and none was named: the front end asks which (the action
    # was not taken).
    choices: tuple[GameView, ...] = ()
    # Refused because the game is older than its player was shown (ROLLED_BACK): the front
    # end shows the game as stored, with the message, to its player alone.
    rolled_back: bool = False
    # The achievements (ids: bot/services/achievements.py) this action earned, newly.
    earned: tuple[str, ...] = ()

    @classmethod
    def refuse(
        cls, message: str, game: GameView | None = None, choices: tuple[GameView, ...] = (),
        *, rolled_back: bool = False,
    ) -> Outcome:  # fmt: skip
        """A refusal; ``message`` as the player reads it (already translated)."""
        return cls(game, message, ok=False, choices=choices, rolled_back=rolled_back)


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


def game_label(view: GameView) -> str:
    """How a message names a game: "your Primel practice game", "your wordlebot Wordle
    #20260301"."""
    if view.number is not None:
        return _("your wordlebot {title} #{number}").format(title=view.title, number=view.number)
    flavour = view.kind.split(":")[1]
    return _(FLAVOURED.get(flavour, "your {title} {flavour} game")).format(
        title=view.title, flavour=flavour
    )


# How a message names a game of each flavour (a kind's part after the colon).
FLAVOURED = {
    "daily": N_("your {title} daily game"),
    "practice": N_("your {title} practice game"),
    "challenge": N_("your {title} challenge game"),
    "archive": N_("your {title} archive game"),
    "race": N_("your {title} race game"),
    "custom": N_("your {title} custom game"),
    "coop": N_("your {title} coop game"),
}


class PlayerLocks:
    """One asyncio lock per player, so a player's actions never interleave. A lock lives only
    while someone holds or waits for it: memory does not grow with every player ever seen."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, player_id: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(player_id, (asyncio.Lock(), 0))
        self._locks[player_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[player_id]
            if users == 1:
                del self._locks[player_id]
            else:
                self._locks[player_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


@dataclass
class GameService:
    storage: Storage
    daily: DailyPuzzles
    _locks: PlayerLocks = field(default_factory=PlayerLocks)
    # Games in progress by (player, scope), then kind: a write-through cache of the database,
    # which stays the truth (every change is stored first; a version conflict drops the entry).
    # The most recently used players only (LRU).
    _active: OrderedDict[tuple[int, int], dict[str, StoredGame]] = field(
        default_factory=OrderedDict
    )
    # The game each player last saw in each place (a channel): where a typed guess goes.
    # Per process, like Discord's routing of a guild to one shard; lost on restart, when the
    # player is asked which game they mean if it is not obvious.
    _focus: OrderedDict[tuple[int, int], int] = field(default_factory=OrderedDict)
    # The achievements a finished game earns, recorded once (bot/services/achievements.py);
    # a test's Discord double lets only the players it names earn any, as with the guide.
    achievements: Callable[[Storage, StoredGame, Result, bool], Coroutine[Any, Any, list[str]]] = (
        field(default=lambda storage, stored, result, hard: award(storage, stored, result, hard))
    )
    # How practice answers are drawn (tests pin them).
    choose_answer: Callable[[str], str] = field(default=lambda variant: _practice_answer(variant))
    deal: Callable[[str, int], list[str]] = field(default=lambda variant, n: _deal(variant, n))
    # Parsed engine games by (player, game id, version): parsing re-scores every row, so do it
    # once. Game ids are never reused, and the owner in the key keeps players apart regardless.
    _parsed: OrderedDict[tuple[int, int, int], EngineGame] = field(default_factory=OrderedDict)
    # The version of each game last shown to its player, by (player, game id): a stored game
    # older than that was rolled back (see ROLLED_BACK). Per process; recent games only.
    _shown_version: OrderedDict[tuple[int, int], int] = field(default_factory=OrderedDict)
    # Told (scope, puzzle day) when a daily starts or ends: the live board shows it
    # (bot/services/live_board.py). Plain values only; it must not block.
    on_daily: Callable[[int, str], None] | None = None
    # The servers whose live board of today shows a player, read before their daily ends:
    # refreshed too (a game once took a share's place there; since issue 38 it takes none).
    boards_showing: Callable[[int], Awaitable[set[int]]] | None = None

    async def _start(
        self, player: Player, scope: int, variant: str = "wordle", *, daily: bool = False,
        mode: Mode = Mode.NORMAL, zone_day: date | None = None, challenge: bool = False,
        place: int | None = None,
    ) -> Outcome:  # fmt: skip
        spec = KINDS.get(variant)
        if spec is None:
            return Outcome.refuse(_("Unknown game {game}; play {games}").format(
                game=repr(variant[:20]), games=", ".join(PLAYABLE)))  # fmt: skip
        if daily and not spec.daily:
            return Outcome.refuse(
                _("{game} has no daily puzzle: play practice").format(game=spec.title)
            )
        kind = kind_of(variant, daily, challenge)
        async with self._locks.hold(player.id):
            await self.storage.ensure_player(player.id, player.name)
            active = await self._find(player, scope, kind, fresh=True)
            note = None  # yesterday's game, closed now that its day is over
            if active is not None:
                if await self._closed(active) is None:
                    return self._shown(place, active, _(ALREADY_GOING))
                ended = date.fromisoformat(active.puzzle or "")
                note = _("{closed}. Here is today's").format(
                    closed=closed_note(self.daily, active.kind, ended)
                )
            day = None
            if daily:
                today = zone_day or self.daily.today()
                day = today.isoformat()
                played = await self.storage.daily_game(player.id, kind, day)
                if played is not None and played.status == Status.PLAYING.value:
                    return self._shown(place, played, _(IN_PROGRESS))
                if played is not None or await self.marked(player.id, kind, day):
                    number = shown_number(today)
                    return Outcome.refuse(
                        _("You have already played today's wordlebot {title} #{number}. A new "
                          "one comes tomorrow.").format(title=get_variant(variant).title,
                                                        number=number),
                        None if played is None else self._view(played),
                    )  # fmt: skip
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
                    return Outcome.refuse(_(CHANGED))
                return self._shown(place, again, _(ALREADY_GOING))
            self._remember(stored)
            self._daily_changed(stored)
            return self._shown(place, stored, note)

    async def start_set(
        self, player: Player, scope: int, kind: str, puzzle: str, answers: list[str], *,
        mode: Mode = Mode.NORMAL, place: int | None = None, max_guesses: int | None = None,
    ) -> Outcome:  # fmt: skip
        """Start a game of set ``answers`` (a race's, a challenge's, a past daily's) under
        ``puzzle``, once per player: the game already started comes back, and one already
        over is refused with its view. ``kind`` is "<game>:<flavour>" (race, custom,
        archive): its own stats, never the dailies'. ``max_guesses``: a Wordle or Primel
        puzzle's own guess limit."""
        return await _unless_busy(self._start_set(player, scope, kind, puzzle, answers, mode,
                                                  place, max_guesses))  # fmt: skip

    async def _start_set(
        self, player: Player, scope: int, kind: str, puzzle: str, answers: list[str],
        mode: Mode, place: int | None, max_guesses: int | None = None,
    ) -> Outcome:  # fmt: skip
        spec = kind_name(kind)
        async with self._locks.hold(player.id):
            await self.storage.ensure_player(player.id, player.name)
            for attempt in range(2):
                played = await self.storage.daily_game(player.id, kind, puzzle)
                if played is not None:
                    if played.status == Status.PLAYING.value:
                        return self._shown(place, played, _(IN_PROGRESS))
                    return Outcome.refuse(_(PLAYED_THIS), self._view(played))
                if await self.marked(player.id, kind, puzzle):
                    return Outcome.refuse(_(PLAYED_THIS))
                if attempt:
                    return Outcome.refuse(_(CHANGED))
                game = new_game(spec, answers, mode, max_guesses=max_guesses)
                stored = await self.storage.insert_game(player.id, scope, kind, puzzle,
                                                        game.to_dict())  # fmt: skip
                if stored is not None:
                    self._remember(stored)
                    return self._shown(place, stored)
                # Another game of this kind is going here, or this one was started meanwhile
                # (another process): show it if it is this one, else say which is in the way.
                active = await self._find(player, scope, kind, fresh=True)
                if active is not None and active.puzzle != puzzle:
                    return Outcome.refuse(_("Finish {game} first").format(
                        game=game_label(self._view(active))), self._view(active))  # fmt: skip
            return Outcome.refuse(_(CHANGED))

    async def _guess(
        self, player: Player, scope: int, text: str, kind: str | None, game_id: int | None,
        place: int | None,
    ) -> Outcome:  # fmt: skip
        async with self._locks.hold(player.id):
            stored, refusal = await self._target(player, scope, kind, game_id, place)
            if stored is None:
                return refusal
            if (older := self._rolled_back(stored)) is not None:
                return older
            if stored.status != Status.PLAYING.value:
                over = over_message(self.daily, stored) or _(GAME_OVER)
                return Outcome.refuse(over, self._view(stored))
            if (closed := await self._closed(stored)) is not None:
                return closed
            game = self._game(stored)
            if len(text) > MAX_INPUT:
                return Outcome.refuse(reason_text(too_many(game.variant.unit)),
                                      self._view(stored))  # fmt: skip
            outcome = game.guess(text)
            if not outcome.accepted:
                assert outcome.message is not None
                view = self._view(stored)  # the game as it was: nothing was played
                said = refusal_text(outcome.message, outcome.reason)
                if game_id is None and _foreign(text, game.variant.alphabet):
                    # Letters sent to a Primel game (or digits to a Wordle): say which game.
                    return Outcome.refuse(_("{refusal} (in {game})").format(
                        refusal=said, game=game_label(view)), view)  # fmt: skip
                return Outcome.refuse(said, view)
            result = _result(game, stored, self.daily.today()) if game.over else None
            showing = await self._showing(stored) if result is not None else set()
            saved = await self.storage.save_game(stored, game.to_dict(), game.status.value, result)
            if saved is None:
                return await self._not_saved(stored)
            self._remember(saved, game)
            if result is None:
                return self._shown(place, saved)
            self._daily_changed(saved, showing)
            hard = game.mode is not Mode.NORMAL
            earned = await self.achievements(self.storage, saved, result, hard)
            return replace(self._shown(place, saved), earned=tuple(earned))

    async def _give_up(
        self, player: Player, scope: int, kind: str | None, game_id: int | None,
        place: int | None,
    ) -> Outcome:  # fmt: skip
        async with self._locks.hold(player.id):
            stored, refusal = await self._target(player, scope, kind, game_id, place)
            if stored is None:
                return refusal
            if (older := self._rolled_back(stored)) is not None:
                return older
            if stored.status != Status.PLAYING.value:
                return Outcome.refuse(_(GAME_OVER), self._view(stored))
            if (closed := await self._closed(stored)) is not None:
                return closed
            game = self._game(stored)
            result = _result(game, stored, self.daily.today())
            showing = await self._showing(stored)
            saved = await self.storage.save_game(stored, game.to_dict(), Status.LOST.value, result)
            if saved is None:
                return await self._not_saved(stored)
            self._remember(saved)
            self._daily_changed(saved, showing)
            hard = game.mode is not Mode.NORMAL
            earned = await self.achievements(self.storage, saved, result, hard)
            return replace(self._shown(place, saved, _("The answer was {answer}").format(
                answer=shout(answer_text(game)))), earned=tuple(earned))  # fmt: skip

    async def start(
        self, player: Player, scope: int, variant: str = "wordle", *, daily: bool = False,
        mode: Mode = Mode.NORMAL, zone_day: date | None = None, challenge: bool = False,
        place: int | None = None,
    ) -> Outcome:  # fmt: skip
        """Start a game, or return the one already going. A daily may be played once.
        ``challenge``: Absurdle's challenge mode, with a target to force. ``place`` (a
        channel) remembers the game as the one the player is looking at there."""
        return await _unless_busy(
            self._start(
                player,
                scope,
                variant,
                daily=daily,
                mode=mode,
                zone_day=zone_day,
                challenge=challenge,
                place=place,
            )
        )

    async def guess(
        self, player: Player, scope: int, text: str, kind: str | None = None,
        game_id: int | None = None, place: int | None = None,
    ) -> Outcome:  # fmt: skip
        """Play a guess in the game ``game_id`` names (a board's button), else the active game
        of ``kind``, else the game last shown to the player in ``place``, else the only game
        in progress. When several could be meant, nothing is played: the outcome lists them."""
        return await _unless_busy(self._guess(player, scope, text, kind, game_id, place))

    async def give_up(
        self, player: Player, scope: int, kind: str | None = None, game_id: int | None = None,
        place: int | None = None,
    ) -> Outcome:  # fmt: skip
        """Give up the game chosen as :meth:`guess` chooses it."""
        return await _unless_busy(self._give_up(player, scope, kind, game_id, place))

    async def current(
        self, player: Player, scope: int, kind: str | None = None, place: int | None = None
    ) -> Outcome:
        stored = await self._find(player, scope, kind, fresh=True)
        if stored is None:
            return Outcome.refuse(_(NO_GAME))
        return await self._closed(stored) or self._shown(place, stored)

    async def game(self, game_id: int) -> GameView | None:
        stored = await self.storage.game(game_id)
        return None if stored is None else self._view(stored)

    async def dailies(self, player_ids: Collection[int], kind: str,
                      day: str) -> dict[int, GameView]:  # fmt: skip
        """Each of these players' daily of ``kind`` and ``day``, by player, where begun."""
        stored = await self.storage.daily_games(player_ids, kind, day)
        return {game.player_id: self._view(game) for game in stored}

    def shown(self, player_id: int, place: int, game_id: int) -> None:
        """The player is looking at this game here (a board message they used)."""
        self._focus[(player_id, place)] = game_id
        self._focus.move_to_end((player_id, place))
        while len(self._focus) > FOCUS_LIMIT:
            self._focus.popitem(last=False)

    async def hint(
        self, player: Player, scope: int, kind: str | None = None, *, top: int = 5,
        daily_hints: bool | None = None, game_id: int | None = None, place: int | None = None,
    ) -> HintOutcome:  # fmt: skip
        """A hint for the player's game in progress (computed off the event loop). Whether
        a daily allows hints is the setting of the server the daily was started in (wherever
        the hint is asked) unless ``daily_hints`` says."""
        stored, refusal = await self._target(player, scope, kind, game_id, place)
        if stored is None:
            return HintOutcome(message=refusal.message)
        if stored.status != Status.PLAYING.value:
            return HintOutcome(message=_(GAME_OVER))
        if (closed := await self._closed(stored)) is not None:
            return HintOutcome(message=closed.message)
        if stored.kind.endswith(":race"):
            return HintOutcome(message=_(NO_HINTS_IN_RACES))
        if stored.puzzle is not None:
            if daily_hints is None:
                daily_hints = await self._hints_allowed(stored.scope)
            if not daily_hints:
                return HintOutcome(message=_(HINTS_OFF))
        game = self._game(stored)
        if isinstance(game, MultiGame):
            rows = [_multi_patterns(game, i) for i in range(len(game.guesses))]
            multi = await asyncio.to_thread(
                multi_hint, game.variant, list(game.guesses), rows, len(game.answers)
            )
            return HintOutcome(multi=multi)
        try:
            if isinstance(game, AbsurdleGame) and game.target is not None:
                # Challenge mode: steer the adversary toward the target, not away from it.
                result = await asyncio.to_thread(
                    challenge_hint, game.variant, game.rows, game.mode, game.target, top
                )
            elif stored.kind in ANY_WORD_KINDS:  # the answer may be any allowed word
                model = allowed_model(game.variant.name)
                result = await asyncio.to_thread(model_hint, model, game.rows, game.mode, top)
            else:
                measure = Measure.MINIMAX if isinstance(game, AbsurdleGame) else Measure.ENTROPY
                result = await hint_async(game.variant.name, game.rows, game.mode, top, measure)
        except InconsistentHistory as exc:  # cannot happen for a real game; say so plainly
            return HintOutcome(message=str(exc))
        return HintOutcome(result)

    async def hint_history(
        self, player: Player, text: str, variant: str = "wordle", *, top: int = 5,
        scope: int = DM,
    ) -> HintOutcome:  # fmt: skip
        """A hint for a history typed from a game played elsewhere. Refused while the player
        has a game in progress that allows no hints (a race; a daily, archive day or
        challenge in a server that turned daily hints off): a typed history must not be a
        way around that, nor is one asked in such a server (``scope``), whose puzzle it may
        be (:mod:`bot.services.hint_rules`)."""
        refusal = await typed_refusal(self.storage, player.id)
        if refusal is not None:
            return HintOutcome(message=refusal)
        if not await hints_allowed(self.storage, scope):
            return HintOutcome(message=_(HINTS_OFF_HERE))
        edition = "wordle-nyt" if variant == "wordle" else variant  # every word people play
        try:
            rows = parse_history(text[: MAX_INPUT * 2], get_variant(edition))
            if variant == "wordle":  # the NYT's puzzle: its answer may be any word it accepts
                # today's puzzle, as far as anyone can tell: the answers before it less likely
                model = await AnswerBook(self.storage, self.daily).model()
                result = await asyncio.to_thread(model_hint, model, rows, Mode.NORMAL, top)
            else:
                result = await hint_async(variant, rows, Mode.NORMAL, top)
        except (HistoryError, PatternError, InconsistentHistory) as exc:
            return HintOutcome(message=str(exc))
        return HintOutcome(result)

    async def _hints_allowed(self, scope: int) -> bool:
        return await hints_allowed(self.storage, scope)

    async def _closed(self, stored: StoredGame) -> Outcome | None:
        """If the puzzle day of ``stored`` (in progress) has ended, close it as a loss
        (:mod:`bot.services.closing`) and return the refusal to give; None while it is open."""
        day = await game_day(self.storage, self.daily, stored)
        if day is None or day >= self.daily.today():
            return None
        ended, closed_here = await close_game(self.storage, stored, day)
        if ended is None:
            self._forget(stored)
            return Outcome.refuse(_(CHANGED), self._view(stored))
        self._remember(ended)
        if closed_here:  # its day's live board shows the loss (the midnight job found none)
            self._daily_changed(ended)
        if not closed_here and ended.status != Status.LOST.value:  # finished elsewhere first
            return Outcome.refuse(_(GAME_OVER), self._view(ended))
        return Outcome.refuse(closed_message(self.daily, stored.kind, day), self._view(ended))

    async def _target(
        self, player: Player, scope: int, kind: str | None, game_id: int | None,
        place: int | None,
    ) -> tuple[StoredGame | None, Outcome]:  # fmt: skip
        """The game an action is about, or the refusal to give (with the games to choose
        from when several could be meant)."""
        no_game = Outcome.refuse(_(NO_GAME))
        if game_id is not None:
            stored = await self.storage.game(game_id)
            if stored is None:
                return None, no_game
            if stored.player_id != player.id:
                return None, Outcome.refuse(_(NOT_YOURS))
            return stored, no_game
        if kind is not None:
            return await self._find(player, scope, kind), no_game
        games = await self._here(player, scope)
        if len(games) <= 1:
            return next(iter(games.values()), None), no_game
        focused = None if place is None else self._focus.get((player.id, place))
        for stored in games.values():
            if stored.id == focused:
                return stored, no_game
        choices = tuple(self._view(g) for g in sorted(games.values(), key=lambda g: g.id))
        return None, Outcome.refuse(_(WHICH), choices=choices)

    async def _here(
        self, player: Player, scope: int, *, fresh: bool = False
    ) -> dict[str, StoredGame]:
        """The player's games in progress here, by kind."""
        key = (player.id, scope)
        games = self._active.get(key)
        if games is None or fresh:
            found = await self.storage.active_games(player.id, scope)
            games = self._active[key] = {g.kind: g for g in found}
        self._active.move_to_end(key)
        while len(self._active) > ACTIVE_LIMIT:
            self._active.popitem(last=False)
        return games

    async def _find(
        self, player: Player, scope: int, kind: str | None, *, fresh: bool = False
    ) -> StoredGame | None:
        """The player's game in progress here: of ``kind``, or the newest of any kind."""
        games = await self._here(player, scope, fresh=fresh)
        if kind is not None:
            return games.get(kind)
        return max(games.values(), key=lambda g: g.id, default=None)

    def _shown(self, place: int | None, stored: StoredGame, note: str | None = None) -> Outcome:
        """The outcome showing ``stored``, remembered as what its player looks at there."""
        if place is not None:
            self.shown(stored.player_id, place, stored.id)
        self._note_version(stored)
        return Outcome(self._view(stored), note)

    def _note_version(self, stored: StoredGame) -> None:
        key = (stored.player_id, stored.id)
        self._shown_version[key] = stored.version
        self._shown_version.move_to_end(key)
        while len(self._shown_version) > FOCUS_LIMIT:
            self._shown_version.popitem(last=False)

    def _rolled_back(self, stored: StoredGame) -> Outcome | None:
        """The refusal to give if ``stored`` is older than the version its player was shown
        (a crash of the database undid moves, a backup was restored). None: play on."""
        shown = self._shown_version.get((stored.player_id, stored.id))
        return None if shown is None or stored.version >= shown else self._show_older(stored)

    def _show_older(self, stored: StoredGame) -> Outcome:
        """Refuse the action and show ``stored``, the game as the database now holds it,
        dropping what this process held of later versions; the next action plays on it."""
        self._forget(stored)
        for key in [k for k in self._parsed if k[1] == stored.id]:
            del self._parsed[key]
        self._note_version(stored)
        return Outcome.refuse(_(ROLLED_BACK), self._view(stored), rolled_back=True)

    async def _not_saved(self, stored: StoredGame) -> Outcome:
        """``stored`` was not saved: the database holds another version. A newer one came
        from elsewhere (try again); an older one means the game was rolled back."""
        self._forget(stored)
        now = await self.storage.game(stored.id)
        if now is not None and now.version < stored.version:
            return self._show_older(now)
        return Outcome.refuse(_(CHANGED), self._view(stored))

    def _daily_changed(self, stored: StoredGame, showing: Iterable[int] = ()) -> None:
        """Its server's live board shows the daily started or ended; ``showing``: the other
        boards of its day that showed its player before it ended (:meth:`_showing`)."""
        if self.on_daily is not None and stored.kind.endswith(":daily") and stored.puzzle:
            for scope in {stored.scope, *showing}:
                self.on_daily(scope, stored.puzzle)

    async def _showing(self, stored: StoredGame) -> set[int]:
        """Before a daily of today ends: the servers whose board shows its player, refreshed
        with it (a share there keeps counting: the bot's daily is another puzzle)."""
        if (self.boards_showing is None or not stored.kind.endswith(":daily")
                or stored.puzzle != self.daily.today().isoformat()):  # fmt: skip
            return set()
        return await self.boards_showing(stored.player_id)

    def _remember(self, stored: StoredGame, game: EngineGame | None = None) -> None:
        self._parsed.pop((stored.player_id, stored.id, stored.version - 1), None)
        if game is not None and stored.status == Status.PLAYING.value:
            self._keep_parsed(stored, game)
        games = self._active.get((stored.player_id, stored.scope))
        if games is None:
            return  # not cached: the next read loads it
        if stored.status == Status.PLAYING.value:
            games[stored.kind] = stored
        else:
            games.pop(stored.kind, None)

    async def marked(self, player_id: int, kind: str, puzzle: str) -> bool:
        """Whether the player deleted their data today after playing this puzzle (a mark
        of :mod:`bot.services.deletion`). Ask after finding no game: a deletion removes the
        game and leaves the mark in one transaction, so one of the two reads sees it."""
        mark = played_mark(self.daily.key(MARKS), player_id, kind, puzzle)
        return await self.storage.marked(mark, self.daily.today().isoformat())

    async def delete_player(self, player_id: int) -> Deletion:
        """Delete everything of the player's, leaving today's marks and their own, with the
        moment (bot.services.deletion); today's boards that showed them are shown again."""
        key = self.daily.key(MARKS)
        async with self._locks.hold(player_id):
            deletion = await self.storage.delete_player(
                player_id, mark=lambda kind, puzzle: played_mark(key, player_id, kind, puzzle),
                today=self.daily.today().isoformat(), pings_since=self._pings_since(),
                lasting=(CHALLENGE, LASTING),
                forget=(player_mark(key, player_id), stamp(self.daily.clock())),
            )  # fmt: skip
            self.forget_player(player_id)
        for scope, day in deletion.boards:
            if self.on_daily is not None:
                self.on_daily(scope, day)
        return deletion

    async def purge_marks(self) -> int:
        """Forget the marks of puzzle days that have ended (a job on the clock)."""
        return await self.storage.purge_marks(
            self.daily.today().isoformat(), pings_before=self._pings_since()
        )

    def _pings_since(self) -> str:
        """Challenges naming a player since then still count against that player's cooldown."""
        return stamp(self.daily.clock() - CHALLENGES_PER_TARGET.per)

    def forget_player(self, player_id: int) -> None:
        """Drop everything held in memory about a player (their data was deleted)."""
        for key in [k for k in self._active if k[0] == player_id]:
            del self._active[key]
        for parsed_key in [k for k in self._parsed if k[0] == player_id]:
            del self._parsed[parsed_key]
        for key in [k for k in self._focus if k[0] == player_id]:
            del self._focus[key]
        for key in [k for k in self._shown_version if k[0] == player_id]:
            del self._shown_version[key]

    def _forget(self, stored: StoredGame) -> None:
        self._active.pop((stored.player_id, stored.scope), None)

    def _game(self, stored: StoredGame) -> EngineGame:
        """A fresh engine game for ``stored`` (fresh: callers may play it)."""
        return fresh_copy(self._parsed_game(stored))

    def _parsed_game(self, stored: StoredGame) -> EngineGame:
        """The parsed game, shared: read it, never play it. Games in progress are kept."""
        key = _parsed_key(stored)
        parsed = self._parsed.get(key)
        if parsed is None:
            parsed = _parse(stored)
            if stored.status == Status.PLAYING.value:
                self._keep_parsed(stored, parsed)
        else:
            self._parsed.move_to_end(key)
        return parsed

    def _keep_parsed(self, stored: StoredGame, game: EngineGame) -> None:
        self._parsed[_parsed_key(stored)] = game
        while len(self._parsed) > PARSED_LIMIT:
            self._parsed.popitem(last=False)

    def memory_held(self) -> dict[str, int]:
        """How many entries each in-memory cache holds (the soak benchmark prints them)."""
        return {"locks": len(self._locks), "active": len(self._active),
                "parsed": len(self._parsed), "focus": len(self._focus)}  # fmt: skip

    def _view(self, stored: StoredGame) -> GameView:
        game = self._parsed_game(stored)
        spec = kind_name(stored.kind)
        variant = game.variant
        day = puzzle_day(stored)
        number = None if day is None else shown_number(day)
        status = stored.status
        over = status != Status.PLAYING.value
        boards = remaining = target = None
        if isinstance(game, MultiGame):
            rows = [(g, "") for g in game.guesses]
            boards = [[(g, to_digits(p, variant.length)) for g, p in game.rows(b)]
                      for b in range(len(game.answers))]  # fmt: skip
        else:  # each word as the board spells it (Termo's accents)
            rows = [(variant.shown(g), to_digits(p, variant.length)) for g, p in game.rows]
        if isinstance(game, AbsurdleGame):
            remaining, target = len(game.candidates), game.target
        return GameView(
            stored.id, stored.player_id, stored.kind, variant.name,
            shown_title(spec) if spec.name != "wordle" else variant.title, game.mode.value,
            None if day is None else day.isoformat(), number, rows, status,
            guess_limit_of(game, spec),
            variant.length,
            variant.shown(answer_text(game)) if over else None, boards, remaining, target,
        )  # fmt: skip


async def _unless_busy(action: Coroutine[Any, Any, Outcome]) -> Outcome:
    """A database locked past its timeout changes nothing; say so instead of failing."""
    try:
        return await action
    except StorageBusy:
        return Outcome.refuse(_(BUSY))


def _foreign(text: str, alphabet: str) -> bool:
    """Whether ``text`` is mostly made of what another game's tiles hold."""
    chars = [c for c in text.lower() if not c.isspace()]
    other = set(string.ascii_lowercase + string.digits) - set(alphabet)
    return sum(c in other for c in chars) * 2 > len(chars) > 0


def _parsed_key(stored: StoredGame) -> tuple[int, int, int]:
    return (stored.player_id, stored.id, stored.version)


def _parse(stored: StoredGame) -> EngineGame:
    try:
        return parse(stored.state)
    except GameStateError as exc:
        raise GameStateError(f"stored game {stored.id} is damaged: {exc}") from exc


def puzzle_day(stored: StoredGame) -> date | None:
    """The day of a daily's puzzle, or of a past daily played from the archive (other
    games' puzzles name a race or a challenge)."""
    if stored.puzzle is None or stored.kind.partition(":")[2] not in ("daily", "archive"):
        return None
    return date.fromisoformat(stored.puzzle)


def _result(game: EngineGame, stored: StoredGame, today: date) -> Result:
    """How the game ended; a give-up is a loss. Only a daily's result has its day (streaks,
    the digest); every other game counts on the puzzle day it ends on (the period boards)."""
    won = game.status is Status.WON
    day = stored.puzzle if stored.kind.endswith(":daily") else None
    return Result(won, guesses_used(game), day, played_on=today.isoformat())


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
