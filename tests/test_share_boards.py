"""Recorded shares on a server's boards and in its digest, apart from the games played here:
a share counts on its game's shares board (``wordle:shared``), never on the bot's daily's,
whose puzzle is another; one result per player per puzzle day on each; on both engines."""

import asyncio
from datetime import UTC, date, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_digest import DAY, GUILD, OTHER, play

from bot.render.images import digest_png
from bot.render.text import board_text, digest_text
from bot.services import Player, Services, open_services
from bot.services.shares import record_shares
from bot.settings import load_settings
from bot.storage.periods import PERIODS, period_key
from engine.shares import parse_shares

SEED = "3c5e7a9b1d2f4a6c8e0b1d3f5a7c9e2b-digest"
NOW = datetime(2026, 3, 2, 12, tzinfo=UTC)  # the day after DAY
NUMBER = (DAY - date(2021, 6, 19)).days  # DAY's Wordle number
ANN, BOB, CAT, DAN, EVE = (Player(i, n) for i, n in enumerate(("ann", "bob", "cat", "dan",
                                                               "eve"), 1))  # fmt: skip
DORDLE = "Dordle #123 2&3/7\n⬛🟨⬛⬛⬛ ⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩 ⬛🟩⬛⬛⬛\n⬛⬛⬛⬛⬛ 🟩🟩🟩🟩🟩"


def wordle(number: int, guesses: int) -> str:
    rows = ["⬛🟨⬛⬛⬛"] * (guesses - 1) + ["🟩🟩🟩🟩🟩"]
    return f"Wordle {number:,} {guesses}/6\n" + "\n".join(rows)


async def opened(url: str) -> Services:
    services = await open_services(load_settings(database_url=url, daily_seed=SEED))
    services.daily.clock = lambda: NOW
    return services


async def share(services: Services, player: Player, text: str, scope: int = GUILD,
                posted: date | None = None) -> list[str]:  # fmt: skip
    """Record ``text`` as a message posted on ``posted`` (by default, now)."""
    done = await record_shares(services.storage, player.id, player.name,
                               parse_shares(text).shares, scope=scope,
                               posted=posted or services.daily.today())  # fmt: skip
    return done.notes


SHARED = "wordle:shared"  # the NYT Wordle shares' board


async def board(services: Services, period: str, scope: int = GUILD,
                kind: str = "wordle:daily") -> dict[str, tuple[int, int, int]]:  # fmt: skip
    """name -> (played, wins, win_guesses) on a board of ``period`` holding DAY."""
    rows, _ = await services.storage.leaderboard(
        scope, kind, "average", period=period_key(period, DAY, 28), per_page=50, today=DAY
    )
    return {r.row["name"]: (r.row["played"], r.row["wins"], r.row["win_guesses"]) for r in rows}


async def test_a_share_counts_on_every_board_of_its_server_and_in_the_digest(
    database_url,
) -> None:
    services = await opened(database_url)
    await play(services, BOB, DAY, 1)  # played here, in 2
    assert await share(services, ANN, wordle(NUMBER, 3)) == [
        f"Wordle #{NUMBER}: recorded (see /stats)"
    ]
    # The day before, posted that day: a two-day streak.
    await share(services, EVE, wordle(NUMBER - 1, 4), posted=DAY - timedelta(days=1))
    for period in PERIODS:
        assert (await board(services, period, kind=SHARED))["ann"] == (1, 1, 3), period
        assert "ann" not in await board(services, period)  # not the bot's puzzle
        assert "ann" not in await board(services, period, scope=OTHER, kind=SHARED)
        # The global boards count games played with the bot, never shares.
        assert "ann" not in await board(services, period, scope=-1, kind=SHARED), period
    assert await board(services, "today") == {"bob": (1, 1, 2)}

    game, shared = (await services.digests.digest(GUILD, DAY)).games  # the share apart
    assert game.title == "wordlebot Wordle #20260301" and game.streak == 2
    assert [(score, [m.name for m in members]) for score, members in game.scores] == [
        ("2/6", ["bob"])]  # fmt: skip
    assert (shared.title, shared.shared, shared.streak) == (f"Wordle #{NUMBER}", True, 0)
    assert [(score, [m.name for m in members]) for score, members in shared.scores] == [
        ("3/6", ["ann"])]  # fmt: skip
    assert [len(rows) for _, rows in game.grids + shared.grids] == [2, 3]
    assert shared.grids[0][1] == ["01000", "01000", "22222"]
    await services.close()


