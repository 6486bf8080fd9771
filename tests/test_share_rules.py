"""Which shares count (issue 28, points 4 and 5): the current puzzle only, once, a few a
message, one result per game per player per day, plausible numbers; refusals said to the
poster and stored nowhere; never on the global boards; the message's day, not the reader's;
a recap's plain @name credits only the one current member with that display name."""

import asyncio
from datetime import UTC, date, datetime, timedelta

from discord_double import only
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_share_boards import (
    ANN,
    BOB,
    CAT,
    DAN,
    EVE,
    GUILD,
    NOW,
    SHARED,
    board,
    opened,
    share,
    wordle,
)

from bot.services.shares import MAX_SHARES_PER_MESSAGE, NAMES_FRESH, record_app_results
from bot.storage import LATEST, Storage
from bot.storage.periods import period_key, period_keys
from bot.storage.shares import COUNTED_GAMES, REFUSED, newest_number

POSTED = NOW.date()  # the day the messages below are posted, unless they say otherwise
NUMBER = (POSTED - date(2021, 6, 19)).days  # its NYT Wordle number
WINDOW = f"(#{NUMBER - 1:,} to #{NUMBER + 1:,} for a message of {POSTED})"


def primel(number: int, guesses: int = 3) -> str:
    return f"Primel {number} {guesses}/6\n" + "\n".join(
        ["⬛🟨⬛⬛⬛"] * (guesses - 1) + ["🟩🟩🟩🟩🟩"]
    )


async def stored(storage: Storage, player_id: int) -> tuple[int, int]:
    """(shares, player rows) stored for ``player_id``."""
    shares = await storage._one("SELECT COUNT(*) FROM share_results WHERE player_id = ?",
                                (player_id,))  # fmt: skip
    players = await storage._one("SELECT COUNT(*) FROM players WHERE id = ?", (player_id,))
    assert shares is not None and players is not None
    return int(shares[0]), int(players[0])


# -- point 4: a share counts only for the current puzzle, once -------------------------------


async def test_an_old_nyt_number_is_refused_and_stored_nowhere(database_url) -> None:
    services = await opened(database_url)
    assert await share(services, ANN, wordle(1000, 3)) == [
        f"Wordle #1,000: only the current puzzle counts {WINDOW}, not recorded"
    ]
    assert await stored(services.storage, ANN.id) == (0, 0)
    # Three posts of old numbers (as gave 402 all-time wins): nothing counts.
    for post in range(3):
        text = "\n".join(wordle(1000 + 3 * post + i, 3) for i in range(3))
        notes = await share(services, ANN, text)
        assert len(notes) == 3 and all("only the current puzzle counts" in n for n in notes)
    assert await board(services, "all", kind=SHARED) == {} and await stored(
        services.storage, ANN.id
    ) == (0, 0)
    await services.close()


async def test_a_wordle_share_counts_for_the_day_it_was_posted_and_the_days_beside(
    database_url,
) -> None:
    services = await opened(database_url)
    day = POSTED
    for player, number in ((ANN, NUMBER), (BOB, NUMBER - 1), (DAN, NUMBER + 1)):
        assert await share(services, player, wordle(number, 3), posted=day) == [
            f"Wordle #{number}: recorded (see /stats)"
        ]
    assert await share(services, CAT, wordle(NUMBER - 2, 3), posted=day) == [
        f"Wordle #{NUMBER - 2:,}: only the current puzzle counts {WINDOW}, not recorded"
    ]
    assert await share(services, EVE, wordle(NUMBER + 2, 3), posted=day) == [
        f"Wordle #{NUMBER + 2:,}: not a puzzle number (0 to {NUMBER + 1:,} on {day}), "
        "not recorded"  # not yet out anywhere on Earth
    ]
    # The same number posted two days later is not current any more.
    late = await share(services, CAT, wordle(NUMBER, 3), posted=day + timedelta(days=2))
    assert "only the current puzzle counts" in late[0]
    shown = await board(services, "all", kind=SHARED)
    assert set(shown) == {"ann", "bob", "dan"} and shown["ann"] == (1, 1, 3)
    await services.close()


