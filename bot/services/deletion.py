"""What deleting a player's data keeps: for the rest of the puzzle day, one mark per puzzle
they had going or finished that day (a daily, an archive day, a race, a challenge), so that
deleting is no way to play it again with its answer known.

A mark is the HMAC-SHA256 of (player id, kind, puzzle) under a key derived from the
deployment's secret seed: without the seed it names no player and no puzzle, and two marks
of the same player cannot be told to belong together. It holds for its puzzle day only: a
mark of an earlier day is ignored, deleted at the next deletion and by the clock's job.

A deletion also leaves the mark of the player themself (``forgotten``), with its moment, for
good: a share they posted before it, read later from a channel's history (``/import``) or
edited, never counts again, and their data does not come back against their wish; what they
post after it counts (they came back and played). It names nobody without the seed either.

A challenge has no day: it can be played whenever it is asked for, so the mark of a challenge
the player ever played lasts (``LASTING``), or deleting would replay it with the word known.
"""

from __future__ import annotations

import hashlib
import hmac

from bot.i18n import N_

MARKS = "played-marks"  # the purpose of the key deletion marks are made with
FORGOTTEN = "forgotten"  # the kind of a player's own mark (a game's kind always has a ":")
CHALLENGE = ":custom"  # the kinds of challenge games ("wordle:custom")
LASTING = "9999-12-31"  # the day a challenge's mark holds until: it outlives every day
CONFIRM = "DELETE"
# Marked for the catalogs: translate where shown, _(DELETED).
NOT_CONFIRMED = N_("Nothing deleted: type DELETE to confirm")
DELETED = N_(
    "Deleted your games, results and stats. Until the puzzle day ends, what you played today "
    "stays played: an anonymous mark for each, gone at the day's end."
)
NOTHING = N_("There was nothing to delete.")


def played_mark(key: bytes, player_id: int, kind: str, puzzle: str) -> str:
    """The mark a deletion leaves for a game of ``kind`` on ``puzzle``."""
    return hmac.new(key, f"{player_id}\x00{kind}\x00{puzzle}".encode(), hashlib.sha256).hexdigest()


def player_mark(key: bytes, player_id: int) -> str:
    """The mark a deletion leaves of the player themself (the table ``forgotten``)."""
    return played_mark(key, player_id, FORGOTTEN, "")
