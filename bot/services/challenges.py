"""Challenges with a player's own word: a setter picks a word, others play it privately.

The word must be one the game accepts as a guess (any allowed word, not only the answer
list: a setter's favourite word need not be a past answer; Primel: any 5-digit prime), not
on the profanity list (``wordlists/profanity-en.txt``), with 1 to :data:`MAX_GUESSES`
guesses. Each player's game is an ordinary game of kind "<game>:custom" and puzzle
"custom:<id>" (:meth:`GameService.start_set`): once per player, its own stats. The word is
stored with the challenge and in its players' games only: what others see of a challenge
(its message, its custom ids, the log) is its id and each player's colours.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache

from bot.i18n import N_, _
from bot.i18n.reasons import reason_text
from bot.services.cooldowns import CHALLENGES_PER_SETTER, CHALLENGES_PER_TARGET, wait_text, within
from bot.services.games import BUSY, GameService, Outcome, Player
from bot.services.kinds import KINDS, one_of, parse, shown_title
from bot.storage import Storage, StorageBusy
from bot.storage.challenges import Challenge
from bot.storage.cooldowns import Wait
from engine.game import Status, WordleGame
from engine.pattern import to_digits
from engine.rules import Mode, check_guess, too_many
from engine.variants import get_variant
from wordlists import DIRECTORY

log = logging.getLogger("wordlebot.challenges")

GAMES = ("wordle", "primel")
MAX_GUESSES = 10
MAX_WORD = 50  # characters read of a proposed word; a longer one is refused unread
NOT_FOUND = N_("This challenge no longer exists")


@cache
def profane(language: str = "en") -> frozenset[str]:
    """Words no challenge may hide: English's list, and the word list's own language's."""
    english = frozenset((DIRECTORY / "profanity-en.txt").read_text().split())
    own = DIRECTORY / language / "profanity.txt"
    return (
        english | frozenset(own.read_text(encoding="utf-8").split()) if own.is_file() else english
    )


@dataclass(frozen=True)
class Created:
    """A new challenge, or why none was made (``message``)."""

    challenge: Challenge | None = None
    message: str | None = None


@dataclass(frozen=True)
class Finish:
    """One player's result, as the challenge's message shows it: colours only."""

    player_id: int
    name: str
    won: bool
    guesses: int
    patterns: list[str]  # each row's pattern digits, no letters


@dataclass(frozen=True)
class ChallengeBoard:
    challenge: Challenge
    finishes: list[Finish]


def _game_title(game: str) -> str:
    return shown_title(KINDS[game]) if game in KINDS else get_variant(game).title


def word_problem(game: str, word: str) -> str | None:
    """Why ``word`` cannot be a challenge's word in ``game``, in words for the setter (who
    alone sees it; the word is never repeated back), in the current locale."""
    variant = get_variant(game)
    if len(word) > MAX_WORD:
        return _("{refusal}: a {game} word has {length}").format(
            refusal=reason_text(too_many(variant.unit)), game=_game_title(game),
            length=variant.length)  # fmt: skip
    verdict = check_guess(variant, word, [], Mode.NORMAL)
    if verdict.message is not None:
        assert verdict.reason is not None
        return _("{refusal}: a challenge's word must be one {game} accepts").format(
            refusal=reason_text(verdict.reason), game=_game_title(game)
        )
    if verdict.word in profane(variant.language):
        return _("That word is not allowed in a challenge: choose another")
    return None


@dataclass
class ChallengeService:
    storage: Storage
    games: GameService

    async def create(
        self, setter: Player, guild_id: int, channel_id: int, word: str, *, game: str = "wordle",
        guesses: int = 6, target: Player | None = None,
    ) -> Created:  # fmt: skip
        """A challenge with ``setter``'s word, for ``target`` alone or anyone. A refusal
        stores nothing. Cooldowns (:mod:`bot.services.cooldowns`): per setter, and per
        target (each challenge for one player pings them)."""
        if not one_of(game, GAMES):
            return Created(message=_("Challenges are for {game} and {other}").format(
                game=GAMES[0], other=GAMES[1]))  # fmt: skip
        if not 1 <= guesses <= MAX_GUESSES:
            return Created(message=_("Guesses must be from 1 to {most}").format(most=MAX_GUESSES))
        if target is not None and target.id == setter.id:
            return Created(message=_("Challenge someone else: you know the word"))
        problem = word_problem(game, word)
        if problem is not None:
            return Created(message=problem)
        answer = check_guess(get_variant(game), word, [], Mode.NORMAL).word
        now = self.games.daily.clock()
        try:
            await self.storage.ensure_player(setter.id, setter.name)
            challenge = await self.storage.challenges.create(
                guild_id, channel_id, setter.id, None if target is None else target.id, game,
                answer, guesses, now=now, per_setter=CHALLENGES_PER_SETTER,
                per_target=CHALLENGES_PER_TARGET,
            )  # fmt: skip
        except StorageBusy:
            return Created(message=_(BUSY))
        if isinstance(challenge, Wait):
            when = wait_text(challenge.until, now)
            if challenge.limit == "target" and target is not None:
                # Translators: {when} is "in 45 s", {most} "2 in 10 minutes".
                return Created(message=_(
                    "{player} has been challenged enough for now: challenge them again {when} "
                    "(at most {most}), or set one for anyone"
                ).format(player=target.name or _("That player"), when=when,
                         most=within(CHALLENGES_PER_TARGET)))  # fmt: skip
            return Created(message=_("You can set another challenge {when} (at most {most})")
                           .format(when=when, most=within(CHALLENGES_PER_SETTER)))  # fmt: skip
        log.info("challenge %d set in guild %d", challenge.id, guild_id)
        return Created(challenge)

    async def attach(self, challenge_id: int, message_id: int) -> None:
        """The public message showing the challenge, to edit as players finish."""
        await self.storage.challenges.set_message(challenge_id, message_id)

    async def get(self, challenge_id: int) -> Challenge | None:
        return await self.storage.challenges.get(challenge_id)

    async def play(self, player: Player, challenge_id: int, place: int | None = None) -> Outcome:
        """Start (or show) ``player``'s game of the challenge. The setter may not play their
        own; a challenge for one player is refused to everyone else."""
        try:
            challenge = await self.storage.challenges.get(challenge_id)
        except StorageBusy:
            return Outcome.refuse(_(BUSY))
        if challenge is None:
            return Outcome.refuse(_(NOT_FOUND))
        if player.id == challenge.setter_id:
            return Outcome.refuse(_("This is your own challenge: you know the word"))
        if challenge.target_id is not None and player.id != challenge.target_id:
            return Outcome.refuse(_("This challenge is for someone else"))
        return await self.games.start_set(
            player, challenge.guild_id, challenge.kind, challenge.puzzle, [challenge.answer],
            place=place, max_guesses=challenge.max_guesses,
        )  # fmt: skip

    async def board(self, challenge: Challenge) -> ChallengeBoard:
        """The challenge and each finished player's result, in the order they finished."""
        finishes = []
        for name, stored in await self.storage.challenges.finished(challenge):
            game = parse(stored.state)
            assert isinstance(game, WordleGame)  # a challenge is Wordle or Primel
            patterns = [to_digits(p, game.variant.length) for _guess, p in game.rows]
            finishes.append(Finish(stored.player_id, name, game.status is Status.WON,
                                   len(game.rows), patterns))  # fmt: skip
        return ChallengeBoard(challenge, finishes)
