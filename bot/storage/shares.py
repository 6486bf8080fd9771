"""Results recorded from shares (pasted, or read from the official Wordle app), which of them
count, and how they count on a server's boards beside the games played here.

Which share counts (the rules, here once, so the share channels, the message menus and the
console obey them alike). ``posted_on`` is the day the message was posted (its timestamp, in
the deployment's zone), never the day it is read: reading a channel's history later counts
exactly what reading it live did.

- A number outside 0 to the newest NYT Wordle number (no daily numbered by day is older than
  the NYT's, #0 on 2021-06-19) is refused: ``"implausible"``.
- NYT Wordle counts only the puzzle of the posting day, or of the day before or after (a
  player's own midnight is up to a day from the deployment's): ``"not current"`` otherwise.
- Other games' numbers cannot be dated here: a player's one share of a game a day counts, a
  second number of it that day is refused (``"one a day"``). So a player counts at most one
  result per game per puzzle day, whichever way it arrived (the per-day cap).
- The same share again changes nothing (``"same"``); a different result for the same puzzle
  replaces it (a correction), but a non-NYT share only on the day it was first posted
  (``"settled"`` otherwise).
- A message older than the one recorded (``posted_at``: when it was posted, its last edit if
  any) changes nothing either (``"same"``, superseded), whenever it is read: an import, or
  Discord sending an old message again, never undoes a later correction nor moves a share to
  the old message's server. So a player's messages of one puzzle end with the newest one's
  result, in whatever order they are read (at the same moment, the one read last).
A refused share is stored nowhere.
- A share of a player who deleted their data, posted before that moment (read later from
  the channel's history, or an old message edited), is ``"forgotten"``: stored nowhere,
  told to nobody (the table ``forgotten``, :mod:`bot.services.deletion`).

A share counts on the board of the server it was recorded in (direct messages are scope 0),
never on the global boards: a share is only as trustworthy as the channel it was posted in,
so the boards of everyone count only games played with the bot. It counts on its puzzle day:
Wordle's number is a day (the NYT numbers its puzzles by day from 2021-06-19, as this bot
numbers its own dailies); another game's share counts on the day it was posted.

A share counts on boards of its own: the kind ``{game}:shared`` ("Wordle (NYT shares)",
"Primel (shares)"), never on the bot's daily ``{game}:daily``. The bot's daily and the NYT's
(or a clone's) puzzle of a day are different puzzles, and a share is typed while a game is
played: so a game played here no longer takes a share's place (``uncount_shares_of`` is
gone; migration 29 counted again, on the shares' boards, the shares it had uncounted), and a
player may hold both, one on each board. A share counts (``counted``) when its game counts
on boards at all (:func:`counted`); one share per player per puzzle day still holds. It adds
to the standings' totals of its kind (not to streaks, which follow the dailies played here)
and to the period boards of its server, exactly as a game's result does.

Both writers lock the player's global standings row first (``FOR UPDATE`` on PostgreSQL; a
SQLite transaction holds the whole database): a share and a game of the same puzzle
finishing at once in two processes never both count, nor do two shares of one day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from bot.storage.database import Steps, execute, fetch_all, one, value
from bot.storage.periods import EPOCH, add_to_periods
from bot.storage.records import DEFAULT_SEASON_DAYS, GLOBAL, Result
from engine.variants import is_language_list

COUNTED_GAMES = ("wordle", "primel", "dordle", "quordle", "octordle")  # dailies, by kind
# What recording a share did: it counts (or changed), or why it was refused and not stored.
RECORDED = ("new", "same", "replaced")
REFUSED = ("implausible", "not current", "one a day", "settled")
FORGOTTEN = "forgotten"  # posted before its player deleted their data: stored nowhere, silently
SHARED = "shared"  # the flavour of the shares' own boards: "wordle:shared"


def share_kind(game: str) -> str | None:
    """The kind whose boards a share of ``game`` counts on (None: it counts on none): its
    own, apart from the bot's daily of the same game (module docstring)."""
    return f"{game}:{SHARED}" if counted(game) else None


def counted(game: str) -> bool:
    """Whether shares of ``game`` count on boards: the dailies named, and each language's
    Wordle (a clone's share counts on its language's list of its length)."""
    return game in COUNTED_GAMES or is_language_list(game)


