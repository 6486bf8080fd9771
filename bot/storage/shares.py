"""Results recorded from shares (pasted, or read from the official Wordle app), and how they
count on a server's boards beside the games played here.

A share belongs to the server it was recorded in and counts on the puzzle day it is about:
Wordle's number is a day (the NYT numbers its puzzles by day from 2021-06-19, as this bot
numbers its own dailies); another game's share counts on the puzzle day it was recorded.

One player's result for one puzzle counts once, however it arrived. A share counts
(``counted``) unless the player has a result of the same daily played here, which counts
instead whichever came first: a game finished after its share was counted takes the
share's place (:func:`uncount_shares_of`). A counted share adds to the standings' totals
(not to streaks, which follow the dailies played here) and to the period boards of its
server and of everyone, exactly as a game's result does.

Both writers lock the player's global standings row first (``FOR UPDATE`` on PostgreSQL; a
SQLite transaction holds the whole database): a share and a game of the same puzzle
finishing at once in two processes never both count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from bot.storage.database import Steps, execute, execute_many, fetch_all, one, value
from bot.storage.periods import EPOCH, add_to_periods
from bot.storage.records import DEFAULT_SEASON_DAYS, GLOBAL, Result

COUNTED_GAMES = ("wordle", "primel", "dordle", "quordle", "octordle")  # dailies, by kind


def share_kind(game: str) -> str | None:
    """The kind whose boards a share of ``game`` counts on (None: it counts on none)."""
    return f"{game}:daily" if game in COUNTED_GAMES else None


def share_day(game: str, puzzle: int, recorded_on: date) -> str | None:
    """The puzzle day a share counts on, or None for a Wordle number not yet played."""
    if game != "wordle":
        return recorded_on.isoformat()
    if not 0 <= puzzle <= (recorded_on - EPOCH).days + 1:  # tomorrow's, in a zone far east
        return None
    return (EPOCH + timedelta(days=puzzle)).isoformat()


@dataclass(frozen=True)
class ShareResult:
    player_id: int
    game: str
    puzzle: int
    won: bool
    guesses: int
    hard: bool
    grid: str


def lock_player(for_update: str, player_id: int, kind: str) -> Steps[None]:
    """Make and lock the player's global standings row of ``kind``: the first lock both a
    share and a game's result take, so they never count the same puzzle twice."""
    yield execute(
        "INSERT INTO standings (scope, player_id, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (GLOBAL, player_id, kind),
    )
    yield one(
        f"SELECT played FROM standings WHERE scope = ? AND kind = ? AND player_id = ?{for_update}",
        (GLOBAL, kind, player_id),
    )


def record_share(
    for_update: str, share: ShareResult, scope: int, today: date, now: str
) -> Steps[str]:
    """Record a share in ``scope``: 'new', 'same' (already recorded, nothing changes), or
    'replaced' (a correction, or the same result recorded from another server)."""
    kind = share_kind(share.game)
    if kind is not None:
        yield from lock_player(for_update, share.player_id, kind)
    values = (int(share.won), share.guesses, int(share.hard), share.grid)
    inserted = yield execute(
        "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
        "recorded_at, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (share.player_id, share.game, share.puzzle, *values, now, scope),
    )
    old = yield one(
        "SELECT id, won, guesses, hard, grid, scope, day, counted FROM share_results "
        f"WHERE player_id = ? AND game = ? AND puzzle = ?{for_update}",
        (share.player_id, share.game, share.puzzle),
    )
    assert old is not None
    if not inserted and tuple(old)[1:5] == values:
        return "same"
    if old["counted"]:
        yield from _count(int(old["scope"]), share.player_id, share.game, old["day"],
                          bool(old["won"]), int(old["guesses"]), -1)  # fmt: skip
    day = share_day(share.game, share.puzzle, today)
    counted = kind is not None and day is not None and (yield one(
        "SELECT 1 FROM results WHERE player_id = ? AND kind = ? AND day = ?",
        (share.player_id, kind, day),
    )) is None  # fmt: skip
    yield execute(
        "UPDATE share_results SET won = ?, guesses = ?, hard = ?, grid = ?, recorded_at = ?, "
        "scope = ?, day = ?, counted = ? WHERE id = ?",
        (*values, now, scope, day, int(counted), old["id"]),
    )
    if counted:
        yield from _count(scope, share.player_id, share.game, day, share.won, share.guesses, 1)
    return "new" if inserted else "replaced"


def remove_share(for_update: str, player_id: int, game: str, puzzle: int) -> Steps[bool]:
    find = "SELECT 1 FROM share_results WHERE player_id = ? AND game = ? AND puzzle = ?"
    if (yield one(find, (player_id, game, puzzle))) is None:
        return False  # nothing to take back (nor a player to lock, perhaps)
    kind = share_kind(game)
    if kind is not None:
        yield from lock_player(for_update, player_id, kind)
    old = yield one(
        "SELECT scope, day, won, guesses, counted FROM share_results "
        f"WHERE player_id = ? AND game = ? AND puzzle = ?{for_update}",
        (player_id, game, puzzle),
    )
    if old is None:
        return False
    if old["counted"]:
        yield from _count(int(old["scope"]), player_id, game, old["day"], bool(old["won"]),
                          int(old["guesses"]), -1)  # fmt: skip
    yield execute(
        "DELETE FROM share_results WHERE player_id = ? AND game = ? AND puzzle = ?",
        (player_id, game, puzzle),
    )
    return True


def uncount_shares_of(player_id: int, kind: str, day: str) -> Steps[None]:
    """A daily played here now counts for ``day``: a share of it counted before stops
    counting (the caller holds the player's lock, :func:`lock_player`)."""
    game, _, flavour = kind.partition(":")
    if flavour != "daily" or game not in COUNTED_GAMES:
        return
    for row in (yield fetch_all(
        "SELECT id, scope, won, guesses FROM share_results "
        "WHERE player_id = ? AND game = ? AND day = ? AND counted = 1",
        (player_id, game, day),
    )):  # fmt: skip
        yield from _count(int(row["scope"]), player_id, game, day, bool(row["won"]),
                          int(row["guesses"]), -1)  # fmt: skip
        yield execute("UPDATE share_results SET counted = 0 WHERE id = ?", (row["id"],))


def _count(
    scope: int, player_id: int, game: str, day: str, won: bool, guesses: int, sign: int
) -> Steps[None]:
    """Add (``sign`` 1) or take back (-1) a share's result on the boards of its server and
    of everyone: the standings' totals and every period holding its day."""
    kind = f"{game}:daily"
    seasons = yield value("SELECT season_days FROM guild_settings WHERE guild_id = ?", (scope,))
    scopes = sorted({scope, GLOBAL})
    yield execute_many(
        "INSERT INTO standings (scope, player_id, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        [(where, player_id, kind) for where in scopes],
    )
    yield execute_many(
        "UPDATE standings SET played = played + ?, wins = wins + ?, "
        "win_guesses = win_guesses + ? WHERE scope = ? AND kind = ? AND player_id = ?",
        [(sign, sign * int(won), sign * int(won) * guesses, where, kind, player_id)
         for where in scopes],
    )  # fmt: skip
    lengths = [(where, seasons if where == scope and seasons else DEFAULT_SEASON_DAYS)
               for where in scopes]  # fmt: skip
    yield from add_to_periods(lengths, player_id, kind, Result(won, guesses, day),
                         date.fromisoformat(day), sign=sign)  # fmt: skip
