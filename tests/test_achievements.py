"""Achievements (issue 32.5): earned once, when a game ends, on the one path every front end
takes; told to the player privately, in the channel only where the server allows; listed in
/stats; gone with the player's data. The rules count games played with the bot, skill on
dailies only, and never a win in one guess."""

import asyncio
from datetime import date, datetime, timedelta

from clock import Clock, at
from discord_double import only
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.console import Console
from bot.services import Player
from bot.services.achievements import (
    ABSURDLE_IN_FOUR,
    BY_ID,
    CATALOGUE,
    IN_TWO,
    Facts,
    award_from_games,
    listing,
    newly_earned,
    totals_facts,
)
from bot.services.kinds import KINDS, LANGUAGES
from bot.services.shares import record_shares
from bot.storage import Storage
from bot.storage.achievements import WON_GAMES
from bot.storage.records import Result
from engine.shares import parse_shares
from engine.variants import variant_name

SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"
START = at("2026-03-10T12:00:00")
ANN, BOB = 111, 222
FLAVOURS = ("daily", "practice", "archive", "race", "custom", "challenge", "coop")
KIND_NAMES = [f"{name}:{flavour}" for name in KINDS for flavour in FLAVOURS]


def facts() -> st.SearchStrategy[Facts]:
    return st.builds(
        Facts, kind=st.sampled_from(KIND_NAMES), won=st.booleans(),
        guesses=st.integers(0, 20), games=st.integers(0, 300), wins=st.integers(0, 300),
        best_daily_streak=st.integers(0, 60), hard_daily_wins=st.integers(0, 30),
        languages=st.frozensets(st.sampled_from(sorted(LANGUAGES))),
        english_lengths=st.frozensets(st.sampled_from(LANGUAGES["en"])),
    )  # fmt: skip


@given(facts(), st.sets(st.sampled_from([a.id for a in CATALOGUE])))
def test_a_rule_never_awards_what_was_earned_and_skill_counts_dailies_only(facts, earned):
    new = newly_earned(facts, earned)
    assert not set(new) & earned  # once
    if "two_guesses" in new:  # a daily won in exactly two: never practice, archive, race...
        assert facts.kind.endswith(":daily") and facts.won and facts.guesses == 2
    if facts.guesses == 1:  # one guess is luck or a leak: it earns no moment's achievement
        assert not {"two_guesses"} & set(new)
    if "absurdle_4" in new:
        assert facts.kind.startswith("absurdle:") and facts.won and facts.guesses <= 4


def test_totals_count_languages_and_lengths_from_dailies_won_only():
    rows = [("wordle:daily", 3, 2, 4), ("wordle-es-5:daily", 1, 1, 1),
            ("wordle-en-7:daily", 2, 0, 0), ("wordle-fr-5:practice", 5, 5, 5),
            ("wordle-en-4:archive", 1, 1, 1), ("primel:daily", 40, 35, 31)]  # fmt: skip
    facts = totals_facts(rows, 3)
    assert facts.languages == {"en", "es"}  # French practice and a lost daily do not count
    assert facts.english_lengths == {5}  # nor an archive day
    assert facts.games == 52 and facts.wins == 44 and facts.best_daily_streak == 31
    assert "streak_30" in newly_earned(facts, set())
    names = [variant_name(c, n) for c, lengths in LANGUAGES.items() for n in lengths]
    every = totals_facts([(f"{name}:daily", 1, 1, 1) for name in names])
    assert {"every_language", "every_length"} <= set(newly_earned(every, set()))


def script(*lines: str):
    queue = list(lines)

    async def read(_prompt: str) -> str | None:
        return queue.pop(0) if queue else None

    return read