async def test_a_typed_one_never_ranks_on_the_bots_board_and_shows_on_the_shares_board(
    database_url,
) -> None:
    """Issue 38, point 4: a typed ``Wordle 1,988 1/6`` never ranks on the server's board of
    the bot's Wordle (another puzzle, played); it shows on the shares' own board, labelled
    as NYT shares on every line, in every period holding it."""
    services = await opened(database_url)
    await play(services, BOB, DAY, 1)
    await share(services, ANN, wordle(NUMBER, 1), posted=DAY)
    await share(services, ANN, wordle(NUMBER - 10, 2), posted=DAY - timedelta(days=10))
    counts = {"today": 1, "week": 1, "month": 1, "season": 1, "all": 2}  # 19 February: before
    for period, shares in counts.items():
        for metric in ("wins", "average", "win_rate"):
            ours = await services.stats.leaderboard(
                "wordle:daily", metric, guild_id=GUILD, today=DAY, period=period, min_games=1
            )
            assert [(e.rank, e.name, e.shared) for e in ours.entries] == [(1, "bob", 0)]
            assert "📋" not in board_text(ours) and "shares" not in board_text(ours)
        typed = await services.stats.leaderboard(SHARED, "wins", guild_id=GUILD, today=DAY,
                                                 period=period, min_games=1)  # fmt: skip
        assert [(e.name, e.played, e.shared) for e in typed.entries] == [("ann", shares, shares)]
        text = board_text(typed)
        assert text.startswith("Wins, wordle (NYT shares), this server"), text
        of_them = "of them a typed share" if shares == 1 else f"{shares} of them typed shares"
        assert of_them in text and "not played with the bot" in text and "bob" not in text
    everyone = await services.stats.leaderboard("wordle:daily", "wins", today=DAY, min_games=1)
    assert [e.name for e in everyone.entries] == ["bob"]  # the boards of everyone: no share
    await services.close()


async def test_the_shares_board_is_a_choice_of_leaderboard_in_every_front_end(
    database_url,
) -> None:
    """/leaderboard shares:true (the console's ``shares`` word, Discord's option, its page
    buttons) shows the shares board, titled so; refused where shares count on no board."""
    from bot.commands import COMMANDS, Caller
    from bot.commands.stats import next_pages

    services = await opened(database_url)
    await play(services, BOB, DAY, 1)
    await share(services, ANN, wordle(NUMBER, 1), posted=DAY)
    caller = Caller(CAT, scope=GUILD, guild_id=GUILD)
    run = COMMANDS["leaderboard"].run
    ours = await run(services, caller)
    assert "bob" in ours.text and "ann" not in ours.text
    assert ours.extra["title"] == "Wins: wordle daily, all time"
    typed = await run(services, caller, shares=True)
    assert "ann" in typed.text and "bob" not in typed.text
    assert typed.extra["title"] == "Wins: wordle (NYT shares), all time"
    assert typed.extra["pages"][-1] is True
    assert "shares:true" in next_pages(("wordle", "wins", "server", 1, 2, "all", True))
    refused = await run(services, caller, shares=True, scope="global")
    assert refused.refused and "their server's board only" in refused.text
    refused = await run(services, caller, shares=True, game="absurdle")
    assert refused.refused and "count on no board" in refused.text
    await services.close()


async def test_a_daily_played_and_a_share_of_the_same_day_count_one_on_each_board(
    database_url,
) -> None:
    """The bot's daily and the NYT's puzzle of a day are different puzzles: a player with
    both has one result on each board, in whichever order they came (a game no longer takes
    a share's place); a second share of the day still counts nothing."""
    services = await opened(database_url)
    await play(services, ANN, DAY, 1)  # here first, then the share
    await share(services, ANN, wordle(NUMBER, 4))
    await share(services, BOB, wordle(NUMBER, 5))  # the share first, then here
    assert (await board(services, "week", kind=SHARED))["bob"] == (1, 1, 5)
    await play(services, BOB, DAY, 0)
    for period in PERIODS:
        shown, typed = await board(services, period), await board(services, period, kind=SHARED)
        assert (shown["ann"], shown["bob"]) == ((1, 1, 2), (1, 1, 1)), period
        assert (typed["ann"], typed["bob"]) == ((1, 1, 4), (1, 1, 5)), period

    assert await share(services, CAT, wordle(NUMBER, 3)) == [
        f"Wordle #{NUMBER}: recorded (see /stats)"]  # fmt: skip
    assert await share(services, CAT, wordle(NUMBER, 3)) == [
        f"Wordle #{NUMBER}: already recorded (see /stats)"]  # fmt: skip
    assert (await board(services, "month", kind=SHARED))["cat"] == (1, 1, 3)
    await share(services, CAT, wordle(NUMBER, 4))  # a correction replaces it
    assert (await board(services, "month", kind=SHARED))["cat"] == (1, 1, 4)
    assert (await board(services, "all", kind=SHARED))["cat"] == (1, 1, 4)
    assert "cat" not in await board(services, "all")

    game, shared = (await services.digests.digest(GUILD, DAY)).games
    assert [(score, [m.name for m in members]) for score, members in game.scores] == [
        ("1/6", ["bob"]), ("2/6", ["ann"])]  # fmt: skip
    assert [(score, [m.name for m in members]) for score, members in shared.scores] == [
        ("4/6", ["ann", "cat"]), ("5/6", ["bob"])]  # fmt: skip

    assert await services.storage.remove_share(CAT.id, "wordle", NUMBER)
    for period in PERIODS:
        assert "cat" not in await board(services, period, kind=SHARED), period
    await services.close()


