"""Wordle in every shipped language and length, through the real Discord layer (discord.py's
objects fed raw payloads) and the console: which game a command picks, and that each
(language, length) keeps a daily, streak and board of its own."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from discord_double import only

from bot.services.kinds import DAILY_KINDS, KINDS, LANGUAGES, NotShipped, kind_for
from engine.variants import get_variant

SEED = "5e1a9c3b7d2f4e6a8c0b2d4f6a8c0e1f-languages"
START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
ANN, BOB = 111, 222
# A practice answer for every game, so a test knows each word.
ANSWERS = {"wordle": "cigar", "primel": "99991", "wordle-es-6": "piñata",
           "wordle-en-8": "absolute", "wordle-fr-5": "avion"}  # fmt: skip


@pytest.fixture
async def double(make_double, clock):
    return await make_double(clock=clock, answers=ANSWERS, analysis_budget_seconds=0.2)


def test_every_language_ships_five_and_six_letters_and_english_every_length() -> None:
    assert set(LANGUAGES) >= {"en", "es", "pt", "fr", "de", "it", "pl"}
    for code, lengths in LANGUAGES.items():
        assert {5, 6} <= set(lengths), code
    assert set(LANGUAGES["en"]) == set(range(4, 12))
    for code, lengths in LANGUAGES.items():  # each is a daily game with its own kind
        for length in lengths:
            assert f"{kind_for('wordle', code, length)}:daily" in DAILY_KINDS


def test_what_is_not_shipped_is_refused_in_words() -> None:
    with pytest.raises(NotShipped, match="not 'xx'"):
        kind_for("wordle", "xx", 5)
    with pytest.raises(NotShipped, match="not 12"):
        kind_for("wordle", "en", 12)
    with pytest.raises(NotShipped, match="English, five letters"):
        kind_for("quordle", "es", 5)


async def test_a_spanish_discord_plays_spanish_and_hints_from_the_spanish_list(double) -> None:
    double.locale = "es-ES"
    board = only(await double.command("wordle", "practice", user_id=ANN, length=6))
    assert "Wordle (español, 6 " in board.text  # its language named in the player's
    assert "Ñ" in board.text  # the Spanish keyboard
    sent = await double.command("guess", user_id=ANN, word="señora")
    assert any("SEÑORA" in s.text for s in sent)
    hint = only(await double.command("hint", user_id=ANN))
    named = re.findall(r"\b[A-ZÑÁÉÍÓÚÜ]{6}\b", hint.text)  # the words a hint names
    spanish = get_variant("wordle-es-6").guesses
    assert len(named) >= 3 and all(w.lower() in spanish for w in named), named


async def test_an_english_player_plays_eight_letters(double) -> None:
    board = only(await double.command("wordle", "practice", user_id=BOB, length=8))
    assert "8 letters" in board.text
    refusal = only(await double.command("guess", user_id=BOB, word="crane"))
    assert refusal.ephemeral and refusal.text == "Not enough letters"  # the game's own words
    won = await double.command("guess", user_id=BOB, word="absolute")
    assert any("Solved in 1/6!" in s.text for s in won)


async def test_a_locale_we_do_not_ship_plays_english(double) -> None:
    double.locale = "ja"
    board = only(await double.command("wordle", "practice", user_id=ANN))
    assert "Wordle practice" in board.text and "letters" not in board.text


async def test_the_servers_language_comes_before_the_players(double) -> None:
    set_up = only(await double.command("settings", "server", user_id=ANN, language="fr"))
    assert set_up.ephemeral and "written in French" in set_up.text
    double.locale = "es-ES"
    board = only(await double.command("wordle", "practice", user_id=BOB))
    assert "Wordle (francés, 5 " in board.text  # French words, named in Spanish
    board = only(await double.command("wordle", "practice", user_id=ANN, language="en"))
    assert board.text.startswith("Wordle de práctica\n")  # English words: an option wins


async def test_a_server_cannot_set_a_length_its_language_lacks(double) -> None:
    refusal = only(await double.command("settings", "server", user_id=ANN, language="es",
                                        length=11))  # fmt: skip
    assert refusal.ephemeral and "not 11" in refusal.text
    settings = await double.bot.services.storage.guild_settings(900000000000000002)
    assert settings.language is None  # nothing was changed


async def test_each_language_and_length_has_its_own_daily_and_streak(double, clock) -> None:
    services = double.bot.services
    today = services.daily.today()
    spanish = services.daily.answer("wordle-es-6", today)
    english = services.daily.answer("wordle", today)
    assert spanish in get_variant("wordle-es-6").answers and english != spanish
    await double.command("wordle", "daily", user_id=ANN, language="es", length=6)
    won = await double.command("guess", user_id=ANN, word=spanish)
    assert any("Solved in 1/6!" in s.text for s in won)
    # The English daily is still there to play, and its streak is its own.
    board = only(await double.command("wordle", "daily", user_id=ANN))
    assert "Wordle #" in board.text and "Spanish" not in board.text
    mine = await services.stats.stats(ANN, "wordle-es-6:daily", today)
    theirs = await services.stats.stats(ANN, "wordle:daily", today)
    assert (mine.current_streak, theirs.current_streak) == (1, 0)
    streak = only(await double.command("streak", user_id=ANN, language="es", length=6))
    assert "Wordle (Spanish, 6 letters) daily streak: 1" in streak.text
    # Played once a day: the same Spanish daily again is refused.
    again = only(await double.command("wordle", "daily", user_id=ANN, language="es", length=6))
    assert again.ephemeral and "already played" in again.text


async def test_a_languages_daily_closes_at_midnight_as_a_loss(double, clock) -> None:
    await double.command("wordle", "daily", user_id=BOB, language="de", length=6)
    clock.now += timedelta(days=1)
    refusal = only(await double.command("guess", user_id=BOB, word="schule"))
    assert refusal.ephemeral and "closed at midnight" in refusal.text
    assert "/wordle daily language:de length:6" in refusal.text
    stats = await double.bot.services.stats.stats(BOB, "wordle-de-6:daily",
                                                  double.bot.services.daily.today())  # fmt: skip
    assert stats.played == 1 and stats.win_percent == 0


async def test_the_archive_of_a_language_never_serves_todays_answer(double) -> None:
    services = double.bot.services
    today = services.daily.today()
    answer = services.daily.answer("wordle-pt-5", today)
    size = len(get_variant("wordle-pt-5").answers)
    number = services.daily.number(today)
    for back in (size, 2 * size):  # the same position in earlier cycles
        if number - back >= 0:
            day = today - timedelta(days=back)
            assert services.daily.answer("wordle-pt-5", day) != answer


def test_every_language_kind_is_a_wordle_of_its_variant() -> None:
    for name, spec in KINDS.items():
        if spec.base:
            variant = get_variant(spec.variant)
            assert (variant.language, variant.length) == (spec.language, spec.length), name


async def test_a_portuguese_board_shows_the_accents_the_player_typed_without(make_double) -> None:
    """Termo's rule: ACIDO is typed, ÁCIDO is shown; the keyboard has no Á key, its A counts."""
    double = await make_double(answers={"wordle-pt-5": "acido"})
    await double.command("wordle", "practice", user_id=ANN, language="pt")
    won = await double.command("guess", user_id=ANN, word="acido")
    board = next(s for s in won if "Solved" in s.text)
    assert "ÁCIDO" in board.text and "ACIDO" not in board.text


