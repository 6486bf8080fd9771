"""The NYT answer model as a deployment knows it: the shipped history and what it learned.

Hints on an NYT puzzle use the model of that puzzle's number (a share's own, or today's for a
typed history): it knows every answer before that number (:mod:`engine.nyt_history`). After
the shipped list ends, the bot learns answers from its players: a solved NYT share pasted
with its words (``/analyze``), every row's colours matching its word against the last word,
is that player's vote for the last word (:meth:`AnswerBook.observe`). A number is learned
once :data:`AGREE` different players agree (one player's paste can be forged) and never
before its day has ended by the bot's clock (:class:`bot.services.daily.DailyPuzzles`, the
day the dailies close on): the rule is applied here and in the database, once, for every
front end and process (:mod:`bot.storage.answers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.services.daily import DailyPuzzles
from bot.storage import Storage
from engine.answer_model import AnswerModel, nyt_model
from engine.nyt_history import shipped_answers
from engine.pattern import score, winning
from engine.shares import Share
from engine.variants import get_variant

AGREE = 2  # different players whose solved shares must name the same word


def solved_answer(share: Share, guesses: Sequence[str]) -> str | None:
    """The answer an NYT Wordle share with its words shows, or None unless the share is a
    numbered Wordle grid, solved, with one NYT-accepted word per row whose colours are that
    word scored against the last (what the game itself would have shown)."""
    if share.game != "wordle" or share.puzzle is None or len(share.boards) != 1:
        return None
    rows = share.boards[0].rows
    words = [w.strip().lower() for w in guesses]
    allowed = get_variant("wordle-nyt").guesses.index
    if not rows or len(words) != len(rows) or rows[-1] != winning(5):
        return None
    if any(w not in allowed for w in words):
        return None
    answer = words[-1]
    if any(score(w, answer) != p for w, p in zip(words, rows, strict=True)):
        return None
    return answer


@dataclass
class AnswerBook:
    """What this deployment knows of the NYT's answers (stateless: the database holds it)."""

    storage: Storage
    daily: DailyPuzzles

    def today(self) -> int:
        """Today's NYT number by the bot's clock (numbers below it have ended)."""
        return self.daily.number(self.daily.today())

    async def learned(self) -> list[tuple[int, str]]:
        """(number, answer) learned so far (learning any that became ready)."""
        return await self.storage.answers.learned(self.today(), AGREE)

    async def model(self, puzzle: int | None = None) -> AnswerModel:
        """The model of NYT puzzle ``puzzle`` (today's when None)."""
        number = self.today() if puzzle is None else puzzle
        return nyt_model(number, await self.learned())

    async def observe(self, player_id: int, share: Share, guesses: Sequence[str]) -> bool:
        """Count a solved share with its words as ``player_id``'s vote for its answer; False
        when it says nothing (not solved, not consistent, a number the shipped list holds,
        or beyond tomorrow's)."""
        answer = solved_answer(share, guesses)
        number = share.puzzle
        if answer is None or number is None:
            return False
        if number <= shipped_answers()[-1].number or number > self.today() + 1:
            return False
        await self.storage.answers.vote(player_id, number, answer)
        return True
