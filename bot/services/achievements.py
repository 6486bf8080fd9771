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
- "100 games" counts every game finished with the bot, practice included: it says how much
  someone played, which is all that rushing through games could earn.
- Absurdle has no daily: its win in four counts in any Absurdle game. Its adversary is
  deterministic and its hint shows the way, so it is a puzzle solved, never a rank.

Most rules read totals, so an award missed (the database busy when a game ended, a daily
closed at midnight) is made when the next game ends. Only "In two" and "Absurdle in four"
belong to one game's moment.
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
    games: int = 0  # finished with the bot, every kind
    wins: int = 0
    best_daily_streak: int = 0
    hard_daily_wins: int = 0
    languages: frozenset[str] = frozenset()  # with a Wordle daily won
    english_lengths: frozenset[int] = frozenset()  # English Wordle lengths with a daily won

    @property
    def daily(self) -> bool:
        return self.kind.endswith(":daily")


@dataclass(frozen=True)
class Achievement:
    id: str
    title: str  # marked for the catalogs: translate where shown
    description: str
    earned: Callable[[Facts], bool]
    progress: Callable[[Facts], tuple[int, int]] | None = None  # (so far, goal)


CATALOGUE: tuple[Achievement, ...] = (
    Achievement("first_win", N_("First win"), N_("Win a game with the bot"),
                lambda f: f.wins >= 1),
    Achievement("two_guesses", N_("In two"), N_("Win a daily in exactly two guesses"),
                lambda f: f.daily and f.won and f.guesses == 2),
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
                lambda f: f.kind.startswith("absurdle:") and f.won
                and 0 < f.guesses <= ABSURDLE_MOST),
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
                 kind: str = "", won: bool = False, guesses: int = 0) -> Facts:  # fmt: skip
    """Facts from a player's global standings rows (kind, played, wins, max_streak) and their
    hard-mode daily wins; ``kind``, ``won``, ``guesses``: the game that just ended."""
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
        games=sum(int(r[1]) for r in rows), wins=sum(int(r[2]) for r in rows),
        best_daily_streak=max((int(r[3]) for r in rows if r[0].endswith(":daily")), default=0),
        hard_daily_wins=hard_daily_wins, languages=frozenset(languages),
        english_lengths=frozenset(lengths), kind=kind, won=won, guesses=guesses,
    )  # fmt: skip


async def award(storage: Storage, stored: StoredGame, result: Result, hard: bool) -> list[str]:
    """The achievements the game just ended (``stored``, saved with ``result``) earns its
    player, recorded once; the ids newly earned. Called once the result is stored, on the
    game service's one path for every front end. Costs a read of what the player earned and
    one of their global standings rows; the hard-mode count only after a hard daily win
    while that one is still to earn. A busy database awards nothing now (the totals' rules
    catch up at the next game)."""
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
        facts = totals_facts(rows, hard_wins, kind=stored.kind, won=result.won,
                             guesses=result.guesses)  # fmt: skip
        new = newly_earned(facts, earned)
        if not new:
            return []
        return await store.award(player, new, stored.scope, _now())
    except StorageBusy:
        return []


@dataclass(frozen=True)
class Line:
    """One achievement as /stats lists it: earned (when), or the progress toward it."""

    achievement: Achievement
    earned_at: str | None
    progress: tuple[int, int] | None


async def listing(storage: Storage, player_id: int) -> list[Line]:
    """Every achievement for ``player_id``: those earned with their dates, the others with
    the progress made toward them where a count says it."""
    store = storage.achievements
    earned = await store.earned(player_id)
    rows = [(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in await store.totals(player_id)]
    hard = 0 if "hard_10" in earned else await store.hard_daily_wins(player_id)
    facts = totals_facts(rows, hard)
    return [Line(a, earned.get(a.id),
                 None if a.progress is None or a.id in earned else a.progress(facts))
            for a in CATALOGUE]  # fmt: skip


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
