"""Stats, boards and coaching reach every game (issue 28, point 15): /stats, /leaderboard and
/coach for each game the bot hosts, in the services, the console and Discord, from the one
registry of games (bot.services.kinds); and the console's options by Discord's names."""

from __future__ import annotations

import re

import pytest
from discord_double import only
from hypothesis import given
from hypothesis import strategies as st

from bot.console import SYNTAX, Console
from bot.console_options import Option, OptionError, Syntax, parse_options
from bot.services import Player, open_services
from bot.services.analysis import NOTHING_TO_COACH
from bot.services.kinds import GAMES, KINDS, results_kind
from bot.services.stats import METRICS, LeaderboardError
from bot.settings import load_settings
from bot.storage.periods import PERIODS

SEED = "3c5e7a9b1d2f4a6c8e0b1d3f5a7c9e2b-games"
EVERY_GAME = {"wordle", "primel", "absurdle", "dordle", "quordle", "octordle"}  # the issue's
ANSWERS = {"wordle": "cigar", "primel": "99991"}
BOARDS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]
OPENERS = {"primel": ("12347", "10007")}  # primes; every other game: CRANE or SLATE
TESS = Player(5, "tess")


async def open_pinned(url: str):
    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    services.games.choose_answer = ANSWERS.get
    services.games.deal = lambda variant, n: BOARDS[:n]
    return services


@pytest.fixture
async def services(database_url: str):
    s = await open_pinned(database_url)
    yield s
    await s.close()


def opener(services, game: str) -> str:
    """A first guess that is not the answer (today's daily's, or the pinned practice one)."""
    first, second = OPENERS.get(game, ("crane", "slate"))
    if not KINDS[game].daily:
        return first
    return second if services.daily.answer(game, services.daily.today()) == first else first


async def play_one(services, game: str, player: Player = TESS) -> None:
    """One game of ``game``: a guess, then give up (its daily where it has one)."""
    started = await services.games.start(player, 0, game, daily=KINDS[game].daily)
    assert started.ok, started.message
    game_id = started.game.game_id
    assert (await services.games.guess(player, 0, opener(services, game), game_id=game_id)).ok
    assert (await services.games.give_up(player, 0, game_id=game_id)).ok


def test_the_registry_holds_every_game() -> None:
    assert set(GAMES) == EVERY_GAME == {name for name, spec in KINDS.items() if not spec.base}
    assert all(spec.base == "wordle" for spec in KINDS.values() if spec.name not in GAMES)


async def test_stats_count_one_game_of_each_kind(services) -> None:
    """Old code: Absurdle and the multi-board games showed their (empty) daily: Played 0."""
    today = services.daily.today()
    for game in GAMES:
        await play_one(services, game)
        stats = await services.stats.stats(TESS.id, results_kind(game), today)
        assert (stats.played, stats.win_percent) == (1, 0), game
        assert len(stats.distribution) == KINDS[game].distribution_size


async def test_boards_of_games_without_a_daily_rank_their_practice_games(services) -> None:
    """A lost Quordle counts as the fail score plus Quordle's 3 extra guesses; a lost
    Wordle practice game as the fail score; skill ranks dailies only and says so."""
    today = services.daily.today()
    for game in ("quordle", "absurdle"):
        await play_one(services, game)
    await services.games.start(TESS, 0, "wordle")
    await services.games.give_up(TESS, 0, kind="wordle:practice")
    values = {}
    for kind in ("quordle:practice", "absurdle:practice", "wordle:practice"):
        board = await services.stats.leaderboard(kind, "average", today=today, min_games=1)
        assert [(e.name, e.played) for e in board.entries] == [("tess", 1)], kind
        values[kind] = board.entries[0].value
    assert values == {"quordle:practice": 10.0, "absurdle:practice": 11.0,
                      "wordle:practice": 7.0}  # fmt: skip
    with pytest.raises(LeaderboardError, match="skill board ranks the coach's scores of dailies"):
        await services.stats.leaderboard("quordle:practice", "skill", today=today)


async def test_an_absurdle_win_past_ten_guesses_shows_in_the_last_row(services) -> None:
    from bot.storage import Result

    started = await services.games.start(TESS, 0, "absurdle")
    stored = await services.storage.game(started.game.game_id)
    await services.storage.save_game(stored, stored.state, "won", Result(True, 12, None))
    stats = await services.stats.stats(TESS.id, "absurdle:practice", services.daily.today())
    assert stats.played == 1 and stats.distribution[10] == 1


async def test_absurdle_stats_show_its_challenges_on_their_own_line(services) -> None:
    started = await services.games.start(TESS, 0, "absurdle", challenge=True)
    await services.games.give_up(TESS, 0, game_id=started.game.game_id)
    stats = await services.stats.stats(TESS.id, results_kind("absurdle"), services.daily.today())
    assert stats.played == 0 and stats.archive is not None
    assert (stats.archive.label, stats.archive.played, stats.archive.wins) == (
        "Absurdle challenge", 1, 0)  # fmt: skip


# -- the console ----------------------------------------------------------------------


