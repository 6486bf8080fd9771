"""The NYT answers a deployment learned from its players, after the shipped list ends.

A player's solved NYT share with its words (``/analyze`` with the words) is a vote: that
player says puzzle ``number``'s answer is ``answer`` (one vote a player a number; a later
paste replaces the earlier). A number is learned once at least ``agree`` different players
voted the same word and its day has ended (the caller passes the first number whose day has
not); if two words both have the most votes, nothing is learned for it. A learned answer is
never changed: the primary key keeps the first, so two processes learning at once store one.

Votes name a player and go when the player deletes their data; a learned answer names nobody.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.storage.database import Database


class LearnedAnswers:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def vote(self, player_id: int, number: int, answer: str) -> None:
        """Record (or replace) ``player_id``'s word for puzzle ``number``."""
        await self.db.write(
            "INSERT INTO nyt_answer_votes (number, player_id, answer, voted_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (number, player_id) DO UPDATE SET "
            "answer = excluded.answer, voted_at = excluded.voted_at",
            (number, player_id, answer, _now()),
        )

    async def learned(self, before: int, agree: int = 2) -> list[tuple[int, str]]:
        """Every learned (number, answer), oldest first, after learning what can be learned
        now: numbers below ``before`` (their day has ended) with ``agree`` players agreeing."""
        ready = await self.db.all(_READY, (before, agree))
        if ready:
            async with self.db.transaction() as tx:
                await _learn(tx, ready)
        rows = await self.db.all("SELECT number, answer FROM nyt_answers ORDER BY number")
        return [(int(r[0]), str(r[1])) for r in rows]


# (number, answer, players) for each word enough players agree on, where none is learned.
_READY = (
    "SELECT v.number, v.answer, COUNT(*) FROM nyt_answer_votes v WHERE v.number < ? "
    "AND NOT EXISTS (SELECT 1 FROM nyt_answers a WHERE a.number = v.number) "
    "GROUP BY v.number, v.answer HAVING COUNT(*) >= ?"
)


async def _learn(tx: Any, ready: list[Any]) -> None:
    best: dict[int, list[tuple[int, str]]] = {}
    for number, answer, players in ready:
        best.setdefault(int(number), []).append((int(players), str(answer)))
    chosen = []
    for number, words in best.items():
        words.sort(reverse=True)
        if len(words) == 1 or words[0][0] > words[1][0]:  # a tie for the most: not learned
            chosen.append((number, words[0][1], _now()))
    if chosen:
        await tx.executemany(
            "INSERT INTO nyt_answers (number, answer, learned_at) VALUES (?, ?, ?) "
            "ON CONFLICT (number) DO NOTHING",
            chosen,
        )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