async def test_the_console_tells_lists_and_announces_only_where_allowed(tmp_path, opened):
    services = await opened(str(tmp_path / "c.sqlite3"), Clock(START), answers="cigar")
    answer = services.daily.answer("wordle", services.daily.today())
    opener = "crane" if answer != "crane" else "slate"
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script("/wordle daily", opener, answer, "/stats"))
    text = "\n".join(shown)
    assert "🏆 Achievement earned: First win (Win a game with the bot)" in text
    assert "🏆 Achievement earned: In two (Win a daily in exactly two guesses)" in text
    assert "tess earned" not in text  # private by default: no announcement
    listed = text[text.index("Achievements\n") :]
    assert "🏆 First win, earned 2026-" in listed and "🏆 In two, earned" in listed
    assert "▫️ 100 games: 1 of 100" in listed and "▫️ 30-day streak: 1 of 30" in listed
    assert f"▫️ Every language: 1 of {len(LANGUAGES)}" in listed
    assert "▫️ Absurdle in four: Beat Absurdle in four guesses or fewer" in listed

    shown.clear()  # a practice win in two: a first win only once, never "In two"
    await console.run(script("/wordle practice", "crane", "cigar"))
    assert "Solved in 2/6!" in "\n".join(shown) and "Achievement earned" not in "\n".join(shown)

    shown.clear()  # the console's server announces them once its admin says so
    await console.run(script("/settings server achievements:public", "/as uma",
                             "/wordle practice", "cigar"))  # fmt: skip
    text = "\n".join(shown)
    assert "Achievements: each player is told privately, and the channel too." in text
    assert "🏆 Achievement earned: First win" in text and "🏆 uma earned First win" in text
    assert "In two" not in text  # won in one: luck or a leak, no achievement for it


async def test_discord_tells_the_player_privately_and_the_channel_only_when_allowed(
    make_double,
):
    double = await make_double(answers={"wordle": "cigar"})
    double.achievers.update({ANN, BOB})
    await double.command("wordle", "practice", user_id=ANN)
    board, *rest = await double.command("guess", user_id=ANN, word="cigar")
    told = [s for s in rest if s.method != "DELETE"]  # the older board in the channel goes
    assert "Solved in 1/6!" in board.text and not board.ephemeral
    note = only(told)
    assert note.ephemeral and note.path.startswith("/webhooks/")  # a private follow-up
    assert "🏆 Achievement earned: **First win** (Win a game with the bot)" in note.text
    assert "cigar" not in note.text.lower()

    settings = only(await double.command("settings", "server", user_id=BOB,
                                         achievements="public"))  # fmt: skip
    assert "and the channel too" in settings.text
    # Bob wins through his board's guess form: the board is edited, then the two notes.
    board = only(await double.command("wordle", "practice", user_id=BOB))
    button = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(button, user_id=BOB, on=board))
    edited, private, public = await double.submit(modal, {"word": "cigar"}, user_id=BOB)
    assert edited.an_update and "Solved in 1/6!" in edited.text
    assert private.ephemeral and "**First win**" in private.text
    assert not public.ephemeral and public.text == f"🏆 <@{BOB}> earned **First win**"
    assert public.data["allowed_mentions"]["parse"] == []  # named, nobody pinged
    # Earned once: another win tells nothing more.
    await double.command("wordle", "practice", user_id=BOB)
    again = [s for s in await double.command("guess", user_id=BOB, word="cigar")
             if s.method != "DELETE"]  # fmt: skip
    assert "Solved in 1/6!" in only(again).text

    # In direct messages there is no server to announce in: privately only.
    ann_dm = await double.bot.services.storage.achievements.earned(ANN)
    assert set(ann_dm) == {"first_win"}
    await double.command("absurdle", user_id=ANN, guild=False)
    double.bot.services.games.achievements = _always("absurdle_4", double)
    ended = await double.command("giveup", user_id=ANN, guild=False)
    assert [s.ephemeral for s in ended if "earned" in s.text] == [True]


def _always(achievement: str, double):
    """An award of ``achievement`` for whatever game ends (the Discord path's test only)."""

    async def award(storage, stored, result, hard):
        return await storage.achievements.award(stored.player_id, [achievement], stored.scope,
                                                "2026-03-10T12:00:00+00:00")  # fmt: skip

    return award


async def test_two_processes_award_once(shared_url, opened):
    one, other = await opened(shared_url), await opened(shared_url)
    for services in (one, other):
        await services.storage.ensure_player(ANN, "ann")
    ids = [a.id for a in CATALOGUE]
    tries = [s.storage.achievements.award(ANN, ids, 7, "2026-03-10T12:00:00+00:00")
             for _ in range(4) for s in (one, other)]  # fmt: skip
    results = await asyncio.gather(*tries)
    assert sorted(i for r in results for i in r) == sorted(ids)  # each new exactly once
    assert set(await other.storage.achievements.earned(ANN)) == set(ids)