async def console_session(tmp_path, *lines: str, name: str = "c") -> str:
    services = await open_pinned(str(tmp_path / f"{name}.sqlite3"))
    shown: list[str] = []
    queue = list(lines)

    async def read(_: str) -> str | None:
        return queue.pop(0) if queue else None

    try:
        await Console(services, TESS, shown.append, colour=False).run(read)
    finally:
        await services.close()
    return "\n".join(shown)


def start_line(game: str) -> str:
    return f"/{game} daily" if KINDS[game].daily else f"/{game}"


async def test_console_stats_and_coach_for_every_game(tmp_path) -> None:
    """After one game of each, /stats GAME shows Played 1 and /coach coaches it. Old code:
    Played 0 for Absurdle and the multi-board games, and no coaching for them."""
    services = await open_pinned(str(tmp_path / "openers.sqlite3"))
    openers = {game: opener(services, game) for game in GAMES}
    await services.close()
    for game in GAMES:
        text = await console_session(
            tmp_path, start_line(game), openers[game], "/giveup", f"/stats {game}",
            f"/stats game:{game}", "/coach", name=game,
        )  # fmt: skip
        assert text.count("Played 1 | Win % 0") == 2, (game, text)
        assert "Turn  guess" in text, (game, text)  # the coach's table
        if KINDS[game].boards > 1:
            assert f"Board {KINDS[game].boards}: " in text and "Skill over the boards" in text
        if game == "absurdle":
            assert "no luck" in text


async def test_console_coach_says_plainly_when_there_is_nothing_to_coach(tmp_path) -> None:
    text = await console_session(tmp_path, "/coach", "/quordle", "/giveup", "/coach",
                                 "/wordle practice", "/giveup", "/coach")  # fmt: skip
    assert "Finish a game first" in text and text.count(NOTHING_TO_COACH) == 2
    assert "Turn  guess" not in text


async def test_console_leaderboard_by_name_and_by_position(tmp_path) -> None:
    """Old code: the console's board was Wordle's daily whatever was asked, and
    ``metric:wins`` was an unknown board."""
    services = await open_pinned(str(tmp_path / "day.sqlite3"))
    answer = services.daily.answer("primel", services.daily.today())
    await services.close()
    boards = [
        "/leaderboard metric:wins period:today game:primel",
        "/leaderboard wins today primel",
        "/leaderboard game:primel period:today",
        "/leaderboard primel today",
        "/leaderboard metric: wins game:primel period:today page:1",
    ]
    text = await console_session(tmp_path, "/primel daily", answer, *boards, name="day")
    heading = "Wins, primel daily, everyone, today\n  1. tess - 1 (1 played)\nPage 1 of 1"
    assert text.count(heading) == len(boards), text


def pictures_named_alike(text: str) -> str:
    """The console's output with each picture's file name, unique per picture, made one."""
    return re.sub(r"(wordlebot-[a-z]+-)[A-Za-z0-9_]+(\.png)", r"\1X\2", text)


async def test_console_names_and_positions_give_the_same_output(tmp_path) -> None:
    pairs = [
        ("/stats quordle practice", "/stats practice:true game:quordle"),
        ("/stats absurdle", "/stats game:absurdle"),
        ("/streak wordle", "/streak game:wordle"),
        ("/leaderboard average week absurdle",
         "/leaderboard period:week game:absurdle metric:average"),
        ("/leaderboard wins 2", "/leaderboard page:2"),
        ("/leaderboard skill all quordle", "/leaderboard game:quordle metric:skill"),
        ("/quordle hard", "/quordle mode:hard"),
        ("/hardmode primel", "/hardmode game:primel"),
    ]  # fmt: skip
    for i, (positional, named) in enumerate(pairs):  # each pair on two new databases
        a = await console_session(tmp_path, "/wordle practice", "crane", "/giveup", positional,
                                  name=f"p{i}")  # fmt: skip
        b = await console_session(tmp_path, "/wordle practice", "crane", "/giveup", named,
                                  name=f"n{i}")  # fmt: skip
        assert pictures_named_alike(a) == pictures_named_alike(b), (positional, named)


async def test_console_refuses_unknown_and_repeated_options_in_one_line(tmp_path) -> None:
    text = await console_session(
        tmp_path, "/leaderboard colour:red", "/leaderboard metric:wins metric:average",
        "/stats practice:maybe", "/leaderboard game:chess", "/stats chess",
        "/leaderboard season:later",
    )  # fmt: skip
    assert (
        "there is no option 'colour'; /leaderboard takes metric (wins, win_rate, average, "
        "skill, current_streak, max_streak), period (today, week, month, season, all), "
        "game (wordle, primel, absurdle, dordle, quordle, octordle), page, scope (server, "
        "global), season (current, previous)"
    ) in text  # Discord's options and choices
    assert "metric is given twice" in text and "practice takes true or false" in text
    assert (
        text.count("game takes wordle, primel, absurdle, dordle, quordle, octordle, not 'chess'")
        == 2
    )  # /leaderboard game:chess, /stats chess
    assert "season takes current, previous, not 'later'" in text
    assert "Traceback" not in text


