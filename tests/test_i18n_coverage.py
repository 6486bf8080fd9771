"""Every sentence the services and renderers write goes through the catalog (issue 30.9).

A fake catalog marks each translation it gives, ⟦like this⟧; a whole game (its refusals,
hard-mode reasons, board, keyboard, alt texts), a hint, the coach, /stats, a leaderboard and
the digest are then written, and what is left once the marked parts are taken out must hold
no English sentence: only game words, names, numbers, squares and Markdown marks. English
itself is unchanged (the other tests read it); the engine's reasons are all in the catalog.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from datetime import date

import pytest
from clock import at

import bot.i18n as i18n
from bot.i18n import reasons
from bot.render import alt_text, text
from bot.services import Player
from bot.services.analysis import coach_game
from engine import rules, words
from engine.rules import Mode

SEED = "c0ve7a9e-i18n-4f3a2b1c0d9e8f7a6b5c4d3e"
GUILD, ANN, BOB = 300, Player(1, "A1"), Player(2, "B2")
DAY = date(2026, 3, 1)
OPEN, CLOSE = "⟦", "⟧"
# Two words or more of English on one line, numbers and signs between them allowed ("Guess
# 2 of 6"). Game names are no English (taken out first); a game's words are upper case and
# the players' names hold a digit: not matched.
WORD = r"\b[A-Za-z][a-z]+\b"
SENTENCE = re.compile(f"{WORD}(?:[^A-Za-z{OPEN}{CLOSE}\\n]+{WORD})+")
GAME_NAMES = re.compile(r"\b(?:wordlebot|wordle|primel|absurdle|dordle|quordle|octordle)\b",
                        re.IGNORECASE)  # fmt: skip


class Marking(gettext.NullTranslations):
    """A catalog that translates every message by marking it."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"{OPEN}{singular if n == 1 else plural}{CLOSE}"

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


@pytest.fixture
def marked(monkeypatch) -> Iterator[None]:
    monkeypatch.setattr(i18n, "translations", lambda locale: Marking())
    yield


def unmarked(said: str) -> str:
    """What is left of ``said`` once every marked part (nested ones too) is taken out."""
    pattern = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:
        shorter = pattern.sub(" ", said)
        if shorter == said:
            return said
        said = shorter


# A dictionary's gloss is data in the word's own language, shown behind a spoiler after a
# part of speech: "||(noun) a large long-necked bird||" (English games only).
GLOSS = re.compile(r"\|\|\(⟦[^⟧]*⟧\) [^|]*\|\|")


def english_left(texts: list[str]) -> list[str]:
    plain = [GAME_NAMES.sub(" ", unmarked(GLOSS.sub(" ", said))) for said in texts]
    return [found for said in plain for found in SENTENCE.findall(said)]


def test_the_leftover_check_finds_english_and_lets_marked_text_and_game_words_pass() -> None:
    assert (
        english_left(["⟦Not in word list⟧", "`CRANE` 🟩⬛⬛⬛⬛", "wordlebot Wordle #1982"]) == []
    )
    assert english_left(["⟦Board {board}: ⟦Too many letters⟧⟧", "A1 - 3 (4)"]) == []
    assert english_left(["Guess must contain A", "⟦{count} possible⟧: CRANE"]) == [
        "Guess must contain"]  # fmt: skip
    assert english_left(["Guess 2 of 6", "A1 - 3 (4 played)"]) == ["Guess 2 of"]
    assert english_left(["**wordlebot Wordle #1982** (2026-03-01)"]) == []