async def test_a_game_finished_twice_at_once_awards_once(shared_url, opened):
    one = await opened(shared_url, answers="cigar")
    other = await opened(shared_url, answers="cigar")
    ann = Player(ANN, "ann")
    start = await one.games.start(ann, 0, "wordle")
    game_id = start.game.game_id
    both = await asyncio.gather(one.games.guess(ann, 0, "cigar", game_id=game_id),
                                other.games.guess(ann, 0, "cigar", game_id=game_id))  # fmt: skip
    assert sorted(o.ok for o in both) == [False, True]  # the version check: one finish
    assert [o.earned for o in both if o.ok] == [("first_win",)]
    again = await other.games.start(ann, 0, "wordle")  # and a second win earns it no more
    won = await other.games.guess(ann, 0, "cigar", game_id=again.game.game_id)
    assert won.ok and won.earned == ()
    assert list(await one.storage.achievements.earned(ANN)) == ["first_win"]


async def test_deleting_my_data_removes_them_and_the_export_lists_them(tmp_path, opened):
    services = await opened(str(tmp_path / "d.sqlite3"), Clock(START), answers="cigar")
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script("/wordle practice", "cigar", "/mydata export"))
    text = "\n".join(shown)
    assert '"achievements": [' in text and '"achievement": "first_win"' in text
    assert set(await services.storage.achievements.earned(5)) == {"first_win"}
    await console.run(script("/mydata delete DELETE"))
    assert await services.storage.achievements.earned(5) == {}
    shown.clear()  # a first win again after a deletion: the data went, and so did it
    await console.run(script("/wordle practice", "cigar"))
    assert "Achievement earned: First win" in "\n".join(shown)


async def test_streaks_hard_wins_and_a_hundred_games_come_from_totals(database_url, opened):
    """The totals' rules read the stored standings: a 30-day daily streak, ten hard-mode
    dailies, a hundred games (bulk-loaded, then one more game ends)."""
    clock = Clock(START)
    services = await opened(database_url, clock)
    storage = services.storage
    day0 = START.date() - timedelta(days=40)
    rows = [(ANN, 0, "wordle:daily", (day0 + timedelta(days=i)).isoformat(), True, 4)
            for i in range(30)]  # fmt: skip
    rows += [(ANN, 0, "wordle:practice", None, False, 6) for _ in range(69)]
    await storage.bulk_results(rows)
    ann = Player(ANN, "ann")
    for i in range(9):  # nine hard-mode dailies won, from the archive of the games table
        day = (START.date() - timedelta(days=60 + i)).isoformat()
        answer = services.daily.answer("primel", datetime.fromisoformat(day).date())
        stored = await storage.insert_game(ANN, 0, "primel:daily", day, {
            "format": 1, "variant": "primel", "answer": answer, "mode": "hard",
            "rows": [[answer, "22222"]]})  # fmt: skip
        await storage.save_game(stored, {**stored.state}, "won", Result(True, 1, day))
    answer = services.daily.answer("primel", services.daily.today())
    opener = "10007" if answer != "10007" else "10009"
    last = await services.games.start(ann, 0, "primel", daily=True, mode=_hard())
    await services.games.guess(ann, 0, opener, kind="primel:daily")
    won = await services.games.guess(ann, 0, answer, kind="primel:daily")
    assert last is not None and won.ok and won.game.status == "won"
    assert set(won.earned) == {"games_100", "streak_30", "hard_10", "first_win",
                               "two_guesses"}  # fmt: skip
    for achievement in won.earned:
        assert BY_ID[achievement].earned  # every id names one in the catalogue


async def test_a_game_given_up_before_its_first_guess_counts_toward_no_achievement(
    database_url, opened
):
    """ "100 games" is for games played: a practice game given up before its first guess (two
    commands, no word) was not played, so a hundred of them earn nothing. With 99 games
    played, one given up at once leaves it unearned, 99 of 100 in /stats; one with a guess
    earns it."""
    services = await opened(database_url, Clock(START))
    await services.storage.bulk_results([(ANN, 0, "wordle:practice", None, False, 6)] * 99)
    shown: list[str] = []
    console = Console(services, Player(ANN, "ann"), shown.append, colour=False)
    await console.run(script("/wordle practice", "/giveup", "/stats"))
    text = "\n".join(shown)
    assert "Achievement earned" not in text and "▫️ 100 games: 99 of 100" in text, text
    shown.clear()
    await console.run(script("/wordle practice", "aahed", "/giveup"))
    assert "Achievement earned: 100 games" in "\n".join(shown)


def _hard():
    from engine.rules import Mode

    return Mode.HARD