async def test_the_same_share_twice_counts_once(database_url) -> None:
    services = await opened(database_url)
    assert await share(services, ANN, wordle(NUMBER, 3)) == [
        f"Wordle #{NUMBER}: recorded (see /stats)"
    ]
    again = await share(services, ANN, wordle(NUMBER, 3) + "\n" + wordle(NUMBER, 3))
    assert again == [f"Wordle #{NUMBER}: already recorded (see /stats)"] * 2
    assert (await board(services, "all", kind=SHARED))["ann"] == (1, 1, 3)
    await services.close()


async def test_a_long_message_of_primel_shares_counts_one(database_url) -> None:
    """One 4,000-character message of 195 Primel shares (195 wins, before)."""
    services = await opened(database_url)
    text, number = "", 1
    while len(text) + len(primel(number)) + 1 <= 4000:
        text += primel(number) + "\n"
        number += 1
    assert number - 1 >= 100
    notes = await share(services, ANN, text)
    assert notes[0] == "Primel #1: recorded (see /stats)"
    assert all("one a day counts" in n for n in notes[1:MAX_SHARES_PER_MESSAGE])
    assert notes[-1] == (f"Only a message's first {MAX_SHARES_PER_MESSAGE} shares are read: "
                         f"{number - 1 - MAX_SHARES_PER_MESSAGE} more not recorded")  # fmt: skip
    assert await board(services, "all", kind="primel:shared") == {"ann": (1, 1, 3)}
    assert await stored(services.storage, ANN.id) == (1, 1)
    # Another Primel number counts the next day, not the same day.
    assert "one a day" in (await share(services, ANN, primel(500)))[0]
    tomorrow = POSTED + timedelta(days=1)
    assert await share(services, ANN, primel(500), posted=tomorrow) == [
        "Primel #500: recorded (see /stats)"
    ]
    # Primel #1 "corrected" a day later: its day has passed.
    assert await share(services, ANN, primel(1, 2), posted=tomorrow) == [
        "Primel #1: already recorded on an earlier day, which only a share posted that day "
        "could correct; not changed"
    ]
    assert await board(services, "all", kind="primel:shared") == {"ann": (2, 2, 6)}
    await services.close()


async def test_a_twenty_digit_number_is_refused_in_one_line(database_url) -> None:
    """It used to reach the database and fail there (SQLite: OverflowError binding it to an
    INTEGER column; PostgreSQL: out of int4's range), a traceback in the listener."""
    services = await opened(database_url)
    newest = newest_number(POSTED)
    assert await share(services, ANN, wordle(12345678901234567890, 3)) == [
        f"Wordle #12345678901…: not a puzzle number (0 to {newest:,} on {POSTED}), not recorded"
    ]
    assert await share(services, ANN, primel(12345678901234567890)) == [
        f"Primel #12345678901…: not a puzzle number (0 to {newest:,} on {POSTED}), not recorded"
    ]
    assert await stored(services.storage, ANN.id) == (0, 0)
    assert not await services.storage.remove_share(ANN.id, "wordle", 12345678901234567890)
    await services.close()


async def _refused(game: str, puzzle: int, day: date) -> str:
    storage = await Storage.open(":memory:")
    try:
        outcome = await storage.record_share(1, game, puzzle, True, 3, False, "g", scope=5,
                                             today=day)  # fmt: skip
        assert await stored(storage, 1) == (0, 0)
        return outcome
    finally:
        await storage.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from([*COUNTED_GAMES, "absurdle"]),
    day=st.dates(date(2021, 7, 1), date(2040, 1, 1)),
    data=st.data(),
)
def test_any_number_outside_the_plausible_range_or_the_window_is_refused(game, day, data) -> None:
    newest = newest_number(day)
    current = (day - date(2021, 6, 19)).days
    numbers = [st.integers(max_value=-1), st.integers(min_value=newest + 1)]
    if game == "wordle":  # and before the puzzles of the day of posting and the day before
        numbers.append(st.integers(0, max(0, current - 2)).filter(lambda n: n < current - 1))
    puzzle = data.draw(st.one_of(numbers))
    assert asyncio.run(_refused(game, puzzle, day)) in REFUSED