async def test_a_game_a_hint_the_coach_stats_and_the_digest_hold_no_unwrapped_english(
    opened, marked
) -> None:
    services = await opened(":memory:", at("2026-03-01T12:00"), answers="cigar")
    said: list[str] = []

    # A whole game in hard mode: refusals of every kind, a hard-mode reason, a win.
    started = await services.games.start(ANN, GUILD, mode=Mode.HARD)
    assert started.ok and started.game is not None
    for word in ("zzzzz", "cra", "crane", "slate", "cxxxx", "cigar"):
        outcome = await services.games.guess(ANN, GUILD, word)
        said += [outcome.message or ""]
        if outcome.game is not None:
            game = outcome.game
            said += [text.title(game), text.status_line(game, spoiler=True),
                     text.keyboard_markdown(game), alt_text.board_alt_text(game),
                     alt_text.keyboard_alt_text(game), *text.board_rows(game)]  # fmt: skip
    assert any("1st letter must be C" in s for s in said)  # the hard-mode reason was met
    said += [(await services.games.guess(ANN, GUILD, "crane")).message or ""]  # no game now
    report = await coach_game((await services.storage.game(game.game_id)).state, rollout=False)
    said.append(text.coaching_text(report))

    # A hint, and giving up.
    await services.games.start(BOB, GUILD)
    await services.games.guess(BOB, GUILD, "crane")
    hint = await services.games.hint(BOB, GUILD)
    assert hint.hint is not None
    said.append(text.hint_text(hint.hint))
    said.append((await services.games.give_up(BOB, GUILD)).message or "")

    # The daily, its stats, a board, and the digest of its day.
    await services.games.start(ANN, GUILD, daily=True)
    await services.games.guess(
        ANN, GUILD, services.daily.answer("wordle", DAY), kind="wordle:daily"
    )
    said.append((await services.games.start(ANN, GUILD, daily=True)).message or "")
    stats = await services.stats.stats(ANN.id, "wordle:daily", DAY)
    said += [text.stats_text(stats, "A1"), alt_text.stats_alt_text(stats, "A1")]
    board = await services.stats.leaderboard("wordle:daily", guild_id=GUILD, today=DAY,
                                             min_games=1)  # fmt: skip
    said.append(text.board_text(board))
    digest = await services.digests.digest(GUILD, DAY)
    said += [text.digest_text(digest), alt_text.digest_alt_text(digest)]

    assert len([s for s in said if s]) > 40
    assert english_left(said) == [], "\n".join(said)


def test_english_is_the_engines_own_words() -> None:
    """Without a catalog the refusals read exactly as the engine writes them."""
    reason = rules.hard_mode_reason("slate", [("crane", 0)], "letter")
    assert reason is None or reasons.reason_text(reason) == reason.message
    nested = rules.Reason(rules.ON_BOARD, {"board": 2, "reason": rules.Reason(
        rules.MUST_BE["letter"], {"position": rules.Ordinal(2), "letter": "A"})})  # fmt: skip
    assert reasons.reason_text(nested) == nested.message == "Board 2: 2nd letter must be A"
    assert reasons.alphabet_text("abcdefghijklmnopqrstuvwxyzñ") == "A to Z and Ñ"


def test_every_sentence_of_the_engine_is_marked_for_the_catalogs() -> None:
    from engine.variants import REGISTRY, get_variant

    engine = {*rules.TEMPLATES, *words.LOOK_ALIKE.values(), "This game is over"}
    engine |= {get_variant(name).not_in_list for name in REGISTRY.names}
    assert engine <= set(reasons.TEMPLATES)


@pytest.mark.parametrize(("locale", "letter", "digit"), [
    ("en", "2nd", "2nd"), ("es", "2.ª", "2.º"), ("pt-BR", "2ª", "2º"), ("fr", "2e", "2e"),
    ("de", "2.", "2."), ("it", "2ª", "2ª"), ("pl", "2.", "2."),
])  # fmt: skip
def test_a_tiles_place_is_an_ordinal_of_the_readers_language(locale, letter, digit) -> None:
    with i18n.use_locale(locale):
        assert (i18n.ordinal(2), i18n.ordinal(2, "digit")) == (letter, digit)
    with i18n.use_locale("fr"):
        assert (i18n.ordinal(1), i18n.ordinal(1, "digit")) == ("1re", "1er")
    assert [i18n.ordinal(n) for n in (1, 3, 11, 12, 13, 21, 22, 101)] == [
        rules.ordinal(n) for n in (1, 3, 11, 12, 13, 21, 22, 101)]  # fmt: skip