def newest_number(posted_on: date) -> int:
    """The highest puzzle number a share posted on ``posted_on`` may have: the NYT's of the
    day after (no daily numbered by day began before the NYT's)."""
    return (posted_on - EPOCH).days + 1


def current_numbers(game: str, posted_on: date) -> range | None:
    """The numbers of ``game`` that count when posted on ``posted_on``, or None when its
    numbers cannot be dated (then one share of it a day counts)."""
    if game != "wordle":
        return None
    today = (posted_on - EPOCH).days
    return range(today - 1, today + 2)


def share_day(game: str, puzzle: int, posted_on: date) -> str:
    """The puzzle day a share counts on: Wordle's number's day, or the day it was posted."""
    if game != "wordle":
        return posted_on.isoformat()
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
    for_update: str, share: ShareResult, scope: int, posted_on: date, now: str, name: str = "",
    forgotten: tuple[str, str] | None = None, posted_at: str = "",
) -> Steps[str]:  # fmt: skip
    """Record a share posted on ``posted_on`` in ``scope`` by the player (named ``name``):
    'new', 'same' (already recorded, or superseded by a newer message: nothing changes) or
    'replaced' (a correction); or one of :data:`REFUSED`, and nothing is stored (the rules:
    module docstring). ``forgotten``: the player's mark and the stored time the message was
    posted, or None (the player records it themself, now). ``posted_at``: the stored time
    its message was posted (its last edit), ``now`` when empty."""
    posted_at = posted_at or now
    if not 0 <= share.puzzle <= newest_number(posted_on):
        return "implausible"  # before any statement: a 20-digit number fits no column
    numbers = current_numbers(share.game, posted_on)
    if numbers is not None and share.puzzle not in numbers:
        return "not current"
    kind = share_kind(share.game)
    made = yield execute(  # refused below only when a share of theirs is here: the player too
        "INSERT INTO players (id, name, created_at) VALUES (?, '', ?) ON CONFLICT DO NOTHING",
        (share.player_id, now),
    )
    # Asked after the insert, which waits for a deletion of the player in progress
    # (PostgreSQL: their row is locked), so a deletion's mark is seen once it is committed.
    if forgotten is not None and (yield one(
        "SELECT 1 FROM forgotten WHERE mark = ? AND deleted_at >= ?", forgotten
    )) is not None:  # fmt: skip
        if made:
            yield execute("DELETE FROM players WHERE id = ?", (share.player_id,))
        return FORGOTTEN
    if kind is not None:
        yield from lock_player(for_update, share.player_id, kind)
    day = share_day(share.game, share.puzzle, posted_on)
    values = (int(share.won), share.guesses, int(share.hard), share.grid)
    old = yield one(
        "SELECT id, won, guesses, hard, grid, scope, day, counted, posted_at FROM share_results "
        f"WHERE player_id = ? AND game = ? AND puzzle = ?{for_update}",
        (share.player_id, share.game, share.puzzle),
    )
    if old is not None and posted_at < old["posted_at"]:
        return "same"  # superseded: a newer message of theirs says what counts
    if old is not None and tuple(old)[1:5] == values:
        if posted_at > old["posted_at"]:  # the newer message says it too: older ones lose
            yield execute("UPDATE share_results SET posted_at = ? WHERE id = ?",
                          (posted_at, old["id"]))  # fmt: skip
        return "same"
    if old is not None and old["day"] != day:
        return "settled"  # a non-NYT share corrected on a later day: its day has passed
    if old is None and (yield one(
        "SELECT 1 FROM share_results WHERE player_id = ? AND game = ? AND day = ?",
        (share.player_id, share.game, day),
    )) is not None:  # fmt: skip
        return "one a day"
    counted = kind is not None
    if old is None:
        key = (share.player_id, share.game, share.puzzle)
        inserted = yield execute(
            "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
            "recorded_at, scope, day, counted, posted_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (*key, *values, now, scope, day, int(counted), posted_at),
        )
        if not inserted:  # recorded at this moment elsewhere (a game no board counts)
            return "same"
    else:
        if old["counted"] and kind is not None:
            yield from _count(int(old["scope"]), share.player_id, kind,
                              old["day"], bool(old["won"]), int(old["guesses"]), -1)  # fmt: skip
        yield execute(
            "UPDATE share_results SET won = ?, guesses = ?, hard = ?, grid = ?, "
            "recorded_at = ?, scope = ?, counted = ?, posted_at = ? WHERE id = ?",
            (*values, now, scope, int(counted), posted_at, old["id"]),
        )
    if kind is not None:
        yield from _count(scope, share.player_id, kind, day, share.won, share.guesses, 1)
    if name:
        yield execute("UPDATE players SET name = ? WHERE id = ?", (name[:100], share.player_id))
    return "new" if old is None else "replaced"