async def test_the_global_board_counts_games_played_here_never_shares(database_url) -> None:
    from test_digest import play

    services = await opened(database_url)
    day = POSTED - timedelta(days=1)
    await play(services, BOB, day, 1)
    await share(services, ANN, wordle(NUMBER - 1, 3))
    await share(services, CAT, primel(7))
    assert set(await board(services, "all")) == {"bob"}  # this server's, of the bot's puzzle
    assert set(await board(services, "all", kind=SHARED)) == {"ann"}  # and of its shares
    for period in ("today", "all"):  # everyone's: the game played with the bot only
        assert set(await board(services, period, scope=-1)) == {"bob"}, period
        assert await board(services, period, scope=-1, kind=SHARED) == {}, period
    assert await board(services, "all", scope=-1, kind="primel:shared") == {}
    await services.close()


async def test_shares_leave_the_global_boards_when_a_database_migrates(empty_url) -> None:
    """A share counted everywhere before version 15 (as the code of then did) leaves the
    global boards, and stays on its server's: its shares board since version 29."""
    storage = await Storage.open(empty_url, migrate=False)
    await storage.migrate(target=12)
    day, scope = date(2026, 3, 1), 5
    await storage._write("INSERT INTO players (id, name, created_at) VALUES (1, 'ann', 'x')")
    await storage._write(
        "INSERT INTO share_results (player_id, game, puzzle, won, guesses, hard, grid, "
        "recorded_at, scope, day, counted) VALUES (1, 'wordle', 1716, 1, 3, 0, 'g', 'x', ?, ?, 1)",
        (scope, day.isoformat()),
    )
    for where in (scope, -1):
        await storage._write(
            "INSERT INTO standings (scope, player_id, kind, played, wins, win_guesses) "
            "VALUES (?, 1, 'wordle:daily', 1, 1, 3)",
            (where,),
        )
        for key in period_keys(day, 28):
            await storage._write(
                "INSERT INTO period_standings (scope, kind, period, player_id, played, wins, "
                "win_guesses) VALUES (?, 'wordle:daily', ?, 1, 1, 1, 3)",
                (where, key),
            )
    assert await storage.migrate() == list(range(13, LATEST + 1))
    for where, kind, expected in ((scope, "wordle:shared", 1), (scope, "wordle:daily", 0),
                                  (-1, "wordle:shared", 0), (-1, "wordle:daily", 0)):  # fmt: skip
        for period in (None, period_key("today", day, 28), period_key("season", day, 28)):
            rows, total = await storage.leaderboard(where, kind, "wins", period=period,
                                                    today=day)  # fmt: skip
            assert total == expected and len(rows) == expected, (where, kind, period)
    await storage.close()


async def test_reading_a_channels_history_later_counts_what_reading_it_live_did(
    double,
) -> None:
    """The day is the message's (its id's timestamp), not the reader's clock."""
    from discord_double import POSTED as LIVE

    services = double.bot.services
    await double.command("sharechannel", user_id=1, enabled=True)
    services.daily.clock = lambda: datetime(2027, 1, 15, 12, tzinfo=UTC)  # read weeks later
    number = (date.fromisoformat(LIVE[:10]) - date(2021, 6, 19)).days
    await double.post(wordle(number, 3), user_id=11)
    await double.post(primel(42), user_id=11)
    rows = await services.storage._all(
        "SELECT game, puzzle, day FROM share_results WHERE player_id = 11 ORDER BY game"
    )
    assert [tuple(r) for r in rows] == [("primel", 42, LIVE[:10]), ("wordle", number, LIVE[:10])]


async def test_one_result_a_game_a_day_across_the_channel_and_the_menu(double) -> None:
    """A share channel and the Analyze menu obey one cap; what a channel refuses is told to
    its poster privately."""
    from discord_double import message

    told: list[tuple[int, list[str]]] = []
    cog = double.bot.get_cog("Analysis")

    async def tell(posted, lines: list[str]) -> None:
        told.append((posted.author.id, lines))

    cog.tell = tell
    storage = double.bot.services.storage
    await double.command("sharechannel", user_id=1, enabled=True)
    await double.post(primel(300), user_id=12)
    assert [s["puzzle"] for s in await storage.shares(12)] == [300] and told == []
    mine = message({"content": primel(301)}, author_id=12)
    reply = only(await double.message_command("Analyze Wordle result", mine, user_id=12))
    assert "Primel #301: you already have a Primel result for 2026-11-21; one a day counts" \
        in reply.text  # fmt: skip
    await double.post(primel(302), user_id=12)  # the channel again, the same day
    assert [s["puzzle"] for s in await storage.shares(12)] == [300]
    assert told == [(12, ["Primel #302: you already have a Primel result for 2026-11-21; "
                          "one a day counts, not recorded"])]  # fmt: skip
    await double.post(primel(302), user_id=12, at="2026-11-22T09:00:00+00:00")  # the next day
    assert [s["puzzle"] for s in await storage.shares(12)] == [300, 302]