# -- other languages' shares: read against their lists, counted on their language's board ----

TERMO = "joguei term.ooo #15 3/6 *\n\n⬛⬛🟩🟨⬛\n🟨🟩🟩🟩🟨\n🟩🟩🟩🟩🟩"  # tests/fixtures/shares
SUTOM = "SUTOM #171 3/6\n\n🟥🟦🟦🟦🟦🟡\n🟥🟡🟦🟡🟡🟦\n🟥🟥🟥🟥🟥🟥"
LETRECO = "001 (2/6) @MeuLetreco\n\n⬛🟩⬛🟨⬛\n🟩🟩🟩🟩🟩"


async def test_a_clones_grid_is_read_against_its_languages_list(double) -> None:
    reply = only(await double.command("analyze", user_id=ANN, paste=SUTOM))
    assert "SUTOM #171" in reply.text and "not read" not in reply.text and "fits" in reply.text
    assert "CINEMA" in reply.text  # a word of the French six-letter list


async def test_a_hints_off_server_reads_no_clones_grid(double) -> None:
    await double.command("settings", "server", user_id=ANN, hints_in_daily=False)
    reply = only(await double.command("analyze", user_id=ANN, paste=SUTOM))
    assert "SUTOM: hints are off in this server, so its grid was not read" in reply.text


