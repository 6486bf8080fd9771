"""Learned NYT answers resist forgery (issue 38, point 6): a number's answer is elected from
the votes of players with a history of games with the bot, in more than one server, by a
majority later votes can overturn; an operator's pin (``wordlebot nyt pin``) beats them all.

Votes are cast as players cast them, through ``/analyze`` with the words (the command
layer, with the caller's server); a history is games played with the bot on earlier days.
"""

import asyncio
from datetime import timedelta
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.commands.model import Caller, run_command
from bot.services import Player
from bot.services.analysis import AnalysisGate
from bot.services.answers import HISTORY_DAYS, MIN_SERVERS, MIN_VOTERS, AnswerBook, elected
from bot.storage import Storage
from bot.storage.answers import Tally
from engine.answer_model import nyt_model
from engine.nyt_history import EPOCH
from engine.pattern import score, to_digits, to_emoji
from engine.rules import Mode
from engine.solver.weighted import model_hint
from tests.clock import at

NEW = 1895  # the first numbers after the shipped list (#1889)
TODAY = NEW + 10  # the bot's day in these tests: every number voted on has ended
START = at(f"{EPOCH + timedelta(days=TODAY)}T12:00:00")
TRUE, FORGED = "bloat", "quasi"  # QUASI, once "used", falls from 95% to 42% of the hint below
GUILD_A, GUILD_B, GUILD_C = 101, 202, 303
GROUP_DM = 555  # a group DM's channel: a scope of its own, but no server
ASKED = ("crane", "spout")  # a typed history whose answer is QUASI


def paste(answer: str) -> tuple[str, str]:
    """A solved share of ``answer`` with its words, every row true to them."""
    played = ("crane", answer)
    rows = "\n".join(to_emoji(score(g, answer), 5) for g in played)
    return f"Wordle {NEW:,} {len(played)}/6\n\n{rows}", " ".join(played)


def number_paste(number: int, answer: str) -> tuple[str, str]:
    text, words = paste(answer)
    return text.replace(f"{NEW:,}", f"{number:,}", 1), words


async def vote(services, player: int, where: int | None, answer: str, number: int = NEW):
    """``player`` pastes a solved share of ``number`` with its words: in server ``where``, a
    DM (None), or a group DM (:data:`GROUP_DM`)."""
    text, words = number_paste(number, answer)
    if where is None:
        caller = Caller(Player(player, f"p{player}"), 0)
    elif where == GROUP_DM:
        caller = Caller(Player(player, f"p{player}"), GROUP_DM)
    else:
        caller = Caller(Player(player, f"p{player}"), where, guild_id=where)
    await run_command(services, caller, "analyze", paste=text, words=words)


async def season(services, clock, players, days: int = HISTORY_DAYS) -> None:
    """Each of ``players`` finishes a practice game on each of the ``days`` days before today."""
    today = clock.now
    for back in range(days, 0, -1):
        clock.now = today - timedelta(days=back)
        for player in players:
            who = Player(player, f"p{player}")
            assert (await services.games.start(who, GUILD_A)).ok
            assert (await services.games.guess(who, GUILD_A, "cigar")).ok
    clock.now = today


async def hint(services):
    """A typed history's hint (today's NYT puzzle), as any player would get it."""
    text = " ".join(f"{g} {to_digits(score(g, FORGED), 5)}" for g in ASKED)
    outcome = await services.games.hint_history(Player(9999, "asker"), text)
    assert outcome.hint is not None, outcome.message
    return outcome.hint


def hint_knowing(learned):
    rows = [(g, score(g, FORGED)) for g in ASKED]
    return model_hint(nyt_model(TODAY, learned), rows, Mode.NORMAL, 5)


async def open_at(opened, url, clock):
    services = await opened(url, clock, answers="cigar")
    services.analysis_gate = AnalysisGate(cooldown=0)  # a player may paste again at once
    return services


async def test_two_then_five_forged_accounts_change_no_hint(database_url, opened, clock):
    services = await open_at(opened, database_url, clock)
    book = AnswerBook(services.storage, services.daily)
    before = await hint(services)
    assert before == hint_knowing([])
    seasoned = list(range(100, 112))
    await season(services, clock, seasoned)
    attacks = [  # (accounts: (player, where)) each on a number of its own
        [(1, GUILD_A), (2, GUILD_B)],  # two fresh accounts, two servers
        [(100, GUILD_A), (101, GUILD_B)],  # two accounts with a history, two servers
        [(3, GUILD_A), (4, GUILD_B), (5, GUILD_C), (6, GUILD_A), (7, GUILD_B)],  # five fresh
        [(102, GUILD_A), (103, GUILD_A), (104, GUILD_A), (105, GUILD_A), (106, GUILD_A)],
        [(107, None), (108, None), (109, GROUP_DM), (110, GROUP_DM), (111, None)],  # no server
    ]
    for number, accounts in enumerate(attacks, NEW):
        for player, where in accounts:
            await vote(services, player, where, FORGED, number)
        assert await book.learned() == [], accounts
        assert await hint(services) == before, accounts
    # The same five with a history, in two servers, would elect it: the rule, not the paste,
    # held them back.
    for player, where in [(102, GUILD_B), (103, GUILD_B)]:
        await vote(services, player, where, FORGED, NEW + 3)
    assert await book.learned() == [(NEW + 3, FORGED)]
    assert await hint(services) == hint_knowing([(NEW + 3, FORGED)]) != before