# -- forwarded shares (issue 32, point 1) ------------------------------------------------


def listening(double) -> list[tuple[int, list[str]]]:
    """What the share channel tells posters privately, as (to whom, lines)."""
    told: list[tuple[int, list[str]]] = []

    async def tell(posted, lines: list[str]) -> None:
        told.append((posted.author.id, lines))

    double.bot.get_cog("Analysis").tell = tell
    return told


async def test_a_forwarded_share_counts_for_its_forwarder_on_the_day_they_forwarded_it(
    double,
) -> None:
    """Discord puts a forward's text in ``message_snapshots``: read there, credited to the
    one who forwarded it, on the forward's own day (the original was posted days before)."""
    from discord_double import message

    storage = double.bot.services.storage
    told = listening(double)
    await double.command("sharechannel", user_id=1, enabled=True)
    number = (date(2026, 11, 24) - date(2021, 6, 19)).days
    original = message({"content": wordle(number, 3)}, author_id=15)
    original["timestamp"] = "2026-11-19T08:00:00+00:00"  # before that puzzle was out
    await double.forward(original, user_id=16, at="2026-11-24T09:00:00+00:00")
    rows = await storage._all("SELECT player_id, game, puzzle, day FROM share_results")
    assert [tuple(r) for r in rows] == [(16, "wordle", number, "2026-11-24")] and told == []
    assert await stored(storage, 15) == (0, 0)


async def test_a_forward_of_someone_elses_share_counts_once_for_the_forwarder_only(
    double,
) -> None:
    """The forwarder is the one who posted it in this server: a forward counts for them as
    their own paste would, under the same caps (once, one a day), and never again for the
    share's author; what is refused is told to the forwarder."""
    from discord_double import message

    storage = double.bot.services.storage
    told = listening(double)
    await double.command("sharechannel", user_id=1, enabled=True)
    await double.post(primel(300), user_id=17)  # the author's own post counts for them
    theirs = message({"content": primel(300)}, author_id=17)
    for _ in range(2):  # forwarded twice by someone else
        await double.forward(theirs, user_id=18)
    assert [s["puzzle"] for s in await storage.shares(18)] == [300]
    assert [s["puzzle"] for s in await storage.shares(17)] == [300]
    assert await stored(storage, 17) == (1, 1) and await stored(storage, 18) == (1, 1)
    assert told == []  # the same share again is no refusal
    await double.forward(message({"content": primel(301)}, author_id=17), user_id=18)
    assert [s["puzzle"] for s in await storage.shares(18)] == [300]
    assert told == [(18, ["Primel #301: you already have a Primel result for 2026-11-21; "
                          "one a day counts, not recorded"])]  # fmt: skip
    assert await stored(storage, 17) == (1, 1)


async def test_a_forward_with_no_share_stores_nothing_and_says_nothing(double) -> None:
    from discord_double import message

    told = listening(double)
    await double.command("sharechannel", user_id=1, enabled=True)
    await double.forward(message({"content": "look at this"}, author_id=17), user_id=19)
    await double.forward(message({"content": ""}, author_id=17), user_id=19)  # an image
    assert await stored(double.bot.services.storage, 19) == (0, 0) and told == []


# -- point 5: "Record results" credits only people it can identify ---------------------------

RECAP = "**Your group is on a 5 day streak!** 🔥 Here are yesterday's results:\n👑 3/6: @Sam <@21>"


async def credited(storage: Storage) -> dict[int, int]:
    rows = await storage._all("SELECT player_id, guesses FROM share_results ORDER BY player_id")
    return {int(r[0]): int(r[1]) for r in rows}