async def test_a_share_and_a_game_of_one_day_at_once_count_once_each(shared_url) -> None:
    """Two processes: one records a player's share while the other finishes their daily."""
    first, second = await opened(shared_url), await opened(shared_url)
    players = [Player(10 + i, f"p{i}") for i in range(4)]
    for player in players:
        await play(first, player, DAY, 1, finish=False)
    answer = first.daily.answer("wordle", DAY)
    first.daily.clock = lambda: datetime(2026, 3, 1, 23, tzinfo=UTC)  # DAY's, before it ends
    await asyncio.gather(*(
        work for player in players for work in (
            first.games.guess(player, GUILD, answer, kind="wordle:daily"),
            share(second, player, wordle(NUMBER, 5)),
        )
    ))  # fmt: skip
    shown, typed = await board(first, "today"), await board(first, "today", kind=SHARED)
    assert {shown[p.name] for p in players} == {(1, 1, 2)}  # the game played here
    assert {typed[p.name] for p in players} == {(1, 1, 5)}  # and the share, on its own
    assert (await board(first, "all", scope=-1))[players[0].name] == (1, 1, 2)
    await first.close()
    await second.close()


async def test_multi_board_shares_have_their_own_digest_block(database_url) -> None:
    services = await opened(database_url)
    today = services.daily.today()
    await share(services, DAN, DORDLE)
    await share(services, EVE, wordle(NUMBER + 1, 2))
    digest = await services.digests.digest(GUILD, today)
    wordle_game, dordle = digest.games
    assert wordle_game.title == f"Wordle #{NUMBER + 1}"  # nobody played ours: the NYT's
    assert wordle_game.shared and dordle.shared and wordle_game.streak == dordle.streak == 1
    assert dordle.title == "Dordle #123" and dordle.limit == 7
    assert dordle.scores[0][0] == "3/7" and [m.name for m in dordle.scores[0][1]] == ["dan"]
    assert dordle.grids[0][1] == ["01000 00000", "22222 02000", "      22222"]
    assert "Dordle #123" in digest_text(digest)
    assert digest_png(digest).startswith(b"\x89PNG")
    assert await board(services, "today", kind="dordle:shared") == {}  # DAY holds no Dordle
    assert (await board(services, "all", kind="dordle:shared"))["dan"] == (1, 1, 3)
    assert await board(services, "all", kind="dordle:daily") == {}
    await services.close()


# One player's one puzzle day, in any order: shares recorded, corrected, removed, and the
# daily played here. The bot's board counts the game played here, the shares board the share.
ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("share"), st.integers(1, 6)),
    st.tuples(st.just("remove"), st.just(0)),
    st.tuples(st.just("play"), st.integers(0, 2)),
), max_size=6)  # fmt: skip


async def _actions(actions: list[tuple[str, int]]) -> None:
    services = await opened(":memory:")
    played, shared = None, None
    for action, n in actions:
        if action == "share":
            await share(services, ANN, wordle(NUMBER, n))
            shared = n
        elif action == "remove":
            await services.storage.remove_share(ANN.id, "wordle", NUMBER)
            shared = None
        elif played is None:
            await play(services, ANN, DAY, n)
            played = n + 1
        for period in ("today", "season", "all"):
            for kind, counts in (("wordle:daily", played), (SHARED, shared)):
                expected = {} if counts is None else {"ann": (1, 1, counts)}
                assert await board(services, period, kind=kind) == expected, (actions, kind)
    await services.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_any_order_of_shares_and_play_counts_one_result(actions) -> None:
    asyncio.run(_actions(actions))


async def test_a_players_stats_keep_games_played_here_apart_from_shares(database_url) -> None:
    services = await opened(database_url)
    await play(services, ANN, DAY, 1)
    await share(services, ANN, wordle(NUMBER - 1, 4), posted=DAY)
    stats = await services.stats.stats(ANN.id, "wordle:daily", DAY)
    assert (stats.played, stats.win_percent, stats.distribution[2]) == (1, 100, 1)
    assert stats.shared is not None and (stats.shared.played, stats.shared.wins) == (1, 1)
    assert (await board(services, "all"))["ann"] == (1, 1, 2)  # each board its own
    assert (await board(services, "all", kind=SHARED))["ann"] == (1, 1, 4)
    await services.close()