async def test_the_real_process_tells_privately_and_announces_where_allowed(server, tmp_path):
    """The real `wordlebot run` against the stand-in: a daily won in two tells its player in
    a private follow-up; the channel hears of it only once the server's admin allows it, and
    then by name with nobody pinged, never the answer."""
    from datetime import UTC
    from zoneinfo import ZoneInfo

    from bot_process import SEED as E2E_SEED
    from bot_process import BotProcess, command, started

    from bot.services.daily import DailyPuzzles

    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"))
    await started(server, bot)
    answer = DailyPuzzles(E2E_SEED, ZoneInfo("UTC")).answer("wordle", datetime.now(UTC).date())
    opener = "crane" if answer != "crane" else "slate"

    async def win(player: int, followups: int):
        await server.interact(command("wordle", "daily", user_id=player), followups=1)  # guide
        await server.interact(command("guess", user_id=player, word=opener))
        won = command("guess", user_id=player, word=answer)
        return await server.interact(won, followups=followups)

    quiet = await win(2, 1)  # the server has not allowed announcements: privately only
    told = quiet.followups[0]
    assert told["flags"] & 64 and "**First win**" in told["content"]
    assert "**In two**" in told["content"] and answer not in told["content"].lower()
    settings = await server.interact(command("settings", "server", user_id=1,
                                             achievements="public"))  # fmt: skip
    assert "and the channel too" in settings.text()
    loud = await win(3, 2)  # the private note, then the announcement
    private, public = loud.followups
    assert private["flags"] & 64 and not public.get("flags", 0) & 64
    assert public["content"] == "🏆 <@3> earned **First win**\n🏆 <@3> earned **In two**"
    assert public["allowed_mentions"]["parse"] == []
    code, err = await bot.stop()  # everything in flight is sent before it exits
    assert code == 0, err[-2000:]
    assert len(quiet.followups) == 1  # never announced where the server did not allow it


# -- achievements of one game: read from the games stored, so none is lost ---------------------

GAMES = st.lists(st.tuples(st.sampled_from(KIND_NAMES), st.booleans(), st.integers(0, 8)),
                 max_size=12)  # fmt: skip


async def finished_at(storage, game_id: int) -> str:
    return str((await storage._one("SELECT finished_at FROM results WHERE game_id = ?",
                                   (game_id,)))[0])  # fmt: skip


async def test_a_one_game_achievement_the_database_missed_comes_dated_by_its_game(
    shared_url, opened
):
    """Ann wins the daily in two while another connection holds the achievements table (a
    real lock: her award waits the busy timeout out, then gives up, her game kept). The next
    game's end, in another server, awards it: dated when and placed where her daily ended,
    not at the check; a first win, a total's rule, comes with it, dated now. Once only."""
    services = await opened(shared_url, Clock(START), answers="cigar")
    storage, ann = services.storage, Player(ANN, "ann")
    holder = await Storage.open(shared_url, migrate=False)  # another process's connection
    real = services.games.achievements

    async def busy_once(*args):
        services.games.achievements = real
        async with holder.transaction() as tx:  # SQLite: the write lock, held
            if "://" in shared_url:  # PostgreSQL: writes to the table wait, reads go on
                await tx.execute("LOCK TABLE achievements IN EXCLUSIVE MODE")
            return await real(*args)

    services.games.achievements = busy_once
    answer = services.daily.answer("wordle", services.daily.today())
    opener = "crane" if answer != "crane" else "slate"
    daily = await services.games.start(ann, 100, "wordle", daily=True)
    await services.games.guess(ann, 100, opener, kind="wordle:daily")
    won = await services.games.guess(ann, 100, answer, kind="wordle:daily")
    await holder.close()
    assert won.ok and won.game.status == "won" and won.earned == ()  # busy: nothing now
    assert await storage.achievements.earned(ANN) == {}
    played = await finished_at(storage, daily.game.game_id)

    practice = await services.games.start(ann, 200, "wordle")
    later = await services.games.guess(ann, 200, "cigar", game_id=practice.game.game_id)
    assert later.earned == ("first_win", "two_guesses")
    rows = await storage._all("SELECT achievement, earned_at, scope FROM achievements "
                              "WHERE player_id = ? ORDER BY achievement", (ANN,))  # fmt: skip
    (first, first_at, first_scope), (two, two_at, two_scope) = (tuple(r) for r in rows)
    assert (two, two_at, two_scope) == ("two_guesses", played, 100)
    assert (first, first_scope) == ("first_win", 200)
    assert played < await finished_at(storage, practice.game.game_id) <= first_at
    again = await services.games.start(ann, 200, "wordle")
    last = await services.games.guess(ann, 200, "cigar", game_id=again.game.game_id)
    assert last.ok and last.earned == ()


