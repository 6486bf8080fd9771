"""The NYT answer model as a deployment knows it: the shipped history and what it learned.

Hints on an NYT puzzle use the model of that puzzle's number (a share's own, or today's for a
typed history): it knows every answer before that number (:mod:`engine.nyt_history`). After
the shipped list ends, the bot learns answers from its players: a solved NYT share pasted
with its words (``/analyze``), every row's colours matching its word against the last word,
is that player's vote for the last word (:meth:`AnswerBook.observe`). A forged paste costs
nothing, so the answer of a number is elected from the votes by :func:`elected`, afresh at
every read (a later majority overturns it), and never before its day has ended by the bot's
clock (:class:`bot.services.daily.DailyPuzzles`, the day the dailies close on). An
operator's pin (``wordlebot nyt pin``) beats any vote. The rules and their thresholds are in
``docs/fair-play.md`` ("Learned NYT answers"); they are applied here, once, for every front
end and process, on what the database holds (:mod:`bot.storage.answers`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from bot.services.daily import DailyPuzzles
from bot.storage import Storage
from bot.storage.answers import PIN, Tally
from engine.answer_model import AnswerModel, nyt_model
from engine.nyt_history import shipped_answers
from engine.pattern import score, winning
from engine.shares import Share
from engine.variants import get_variant

# A vote counts when its player finished games with the bot on this many distinct puzzle
# days before the day of the vote: a fresh account must be played for a week before it
# weighs anything, while a regular qualifies in their first week.
HISTORY_DAYS = 5
# An answer is elected by a strict majority of the counted votes of its number, from at
# least this many counted players, in at least this many distinct servers (a DM is none: an
# account needs no server to DM the bot). Two accounts are never enough, nor any number of
# accounts in one server.
MIN_VOTERS = 3
MIN_SERVERS = 2
VOTES = "votes"  # the source of an elected answer (beside PIN and LEGACY)


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


def elected(tallies: Iterable[Tally]) -> str | None:
    """The word the counted votes of one number elect, or None: a strict majority of them,
    from at least :data:`MIN_VOTERS` players in at least :data:`MIN_SERVERS` servers."""
    words = list(tallies)
    total = sum(t.counted for t in words)
    for t in words:
        if 2 * t.counted > total and t.counted >= MIN_VOTERS and t.servers >= MIN_SERVERS:
            return t.answer
    return None


@dataclass(frozen=True)
class KnownAnswer:
    """What the deployment takes as ``number``'s answer, and why (:data:`PIN`, :data:`VOTES`
    or legacy); ``tallies``: its votes."""

    number: int
    answer: str | None
    source: str | None
    tallies: tuple[Tally, ...] = ()


@dataclass
class AnswerBook:
    """What this deployment knows of the NYT's answers (stateless: the database holds it)."""

    storage: Storage
    daily: DailyPuzzles

    def today(self) -> int:
        """Today's NYT number by the bot's clock (numbers below it have ended)."""
        return self.daily.number(self.daily.today())

    async def known(
        self, before: int | None = None, *, everyone: bool = False
    ) -> list[KnownAnswer]:
        """Every number below ``before`` (None: all) with counted votes (``everyone``: any
        vote), a pin or a legacy answer: a pin first, else the word its votes elect, else its
        legacy answer."""
        answers = self.storage.answers
        fixed = await answers.fixed(before)
        voted = await answers.tallies(before, HISTORY_DAYS, everyone=everyone)
        votes = {n: tuple(group) for n, group in groupby(voted, key=lambda t: t.number)}
        found = []
        for number in sorted(fixed.keys() | votes.keys()):
            tallies = votes.get(number, ())
            answer, source = fixed.get(number, (None, None))
            if source != PIN and (chosen := elected(tallies)) is not None:
                answer, source = chosen, VOTES
            found.append(KnownAnswer(number, answer, source, tallies))
        return found

    async def learned(self) -> list[tuple[int, str]]:
        """(number, answer) of every number whose day has ended and whose answer is known."""
        return [(k.number, k.answer) for k in await self.known(self.today()) if k.answer]

    async def model(self, puzzle: int | None = None) -> AnswerModel:
        """The model of NYT puzzle ``puzzle`` (today's when None)."""
        number = self.today() if puzzle is None else puzzle
        return nyt_model(number, await self.learned())

    async def observe(
        self, player_id: int, share: Share, guesses: Sequence[str], server: int = 0
    ) -> bool:
        """Count a solved share with its words as ``player_id``'s vote for its answer, cast
        in ``server`` (a Discord server's id; 0: none, a DM or a group DM); False when it
        says nothing (not solved, not consistent, a number the shipped list holds, or beyond
        tomorrow's)."""
        answer = solved_answer(share, guesses)
        number = share.puzzle
        if answer is None or number is None or not self.votable(number):
            return False
        day = self.daily.today().isoformat()
        await self.storage.answers.vote(player_id, number, answer, server, day)
        return True

    def votable(self, number: int) -> bool:
        """Whether ``number`` is past the shipped list and not beyond tomorrow's."""
        return shipped_answers()[-1].number < number <= self.today() + 1

    async def pin(self, number: int, answer: str) -> None:
        """An operator's answer for ``number``: it beats every vote until unpinned."""
        await self.storage.answers.pin(number, answer)

    async def unpin(self, number: int) -> bool:
        """Remove ``number``'s pin or legacy answer; False if it had none."""
        return await self.storage.answers.unpin(number)