async def test_a_plain_name_two_members_share_credits_nobody(database_url) -> None:
    services = await opened(database_url)
    notes = await record_app_results(services.storage, GUILD, RECAP, POSTED,
                                     [(31, "Sam"), (32, "sam")])  # fmt: skip
    assert "@Sam fits several members: not recorded" in "\n".join(notes)
    assert await credited(services.storage) == {21: 3}  # the mention only
    await services.close()


async def test_a_unique_display_name_credits_that_member(database_url) -> None:
    services = await opened(database_url)
    notes = await record_app_results(services.storage, GUILD, RECAP, POSTED,
                                     [(31, "Sam"), (32, "Samuel")])  # fmt: skip
    assert notes[0] == f"Wordle #{NUMBER - 1}: 2 results recorded, 0 already recorded (see /stats)"
    assert await credited(services.storage) == {21: 3, 31: 3}
    await services.close()


async def test_a_name_the_bot_remembers_credits_nobody_who_no_longer_has_it(
    database_url,
) -> None:
    """Before, a plain name also matched the players stored under it: one who had played
    here as "Sam" and since renamed (or left) was credited with a stranger's result."""
    services = await opened(database_url)
    await services.storage.ensure_player(31, "Sam")
    await services.games.start(type(ANN)(31, "Sam"), GUILD)  # played here as Sam
    notes = await record_app_results(services.storage, GUILD, RECAP, POSTED, [])
    assert "@Sam fits no member: not recorded" in "\n".join(notes)
    assert await credited(services.storage) == {21: 3}
    await services.close()


async def test_a_later_rename_does_not_redirect_a_recap(database_url) -> None:
    services = await opened(database_url)
    await record_app_results(services.storage, GUILD, RECAP, POSTED, [(31, "Sam")])
    assert await credited(services.storage) == {21: 3, 31: 3}
    # Two days on, 31 is "Samuel" and 33 took "Sam": read again, the recap credits 33 nothing.
    later = await record_app_results(services.storage, GUILD, RECAP, POSTED,
                                     [(33, "Sam"), (31, "Samuel")],
                                     age=NAMES_FRESH + timedelta(days=1))  # fmt: skip
    assert "@Sam is matched only within a day of the recap: not recorded" in "\n".join(later)
    assert await credited(services.storage) == {21: 3, 31: 3}
    await services.close()


async def test_a_message_edited_into_a_share_later_counts_on_the_day_of_the_edit(double) -> None:
    """A message's day is its last edit's: an old message edited into a share of its day,
    days later, is not a way to fill in past days."""
    storage = double.bot.services.storage
    await double.command("sharechannel", user_id=1, enabled=True)
    number = 1981  # the NYT puzzle of 2026-11-21, when the stand-in's messages are posted
    first = await double.post("good morning", user_id=13)
    await double.post(wordle(number, 3), user_id=13, edit_of=first, at="2026-11-26T10:00:00+00:00")
    assert await storage.shares(13) == []
    second = await double.post("gm", user_id=14)  # edited into a share the same day: counts
    await double.post(wordle(number, 3), user_id=14, edit_of=second, at="2026-11-21T18:00:00+00:00")
    assert [s["puzzle"] for s in await storage.shares(14)] == [number]


async def test_record_results_credits_a_plain_name_only_to_the_one_current_member(
    double, monkeypatch
) -> None:
    """The menu asks Discord for the members with each plain name (a member query, no
    privileged intent), and credits a name only when one member has it, who had joined
    when the recap was posted."""
    from types import SimpleNamespace

    import discord
    from discord_double import message

    from engine.app_results import WORDLE_APP_ID

    def member(member_id: int, name: str, joined: str = "2026-01-01") -> SimpleNamespace:
        at = datetime.fromisoformat(joined).replace(tzinfo=UTC)
        return SimpleNamespace(id=member_id, display_name=name, joined_at=at)

    found = {"sam": [member(31, "Sam"), member(32, "Samuel")],
             "kim": [member(41, "Kim"), member(42, "kim")],
             "neo": [member(51, "Neo", joined="2026-11-22")]}  # fmt: skip

    async def query_members(guild, query: str, *, limit: int = 5, cache: bool = True) -> list:
        return found.get(query, [])

    monkeypatch.setattr(discord.Guild, "query_members", query_members)
    double.bot.services.daily.clock = lambda: datetime(2026, 11, 21, 9, tzinfo=UTC)
    recap = ("**Your group is on a 5 day streak!** 🔥 Here are yesterday's results:\n"
             "👑 3/6: @Sam @Kim\n4/6: @Neo @Gone <@21>")  # fmt: skip
    posted = message({"content": recap}, author_id=WORDLE_APP_ID)
    reply = only(await double.message_command("Record results", posted, user_id=1))
    assert reply.ephemeral and "2 results recorded" in reply.text
    for line in ("@Kim fits several members", "@Neo fits no member", "@Gone fits no member"):
        assert line in reply.text
    assert await credited(double.bot.services.storage) == {21: 4, 31: 3}