async def test_a_clones_share_counts_once_a_day_on_its_languages_board(double) -> None:
    storage = double.bot.services.storage
    await double.command("sharechannel", user_id=ANN, enabled=True)
    await double.post(TERMO, user_id=BOB, at=START.isoformat())
    await double.post(LETRECO, user_id=BOB, at=START.isoformat())  # the same language, day
    rows = await storage._all("SELECT game, puzzle FROM share_results WHERE player_id = ?",
                              (BOB,))  # fmt: skip
    assert [tuple(r) for r in rows] == [("wordle-pt-5", 15)]  # one a day counts
    board = only(await double.command("leaderboard", user_id=ANN, language="pt", length=5,
                                      scope="server", shares=True))  # fmt: skip
    assert "player" in board.text and "Nobody" not in board.text  # on the shares' own board
    board = only(await double.command("leaderboard", user_id=ANN, language="pt", length=5,
                                      scope="server"))  # fmt: skip
    assert "Nobody" in board.text  # the bot's Portuguese daily: games played with the bot
    removed = only(await double.command("mydata", "unshare", user_id=BOB, game="termo",
                                        puzzle=15))  # fmt: skip
    assert removed.ephemeral and removed.text == "Removed."
    assert await storage._all("SELECT 1 FROM share_results WHERE player_id = ?", (BOB,)) == []


async def test_a_french_servers_digest_is_written_in_french(double, clock, monkeypatch) -> None:
    """The issue's French server: its digest (posted with nobody asking) reads as the
    server's language, and holds the block of its French daily. (The double does not serve
    channel messages: what the cog hands to Discord's send is kept instead.)"""
    import sys
    from types import SimpleNamespace

    from bot.i18n import use_locale
    from bot.render.text import digest_text

    posted: list[str] = []
    cog = sys.modules["cogs.digest"]  # as the bot loaded it

    async def send(bot, guild_id, channel_id, text, **options):
        posted.append(text)
        return SimpleNamespace(id=1)

    monkeypatch.setattr(cog, "post_in_channel", send)
    services = double.bot.services
    await double.command("settings", "server", user_id=ANN, language="fr")
    await double.command("digest", "channel", user_id=ANN)
    today = services.daily.today()
    await double.command("wordle", "daily", user_id=BOB)  # the server's French five letters
    await double.command("guess", user_id=BOB, word=services.daily.answer("wordle-fr-5", today))
    clock.now += timedelta(days=1)
    await double.bot.get_cog("DigestCommands").post_due()
    assert len(posted) == 1
    texts = {}
    for locale in ("fr", "en"):
        with use_locale(locale):
            digest = await services.digests.digest(900000000000000002, today)
            texts[locale] = digest_text(digest, name=cog.mention)
    french, english = texts["fr"], texts["en"]
    assert posted[0] == french != english
    assert "français" in french  # the block of the French daily, named in French
