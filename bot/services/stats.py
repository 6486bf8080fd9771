"""Stats as the NYT statistics screen shows them, and leaderboards per guild and global."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from bot.i18n import N_, _
from bot.services.kinds import GAMES, KINDS, fail_score_of, kind_name, shown_title
from bot.storage import GLOBAL, LEADERBOARD_METRICS, GuildSettings, Storage
from bot.storage.periods import PERIODS, STREAK_METRICS, period_key, season_of
from bot.storage.shares import SHARED, counted

METRICS = tuple(LEADERBOARD_METRICS)
PER_PAGE = 10
MIN_GAMES = 5  # for win rate and skill, so one lucky game does not top the board
PERIOD_MIN_GAMES = {"today": 1, "week": 3}  # one daily a day: fewer games in a short period
# A board's period as a person reads it (in a heading: "Wins, wordle daily, everyone, today").
PERIOD_LABELS = {"today": N_("today"), "week": N_("this week"), "month": N_("this month"),
                 "all": N_("all time")}  # fmt: skip


@dataclass(frozen=True)
class SharedResults:
    """Results recorded from pasted shares of the original game (not played in the bot)."""

    game: str  # as the share names it: wordle, primel, quordle...
    played: int
    wins: int
    average: float | None  # guesses per win

    @property
    def label(self) -> str:
        """ "Wordle (NYT shares)", in the current locale."""
        if self.game == "wordle":
            return _("{game} (NYT shares)").format(game=self.game.title())
        return _("{game} (shares)").format(game=self.game.title())


@dataclass(frozen=True)
class ArchiveResults:
    """Past dailies played from the archive: their own line, never the daily's streak (and
    Absurdle's challenges beside its practice games, the same way)."""

    game: str
    played: int
    wins: int
    average: float | None  # guesses per win
    flavour: str = "archive"

    @property
    def label(self) -> str:
        """ "Wordle archive", in the current locale."""
        template = FLAVOUR_LABELS.get(self.flavour, f"{{game}} {self.flavour}")
        return _(template).format(game=self.game.title())


FLAVOUR_LABELS = {"archive": N_("{game} archive"), "challenge": N_("{game} challenge")}


@dataclass(frozen=True)
class Stats:
    kind: str
    played: int
    win_percent: int
    current_streak: int
    max_streak: int
    distribution: dict[int, int]  # guesses -> wins, for 1..max guesses
    shared: SharedResults | None = None  # the same game's recorded shares, on their own line
    archive: ArchiveResults | None = None  # a daily's stats: past dailies from the archive


@dataclass(frozen=True)
class BoardEntry:
    rank: int
    player_id: int
    name: str
    value: float
    played: int
    shared: int = 0  # of ``played``, the shares typed in the server (a shares board: all)


@dataclass(frozen=True)
class Board:
    kind: str
    metric: str
    scope: int | None  # None: global
    page: int
    pages: int
    total: int
    entries: list[BoardEntry]
    period: str = "all time"  # as a person reads it (translated): "this week", "season 31 (...)"


class LeaderboardError(ValueError):
    pass


