"""Where hints are off, every road to one is closed: /hint with a typed history, /analyze
with typed words, a grid with its words or a grid read alone, in the server or in a DM.

Two rules, decided here once for every front end (Discord and the console):

1. A player with a game in progress that allows no hints (a race, anywhere; a daily, an
   archive day or a challenge kept in a server that turned daily hints off) gets no help
   from typed words or pasted grids, wherever they ask, until that game is over: the bot
   cannot tell which puzzle typed words or a grid come from (a share's number is typed too).
2. In a server that turned daily hints off, nothing that could be today's puzzle is read
   there: no typed words (a history, or the words behind a grid: nobody can tell which
   puzzle they are of), and no grid numbered as yesterday's, today's or tomorrow's puzzle
   (the NYT's numbers, which the bot's dailies share, somewhere in the world's time zones).
   Its reading would be a hint, and shared in the channel, the answer. Older grids are read.
"""

from __future__ import annotations

from datetime import timedelta

from bot.i18n import N_, _
from bot.services.daily import DailyPuzzles
from bot.services.kinds import kind_name, shown_title
from bot.storage import Storage
from engine.shares import Share
from engine.variants import is_language_list

DM = 0  # the scope of games played in direct messages (as in bot.services.games)
# Marked for the catalogs, translated where they are given (typed_refusal: translated).
HINTS_OFF_TYPED = N_(
    "Hints are off for daily games in the server where your daily is in progress: finish it first"
)
HINTS_OFF_HERE = N_("Hints are off in this server: typed words are not read here")
NO_HINTS_WHILE_RACING = N_("No hints while your race is on, typed or pasted: finish it first")
READ_GAMES = ("wordle", "primel")  # the games whose grids are read, beside other languages'
CLONE_OFF = N_("{game}: hints are off in this server, so its grid was not read")


def read_list(share: Share) -> str | None:
    """The word list a share's grid is read against: Wordle's and Primel's own, and each
    other language's clone its list of that length (Termo: ``wordle-pt-5``); None when no
    list we ship holds it."""
    if share.game in READ_GAMES:
        return share.game
    return share.word_list if share.word_list and is_language_list(share.word_list) else None


# The game in progress that keeps hints off, by its flavour.
_WHAT = {
    "archive": N_("Hints are off in the server where your {game} archive game is in progress: "
                  "finish it first"),
    "custom": N_("Hints are off in the server where your {game} challenge is in progress: "
                 "finish it first"),
}  # fmt: skip


async def typed_refusal(storage: Storage, player_id: int) -> str | None:
    """Why typed words or a pasted grid get no help for this player now (rule 1), or None;
    in the current locale."""
    games = await storage.hint_free_games(player_id)
    if not games:
        return None
    kinds = [g.kind for g in games]
    if any(k.endswith(":race") for k in kinds):
        return _(NO_HINTS_WHILE_RACING)
    if any(k.endswith(":daily") for k in kinds):
        return _(HINTS_OFF_TYPED)
    flavour = kinds[0].partition(":")[2]
    template = _WHAT.get(flavour, f"Hints are off in the server where your {{game}} {flavour} "
                                  "is in progress: finish it first")  # fmt: skip
    return _(template).format(game=shown_title(kind_name(kinds[0])))


async def hints_allowed(storage: Storage, scope: int) -> bool:
    """Whether the server ``scope`` allows hints in its daily games (private places do)."""
    return scope == DM or (await storage.guild_settings(scope)).hints_in_daily


async def closed_puzzles(storage: Storage, daily: DailyPuzzles, scope: int) -> frozenset[int]:
    """The puzzle numbers whose grids are not read in ``scope`` (rule 2): none where hints
    are allowed."""
    if await hints_allowed(storage, scope):
        return frozenset()
    today = daily.today()
    return frozenset(daily.number(today + timedelta(days=d)) for d in (-1, 0, 1))


def closed_note(game: str, puzzle: int) -> str:
    return _("{game} #{number} is today's puzzle and hints are off in this server: its grid "
             "was not read").format(game=game.title(), number=puzzle)  # fmt: skip