async def test_honest_players_with_history_overturn_a_poisoned_answer(
    database_url, opened, clock
) -> None:
    services = await open_at(opened, database_url, clock)
    book = AnswerBook(services.storage, services.daily)
    forgers, honest = [1, 2, 3], [11, 12, 13, 14]
    await season(services, clock, forgers + honest)
    for player, where in zip(forgers, (GUILD_A, GUILD_B, GUILD_A), strict=True):
        await vote(services, player, where, FORGED)
    assert await book.learned() == [(NEW, FORGED)]  # patient forgers: poisoned, for now
    poisoned = await hint(services)
    for player, where in zip(honest, (GUILD_A, GUILD_C, None, GUILD_C), strict=True):
        await vote(services, player, where, TRUE)
    assert await book.learned() == [(NEW, TRUE)]  # 4 of 7: a majority, in two servers
    assert await hint(services) == hint_knowing([(NEW, TRUE)]) != poisoned
    await vote(services, 14, GUILD_C, FORGED)  # a change of mind: 3 to 4 again
    assert await book.learned() == [(NEW, FORGED)]
    await vote(services, 14, GUILD_C, TRUE)
    await vote(services, 21, GUILD_B, FORGED)  # a fresh account weighs nothing
    assert await book.learned() == [(NEW, TRUE)]


async def test_a_vote_counts_once_whatever_the_servers_or_the_pastes(
    database_url, opened, clock
) -> None:
    services = await open_at(opened, database_url, clock)
    book = AnswerBook(services.storage, services.daily)
    await season(services, clock, [1, 2, 3, 4])
    for where in (GUILD_A, GUILD_A, GUILD_B):  # one player, twice here, once there
        await vote(services, 1, where, TRUE)
    await vote(services, 2, GUILD_B, TRUE)
    assert await book.learned() == []  # two players, not four votes
    rows = await services.storage.db.all(
        "SELECT scope FROM nyt_answer_votes WHERE player_id = 1 AND number = ?", (NEW,)
    )
    assert [r[0] for r in rows] == [GUILD_B]  # one vote, where it was cast last
    await vote(services, 3, GUILD_B, TRUE)
    assert await book.learned() == []  # three players, but one server: 1's A vote is gone
    await vote(services, 4, GUILD_A, TRUE)
    assert await book.learned() == [(NEW, TRUE)]
    # Deleting one's data takes the vote and the history: voting again weighs nothing.
    await services.storage.delete_player(4)
    assert await book.learned() == []
    await vote(services, 4, GUILD_A, TRUE)
    assert await book.learned() == []