async def test_stats_makes_an_award_still_due_and_shares_or_practice_earn_none(
    database_url, opened
):
    """Games stored without their award (an Absurdle won in three last Christmas): /stats
    makes it, dated by that game. What the rules refuse stays refused: a practice Wordle won
    in two, a pasted share of a daily in two, a daily won in one."""
    services = await opened(database_url, Clock(START))
    storage = services.storage
    await storage.bulk_results([(ANN, 7, "absurdle:practice", None, True, 3),
                                (ANN, 7, "wordle:practice", None, True, 2),
                                (ANN, 7, "wordle:daily", "2025-12-24", True, 1)])  # fmt: skip
    await storage.db.write("UPDATE results SET finished_at = ?", ("2025-12-25T10:00:00+00:00",))
    share = "Wordle 1,717 2/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"
    done = await record_shares(storage, ANN, "ann", parse_shares(share).shares, scope=7,
                               posted=date(2026, 3, 2))  # fmt: skip
    assert done.outcomes == ["new"]
    shown: list[str] = []
    await Console(services, Player(ANN, "ann"), shown.append, colour=False).handle("/stats")
    text = "\n".join(shown)
    assert "🏆 Absurdle in four, earned 2025-12-25" in text
    assert "▫️ In two: Win a daily in exactly two guesses" in text
    assert set(await storage.achievements.earned(ANN)) == {"absurdle_4"}


@settings(max_examples=40, deadline=None)
@given(GAMES)
def test_the_games_stored_earn_what_the_rule_says_once_dated_by_the_first(games):
    """Whatever games a player finished with the bot, a check awards each achievement of one
    game exactly when the catalogue's rule holds for one of them, dated by the first such
    game, and a second check nothing; the stored read and the rule agree."""

    def ended(game_id: int) -> str:
        return f"2026-01-{game_id:02d}T12:00:00+00:00"

    async def main() -> None:
        storage = await Storage.open(":memory:")
        try:
            await storage.bulk_results([(ANN, 7, kind, None, won, guesses)
                                        for kind, won, guesses in games])  # fmt: skip
            for game_id in range(1, len(games) + 1):  # each game a day after the one before
                await storage.db.write("UPDATE results SET finished_at = ? WHERE game_id = ?",
                                       (ended(game_id), game_id))  # fmt: skip
            listed = {line.achievement.id: line.earned_at for line in await listing(storage, ANN)}
            for achievement in CATALOGUE:
                if achievement.game is None:
                    continue
                firsts = [
                    i
                    for i, (kind, won, guesses) in enumerate(games, 1)
                    if achievement.earned(Facts(kind=kind, won=won, guesses=guesses))
                ]
                expected = ended(firsts[0]) if firsts else None
                assert listed[achievement.id] == expected, (achievement.id, games)
            assert await award_from_games(storage, ANN, {}) == []  # earned once
        finally:
            await storage.close()

    asyncio.run(main())


async def test_the_check_reads_a_players_wins_through_their_index(database_url) -> None:
    """The check at each game's end reads the player's wins in that many guesses through
    ``results_won``, never every game they played (tests/achievement_check_speed.py times
    it), and so does the award it makes."""
    storage = await Storage.open(database_url)
    try:
        await storage.bulk_results([(p, 7, ("wordle:daily", "absurdle:practice")[g % 2], None,
                                     g % 3 > 0, 3 + g % 4)
                                    for p in range(1, 201) for g in range(20)])  # fmt: skip
        await storage.db.write("ANALYZE")
        explain = "EXPLAIN " if storage.db.for_update else "EXPLAIN QUERY PLAN "
        for rule in (IN_TWO, ABSURDLE_IN_FOUR):
            for sql in (f"SELECT 1 {WON_GAMES} LIMIT 1",
                        f"SELECT id {WON_GAMES} ORDER BY id LIMIT 1"):  # fmt: skip
                rows = await storage._all(explain + sql, (5, rule.fewest, rule.most, rule.kinds))
                plan = " ".join(str(tuple(row)) for row in rows)
                assert "results_won" in plan, plan
    finally:
        await storage.close()