def remove_share(for_update: str, player_id: int, game: str, puzzle: int) -> Steps[bool]:
    if not 0 <= puzzle < 2**31:
        return False  # no share has that number (and no column holds it)
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
    if old["counted"] and kind is not None:
        yield from _count(int(old["scope"]), player_id, kind, old["day"],
                          bool(old["won"]), int(old["guesses"]), -1)  # fmt: skip
    yield execute(
        "DELETE FROM share_results WHERE player_id = ? AND game = ? AND puzzle = ?",
        (player_id, game, puzzle),
    )
    return True


def _count(
    scope: int, player_id: int, kind: str, day: str, won: bool, guesses: int, sign: int
) -> Steps[None]:
    """Add (``sign`` 1) or take back (-1) a share's result on the ``kind`` boards of its
    server (never the global ones): the standings' totals and every period holding its day."""
    seasons = yield value("SELECT season_days FROM guild_settings WHERE guild_id = ?", (scope,))
    yield from _add_standing(scope, player_id, kind, won, guesses, sign)
    yield from add_to_periods([(scope, seasons or DEFAULT_SEASON_DAYS)], player_id, kind,
                              Result(won, guesses, day), date.fromisoformat(day),
                              sign=sign)  # fmt: skip


def _add_standing(
    scope: int, player_id: int, kind: str, won: bool, guesses: int, sign: int
) -> Steps[None]:
    yield execute(
        "INSERT INTO standings (scope, player_id, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (scope, player_id, kind),
    )
    yield execute(
        "UPDATE standings SET played = played + ?, wins = wins + ?, "
        "win_guesses = win_guesses + ? WHERE scope = ? AND kind = ? AND player_id = ?",
        (sign, sign * int(won), sign * int(won) * guesses, scope, kind, player_id),
    )


def off_global_periods() -> Steps[None]:
    """Once, as shares leave the global boards (migration 15, which takes them off the
    standings): the shares counted so far leave the global period boards, as they came."""
    for row in (yield fetch_all(
        "SELECT player_id, game, day, won, guesses FROM share_results "
        "WHERE counted = 1 AND day IS NOT NULL"
    )):  # fmt: skip
        result = Result(bool(row["won"]), int(row["guesses"]), row["day"])
        yield from add_to_periods([(GLOBAL, DEFAULT_SEASON_DAYS)], int(row["player_id"]),
                                  f"{row['game']}:daily", result, date.fromisoformat(row["day"]),
                                  sign=-1)  # fmt: skip


APART = "shares_apart"  # meta: migration 29's moves are still to be made (:func:`move_apart`)


def move_apart() -> Steps[list[str]]:
    """Once, after migration 29 (which leaves :data:`APART` in ``meta``): each counted share's
    totals leave the standings of the bot's daily (``{game}:daily``, on its server) for its
    own kind's; the shares a game had uncounted count there too. Whoever deletes the mark
    makes the moves, in the same transaction: once, whole, even with two processes starting
    at once or a crash after the migration. Returns the kinds whose period boards are to be
    counted again from the results and shares (the caller does, in this transaction)."""
    if not (yield execute("DELETE FROM meta WHERE key = ?", (APART,))):
        return []
    kinds: dict[str, None] = {}
    for row in (yield fetch_all(
        "SELECT id, player_id, game, scope, won, guesses, counted FROM share_results "
        "WHERE day IS NOT NULL ORDER BY id"
    )):  # fmt: skip
        kind = share_kind(row["game"])
        if kind is None:
            continue  # counted nowhere, then and now
        daily = f"{row['game']}:daily"
        result = (int(row["scope"]), int(row["player_id"]))
        played = (bool(row["won"]), int(row["guesses"]))
        if row["counted"]:
            yield from _add_standing(*result, daily, *played, -1)
        else:  # uncounted by a game played here the same day (the rule retired)
            yield execute("UPDATE share_results SET counted = 1 WHERE id = ?", (row["id"],))
        yield from _add_standing(*result, kind, *played, 1)
        kinds.update({daily: None, kind: None})
    return list(kinds)
