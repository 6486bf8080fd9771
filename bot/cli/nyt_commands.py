"""``wordlebot nyt show|pin|unpin``: the NYT answers a deployment learned, on its database.

After the shipped history ends the bot elects each NYT number's answer from its players'
votes (:mod:`bot.services.answers`); an operator reads the votes here and pins an answer
(the NYT's, once published) that beats every vote, or removes a pin or a legacy answer.
"""

from __future__ import annotations

import argparse
import asyncio

from bot.errors import UsageError
from bot.services.answers import HISTORY_DAYS, AnswerBook, KnownAnswer
from bot.storage.answers import Tally
from engine.nyt_history import shipped_answers


def cmd_nyt(args: argparse.Namespace) -> int:
    from bot.services import open_services
    from bot.settings import load_settings

    async def run() -> str:
        services = await open_services(load_settings())  # the bot's clock and time zone
        try:
            book = AnswerBook(services.storage, services.daily)
            if args.nyt_command == "show":
                return await show(book, args.number)
            number = _number(book, args.number)
            if args.nyt_command == "pin":
                word = _word(args.word)
                await book.pin(number, word)
                return f"#{number} pinned: {word.upper()} (beats every vote)"
            removed = await book.unpin(number)
            said = f"#{number}: pin removed" if removed else f"#{number} had no pin"
            return f"{said}\n{await show(book, number)}"
        finally:
            await services.close()

    print(asyncio.run(run()))
    return 0


async def show(book: AnswerBook, number: int | None) -> str:
    """Each number's answer and why, with its votes (or the one ``number``'s)."""
    last = shipped_answers()[-1]
    if number is not None and number <= last.number:
        shipped = shipped_answers()[number].answer.upper() if number >= 0 else "none"
        return f"#{number} is in the shipped list: {shipped} (votes and pins are not used)"
    known = [k for k in await book.known(everyone=True) if number is None or k.number == number]
    if not known:
        return f"#{number}: no votes, no pin" if number is not None else "no votes, no pins"
    lines = []
    for k in known:
        lines.append(_known(k, book.today()))
        lines.extend(f"  {_tally(t)}" for t in k.tallies)
    if number is None:
        lines.append(f"(a vote counts after {HISTORY_DAYS} days of games with the bot)")
    return "\n".join(lines)


def _known(k: KnownAnswer, today: int) -> str:
    used = f"{k.answer.upper()} ({k.source})" if k.answer else "unknown (no majority)"
    later = ", used once its day has ended" if k.number >= today else ""
    return f"#{k.number}: {used}{later}"


def _tally(t: Tally) -> str:
    votes = "vote" if t.voters == 1 else "votes"
    return f"{t.answer.upper()}: {t.voters} {votes}, {t.counted} counted, {t.servers} servers"


def _number(book: AnswerBook, number: int | None) -> int:
    if number is None or not book.votable(number):
        last, today = shipped_answers()[-1].number, book.today()
        raise UsageError(f"give an NYT number from #{last + 1} (after the shipped list) to "
                         f"#{today + 1} (tomorrow's)")  # fmt: skip
    return number


def _word(text: str) -> str:
    from engine.variants import get_variant

    word = text.strip().lower()
    if word not in get_variant("wordle-nyt").guesses.index:
        raise UsageError(f"{text[:20]!r} is not a word NYT Wordle accepts")
    return word
