"""Challenges with a player's own word: stored with an id, played privately once per player
(never by the setter), results shown in colours only; the word in no public message, custom
id or log line; every refusal private and storing nothing."""

import json
import logging
from datetime import date
from typing import Any

import pytest
from discord_double import CHANNEL_ID, DiscordDouble, message, only, user

from bot.console import Console
from bot.discord_bot import Redact, WordleBot
from bot.render.text import challenge_text
from bot.services import Player, open_services
from bot.services.challenges import profane
from bot.settings import load_settings
from engine.game import GameStateError, WordleGame
from engine.rules import Mode
from engine.variants import get_variant

SEED = "5e2b8d1f4a7c0e3b6d9f2a5c8e1b4d7f-challenges"
ANN, BOB, CAT = Player(111, "ann"), Player(222, "bob"), Player(333, "cat")
GUILD = 100
TABLES = ("players", "challenges", "games", "results")


@pytest.fixture
async def services(database_url: str):
    s = await open_services(load_settings(database_url=database_url, daily_seed=SEED))
    yield s
    await s.close()


async def counts(storage) -> dict[str, int]:
    return {t: (await storage._one(f"SELECT COUNT(*) FROM {t}"))[0] for t in TABLES}


def a_profane_word() -> str:
    return next(w for w in sorted(profane()) if w in get_variant("wordle").guesses.index)


def test_a_game_may_set_its_own_guess_limit() -> None:
    wordle = get_variant("wordle")
    game = WordleGame(wordle, "cigar", Mode.NORMAL, max_guesses=2)
    assert game.guess("crane").accepted and game.guess("slate").accepted and game.over
    assert not game.guess("cigar").accepted  # the limit was 2
    again = WordleGame.from_dict(game.to_dict())
    assert (again.limit, again.rows, again.status) == (2, game.rows, game.status)
    assert "max_guesses" not in WordleGame(wordle, "cigar").to_dict()  # stored as before
    for bad in (0, 21, "6", True):
        with pytest.raises(GameStateError):
            WordleGame.from_dict({**game.to_dict(), "max_guesses": bad})


async def test_a_challenge_is_played_privately_once_per_player(services) -> None:
    challenges = services.challenges
    created = await challenges.create(ANN, GUILD, 7, " CIGAR ", guesses=3)
    challenge = created.challenge
    assert created.message is None and challenge.answer == "cigar" and "cigar" not in repr(
        challenge)  # fmt: skip
    own = await challenges.play(ANN, challenge.id)
    assert not own.ok and own.message == "This is your own challenge: you know the word"
    started = await challenges.play(BOB, challenge.id)
    assert started.ok and started.game.max_guesses == 3 and started.game.kind == "wordle:custom"
    assert started.game.answer is None
    await services.games.guess(BOB, GUILD, "crane", game_id=started.game.game_id)
    won = await services.games.guess(BOB, GUILD, "cigar", game_id=started.game.game_id)
    assert won.game.status == "won" and won.game.answer == "cigar"  # to Bob, after the end
    again = await challenges.play(BOB, challenge.id)
    assert not again.ok and again.message == "You have already played this one"
    lost = await challenges.play(CAT, challenge.id)
    for word in ("slate", "moist", "pound"):
        last = await services.games.guess(CAT, GUILD, word, game_id=lost.game.game_id)
    assert last.game.status == "lost"

    board = await challenges.board(challenge)
    assert [(f.name, f.won, f.guesses) for f in board.finishes] == [("bob", True, 2),
                                                                    ("cat", False, 3)]  # fmt: skip
    text = challenge_text(board)
    assert "<@222> 2/3  🟩🟨🟨⬛⬛ 🟩🟩🟩🟩🟩" in text and "<@333> X/3" in text
    assert "cigar" not in text.lower() and "crane" not in text.lower()
    assert "Challenge #" in text and "set by <@111>, for anyone but the setter" in text
    stats = await services.stats.stats(BOB.id, "wordle:custom", date(2026, 3, 2))
    assert (stats.played, stats.win_percent) == (1, 100)
    assert await services.storage.standing(BOB.id, "wordle:daily") is None


async def test_allowed_words_and_primes_make_challenges(services) -> None:
    challenges = services.challenges
    assert "aahed" not in get_variant("wordle").answers.index  # allowed, never an answer
    assert (await challenges.create(ANN, GUILD, 7, "aahed")).challenge is not None
    prime = await challenges.create(ANN, GUILD, 7, "99991", game="primel", guesses=10,
                                    target=BOB)  # fmt: skip
    assert prime.challenge.target_id == BOB.id and prime.challenge.max_guesses == 10
    refused = await challenges.play(CAT, prime.challenge.id)
    assert not refused.ok and refused.message == "This challenge is for someone else"
    played = await challenges.play(BOB, prime.challenge.id)
    assert played.ok and played.game.variant == "primel" and played.game.max_guesses == 10