@dataclass
class StatsService:
    storage: Storage

    async def stats(self, player_id: int, kind: str, today: date,
                    scope: int | None = None) -> Stats:  # fmt: skip
        """The player's /stats of ``kind``: everywhere, or the games and streaks of one
        server alone (``scope``; then no shares nor archive lines: those are the player's)."""
        standing = await self.storage.standing(player_id, kind,
                                               GLOBAL if scope is None else scope)  # fmt: skip
        spec = kind_name(kind)
        limit = spec.distribution_size
        played, counts = await self.storage.distribution(player_id, kind, scope)
        distribution = {n: counts.get(n, 0) for n in range(1, limit + 1)}
        if not spec.limit:  # no guess limit (Absurdle): the last row holds the longer wins
            distribution[limit] += sum(c for n, c in counts.items() if n > limit)
        shared = archive = None
        if scope is None:
            shared = await self.shared_results(player_id, kind_name(kind).name)
            archive = await self.archive_results(player_id, kind)
        if standing is None or not played:
            return Stats(kind, 0, 0, 0, 0, distribution, shared, archive)
        current = standing.current_streak
        if standing.last_day is not None and standing.last_day < (today - timedelta(1)).isoformat():
            current = 0  # a missed day breaks a daily streak
        percent = round(100 * sum(counts.values()) / played)
        return Stats(kind, played, percent, current, standing.max_streak, distribution, shared,
                     archive)  # fmt: skip

    async def shared_results(self, player_id: int, game: str) -> SharedResults | None:
        """The player's recorded shares of ``game``, or None when there are none."""
        rows = [r for r in await self.storage.shares(player_id) if r["game"] == game]
        if not rows:
            return None
        wins = [int(r["guesses"]) for r in rows if r["won"]]
        average = sum(wins) / len(wins) if wins else None
        return SharedResults(game, len(rows), len(wins), average)

    async def archive_results(self, player_id: int, kind: str) -> ArchiveResults | None:
        """For a daily's stats: the same game's past dailies played from the archive; for
        Absurdle's practice games: its challenges."""
        game, _colon, flavour = kind.partition(":")
        other = {"daily": "archive", "practice": "challenge" if game == "absurdle" else None}
        beside = other.get(flavour)
        if beside is None:
            return None
        standing = await self.storage.standing(player_id, f"{game}:{beside}")
        if standing is None or not standing.played:
            return None
        average = standing.win_guesses / standing.wins if standing.wins else None
        return ArchiveResults(game, standing.played, standing.wins, average, beside)

    async def leaderboard(
        self, kind: str, metric: str = "wins", *, guild_id: int | None = None, page: int = 1,
        today: date, min_games: int = MIN_GAMES, period: str = "all",
        previous_season: bool = False,
    ) -> Board:  # fmt: skip
        """One page of a board, all time or over a period (today, this week, this month,
        this season or, with ``previous_season``, the last one's final standings). A guild's
        board counts only games played in that guild and follows its season length and fail
        score."""
        if metric not in LEADERBOARD_METRICS:
            raise LeaderboardError(_("Unknown board {board}; choose one of {boards}").format(
                board=repr(metric[:20]), boards=", ".join(METRICS)))  # fmt: skip
        if period not in PERIODS:
            raise LeaderboardError(_("Unknown period {period}; choose one of {periods}").format(
                period=repr(period[:20]), periods=", ".join(PERIODS)))  # fmt: skip
        if period != "all" and metric in STREAK_METRICS:
            raise LeaderboardError(_("Streak boards count all time: choose period all"))
        game, _colon, flavour = kind.partition(":")
        if game not in KINDS:
            raise LeaderboardError(_("Unknown game {game}; choose one of {games}").format(
                game=repr(game[:20]), games=", ".join(GAMES)))  # fmt: skip
        if flavour == SHARED and not counted(game):
            raise LeaderboardError(_("Typed shares of {game} count on no board")
                                   .format(game=shown_title(KINDS[game])))  # fmt: skip
        if flavour == SHARED and guild_id is None:
            raise LeaderboardError(_("Typed shares count on their server's board only, never "
                                     "on everyone's: a share is only as trustworthy as the "
                                     "channel it was posted in"))  # fmt: skip
        if metric == "skill" and flavour != "daily":
            others = ", ".join(m for m in METRICS if m != "skill")
            # Translators: {flavour} is the kind of game as typed (practice, archive, race).
            raise LeaderboardError(_(
                "The skill board ranks the coach's scores of dailies, and {game} {flavour} "
                "games are not coached for it: choose one of {boards}"
            ).format(game=shown_title(KINDS[game]), flavour=flavour, boards=others))  # fmt: skip
        scope = GLOBAL if guild_id is None else guild_id
        settings = (GuildSettings(GLOBAL) if guild_id is None
                    else await self.storage.guild_settings(guild_id))  # fmt: skip
        day, label = today, _(PERIOD_LABELS[period]) if period in PERIOD_LABELS else ""
        if period == "season":
            season = season_of(today, settings.season_days)
            if previous_season:
                season = season_of(season.first - timedelta(days=1), settings.season_days)
            day = season.first
            label = _("season {number} ({first} to {last})").format(
                number=season.number, first=season.first, last=season.last
            )
        rows, total = await self.storage.leaderboard(
            scope, kind, metric, period=period_key(period, day, settings.season_days),
            page=page, per_page=PER_PAGE,
            min_games=min(min_games, PERIOD_MIN_GAMES.get(period, min_games)),
            fail_score=fail_score_of(kind, settings.fail_score), today=today,
        )  # fmt: skip
        pages = max(1, -(-total // PER_PAGE))
        shares = flavour == SHARED  # a board of typed shares holds nothing else
        entries = [
            BoardEntry(r.rank, r.row["player_id"], r.row["name"] or str(r.row["player_id"]),
                       r.value, r.row["played"], r.row["played"] if shares else 0)
            for r in rows
        ]  # fmt: skip
        return Board(kind, metric, guild_id, max(page, 1), pages, total, entries, label)
