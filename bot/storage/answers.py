"""The NYT answers a deployment knows beyond the shipped list: its players' votes, and the
answers set by hand.

A player's solved NYT share with its words (``/analyze`` with the words) is a vote: that
player says puzzle ``number``'s answer is ``answer``. One vote a player a number (the primary
key): a later paste replaces the earlier, its word, its server and its history alike. Each
vote keeps where it was cast (``scope``: a server, 0 for a DM) and the player's history when
cast (``history_days``: the distinct puzzle days before the vote's day on which they finished
a game with the bot); which votes count, and what they elect, is the service's rule
(:mod:`bot.services.answers`), applied afresh at every read, so a later vote can overturn an
answer.

``nyt_answers`` holds the answers not elected by votes: an operator's pin (``source`` 'pin',
``wordlebot nyt pin``), which beats any vote, and the answers learned before migration 28
under the old two-player rule ('legacy'), which stand until votes elect an answer or an
operator pins or removes them.

Votes name a player and go when the player deletes their data (the answers they helped elect
are elected again without them); ``nyt_answers`` names nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.storage.database import Database

PIN, LEGACY = "pin", "legacy"


@dataclass(frozen=True)
class Tally:
    """The votes for one word of one number: ``voters`` players, of whom ``counted`` had the
    history asked for, in ``servers`` distinct servers (a DM is none)."""

    number: int
    answer: str
    voters: int
    counted: int
    servers: int


class LearnedAnswers:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def vote(self, player_id: int, number: int, answer: str, scope: int, day: str) -> None:
        """Record (or replace) ``player_id``'s word for puzzle ``number``, cast in ``scope`` on
        the puzzle day ``day``, with the days they played before it, read in the same
        statement."""
        await self.db.write(
            "INSERT INTO nyt_answer_votes (number, player_id, answer, voted_at, scope, "
            "history_days) SELECT ?, ?, ?, ?, ?, COUNT(DISTINCT played_on) FROM results "
            "WHERE player_id = ? AND played_on < ? "
            "ON CONFLICT (number, player_id) DO UPDATE SET answer = excluded.answer, "
            "voted_at = excluded.voted_at, scope = excluded.scope, "
            "history_days = excluded.history_days",
            (number, player_id, answer, _now(), scope, player_id, day),
        )

    async def tallies(
        self, before: int | None, history_days: int, *, everyone: bool = False
    ) -> list[Tally]:
        """Each (number, word) voted, for numbers below ``before`` (None: all), most counted
        votes first; ``counted`` and ``servers`` count the voters with ``history_days``.
        Only the counted votes are read unless ``everyone`` (the others show in ``voters``):
        an index walk of half the rows or less, on every hint."""
        counted = "SUM(CASE WHEN history_days >= ? THEN 1 ELSE 0 END)" if everyone else "COUNT(*)"
        rows = await self.db.all(
            f"SELECT number, answer, COUNT(*), {counted}, "
            "COUNT(DISTINCT CASE WHEN history_days >= ? AND scope <> 0 THEN scope END) "
            "FROM nyt_answer_votes WHERE number < ? AND history_days >= ? "
            "GROUP BY number, answer ORDER BY number, 4 DESC, answer",
            (
                *([history_days] if everyone else []), history_days,
                _BEYOND if before is None else before, 0 if everyone else history_days,
            ),
        )  # fmt: skip
        return [Tally(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def fixed(self, before: int | None = None) -> dict[int, tuple[str, str]]:
        """number: (answer, source) of every pinned or legacy answer below ``before``."""
        rows = await self.db.all(
            "SELECT number, answer, source FROM nyt_answers WHERE number < ? ORDER BY number",
            (_BEYOND if before is None else before,),
        )
        return {int(r[0]): (str(r[1]), str(r[2])) for r in rows}

    async def pin(self, number: int, answer: str) -> None:
        """Set ``number``'s answer by hand, replacing any pin or legacy answer."""
        await self.db.write(
            "INSERT INTO nyt_answers (number, answer, learned_at, source) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (number) DO UPDATE SET answer = excluded.answer, "
            "learned_at = excluded.learned_at, source = excluded.source",
            (number, answer, _now(), PIN),
        )

    async def unpin(self, number: int) -> bool:
        """Remove ``number``'s pin or legacy answer (the votes decide again); False if none."""
        return await self.db.write("DELETE FROM nyt_answers WHERE number = ?", (number,)) == 1


_BEYOND = 2**31 - 1  # above every puzzle number


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