async def test_record_results_credits_no_plain_name_when_discord_cannot_be_asked(double) -> None:
    from discord_double import message

    from engine.app_results import WORDLE_APP_ID

    recap = ("**Your group is on a 5 day streak!** 🔥 Here are yesterday's results:\n"
             "👑 3/6: @Sam <@21>")  # fmt: skip
    posted = message({"content": recap}, author_id=WORDLE_APP_ID)
    double.bot.services.daily.clock = lambda: datetime(2026, 11, 21, 9, tzinfo=UTC)
    reply = only(await double.message_command("Record results", posted, user_id=1))
    assert "1 results recorded" in reply.text and "@Sam fits no member" in reply.text
    assert await credited(double.bot.services.storage) == {21: 3}


async def test_the_console_takes_back_a_share_as_discord_does(database_url) -> None:
    """/mydata unshare in the console: the same service call, and one line on a bad number."""
    from bot.console import Console

    services = await opened(database_url)
    await share(services, ANN, wordle(NUMBER, 3))
    shown: list[str] = []
    console = Console(services, ANN, shown.append, colour=False)
    await console.handle(f"/mydata unshare game:wordle puzzle:{'9' * 20}")
    assert shown[-1] == f"Not a puzzle number: {'9' * 20!r}"
    assert await stored(services.storage, ANN.id) == (1, 1)
    await console.handle(f"/mydata unshare game:wordle puzzle:{NUMBER}")
    assert shown[-1] == "Removed."
    await console.handle(f"/mydata unshare wordle {NUMBER}")
    assert shown[-1] == "No such recorded result."
    assert await stored(services.storage, ANN.id) == (0, 1)
    await services.close()


# -- issue 38, point 4: the bot's daily is named as its own ------------------------------------


async def test_the_bots_daily_is_named_by_its_date_and_never_counts_as_the_nyts(
    database_url,
) -> None:
    """The bot's daily has its own answer: named with the NYT's number of the day
    ("wordlebot Wordle #1717"), it was taken for the NYT's puzzle, and its share with the
    "wordlebot" cut off (as a copy or a reader's eye may) counted as NYT Wordle #1717. Its
    number is its date, #20260302: never an NYT number, and the day can be read off it."""
    from bot.render.text import share_text, title

    services = await opened(database_url)
    started = await services.games.start(ANN, GUILD, daily=True)
    assert started.game is not None and started.game.number == 20260302
    answer = services.daily.answer("wordle", POSTED)
    won = await services.games.guess(ANN, GUILD, answer, kind="wordle:daily")
    assert won.game is not None and title(won.game) == "wordlebot Wordle #20260302"
    shared = share_text(won.game)
    assert shared.startswith("wordlebot Wordle #20260302 1/6") and f"{NUMBER}" not in shared
    # Pasted as is, or with its "wordlebot " cut: never an NYT result, on no board.
    for text in (shared, shared.removeprefix("wordlebot ")):
        notes = await share(services, BOB, text)
        assert not any("recorded (see /stats)" in n for n in notes), notes
    assert await stored(services.storage, BOB.id) == (0, 0)
    # A stored game's day still reads off its number, and the old count still names it.
    from bot.services.daily import EPOCH, numbered_day

    assert numbered_day(20260302) == POSTED == numbered_day(NUMBER) == EPOCH + timedelta(NUMBER)
    await services.close()
