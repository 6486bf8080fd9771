"""Races: players of a server channel race on the same answer(s), each on a private board.

A race is a lobby (the host and whoever joins, 2 to 25) that the host starts, or that starts
by itself at ``start_by`` (one minute after it was made; with fewer than two players it is
called off). Each player's race game is an ordinary game of kind "<game>:race" and puzzle
"race:<id>" (:meth:`GameService.start_set`): guesses take the normal path, and results count
on that kind's own stats, never a daily's streak. A player's time runs from the race's start.

The front end tells :meth:`RaceService.finished` when a race game ends; the job
(:meth:`RaceService.run_due`, any process, any number of times) starts and ends races on
time and records finishes nobody reported (a process stopped between the guess and the
report). Every change is conditional in the database (:mod:`bot.storage.races`), so two
processes or a restart never start, end or place anything twice; times are stored, so a
restart keeps the clock. The answers are stored with the race and shown only once it is over.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from bot.i18n import N_, _
from bot.services.closing import closed_message, day_of, day_start
from bot.services.cooldowns import RACES_PER_HOST, wait_text, within
from bot.services.daily import DailyPuzzles
from bot.services.games import DM, GameService, GameView, Outcome, Player
from bot.services.kinds import KINDS, one_of
from bot.storage import Storage
from bot.storage.cooldowns import Wait
from bot.storage.races import LOBBY, OVER, RUNNING, Race, Racer, RaceStanding
from engine.rules import Mode

log = logging.getLogger("wordlebot.races")

RACE_GAMES = ("wordle", "primel", "dordle", "quordle", "octordle")
MIN_PLAYERS, MAX_PLAYERS = 2, 25
LOBBY_TIME = timedelta(seconds=60)
TIME_LIMIT = timedelta(minutes=10)
# Marked for the catalogs; the outcomes carry them translated (translate NEED_CHANNEL where
# it is shown: _(NEED_CHANNEL)).
NEED_CHANNEL = N_("Races need a channel")
NO_RACE = N_("That race is not here any more")
STARTED = N_("This race has started")
OVER_NOW = N_("This race is over")


@dataclass(frozen=True)
class RaceBoard:
    """What the lobby message shows: the race, its players, and each finished player's
    game (colours only are shown; the answers once the race is over)."""

    race: Race
    players: list[Racer]
    games: dict[int, GameView]  # by player, once they finished


@dataclass(frozen=True)
class RaceOutcome:
    board: RaceBoard | None = None
    message: str | None = None  # a refusal when ``ok`` is False, otherwise a note
    ok: bool = True
    changed: bool = False  # the race's message should show the new board
    ended: bool = False  # this call ended the race (once, in one process): post the podium

    @classmethod
    def refuse(cls, message: str, board: RaceBoard | None = None) -> RaceOutcome:
        return cls(board, message, ok=False)


class RaceService:
    def __init__(
        self, storage: Storage, daily: DailyPuzzles, games: GameService, *,
        lobby_time: timedelta = LOBBY_TIME, time_limit: timedelta = TIME_LIMIT,
    ) -> None:  # fmt: skip
        self.storage = storage
        self.daily = daily  # its clock is the races': tests set the time there
        self.games = games
        self.lobby_time, self.time_limit = lobby_time, time_limit

    async def create(self, host: Player, guild_id: int | None, channel_id: int,
                     game: str = "wordle", mode: str = "normal") -> RaceOutcome:  # fmt: skip
        """A lobby in a server channel, with its host in it and its answers chosen. Refused
        while another lobby here waits for players, and once the host opened
        :data:`RACES_PER_HOST` (saying when the next is allowed)."""
        if not guild_id or guild_id == DM:
            return RaceOutcome.refuse(_(NEED_CHANNEL))
        if not one_of(game, RACE_GAMES):
            games = ", ".join(RACE_GAMES)
            return RaceOutcome.refuse(_("Races are for {games}").format(games=games))
        spec = KINDS[game]
        if spec.boards > 1:
            answers = self.games.deal(spec.variant, spec.boards)
        else:
            answers = [self.games.choose_answer(spec.variant)]
        now = self.daily.clock()
        await self.storage.ensure_player(host.id, host.name)
        race = await self.storage.races.create(guild_id, channel_id, host.id, game, mode,
                                               answers, now, now + self.lobby_time,
                                               per_host=RACES_PER_HOST)  # fmt: skip
        if isinstance(race, Wait):
            when = wait_text(race.until, now)
            if race.limit == "channel":
                # Translators: {when} is "in 45 s".
                return RaceOutcome.refuse(_("A race is waiting for players here: join it, or "
                                            "start another {when}").format(when=when))  # fmt: skip
            # Translators: {when} is "in 45 s", {most} "5 in 10 minutes".
            return RaceOutcome.refuse(_("You can start another race {when} (at most {most})")
                                      .format(when=when, most=within(RACES_PER_HOST)))  # fmt: skip
        log.info("race %d created in guild %d", race.id, guild_id)
        return RaceOutcome(await self.board(race), changed=True)

    async def set_message(self, race_id: int, message_id: int) -> None:
        await self.storage.races.set_message(race_id, message_id)

    async def join(self, race_id: int, player: Player) -> RaceOutcome:
        race = await self.storage.races.get(race_id)
        if race is None:
            return RaceOutcome.refuse(_(NO_RACE))
        await self.storage.ensure_player(player.id, player.name)
        joined = await self.storage.races.join(race_id, player.id, self.daily.clock(),
                                               MAX_PLAYERS)  # fmt: skip
        board = await self.board(race_id)
        if joined == "joined":
            return RaceOutcome(board, _("You're in: your board comes when the race starts"),
                               changed=True)  # fmt: skip
        if joined == "already":
            return RaceOutcome.refuse(_("You're already in this race"), board)
        if joined == "full":
            return RaceOutcome.refuse(
                _("This race is full ({count} players)").format(count=MAX_PLAYERS), board
            )
        return RaceOutcome.refuse(_(STARTED) if race.status != OVER else _(OVER_NOW), board)

    async def start(self, race_id: int, player: Player) -> RaceOutcome:
        """The host starts the lobby (at least two players)."""
        race = await self.storage.races.get(race_id)
        if race is None:
            return RaceOutcome.refuse(_(NO_RACE))
        if race.host_id != player.id:
            return RaceOutcome.refuse(_("Only the host can start the race"))
        if race.status != LOBBY:
            return RaceOutcome.refuse(_(STARTED) if race.status == RUNNING else _(OVER_NOW))
        if not await self._start(race):
            board = await self.board(race_id)
            if board.race.status == LOBBY:
                return RaceOutcome.refuse(_("A race needs at least {count} players").format(
                    count=MIN_PLAYERS), board)  # fmt: skip
            return RaceOutcome.refuse(_(STARTED), board)
        return RaceOutcome(await self.board(race_id), changed=True)

    async def _start(self, race: Race) -> bool:
        now = self.daily.clock()
        started = await self.storage.races.start(race.id, now, now + self.time_limit,
                                                 MIN_PLAYERS)  # fmt: skip
        if started:
            log.info("race %d started", race.id)
        return started

    async def play(self, race_id: int, player: Player, place: int | None = None) -> Outcome:
        """The player's board in a running race (started on first ask, the same one after)."""
        race = await self.storage.races.get(race_id)
        if race is None:
            return Outcome.refuse(_(NO_RACE))
        if not any(r.player_id == player.id for r in await self.storage.races.players(race_id)):
            return Outcome.refuse(_("You're not in this race"))
        if race.status == LOBBY:
            return Outcome.refuse(_("The race has not started yet"))
        if race.status == OVER:
            return Outcome.refuse(_(OVER_NOW))
        if race.started_at is not None:
            day = day_of(self.daily, race.started_at)
            if day < self.daily.today():  # its day is over: the job ends it (or has)
                return Outcome.refuse(closed_message(self.daily, race.kind, day))
        return await self.games.start_set(
            player, race.guild_id, race.kind, race.puzzle, race.answers, mode=Mode(race.mode),
            place=place,
        )  # fmt: skip

    async def finished(self, race_id: int, player_id: int) -> RaceOutcome:
        """Record the player's finish if their race game is over (once; a second call, or a
        game still going, changes nothing); the race ends once everyone has finished."""
        race = await self.storage.races.get(race_id)
        if race is None or race.status != RUNNING:
            return RaceOutcome.refuse(_(NO_RACE))
        game_id = (await self.storage.races.game_ids(race)).get(player_id)
        game = None if game_id is None else await self.games.game(game_id)
        if game is None or not game.over:
            return RaceOutcome.refuse(_("Still playing"))
        if not await self.storage.races.finish(race_id, player_id, game.status == "won",
                                               len(game.rows), self.daily.clock()):  # fmt: skip
            return RaceOutcome.refuse(_("Already finished"))
        board = await self.board(race_id)
        if all(r.finished_at is not None for r in board.players):
            return await self._end(board.race) or RaceOutcome(board, changed=True)
        return RaceOutcome(board, changed=True)

    async def game_over(self, game_id: int) -> RaceOutcome:
        """A game ended: if it is a race's, record its player's finish (:meth:`finished`)."""
        stored = await self.storage.game(game_id)
        if stored is None or stored.puzzle is None or not stored.puzzle.startswith("race:"):
            return RaceOutcome.refuse(_(NO_RACE))
        return await self.finished(int(stored.puzzle.removeprefix("race:")), stored.player_id)

    async def _end(self, race: Race) -> RaceOutcome | None:
        """End a running race: games still going are given up first (their answers are
        about to be shown), then the race ends once, its places and standings with it."""
        for player_id, game_id in (await self.storage.races.game_ids(race)).items():
            game = await self.games.game(game_id)
            if game is not None and not game.over:
                await self.games.give_up(Player(player_id), race.guild_id, game_id=game_id)
        if not await self.storage.races.end(race.id, self.daily.clock()):
            return None
        log.info("race %d over", race.id)
        return RaceOutcome(await self.board(race.id), changed=True, ended=True)

    async def run_due(self) -> list[RaceOutcome]:
        """The job: record finishes nobody reported, start lobbies whose time has come (or
        call them off with too few players), end races past their time limit or started on
        a puzzle day that has ended (games still going close as losses of that day,
        :mod:`bot.services.closing`). Returns each race whose message should change
        (``ended``: post the podium)."""
        changed: dict[int, RaceOutcome] = {}
        for race_id, player_id in await self.storage.races.unnoticed():
            outcome = await self.finished(race_id, player_id)
            if outcome.changed and outcome.board is not None:
                changed[race_id] = outcome
        now = self.daily.clock()
        for race in await self.storage.races.due(now):
            if race.status == LOBBY:
                if await self._start(race) or await self.storage.races.cancel(race.id, now):
                    changed[race.id] = RaceOutcome(await self.board(race.id), changed=True)
            elif (ended := await self._end(race)) is not None:
                changed[race.id] = ended
        today = day_start(self.daily, self.daily.today())
        for race in await self.storage.races.running_since_before(today):
            if (ended := await self._end(race)) is not None:
                changed[race.id] = ended
        return list(changed.values())

    async def board(self, race: Race | int) -> RaceBoard:
        race_id = race if isinstance(race, int) else race.id
        got = await self.storage.races.get(race_id)
        assert got is not None
        players = await self.storage.races.players(race_id)
        done = {r.player_id for r in players if r.finished_at is not None or got.status == OVER}
        games: dict[int, GameView] = {}
        for player_id, game_id in (await self.storage.races.game_ids(got)).items():
            if player_id in done and (view := await self.games.game(game_id)) is not None:
                games[player_id] = view
        return RaceBoard(got, players, games)

    async def standings(self, guild_id: int) -> list[RaceStanding]:
        return await self.storage.races.standings(guild_id)