async def test_console_stats_of_another_local_player(tmp_path) -> None:
    text = await console_session(tmp_path, "/as ann", "/quordle", "/giveup", "/as tess",
                                 "/stats quordle", "/stats quordle user:ann")  # fmt: skip
    assert "tess: quordle practice\nPlayed 0" in text and "ann: quordle practice\nPlayed 1" in text


# -- the parser ------------------------------------------------------------------------


def test_the_parser_covers_a_subcommand_with_a_case_kept_value() -> None:
    """``/mydata delete confirm:DELETE`` as Discord takes it (the console's handler is
    another's to add: the parser already reads it)."""
    syntax = SYNTAX["/mydata"]
    for text in ("delete confirm:DELETE", "delete DELETE", "DELETE confirm: DELETE"):
        options = parse_options("/mydata", syntax, text)
        assert (options.subcommand, options.get("confirm")) == ("delete", "DELETE"), text
    with pytest.raises(OptionError, match="/mydata delete takes confirm"):
        parse_options("/mydata", syntax, "delete DELETE again")


def test_free_text_options_keep_their_text() -> None:
    paste = "Wordle 1,234 3/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"
    options = parse_options("/analyze", SYNTAX["/analyze"], f"{paste} words: crane cigar")
    assert options.get("paste") == paste and options.get("words") == "crane cigar"
    named = parse_options("/analyze", SYNTAX["/analyze"], f"paste:{paste} words:crane cigar")
    assert named == options
    assert parse_options("/guess", SYNTAX["/guess"], "word:crane").get("word") == "crane"
    link = parse_options("/hint", SYNTAX["/hint"], "https://example.com x:y")
    assert link.get("history") == "https://example.com x:y"  # not an option of /hint


LEADERBOARD = {
    "metric": st.sampled_from(METRICS),
    "period": st.sampled_from(PERIODS),  # the last season: period:season season:previous
    "game": st.sampled_from(GAMES),
    "page": st.integers(1, 999999).map(str),
}


@given(st.fixed_dictionaries({}, optional=LEADERBOARD), st.randoms(use_true_random=False))
def test_names_in_any_order_read_as_the_positional_form(chosen: dict[str, str], rng) -> None:
    """For every choice of the board's options, named in any order, the values are those
    of the positional form (metric, period, game, page, in that order)."""
    syntax = SYNTAX["/leaderboard"]
    positional = " ".join(chosen[n] for n in LEADERBOARD if n in chosen)
    named = [f"{n}:{v}" for n, v in chosen.items()]
    rng.shuffle(named)
    by_position = parse_options("/leaderboard", syntax, positional)
    by_name = parse_options("/leaderboard", syntax, " ".join(named))
    assert by_position.values == by_name.values == chosen


@given(st.text(max_size=40))
def test_the_parser_never_raises_anything_but_its_own_error(text: str) -> None:
    for command, syntax in SYNTAX.items():
        try:
            parse_options(command, syntax, text)
        except OptionError as exc:
            assert str(exc).startswith(command) or "given twice" in str(exc) or "takes" in str(exc)


def test_a_flag_takes_its_words_or_true_and_false() -> None:
    syntax = Syntax((Option("practice", flag=("practice", "daily")),))
    read = {t: parse_options("/x", syntax, t).flag("practice") for t in
            ("practice", "daily", "practice:yes", "practice:false", "")}  # fmt: skip
    assert read == {"practice": True, "daily": False, "practice:yes": True,
                    "practice:false": False, "": False}  # fmt: skip


# -- Discord ----------------------------------------------------------------------------


async def test_discord_stats_leaderboard_and_coach_for_a_multi_board_game(double) -> None:
    ann = 111
    double.bot.services.games.deal = lambda variant, n: BOARDS[:n]
    await double.command("quordle", user_id=ann)
    await double.command("guess", user_id=ann, word="crane")
    await double.command("giveup", user_id=ann)
    stats = (await double.command("stats", user_id=ann, game="quordle"))[-1]
    assert "quordle practice" in stats.text and "Played 1 | Win % 0" in stats.text
    board = (await double.command("leaderboard", user_id=ann, metric="average", game="quordle"))[-1]
    assert "quordle practice" in board.text and "10.00 (1 played)" in board.text
    report = only(await double.command("coach", user_id=ann))
    assert "Board 4: HUMPH, not solved" in report.text and "Skill over the boards" in report.text


async def test_discord_coach_attaches_a_report_too_long_for_a_message(double) -> None:
    """An Octordle's eight tables pass 2,000 characters: the skill line, the rest a file."""
    ann = 111
    double.bot.services.games.deal = lambda variant, n: BOARDS[:n]
    await double.command("octordle", user_id=ann)
    for word in ("crane", "slate", "moist", "pound", "lying", "whack"):
        await double.command("guess", user_id=ann, word=word)
    await double.command("giveup", user_id=ann)
    report = only(await double.command("coach", user_id=ann))
    assert report.files == ["coaching.txt"] and "Skill over the boards" in report.text
    assert len(report.text) < 200
