"""The NYT's past answers in the model, hints by a share's own number, answers learned from
players after the shipped list ends (by the rule of issue 38, point 6: tests/test_nyt_votes.py),
and ``wordlebot bench nyt`` (issue 31, points 1 to 5)."""

import json
import subprocess
import sys
import textwrap
from datetime import date, timedelta

import pytest

from bot.cli import main
from bot.services import open_services
from bot.services.analysis import AnalysisGate
from bot.services.answers import AnswerBook, solved_answer
from bot.settings import load_settings
from engine.answer_model import ModelPosition, nyt_model
from engine.nyt_history import (
    EPOCH,
    answers_before,
    puzzle_number,
    read_answers,
    reuse_rate,
    shipped_answers,
)
from engine.pattern import score, to_digits, to_emoji
from engine.shares import parse_shares
from tests.clock import Clock, at
from tests.test_nyt_votes import season

NEW = 1895  # a number after the shipped list (2026-08-27)
ANSWER, PLAYED = "bloat", ("crane", "stoat", "bloat")  # BLOAT: never an answer so far


def share(number: int = NEW, played: tuple[str, ...] = PLAYED, answer: str = ANSWER) -> str:
    rows = "\n".join(to_emoji(score(g, answer), 5) for g in played)
    return f"Wordle {number:,} {len(played)}/6\n\n{rows}"


def probability(model, word: str) -> float:
    return float(model.prior[model.variant.guesses.index[word]])


# -- the shipped history ---------------------------------------------------------------------


def test_the_shipped_history_is_every_day_numbered_from_cigar() -> None:
    answers = shipped_answers()
    assert len(answers) == 1890 and answers[0].answer == "cigar" and answers[0].number == 0
    assert [a.number for a in answers] == list(range(1890))
    assert all(a.number == puzzle_number(a.day) for a in answers)
    seen: set[str] = set()
    reused = []
    for a in answers:
        if a.answer in seen:
            reused.append(a)
        seen.add(a.answer)
    assert len(reused) == 22 and reused[0].day == date(2026, 2, 2) and reused[0].answer == "cigar"
    allowed = nyt_model().variant.guesses.index
    assert all(a.answer in allowed for a in answers)


def test_a_used_word_is_less_likely_never_impossible_and_the_rate_is_fitted_before() -> None:
    assert reuse_rate(answers_before(puzzle_number(date(2026, 1, 1)))) < 0.01
    assert 0.05 < reuse_rate(answers_before(1890)) < 0.2
    today = nyt_model(1889)  # TRACE, used before (#179), reused that day
    plain = nyt_model()
    assert 0 < probability(today, "trace") < probability(plain, "trace")
    assert probability(today, ANSWER) > probability(plain, ANSWER)  # never used
    position = ModelPosition.after(today, [("crane", score("crane", "trace"))])
    assert "trace" in [today.words[i] for i in position.candidates]


def test_a_puzzles_history_is_strictly_before_it() -> None:
    old = shipped_answers()[1406]
    assert all(a.number < 1406 for a in answers_before(1406))
    if old.answer not in {a.answer for a in answers_before(1406)}:
        assert probability(nyt_model(1406), old.answer) > probability(nyt_model(1407), old.answer)
    learned = answers_before(NEW + 1, [(NEW, ANSWER), (5, "zzzzz")])
    assert learned[-1].answer == ANSWER and learned[5].answer == shipped_answers()[5].answer


# -- the CLI: --puzzle, solve with the model, bench nyt ---------------------------------------


def test_cli_hint_coach_and_solve_take_the_puzzle_number(capsys) -> None:
    rows = [f"{g}:{to_digits(score(g, 'trace'), 5)}" for g in ("slate",)]
    chances = {}
    for number in (179, 181):  # TRACE was #179: unknown before it, used after
        assert main(["hint", "--variant", "wordle-nyt", *rows, "--puzzle", str(number),
                     "--json", "--top", "1"]) == 0  # fmt: skip
        data = json.loads(capsys.readouterr().out)
        chances[number] = dict(zip(data["candidates"], data["probabilities"], strict=True))
    assert chances[179]["trace"] > chances[181]["trace"] > 0
    assert main(["coach", "--variant", "wordle-nyt", "--answer", "trace", "slate", "trace",
                 "--puzzle", "181"]) == 0  # fmt: skip
    assert "(won)" in capsys.readouterr().out
    assert main(["hint", "--puzzle", "5", "crane", "01002"]) == 2  # the NYT's number only
    assert "--variant wordle-nyt" in capsys.readouterr().err


