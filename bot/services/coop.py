"""Co-op channel games: one shared board per channel that anyone there plays, a guess at a
time, each player waiting a cooldown between their guesses; points for what each row finds.

Points. A row is scored on each board it is played on (one board, or every board a
multi-board game has not solved before it) against the rows before it on that board:

- 2 for each position that is green for the first time (no earlier row had it green);
- 1 for each distinct letter (Primel: digit) yellow in the row that no earlier row showed
  yellow or green anywhere;
- 5 for solving the board (its greens are new too, and paid as such).

So a row is worth 0 or more, each position's green is paid once per board, and the points of
a game's rows can be recounted from its board alone (:func:`row_points`).

The cooldown (a server's ``/settings server coop_cooldown``, 30 s by default, 0 for none) runs from
the player's latest row in that game, as stored: it holds across processes and restarts, and
a new game starts everyone afresh. It is read after the game: a row of the player's stored in
between either shows in it or fails the version check, so no two of their guesses pass.

Two guesses at once (two players, two processes): each is checked against the game's stored
version; the first stored wins, the other is refused ("The board changed") and stores nothing.

The end. A game ends when it is solved, when its guesses run out, or when a moderator (Manage
Messages) ends it, which shows the answer and scores nobody; then a new one can start in the
channel. The standings are the server's (points, guesses, and solves: rows that solved a
board), kept in the same transaction as each row; deleting a player removes their rows and
standings, and their rows stay on the board without a name.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.i18n import N_, _
from bot.i18n.reasons import reason_text, refusal_text
from bot.services.closing import coop_closed_message, coop_day_over
from bot.services.daily import DailyPuzzles
from bot.services.games import GAME_OVER, MAX_INPUT, GameView, Player
from bot.services.kinds import KINDS, EngineGame, answer_text, new_game, one_of, parse, shown_title
from bot.storage import Storage
from bot.storage.coop import CoopGame, CoopRow, CoopStanding
from engine.game import Status
from engine.multiboard import MultiGame
from engine.pattern import to_digits
from engine.rules import Mode, too_many
from engine.variants import get_variant

GAMES = ("wordle", "primel", "dordle", "quordle", "octordle")
GREEN, YELLOW, SOLVE = 2, 1, 5
ENDED = "ended"
# Marked for the catalogs; the outcomes carry them translated.
NO_GAME = N_("No co-op game is going in this channel: start one with /coop start")
RUNNING = N_("A co-op game is going here already: here it is")
BOARD_CHANGED = N_("The board changed: look and guess again")


@dataclass(frozen=True)
class Turn:
    """Who played a row, and its points; ``player_id`` None once they deleted their data."""

    player_id: int | None
    name: str
    points: int


@dataclass(frozen=True)
class CoopView:
    coop_id: int
    guild_id: int
    channel_id: int
    status: str  # playing, won, lost, ended
    game: GameView  # the shared board (its answer once over); kind "<game>:coop"
    turns: list[Turn]  # one per row

    @property
    def over(self) -> bool:
        return self.status != Status.PLAYING.value


@dataclass(frozen=True)
class CoopOutcome:
    coop: CoopView | None = None
    message: str | None = None  # a refusal when ``ok`` is False, otherwise a note
    ok: bool = True

    @classmethod
    def refuse(cls, message: str, coop: CoopView | None = None) -> CoopOutcome:
        return cls(coop, message, ok=False)


def discovery_points(before: list[tuple[str, str]], row: tuple[str, str]) -> int:
    """The points of ``row`` (guess, pattern digits) on a board after the rows ``before``."""
    guess, digits = row
    greens = {i for _guess, d in before for i, tile in enumerate(d) if tile == "2"}
    shown = {g[i] for g, d in before for i, tile in enumerate(d) if tile != "0"}
    new_greens = sum(1 for i, tile in enumerate(digits) if tile == "2" and i not in greens)
    new_yellows = {guess[i] for i, tile in enumerate(digits) if tile == "1"} - shown
    solved = SOLVE if digits == "2" * len(digits) else 0
    return GREEN * new_greens + YELLOW * len(new_yellows) + solved


def row_points(game: GameView, index: int) -> int:
    """The points of row ``index`` of a board (every board of a multi-board game)."""
    boards = game.boards if game.boards is not None else [game.rows]
    return sum(discovery_points(b[:index], b[index]) for b in boards if index < len(b))


def row_solves(game: GameView, index: int) -> int:
    """How many boards row ``index`` solves."""
    boards = game.boards if game.boards is not None else [game.rows]
    winning = "2" * game.length
    return sum(1 for b in boards if index < len(b) and b[index][1] == winning)


class CoopService:
    def __init__(self, storage: Storage, daily: DailyPuzzles) -> None:
        self.storage = storage
        self.daily = daily  # its clock times the rows and the cooldown: tests set it
        # How answers are drawn (tests pin them): the variant, how many boards.
        self.deal: Callable[[str, int], list[str]] = _deal

    def _now(self) -> str:
        return self.daily.clock().isoformat(timespec="seconds")

    async def start(self, guild_id: int, channel_id: int, game: str = "wordle") -> CoopOutcome:
        """Start the channel's co-op game, or show the one already going there."""
        spec = KINDS.get(game)
        if spec is None or not one_of(game, GAMES):
            return CoopOutcome.refuse(_("Co-op plays {games}, not {game}").format(
                games=", ".join(GAMES), game=repr(game[:20])))  # fmt: skip
        running = await self._playing(channel_id)
        if running is None:
            engine = new_game(spec, self.deal(spec.variant, spec.boards), Mode.NORMAL)
            running = await self.storage.coop.start(guild_id, channel_id, game,
                                                    engine.to_dict(), self._now())  # fmt: skip
            if running is not None:
                return CoopOutcome(await self._view(running))
            running = await self.storage.coop.playing(channel_id)  # started meanwhile
            if running is None:  # and already over: let the player try again
                return CoopOutcome.refuse(_(BOARD_CHANGED))
        return CoopOutcome(await self._view(running), _(RUNNING))

    async def current(self, channel_id: int) -> CoopOutcome:
        running = await self._playing(channel_id)
        if running is None:
            return CoopOutcome.refuse(_(NO_GAME))
        return CoopOutcome(await self._view(running))

    async def ready(self, player: Player, coop_id: int) -> CoopOutcome:
        """Whether ``player`` may guess in the game now (before asking them for a word)."""
        coop = await self.storage.coop.game(coop_id)
        if coop is None:
            return CoopOutcome.refuse(_(NO_GAME))
        if coop_day_over(self.daily, coop):
            return await self._closed(coop)
        view = await self._view(coop)
        if coop.status != Status.PLAYING.value:
            return CoopOutcome.refuse(_(GAME_OVER), view)
        wait = await self._wait(coop, player.id)
        return CoopOutcome.refuse(wait, view) if wait else CoopOutcome(view)

    async def guess(self, player: Player, coop_id: int, text: str) -> CoopOutcome:
        """Play ``text`` in the game as ``player``: refused (nothing stored) inside their
        cooldown, when the game refuses the word, or when the board changed since it was read
        (another player's guess came first)."""
        coop = await self.storage.coop.game(coop_id)
        if coop is None:
            return CoopOutcome.refuse(_(NO_GAME))
        if coop.status != Status.PLAYING.value:
            return CoopOutcome.refuse(_(GAME_OVER), await self._view(coop))
        if coop_day_over(self.daily, coop):
            return await self._closed(coop)
        wait = await self._wait(coop, player.id)  # read after the game (module docstring)
        if wait:
            return CoopOutcome.refuse(wait, await self._view(coop))
        game = parse(coop.state)
        if len(text) > MAX_INPUT:
            return CoopOutcome.refuse(reason_text(too_many(game.variant.unit)),
                                      await self._view(coop))  # fmt: skip
        played = game.guess(text)
        if not played.accepted:
            assert played.message is not None
            return CoopOutcome.refuse(refusal_text(played.message, played.reason),
                                      await self._view(coop))  # fmt: skip
        board = _game_view(coop, game, game.status.value)
        index = len(board.rows) - 1
        await self.storage.ensure_player(player.id, player.name)
        saved = await self.storage.coop.play(
            coop, game.to_dict(), game.status.value, index + 1, player.id,
            row_points(board, index), row_solves(board, index), self._now(),
        )  # fmt: skip
        if saved is None:
            latest = await self.storage.coop.game(coop_id)
            shown = None if latest is None else await self._view(latest)
            return CoopOutcome.refuse(_(BOARD_CHANGED), shown)
        return CoopOutcome(await self._view(saved))

    async def end(self, channel_id: int) -> CoopOutcome:
        """End the channel's game (a moderator's call): its answer is shown, nobody scores."""
        running = await self.storage.coop.playing(channel_id)
        if running is None or not await self.storage.coop.end(running.id, self._now()):
            return CoopOutcome.refuse(_(NO_GAME))
        ended = await self.storage.coop.game(running.id)
        assert ended is not None
        return CoopOutcome(await self._view(ended))

    async def standings(self, guild_id: int, limit: int = 10) -> list[CoopStanding]:
        return await self.storage.coop.standings(guild_id, limit)

    async def cooldown(self, guild_id: int) -> int:
        return await self.storage.coop.cooldown(guild_id)

    async def set_cooldown(self, guild_id: int, seconds: int) -> None:
        await self.storage.coop.set_cooldown(guild_id, max(0, seconds))

    async def _playing(self, channel_id: int) -> CoopGame | None:
        """The channel's game in play, once one whose puzzle day ended is closed."""
        running = await self.storage.coop.playing(channel_id)
        if running is not None and coop_day_over(self.daily, running):
            await self._closed(running)
            return None
        return running

    async def _closed(self, coop: CoopGame) -> CoopOutcome:
        """End a game whose puzzle day ended (once, whoever gets there first): the refusal."""
        await self.storage.coop.end(coop.id, self._now())
        ended = await self.storage.coop.game(coop.id)
        return CoopOutcome.refuse(coop_closed_message(self.daily),
                                  None if ended is None else await self._view(ended))  # fmt: skip

    async def _wait(self, coop: CoopGame, player_id: int) -> str | None:
        """Why the player must wait before guessing again, or None."""
        last = await self.storage.coop.last_played(coop.id, player_id)
        if last is None:
            return None
        seconds = await self.storage.coop.cooldown(coop.guild_id)
        left = datetime.fromisoformat(last) + timedelta(seconds=seconds) - self.daily.clock()
        if left <= timedelta(0):
            return None
        return _("Wait {wait} s before your next co-op guess (one guess every {seconds} s each)"
                 ).format(wait=math.ceil(left.total_seconds()), seconds=seconds)  # fmt: skip

    async def _view(self, coop: CoopGame) -> CoopView:
        status = coop.status
        game = _game_view(coop, parse(coop.state), Status.LOST.value if status == ENDED
                          else status)  # fmt: skip
        by_turn: dict[int, CoopRow] = {r.turn: r for r in await self.storage.coop.rows(coop.id)}
        turns = []
        for turn in range(1, len(game.rows) + 1):
            row = by_turn.get(turn)
            turns.append(Turn(None, "", 0) if row is None else Turn(row.player_id, row.name,
                                                                     row.points))  # fmt: skip
        return CoopView(coop.id, coop.guild_id, coop.channel_id, status, game, turns)


def _game_view(coop: CoopGame, game: EngineGame, status: str) -> GameView:
    """The shared board as every renderer knows it (a game of kind "<game>:coop")."""
    spec = KINDS[coop.game]
    variant = game.variant
    boards = None
    if isinstance(game, MultiGame):
        rows = [(g, "") for g in game.guesses]
        boards = [[(g, to_digits(p, variant.length)) for g, p in game.rows(b)]
                  for b in range(len(game.answers))]  # fmt: skip
    else:
        rows = [(g, to_digits(p, variant.length)) for g, p in game.rows]
    over = status != Status.PLAYING.value
    return GameView(
        coop.id, 0, f"{coop.game}:coop", variant.name, shown_title(spec), game.mode.value,
        None, None, rows, status, spec.limit, variant.length,
        answer_text(game) if over else None, boards,
    )  # fmt: skip


def _deal(variant: str, boards: int) -> list[str]:
    return secrets.SystemRandom().sample(get_variant(variant).answers.words, boards)
