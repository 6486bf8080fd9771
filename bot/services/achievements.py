"""Achievements: a catalogue of milestones, each earned once, checked when a game ends.

Each rule reads plain values (:class:`Facts`): the game just finished, and the player's own
totals from their global standings rows (games played with the bot only: a pasted share can
be forged, so shares earn nothing). What counts, thinking like a cheater:

- Skill is counted on dailies only (one a day, the same puzzle for everyone): a practice game
  can be given up and started again until a lucky draw, and an archive day's answer is known
  to everyone who played it. So "In two", the streak, hard-mode wins and the languages and
  lengths count dailies.
- A win in one guess earns nothing: on a daily it is luck or a leaked answer, and rewarding it
  would reward the leak. "In two" is two exactly.
- "100 games" counts every game played with the bot, practice included: it says how much
  someone played, which is all that rushing through games could earn. A game given up
  before its first guess was not played (else a hundred practice games given up at once,
  two commands each, would earn it without a word played).
- Absurdle has no daily: its win in four counts in any Absurdle game. Its adversary is
  deterministic and its hint shows the way, so it is a puzzle solved, never a rank.

Most rules read totals, so an award missed (the database busy when a game ended, a daily
closed at midnight) is made when the next game ends. "In two" and "Absurdle in four" belong
to one game (:class:`OneGame`): they are read from the games stored, so one missed is made
at the next check (the next game's end, or the next /stats), dated by the game that earned
it, where it was played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.i18n import N_
from bot.services.kinds import KINDS, LANGUAGES
from bot.storage import Result, Storage, StorageBusy, StoredGame

GAMES_GOAL, STREAK_GOAL, HARD_GOAL, ABSURDLE_MOST = 100, 30, 10, 4
ENGLISH_LENGTHS = frozenset(LANGUAGES["en"])


@dataclass(frozen=True)
class Facts:
    """What the rules read. ``kind``, ``won`` and ``guesses``: the game that just ended
    ("" when listing a player's achievements)."""

    kind: str = ""
    won: bool = False
    guesses: int = 0
    games: int = 0  # finished with the bot after a guess at least, every kind
    wins: int = 0
    best_daily_streak: int = 0
    hard_daily_wins: int = 0
    languages: frozenset[str] = frozenset()  # with a Wordle daily won
    english_lengths: frozenset[int] = frozenset()  # English Wordle lengths with a daily won

    @property
    def daily(self) -> bool:
        return self.kind.endswith(":daily")


@dataclass(frozen=True)
class OneGame:
    """What earns an achievement of one game: a game of ``kinds`` (a LIKE pattern with one
    "%": "%:daily", "absurdle:%") won with the bot in ``fewest`` to ``most`` guesses. The
    same rule reads the game that just ended (:meth:`holds`) and the games stored
    (:meth:`bot.storage.achievements.Achievements.won_a_game`)."""

    kinds: str
    fewest: int
    most: int

    def holds(self, facts: Facts) -> bool:
        head, _percent, tail = self.kinds.partition("%")
        kind = facts.kind
        return (facts.won and self.fewest <= facts.guesses <= self.most
                and len(kind) >= len(head) + len(tail)
                and kind.startswith(head) and kind.endswith(tail))  # fmt: skip


IN_TWO = OneGame("%:daily", 2, 2)  # skill: dailies only; one guess is luck or a leak
ABSURDLE_IN_FOUR = OneGame("absurdle:%", 1, ABSURDLE_MOST)


@dataclass(frozen=True)
class Achievement:
    id: str
    title: str  # marked for the catalogs: translate where shown
    description: str
    earned: Callable[[Facts], bool]
    progress: Callable[[Facts], tuple[int, int]] | None = None  # (so far, goal)
    game: OneGame | None = None  # earned by one game: read from the games stored


CATALOGUE: tuple[Achievement, ...] = (
    Achievement("first_win", N_("First win"), N_("Win a game with the bot"),
                lambda f: f.wins >= 1),
    Achievement("two_guesses", N_("In two"), N_("Win a daily in exactly two guesses"),
                IN_TWO.holds, game=IN_TWO),
    Achievement("games_100", N_("100 games"), N_("Finish 100 games with the bot"),
                lambda f: f.games >= GAMES_GOAL, lambda f: (f.games, GAMES_GOAL)),
    Achievement("streak_30", N_("30-day streak"), N_("Win a daily 30 days in a row"),
                lambda f: f.best_daily_streak >= STREAK_GOAL,
                lambda f: (f.best_daily_streak, STREAK_GOAL)),
    Achievement("hard_10", N_("Hard as nails"), N_("Win 10 dailies in hard or strict mode"),
                lambda f: f.hard_daily_wins >= HARD_GOAL,
                lambda f: (f.hard_daily_wins, HARD_GOAL)),
    Achievement("absurdle_4", N_("Absurdle in four"),
                N_("Beat Absurdle in four guesses or fewer"),
                ABSURDLE_IN_FOUR.holds, game=ABSURDLE_IN_FOUR),
    Achievement("every_language", N_("Every language"),
                N_("Win a Wordle daily in every language the bot has"),
                lambda f: f.languages >= set(LANGUAGES),
                lambda f: (len(f.languages & set(LANGUAGES)), len(LANGUAGES))),
    Achievement("every_length", N_("Every length"),
                N_("Win an English Wordle daily at every length the bot has"),
                lambda f: f.english_lengths >= ENGLISH_LENGTHS,
                lambda f: (len(f.english_lengths & ENGLISH_LENGTHS), len(ENGLISH_LENGTHS))),
)  # fmt: skip
BY_ID = {a.id: a for a in CATALOGUE}


def newly_earned(facts: Facts, earned: set[str] | dict[str, str]) -> list[str]:
    """The achievements ``facts`` earn that are not in ``earned``, in catalogue order."""
    return [a.id for a in CATALOGUE if a.id not in earned and a.earned(facts)]


def totals_facts(rows: list[tuple[str, int, int, int]], hard_daily_wins: int = 0, *,
                 games: int | None = None, kind: str = "", won: bool = False,
                 guesses: int = 0) -> Facts:  # fmt: skip
    """Facts from a player's global standings rows (kind, played, wins, max_streak), their
    hard-mode daily wins and the games they played (None: every game finished, as the rows
    count them); ``kind``, ``won``, ``guesses``: the game that just ended."""
    languages, lengths = set(), set()
    for row_kind, _played, wins, _streak in rows:
        name, _colon, flavour = row_kind.partition(":")
        spec = KINDS.get(name)
        if spec is None or flavour != "daily" or not wins:
            continue
        if spec.name == "wordle" or spec.base == "wordle":
            languages.add(spec.language)
            if spec.language == "en":
                lengths.add(spec.length)
    return Facts(
        games=sum(int(r[1]) for r in rows) if games is None else games,
        wins=sum(int(r[2]) for r in rows),
        best_daily_streak=max((int(r[3]) for r in rows if r[0].endswith(":daily")), default=0),
        hard_daily_wins=hard_daily_wins, languages=frozenset(languages),
        english_lengths=frozenset(lengths), kind=kind, won=won, guesses=guesses,
    )  # fmt: skip


async def award(storage: Storage, stored: StoredGame, result: Result, hard: bool) -> list[str]:
    """The achievements the game just ended (``stored``, saved with ``result``) earns its
    player, and any still due from their games before, recorded once; the ids newly earned.
    Called once the result is stored, on the game service's one path for every front end.
    Costs a read of what the player earned and one of their global standings rows, one
    indexed read for each achievement of one game still to earn; the hard-mode count only
    after a hard daily win while that one is still to earn. A busy database awards nothing
    now: the next check makes what is due."""
    store = storage.achievements
    player = stored.player_id
    try:
        earned = await store.earned(player)
        if len(earned) == len(CATALOGUE):
            return []
        rows = [(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in await store.totals(player)]
        hard_wins = 0
        if hard and result.won and result.day is not None and "hard_10" not in earned:
            hard_wins = await store.hard_daily_wins(player)
        games = await _games_played(storage, player, earned, rows)
        totals = [a for a in newly_earned(totals_facts(rows, hard_wins, games=games), earned)
                  if BY_ID[a].game is None]  # fmt: skip
        new = await store.award(player, totals, stored.scope, _now()) if totals else []
        new += await award_from_games(storage, player, earned)
    except StorageBusy:
        return []
    return [a.id for a in CATALOGUE if a.id in new]


async def award_from_games(storage: Storage, player_id: int, earned: dict[str, str]) -> list[str]:
    """Award each achievement of one game not in ``earned`` that a game the player finished
    with the bot earns (the one just ended among them), as the first such game: when and
    where it ended. The ids newly earned."""
    store, new = storage.achievements, []
    for achievement in CATALOGUE:
        rule = achievement.game
        if rule is None or achievement.id in earned:
            continue
        found = await store.won_a_game(player_id, rule.kinds, rule.fewest, rule.most)
        if found and await store.award_for_game(player_id, achievement.id, rule.kinds,
                                                rule.fewest, rule.most):  # fmt: skip
            new.append(achievement.id)
    return new


@dataclass(frozen=True)
class Line:
    """One achievement as /stats lists it: earned (when), or the progress toward it."""

    achievement: Achievement
    earned_at: str | None
    progress: tuple[int, int] | None


async def listing(storage: Storage, player_id: int) -> list[Line]:
    """Every achievement for ``player_id``: those earned with their dates, the others with
    the progress made toward them where a count says it. An achievement of one game still
    due (its award missed) is made first, dated by its game (a busy database: later)."""
    store = storage.achievements
    earned = await store.earned(player_id)
    try:
        if await award_from_games(storage, player_id, earned):
            earned = await store.earned(player_id)
    except StorageBusy:
        pass  # listed as it stands; the next check makes it
    rows = [(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in await store.totals(player_id)]
    hard = 0 if "hard_10" in earned else await store.hard_daily_wins(player_id)
    games = None if "games_100" in earned else await store.games_played(player_id)
    facts = totals_facts(rows, hard, games=games)
    return [Line(a, earned.get(a.id),
                 None if a.progress is None or a.id in earned else a.progress(facts))
            for a in CATALOGUE]  # fmt: skip


async def _games_played(storage: Storage, player_id: int, earned: dict[str, str],
                        rows: list[tuple[str, int, int, int]]) -> int | None:  # fmt: skip
    """The games the player played (:meth:`~bot.storage.achievements.Achievements.
    games_played`), read at a game's end only while "100 games" is to earn and they finished
    that many (a read fewer at most games' end)."""
    if "games_100" in earned or sum(r[1] for r in rows) < GAMES_GOAL:
        return None  # every game finished (too few to earn it, or earned already)
    return await storage.achievements.games_played(player_id)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