async def test_challenge_refusals_are_clear_and_store_nothing(services) -> None:
    challenges = services.challenges
    before = await counts(services.storage)
    cases = [
        ({"word": "zzzzz"}, "Not in word list: a challenge's word must be one Wordle accepts"),
        ({"word": "x" * 4000}, "Too many letters: a Wordle word has 5"),
        ({"word": "cigars"}, "Too many letters"),
        ({"word": "c1gar"}, "Use only letters A to Z"),
        ({"word": a_profane_word()}, "That word is not allowed in a challenge: choose another"),
        ({"word": "12345", "game": "primel"}, "Not a prime number"),
        ({"word": "cigar", "game": "quordle"}, "Challenges are for wordle and primel"),
        ({"word": "cigar", "guesses": 0}, "Guesses must be from 1 to 10"),
        ({"word": "cigar", "guesses": 11}, "Guesses must be from 1 to 10"),
        ({"word": "cigar", "target": ANN}, "Challenge someone else: you know the word"),
    ]
    for options, expected in cases:
        word = options.pop("word")
        created = await challenges.create(ANN, GUILD, 7, word, **options)
        assert created.challenge is None and created.message.startswith(expected)
        assert word[:5] not in created.message.lower()  # never repeated back
    missing = await challenges.play(BOB, 424242)
    assert not missing.ok and missing.message == "This challenge no longer exists"
    assert await counts(services.storage) == before


async def test_the_console_sets_and_plays_challenges(services) -> None:
    shown: list[str] = []
    console = Console(services, ANN, shown.append, colour=False)
    for line in ("/as ann", "/challenge cigar 3", "/challenge", "/as bob", "/play 1", "crane",
                 "cigar", "/play x", "/challenge word:10007 game:primel player:ann",
                 "/as cat", "/play 2", "/as ann", "/play 1"):  # fmt: skip
        await console.handle(line)
    text = "\n".join(shown)
    assert "Challenge 1 made: another player (/as NAME) plays it with /play 1" in text
    assert "  /challenge: word is needed; /challenge takes word, then guesses" in text
    assert "  Usage: /play ID" in text
    assert "Wordle custom" in text and "Solved in 2/3!" in text
    assert "Challenge 2 made" in text and "  This challenge is for someone else" in text
    assert text.rstrip().endswith("bob 2/3  🟩🟨🟨⬛⬛ 🟩🟩🟩🟩🟩")


# -- in Discord -------------------------------------------------------------------------


class Channel:
    """Discord's side of the bot's own channel requests (edits of the challenge message)."""

    def __init__(self, bot: WordleBot) -> None:
        self.requests: list[tuple[str, str, dict[str, Any]]] = []
        bot.http.request = self.request  # type: ignore[method-assign]

    async def request(self, route: Any, **kwargs: Any) -> Any:
        self.requests.append((route.method, route.path, kwargs.get("json") or {}))
        return message(kwargs.get("json") or {})


@pytest.fixture
async def double(make_double):
    return await make_double()


async def challenge(double: DiscordDouble, user_id: int, *, target: dict | None = None,
                    guild: bool = True, **options: Any):  # fmt: skip
    """/challenge, with the player option resolved as Discord sends it."""
    payload = double._base(2, user_id, "2251799813685247", guild)
    opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()]  # fmt: skip
    data: dict[str, Any] = {"id": "1", "name": "challenge", "type": 1, "options": opts}
    if target is not None:
        opts.append({"name": "player", "type": 6, "value": target["id"]})
        data["resolved"] = {"users": {target["id"]: target}}
    payload["data"] = data
    return await double._dispatch(payload)