def test_solve_for_the_nyt_puzzle_uses_the_model(capsys) -> None:
    """SNAFU is outside the original answers, so the uniform solver would call it impossible;
    with the model it is found, and the suggestions are the model's."""
    from bot.cli.commands import build_parser
    from bot.cli.solver_commands import cmd_solve

    args = build_parser().parse_args(["solve", "--variant", "wordle-nyt", "--puzzle", "100"])
    said: list[str] = []

    def read(_: str) -> str:
        guess = said[-1].rsplit(" ", 1)[-1].lower()
        return to_digits(score(guess, "snafu"), 5)

    assert cmd_solve(args, read, said.append) == 0
    assert said[-1] in ("It is SNAFU.",) or said[-1].startswith("Solved in"), said


def test_bench_nyt_replays_dated_answers_with_and_without_history(tmp_path, capsys) -> None:
    lines = [f"{a.day}\t{a.number}\t{a.answer}" for a in shipped_answers()[:1876]]
    path = tmp_path / "answers.tsv"
    path.write_text("\n".join(lines) + "\n")
    assert main(["bench", "nyt", "--answers", str(path), "--from", "2026-08-06", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["days"] == 2 and figures["reused_answers"] == 2  # gripe, feign
    for name in ("with_history", "without_history"):
        assert figures[name]["games"] == 2 and figures[name]["impossible"] == 0
        assert 1 <= figures[name]["mean_guesses"] <= 6
    path.write_text("2026-08-06\t1874\tgripe\n2026-08-06\t1876\tgripe\n")
    with pytest.raises(ValueError, match="line 2"):
        read_answers(path)


# -- learning answers after the shipped list ---------------------------------------------------


def test_only_a_solved_consistent_share_is_a_vote() -> None:
    (mine,) = parse_shares(share()).shares
    assert solved_answer(mine, list(PLAYED)) == ANSWER
    assert solved_answer(mine, ["crane", "slate", "bloat"]) is None  # colours do not match
    assert solved_answer(mine, ["crane", "stoat"]) is None
    (unsolved,) = parse_shares(share(played=("crane", "stoat"))).shares
    assert solved_answer(unsolved, ["crane", "stoat"]) is None


async def services_at(when: str, database: str = ":memory:"):
    clock = Clock(at(when))
    services = await open_services(load_settings(database_url=database))
    services.daily.clock = clock
    services.analysis_gate = AnalysisGate(cooldown=0)
    return services, clock


async def test_one_player_never_teaches_an_answer_and_nothing_before_its_day_ends() -> None:
    """Players with a history (tests/test_nyt_votes.py has the rule's own tests)."""
    day = EPOCH + timedelta(days=NEW)
    services, clock = await services_at(f"{day}T12:00:00")
    services.games.choose_answer = lambda variant: "cigar"
    book = AnswerBook(services.storage, services.daily)

    async def paste(player: int, guild: int, text: str, words: str):
        return await services.analysis.analyze(player, guild, text, words, guild=guild)

    try:
        await season(services, clock, [1, 2, 3, 4])
        analysed = await paste(1, 10, share(), " ".join(PLAYED))
        assert analysed.hint is not None and analysed.hint.candidates == [ANSWER]
        await paste(1, 10, share(), " ".join(PLAYED))  # again: one vote
        forged = share(played=("crane", "stoat", "float"), answer="float")  # a forged grid
        await paste(2, 20, forged, "crane stoat float")
        clock.now += timedelta(days=1)
        assert await book.learned() == []  # one player each: nothing learned
        clock.now -= timedelta(days=1)
        await paste(3, 20, share(), " ".join(PLAYED))
        await paste(4, 10, share(), " ".join(PLAYED))
        assert await book.learned() == []  # three of four agree, but the day has not ended
        clock.now += timedelta(hours=12)  # midnight: the day has ended
        assert await book.learned() == [(NEW, ANSWER)]
        model = await book.model()  # today's, NEW + 1: knows NEW's answer
        assert probability(model, ANSWER) < probability(await book.model(NEW), ANSWER)
        await services.storage.delete_player(3)  # a deletion takes its vote: 2 to 1 is
        assert await book.learned() == []  # too few players (MIN_VOTERS)
        votes = await services.storage.db.one(
            "SELECT COUNT(*) FROM nyt_answer_votes WHERE player_id = 3"
        )
        assert votes is not None and votes[0] == 0
    finally:
        await services.close()


OTHER_PROCESS = textwrap.dedent(
    """
    import asyncio, sys
    from bot.services import open_services
    from bot.services.analysis import AnalysisGate
    from bot.settings import load_settings
    from tests.clock import Clock, at

    async def main():
        services = await open_services(load_settings(database_url=sys.argv[1]))
        services.daily.clock = Clock(at(sys.argv[2]))
        services.analysis_gate = AnalysisGate(cooldown=0)
        guild = int(sys.argv[6])
        result = await services.analysis.analyze(int(sys.argv[3]), guild, sys.argv[4],
                                                 sys.argv[5], guild=guild)
        print("ok" if result.hint is not None else "no hint", flush=True)
        await services.close()

    asyncio.run(main())
    """
)


async def test_two_processes_each_with_players_teach_the_answer_together(shared_url) -> None:
    """On a SQLite file and on PostgreSQL: votes in each of two processes, read together."""
    database = shared_url
    day = EPOCH + timedelta(days=NEW)
    services, clock = await services_at(f"{day}T20:00:00", database)
    services.games.choose_answer = lambda variant: "cigar"
    book = AnswerBook(services.storage, services.daily)
    try:
        await season(services, clock, [1, 2, 3])
        for player in (1, 3):
            await services.analysis.analyze(player, 10, share(), " ".join(PLAYED), guild=10)
        other = subprocess.run(
            [sys.executable, "-c", OTHER_PROCESS, database, f"{day}T21:00:00", "2", share(),
             " ".join(PLAYED), "20"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert other.stdout.strip() == "ok", other.stderr
        assert await book.learned() == []
        clock.now += timedelta(hours=4)
        assert await book.learned() == [(NEW, ANSWER)]
    finally:
        await services.close()
    again = subprocess.run(  # a third process sees what the first two taught
        [sys.executable, "-c", OTHER_PROCESS, database, f"{day + timedelta(days=2)}T01:00:00",
         "3", share(NEW + 1, ("crane", "gloat"), "gloat"), "crane gloat", "0"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert again.stdout.strip() == "ok", again.stderr


async def test_an_old_share_is_read_with_its_own_numbers_history_not_todays() -> None:
    """Wordle 1,406 (KNOWN): its grid and its words are read with the model of #1406, which
    does not know KNOWN yet; a typed history with today's."""
    from bot.services.analysis import analyze
    from engine.solver.weighted import model_grid, model_hint

    old = shipped_answers()[1406]
    played = ("crane", "slate", old.answer)
    text = share(1406, played, old.answer)
    rows = [score(g, old.answer) for g in played[:-1]]
    read = await analyze(text, puzzle=1890)
    assert read.readings[0] is not None
    assert read.readings[0].likely == model_grid(nyt_model(1406), rows).likely
    assert read.readings[0].likely != model_grid(nyt_model(1890), rows).likely  # not today's
    typed = " ".join(f"{g} {to_digits(p, 5)}" for g, p in zip(played, rows, strict=False))
    hinted = await analyze(typed, puzzle=1890)
    assert hinted.hint == model_hint(nyt_model(1890), list(zip(played, rows, strict=False)))
    paired = await analyze(text, " ".join(played), puzzle=1890)
    assert paired.hint is not None and paired.hint.candidates == [old.answer]
    assert paired.coaching is not None and paired.coaching.won