async def test_a_pin_from_the_command_line_beats_every_vote(
    shared_url, opened, clock, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("DATABASE_URL", shared_url)  # main() sets it from --database
    monkeypatch.setenv("CLOCK_START", START.isoformat())
    services = await open_at(opened, shared_url, clock)
    book = AnswerBook(services.storage, services.daily)
    await season(services, clock, range(1, 9))
    for player, where in zip((1, 2, 3), (GUILD_A, GUILD_B, GUILD_A), strict=True):
        await vote(services, player, where, FORGED)
    assert await book.learned() == [(NEW, FORGED)]

    async def wordlebot(*argv: str) -> tuple[int, str, str]:
        status = await asyncio.to_thread(main, ["nyt", *argv, "--database", shared_url])
        out, err = capsys.readouterr()
        return status, out, err

    assert (await wordlebot("pin", str(NEW), "BLOAT"))[0] == 0
    assert await book.learned() == [(NEW, TRUE)]
    assert await hint(services) == hint_knowing([(NEW, TRUE)])
    for player in range(4, 9):  # five more forgers with a history, in two servers
        await vote(services, player, GUILD_A if player % 2 else GUILD_B, FORGED)
    assert await book.learned() == [(NEW, TRUE)]
    status, out, _ = await wordlebot("show", str(NEW))
    assert status == 0 and f"#{NEW}: BLOAT (pin)" in out
    assert "QUASI: 8 votes, 8 counted, 2 servers" in out
    status, out, _ = await wordlebot("unpin", str(NEW))
    assert status == 0 and "pin removed" in out and f"#{NEW}: QUASI (votes)" in out
    assert await book.learned() == [(NEW, FORGED)]
    # Mistakes are one line: a number the shipped list holds, tomorrow's + 1, not a word.
    for argv in (("pin", "1000", "cigar"), ("pin", str(TODAY + 2), "cigar"),
                 ("pin", str(NEW), "qqqqq")):  # fmt: skip
        status, out, err = await wordlebot(*argv)
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "shipped list: " in (await wordlebot("show", "1000"))[1]


async def test_answers_learned_before_migrate_as_legacy_and_votes_overturn_them(
    shared_url, opened, clock
) -> None:
    """Migration 28: the answers learned under the two-player rule are kept ('legacy': in use
    until votes elect an answer or an operator pins or removes it); the votes are kept, as
    cast in no server, with their history counted from the results before their day."""
    old = await Storage.open(shared_url, migrate=False)
    await old.migrate(target=27)
    await old._write("INSERT INTO players (id, name, created_at) VALUES (7, 'ann', 'x')")
    for day in range(1, 7):
        await old._write(
            "INSERT INTO games (id, player_id, scope, kind, state, status, created_at, "
            "updated_at) VALUES (?, 7, 3, 'wordle:practice', '{}', 'won', 'x', 'x')",
            (1000 + day,),
        )
        await old._write(
            "INSERT INTO results (game_id, player_id, scope, kind, won, guesses, finished_at, "
            "played_on) VALUES (?, 7, 3, 'wordle:practice', 1, 3, 'x', ?)",
            (1000 + day, f"2026-08-{20 + day:02d}"),  # 5 days before the vote of 2026-08-26
        )
    for player in (7, 8):
        await old._write(
            "INSERT INTO nyt_answer_votes (number, player_id, answer, voted_at) "
            "VALUES (?, ?, 'quasi', '2026-08-26T10:00:00+00:00')",
            (NEW, player),
        )
    await old._write("INSERT INTO nyt_answers (number, answer, learned_at) "
                     "VALUES (?, 'quasi', 'x')", (NEW,))  # fmt: skip
    await old.close()

    services = await open_at(opened, shared_url, clock)
    book = AnswerBook(services.storage, services.daily)
    votes = await services.storage.db.all(
        "SELECT player_id, answer, scope, history_days FROM nyt_answer_votes ORDER BY player_id"
    )
    assert [tuple(r) for r in votes] == [(7, "quasi", 0, 5), (8, "quasi", 0, 0)]
    assert await book.learned() == [(NEW, FORGED)]  # kept, as legacy
    (known,) = await book.known()
    assert (known.answer, known.source) == (FORGED, "legacy")
    await season(services, clock, [11, 12, 13])
    for player, where in zip((11, 12, 13), (GUILD_A, GUILD_B, GUILD_A), strict=True):
        await vote(services, player, where, TRUE)
    assert await book.learned() == [(NEW, TRUE)]  # 3 of 4 counted votes


# -- the rule itself, for all votes ------------------------------------------------------------

words = st.sampled_from(["quasi", "quash", "squad", "aloft"])
tally = st.builds(Tally, st.just(NEW), words, st.just(0), st.integers(0, 30), st.integers(0, 5))
tallies = st.lists(tally, max_size=4, unique_by=lambda t: t.answer)


@given(tallies, st.integers(MIN_VOTERS, 60), st.integers(MIN_SERVERS, 6))
def test_honest_players_outnumbering_all_others_always_elect_their_word(
    forged: list[Tally], honest: int, servers: int
) -> None:
    """Whatever the others vote, a word elected has a strict majority from at least
    MIN_VOTERS counted players in MIN_SERVERS servers; honest players who outnumber every
    other counted vote together elect theirs."""
    won = elected(forged)
    if won is not None:
        mine = next(t for t in forged if t.answer == won)
        assert mine.counted >= MIN_VOTERS and mine.servers >= MIN_SERVERS
        assert 2 * mine.counted > sum(t.counted for t in forged)
    truth = Tally(NEW, TRUE, honest, honest, servers)
    if honest > sum(t.counted for t in forged):
        assert elected([*forged, truth]) == TRUE
        assert elected([truth, *forged]) == TRUE
    fewer = [t for t in forged if t.counted < MIN_VOTERS or t.servers < MIN_SERVERS]
    assert elected(fewer) is None  # too few, or one server: never, whatever the rest


def test_the_thresholds_are_the_documented_ones() -> None:
    text = (Path(__file__).parent.parent / "docs" / "fair-play.md").read_text()
    assert f"{HISTORY_DAYS} distinct days" in text and f"{MIN_VOTERS} players" in text
    assert f"{MIN_SERVERS} servers" in text