async def test_a_whole_challenge_never_shows_the_word_in_public(double, caplog) -> None:
    caplog.set_level(logging.DEBUG)  # as the bot logs (bot.discord_bot.configure): redacted,
    caplog.set_level(logging.INFO, logger="aiosqlite")  # no statement dumps
    caplog.handler.addFilter(Redact())
    channel = Channel(double.bot)
    posted = only(await challenge(double, ANN.id, word="cigar", guesses=3))
    assert posted.a_new_message and not posted.ephemeral
    assert posted.custom_ids() == ["wb:challenge:play:1"] and "Press Play" in posted.text
    board = only(await double.click("wb:challenge:play:1", user_id=BOB.id, on=posted))
    deferred = board.deferral
    assert deferred.kind == 5 and deferred.ephemeral  # privately, however slow it is
    assert board.ephemeral and "Wordle custom" in board.text and board.files == ["board.png"]
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=BOB.id, on=board))
    assert modal.data["title"] == "Guess 1 of 3"
    only(await double.submit(modal, {"word": "crane"}, user_id=BOB.id))
    won = only(await double.submit(modal, {"word": "cigar"}, user_id=BOB.id))
    assert won.an_update and "Solved in 2/3!" in won.text  # Bob's own board, privately
    [(method, path, edit)] = channel.requests
    assert method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}"
    shown = edit["embeds"][0]["description"]
    assert "<@222> 2/3  🟩🟨🟨⬛⬛ 🟩🟩🟩🟩🟩" in shown
    own = only(await double.click("wb:challenge:play:1", user_id=ANN.id, on=posted))
    assert own.ephemeral and "your own challenge" in own.text
    again = only(await double.click("wb:challenge:play:1", user_id=BOB.id, on=posted))
    assert again.ephemeral and again.text == "You have already played this one"

    public = [posted.body, *(e for _, _, e in channel.requests)]
    assert "cigar" not in json.dumps(public).lower()
    ids = [i for s in double.sent for i in s.custom_ids()]
    assert ids and not any("cigar" in i.lower() for i in ids)
    assert caplog.records and not any("cigar" in r.getMessage().lower() for r in caplog.records)
    stored = await double.bot.services.storage.challenges.get(1)
    assert stored.message_id is not None and stored.channel_id == CHANNEL_ID


async def test_a_challenge_for_one_player_pings_only_them(double) -> None:
    Channel(double.bot)
    posted = only(await challenge(double, ANN.id, word="rebut", target=user(BOB.id, "bob")))
    assert posted.data["content"] == f"<@{BOB.id}>"
    assert [int(u) for u in posted.data["allowed_mentions"]["users"]] == [BOB.id]
    assert "for <@222> only" in posted.text
    other = only(await double.click(posted.custom_ids()[0], user_id=CAT.id, on=posted))
    assert other.ephemeral and other.text == "This challenge is for someone else"
    mine = only(await double.click(posted.custom_ids()[0], user_id=BOB.id, on=posted))
    assert mine.ephemeral and mine.custom_ids()


async def test_challenge_refusals_in_discord_are_private_and_store_nothing(double) -> None:
    storage = double.bot.services.storage
    before = await counts(storage)
    bot_user = {**user(999, "robot"), "bot": True}
    cases = [
        ({"word": "cigar", "guild": False}, "Challenges need a channel"),
        ({"word": "zzzzz"}, "Not in word list"),
        ({"word": "q" * 4000}, "Too many letters"),
        ({"word": a_profane_word()}, "not allowed in a challenge"),
        ({"word": "cigar", "guesses": 0}, "Guesses must be from 1 to 10"),
        ({"word": "cigar", "target": user(ANN.id, "ann")}, "Challenge someone else"),
        ({"word": "cigar", "target": bot_user}, "Bots do not take challenges"),
        ({"word": "12345", "game": "primel"}, "Not a prime number"),
    ]
    for options, expected in cases:
        refused = only(await challenge(double, ANN.id, **options))
        assert refused.ephemeral and expected in refused.text and not refused.custom_ids()
    assert await counts(storage) == before


async def test_the_play_button_works_after_a_restart(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "bot.sqlite3"), daily_seed=SEED)
    first = WordleBot(settings, warm_engine=False)
    await first._async_setup_hook()
    await first.setup_hook()
    posted = only(await challenge(DiscordDouble(first), ANN.id, word="humph"))
    await first.close()

    second = WordleBot(settings, warm_engine=False)  # a new process, the same database
    await second._async_setup_hook()
    await second.setup_hook()
    try:
        double, channel = DiscordDouble(second), Channel(second)
        board = only(await double.click(posted.custom_ids()[0], user_id=BOB.id, on=posted))
        giveup = next(i for i in board.custom_ids() if ":giveup:" in i)
        ended, told = await double.click(giveup, user_id=BOB.id, on=board)
        assert ended.an_update and told.ephemeral and told.text == "The answer was HUMPH"
        [(_, _, edit)] = channel.requests
        assert "<@222> X/6" in edit["embeds"][0]["description"]
    finally:
        await second.close()
