"""The Discord layer, through discord.py's real CommandTree, interactions, dynamic items and
modals, fed raw payloads; the fake side only records what the bot sends."""

import dataclasses
import json

import discord
from discord_double import NOTHING, DiscordDouble, only

from bot.discord_bot import WordleBot
from bot.settings import load_settings

ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"  # the deferred response
SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"  # strong enough for the seed check

ANN, BOB = 111, 222


def new_board(sent):
    """What a command that posts a new board sent: its answers, once the board it replaced
    (the game's older board in the channel) was deleted."""
    *answers, gone = sent
    assert gone.method == "DELETE" and gone.path.endswith("/messages/@original"), sent
    return answers


async def test_a_daily_game_won_through_slash_commands_and_the_guess_modal(double):
    board = only(await double.command("wordle", "daily", user_id=ANN))
    assert board.a_new_message and not board.ephemeral
    assert board.files == ["board.png"] and "Wordle #" in board.text
    guess_button = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess_button, user_id=ANN, on=board))
    assert modal.kind == 9 and modal.data["title"] == "Guess 1 of 6"
    answer = double.bot.services.daily.answer("wordle", double.bot.services.daily.today())
    opener = "crane" if answer != "crane" else "slate"  # never the day's answer
    updated = only(await double.submit(modal, {"word": opener}, user_id=ANN))
    assert updated.an_update and f"||{opener.upper()}||" in updated.text  # letters in spoilers
    won = only(new_board(await double.command("guess", user_id=ANN, word=answer)))
    assert "Solved in 2/6!" in won.text and won.custom_ids() == ["wb:share:1"]  # Share alone
    assert f"||{answer.upper()}||" in won.text


async def test_a_hard_mode_refusal_is_private_and_in_the_games_words(double):
    await double.command("wordle", "practice", user_id=ANN, mode="hard")
    await double.command("guess", user_id=ANN, word="crane")  # C green against CIGAR
    refusal = only(await double.command("guess", user_id=ANN, word="slate"))
    assert refusal.ephemeral and refusal.text == "1st letter must be C"


async def test_a_hint_is_private_and_deferred_first(double):
    await double.command("wordle", "practice", user_id=ANN)
    await double.command("guess", user_id=ANN, word="crane")
    answer = only(await double.command("hint", user_id=ANN))
    deferred = answer.deferral
    assert deferred.kind == 5 and deferred.ephemeral
    # The answer edits the private "thinking..." (Discord's way), no follow-up beside it.
    assert (answer.method, answer.path) == ("PATCH", ORIGINAL)
    assert "possible" in answer.text and "CIGAR" in answer.text


async def test_a_typed_history_hint(double):
    answer = only(await double.command("hint", user_id=BOB, history="crane 21100"))
    deferred = answer.deferral
    assert deferred.kind == 5 and answer.ephemeral and "CIGAR" in answer.text
    bad = only(await double.command("hint", user_id=BOB, history="crane 2110"))
    deferred = bad.deferral
    assert deferred.kind == 5 and bad.ephemeral and "needs 5 tiles" in bad.text


async def test_someone_elses_buttons_are_refused_privately(double):
    board = only(await double.command("wordle", "practice", user_id=ANN))
    for custom_id in board.custom_ids():
        refusal = only(await double.click(custom_id, user_id=BOB, on=board))
        assert refusal.ephemeral and refusal.text == "This is someone else's game: start your own"


async def test_buttons_of_a_finished_game_say_so(double):
    board = only(await double.command("wordle", "practice", user_id=ANN))
    give_up = next(i for i in board.custom_ids() if ":giveup:" in i)
    ended, told = await double.click(give_up, user_id=ANN, on=board)
    assert ended.an_update and "The answer was CIGAR" in ended.text
    assert told.ephemeral and told.text == "The answer was CIGAR"
    again = only(await double.click(give_up, user_id=ANN, on=board))
    assert again.ephemeral and again.text == "This game is over"


async def test_buttons_keep_working_after_a_restart(tmp_path):
    settings = load_settings(database_path=str(tmp_path / "bot.sqlite3"), daily_seed=SEED)
    first = WordleBot(settings, warm_engine=False)
    await first._async_setup_hook()
    await first.setup_hook()
    first.services.games.choose_answer = {"wordle": "cigar"}.get
    board = only(await DiscordDouble(first).command("wordle", "practice", user_id=ANN))
    await first.close()

    second = WordleBot(settings, warm_engine=False)  # a new process, the same database
    await second._async_setup_hook()
    await second.setup_hook()
    double = DiscordDouble(second)
    guess_button = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess_button, user_id=ANN, on=board))
    won = only(await double.submit(modal, {"word": "cigar"}, user_id=ANN))
    assert won.an_update and "Solved in 1/6!" in won.text
    await second.close()


async def test_stats_and_a_leaderboard_page(double):
    rows = [(p, 900000000000000002, "wordle:daily", "2026-11-20", True, 3) for p in range(1, 16)]
    await double.bot.services.storage.bulk_results(rows)
    board = only(await double.command("leaderboard", user_id=ANN, metric="wins"))
    assert "Wins" in board.text and "Page 1 of 2" in board.text
    next_page = next(i for i in board.custom_ids() if i.endswith(":2:all"))
    page_two = only(await double.click(next_page, user_id=BOB, on=board))
    # Everyone won once: all share rank 1, on page two too.
    assert page_two.an_update and "Page 2 of 2" in page_two.text and "  1. " in page_two.text
    old_button = next_page.removesuffix(":all")  # a board posted before periods existed
    posted = json.loads(json.dumps(board.data).replace(next_page, old_button))
    old_board = dataclasses.replace(board, body={**board.body, "data": posted})
    assert "Page 2 of 2" in only(await double.click(old_button, user_id=BOB, on=old_board)).text
    second = only(await double.command("leaderboard", user_id=ANN, metric="wins", page=2))
    assert "Page 2 of 2" in second.text and second.custom_ids()[0].endswith(":1:all")
    today = only(await double.command("leaderboard", user_id=ANN, metric="wins", period="today"))
    assert "today" in today.text and "Nobody is on this board yet" in today.text  # 20 Nov
    streak = only(await double.command("leaderboard", user_id=ANN, metric="max_streak",
                                       period="week"))  # fmt: skip
    assert streak.ephemeral and "Streak boards count all time" in streak.text
    stats = only(await double.command("stats", user_id=ANN))
    assert stats.files == ["stats.png"] and "Played 0" in stats.text


async def test_settings_need_the_manage_server_permission(double):
    refused = only(await double.command("settings", "server", user_id=ANN, permissions=NOTHING,
                                        timezone="Europe/Paris"))  # fmt: skip
    assert refused.ephemeral and "Manage Server" in refused.text
    done = only(await double.command("settings", "server", user_id=ANN, timezone="Europe/Paris"))
    assert done.ephemeral and "Europe/Paris" in done.text
    bad = only(await double.command("settings", "server", user_id=ANN, timezone="Mars/Base"))
    assert bad.ephemeral and "Unknown time zone" in bad.text


async def test_hints_can_be_switched_off_for_daily_games(double):
    await double.command("settings", "server", user_id=ANN, hints_in_daily=False)
    await double.command("wordle", "daily", user_id=BOB)
    answer = only(await double.command("hint", user_id=BOB))
    assert answer.ephemeral and "off for daily games" in answer.text


async def test_a_cooldown_stops_spam(double):
    await double.command("wordle", "practice", user_id=ANN)
    replies = [only(await double.command("guess", user_id=ANN, word="zzzzz")) for _ in range(6)]
    assert all(r.ephemeral for r in replies)
    assert replies[-1].text.startswith("Slow down")


async def test_an_unexpected_error_gets_an_apology_and_is_logged(double, caplog):
    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    double.bot.services.games.give_up = broken  # the service fails; the cog must not
    reply = only(await double.command("giveup", user_id=ANN))
    assert reply.ephemeral and reply.text.startswith("Sorry, something went wrong")
    assert any("failed" in r.message for r in caplog.records)


async def test_my_data_export_where_files_cannot_be_attached(double):
    """Without Attach Files (a server that never installed the bot) Discord would refuse the
    file: a short export comes inline, a long one says where to ask."""
    double.app_permissions = str(discord.Permissions.all().value & ~(1 << 15))  # no Attach Files
    short = only(await double.command("mydata", "export", user_id=ANN))
    assert short.ephemeral and not short.files and '"player"' in short.text
    for _ in range(40):  # games enough that the export outgrows one message
        await double.command("wordle", "practice", user_id=ANN)
        await double.command("giveup", user_id=ANN)
    long = only(await double.command("mydata", "export", user_id=ANN))
    assert not long.files and "use /mydata export in a direct message" in long.text


async def test_my_data_export_and_delete(double):
    await double.command("wordle", "practice", user_id=ANN)
    export = only(await double.command("mydata", "export", user_id=ANN))
    assert export.ephemeral and export.files == ["wordlebot.json"]
    kept = only(await double.command("mydata", "delete", user_id=ANN, confirm="no"))
    assert "Nothing deleted" in kept.text
    gone = only(await double.command("mydata", "delete", user_id=ANN, confirm="DELETE"))
    assert "Deleted" in gone.text


async def test_quordle_and_absurdle_play_through_the_same_buttons(double):
    double.bot.services.games.deal = lambda variant, n: ["cigar", "rebut", "sissy", "humph"][:n]
    board = only(await double.command("quordle", user_id=ANN))
    assert board.files == ["board.png"] and "0/4 boards solved" in board.text
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=ANN, on=board))
    assert modal.data["title"] == "Guess 1 of 9"
    updated = only(await double.submit(modal, {"word": "cigar"}, user_id=ANN))
    assert "1/4 boards solved" in updated.text
    hint = only(await double.command("hint", user_id=ANN))
    assert hint.ephemeral and "Board 1: solved" in hint.text and "Best guess" in hint.text
    await double.command("giveup", user_id=ANN)

    absurd = only(await double.command("absurdle", user_id=BOB, challenge=True))
    assert "Target: CIGAR" in absurd.text
    modal = only(await double.click(next(i for i in absurd.custom_ids() if ":guess:" in i),
                                    user_id=BOB, on=absurd))  # fmt: skip
    assert modal.data["title"] == "Guess 1"


SHARE = "Wordle 1,234 3/6*\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩🟩\n🟩🟩🟩🟩🟩"
# The NYT puzzle of the day the stand-in's messages are posted (2026-11-21): one that counts.
CURRENT = SHARE.replace("1,234", "1,981")


async def test_analyze_a_paste_privately(double):
    double.bot.services.analysis_gate.clock = lambda: 100.0  # the cooldown's time stands still
    reply = only(await double.command("analyze", user_id=ANN, paste="today!\n" + SHARE))
    deferred = reply.deferral
    assert deferred.kind == 5 and deferred.ephemeral and reply.ephemeral
    assert "Wordle #1234** (hard mode): 3" in reply.text and "The grid alone fits" in reply.text
    too_soon = only(await double.command("analyze", user_id=ANN, paste="just words"))
    assert too_soon.ephemeral and "One analysis every 10 s" in too_soon.text  # a cooldown
    bad = only(await double.command("analyze", user_id=BOB, paste="just words"))
    assert "No share found" in bad.text


async def test_the_message_menu_analyses_anyones_share_and_records_only_your_own(double):
    from discord_double import message

    mine = {**message({"content": CURRENT}, author_id=ANN)}
    reply = only(await double.message_command("Analyze Wordle result", mine, user_id=ANN))
    assert reply.ephemeral and "Wordle #1981: recorded (see /stats)" in reply.text
    double.bot.services.analysis_gate._last.clear()  # past the cooldown
    again = only(await double.message_command("Analyze Wordle result", mine, user_id=ANN))
    assert "already recorded" in again.text
    theirs = only(await double.message_command("Analyze Wordle result", mine, user_id=BOB))
    assert "Wordle #1981" in theirs.text and "recorded" not in theirs.text
    assert len(await double.bot.services.storage.shares(ANN)) == 1
    assert await double.bot.services.storage.shares(BOB) == []


async def test_the_message_menu_on_an_older_message_of_ones_own_changes_nothing(double):
    """The menu records one's own message as of its posting (its last edit): used on an old
    message after a newer one corrected it, it says "already recorded" and the correction
    stands."""
    from discord_double import message

    old = message({"content": CURRENT}, author_id=ANN)
    four = CURRENT.replace("3/6", "4/6").replace("🟩🟩⬛🟩🟩\n", "🟩🟩⬛🟩🟩\n" * 2)
    fixed = message({"content": four}, author_id=ANN)
    fixed["edited_timestamp"] = "2026-11-21T09:00:00+00:00"  # corrected later
    gate = double.bot.services.analysis_gate._last
    said = []
    for menu in (old, fixed, old):
        gate.clear()  # past the cooldown
        said.append((await double.message_command("Analyze Wordle result", menu,
                                                  user_id=ANN))[0].text)  # fmt: skip
    assert ["recorded (see" in said[0], "updated" in said[1], "already" in said[2]] == [True] * 3
    [share] = await double.bot.services.storage.shares(ANN)
    assert share["guesses"] == 4


async def test_the_message_menu_reads_a_forward_and_records_it_for_its_forwarder(double):
    """A forward's text is in ``message_snapshots``: the menu reads it there, and used by
    the one who forwarded it (its poster here) records it, never for the share's author."""
    from discord_double import CHANNEL_ID, GUILD_ID, message, snowflake
    from discord_messages import forwarded

    def forward(content: str, *, by: int, of: int) -> dict:
        original = message({"content": content}, author_id=of)
        sent = forwarded(original, channel_id=CHANNEL_ID, author_id=by, guild_id=GUILD_ID)
        return sent | {"id": snowflake()}  # an id of the stand-in's day, as the forward's

    cat = 333
    theirs = forward(CURRENT, by=ANN, of=cat)
    reply = only(await double.message_command("Analyze Wordle result", theirs, user_id=ANN))
    assert reply.ephemeral and "Wordle #1981: recorded (see /stats)" in reply.text
    author = only(await double.message_command("Analyze Wordle result", theirs, user_id=cat))
    assert "Wordle #1981" in author.text and "recorded" not in author.text
    storage = double.bot.services.storage
    assert len(await storage.shares(ANN)) == 1 and await storage.shares(cat) == []
    nothing = only(
        await double.message_command(
            "Analyze Wordle result", forward("look at this", by=BOB, of=cat), user_id=BOB
        )
    )
    assert "No share found" in nothing.text and await storage.shares(BOB) == []


async def test_the_record_results_menu_reads_only_the_wordle_apps_own_recap(double):
    from discord_double import message

    from engine.app_results import WORDLE_APP_ID

    recap = ("**Your group is on a 3 day streak!** 🔥 Here are yesterday's results:\n"
             f"👑 3/6: <@{ANN}>\nX/6: <@{BOB}>")  # fmt: skip
    typed = message({"content": recap}, author_id=BOB)  # anyone can type one: refused
    refused = only(await double.message_command("Record results", typed, user_id=ANN))
    assert refused.ephemeral and "Only the Wordle app" in refused.text
    assert await double.bot.services.storage.shares(ANN) == []
    posted = message({"content": recap}, author_id=WORDLE_APP_ID)
    done = only(await double.message_command("Record results", posted, user_id=ANN))
    assert done.ephemeral and "2 results recorded" in done.text
    assert [s["guesses"] for s in await double.bot.services.storage.shares(ANN)] == [3]
    assert [s["won"] for s in await double.bot.services.storage.shares(BOB)] == [0]


async def test_coach_after_a_game(double):
    nothing = only(await double.command("coach", user_id=ANN))
    assert nothing.ephemeral and "Finish a game first" in nothing.text
    await double.command("wordle", "practice", user_id=ANN)
    await double.command("guess", user_id=ANN, word="crane")
    await double.command("guess", user_id=ANN, word="cigar")
    report = only(await double.command("coach", user_id=ANN))
    assert report.ephemeral and "CRANE" in report.text and "Skill" in report.text


async def test_shares_posted_in_a_chosen_channel_are_recorded_and_edits_update_them(double):
    storage = double.bot.services.storage
    await double.post(CURRENT, user_id=BOB)
    assert await storage.shares(BOB) == []  # not a chosen channel yet
    refused = only(await double.command("sharechannel", user_id=ANN, permissions=NOTHING,
                                        enabled=True))  # fmt: skip
    assert "Manage Server" in refused.text
    done = only(await double.command("sharechannel", user_id=ANN, enabled=True))
    assert done.ephemeral and "now records" in done.text and "MESSAGE_CONTENT_INTENT" in done.text
    posted = await double.post("look: " + CURRENT, user_id=BOB)
    await double.post("look: " + CURRENT, user_id=BOB)  # the same share twice counts once
    recorded = await storage.shares(BOB)
    assert len(recorded) == 1 and recorded[0]["guesses"] == 3
    corrected = CURRENT.replace("3/6*", "2/6*").replace("⬛🟨⬛⬛⬛\n", "")
    await double.post(corrected, user_id=BOB, edit_of=posted)
    recorded = await storage.shares(BOB)
    assert len(recorded) == 1 and recorded[0]["guesses"] == 2
    removed = only(await double.command("mydata", "unshare", user_id=BOB, game="wordle",
                                        puzzle=1981))  # fmt: skip
    assert "Removed" in removed.text and await storage.shares(BOB) == []


async def test_a_share_with_the_words_played_gives_the_position(double):
    share = "Wordle 1,234 3/6*\n\n🟩🟨🟨⬛⬛\n🟩⬛⬛⬛🟩\n🟩🟩🟩🟩🟩"
    reply = only(await double.command("analyze", user_id=ANN, paste=share, words="crane"))
    assert reply.ephemeral and "possible" in reply.text and "CIGAR" in reply.text


async def test_giving_up_a_daily_tells_the_answer_privately_only(double):
    answer = double.bot.services.daily.answer("wordle", double.bot.services.daily.today())
    only(await double.command("wordle", "daily", user_id=ANN))
    board, told = new_board(await double.command("giveup", user_id=ANN))
    assert not board.ephemeral and answer.upper() not in board.text.replace(
        f"||{answer.upper()}||", ""
    )  # in the channel: behind a spoiler at most
    assert told.ephemeral and answer.upper() in told.text


async def test_a_guess_that_could_mean_several_games_asks_with_buttons(double):
    from discord_double import CHANNEL_ID

    games = double.bot.services.games
    from bot.services import Player

    practice = await games.start(Player(ANN), 900000000000000002, "wordle")
    daily = await games.start(Player(ANN), 900000000000000002, "wordle", daily=True)
    asked = only(await double.command("guess", user_id=ANN, word="slate"))
    assert asked.ephemeral and "several games" in asked.text
    picks = asked.custom_ids()
    assert picks == [f"wb:pick:guess:{g.game.game_id}:slate" for g in (practice, daily)]
    for game in (practice, daily):  # nothing was played yet
        assert (await double.bot.services.storage.game(game.game.game_id)).state["rows"] == []
    played = only(await double.click(picks[0], user_id=ANN, on=asked))
    assert played.a_new_message and "SLATE" in played.text
    assert [r[0] for r in (await double.bot.services.storage.game(
        practice.game.game_id)).state["rows"]] == ["slate"]  # fmt: skip
    # The board just shown is now what Ann looks at in this channel: no question this time.
    again = only(new_board(await double.command("guess", user_id=ANN, word="crane")))
    assert again.a_new_message and not again.ephemeral and CHANNEL_ID


async def test_coaching_todays_daily_stays_private_even_when_shared(double):
    answer = double.bot.services.daily.answer("wordle", double.bot.services.daily.today())
    await double.command("wordle", "daily", user_id=ANN)
    await double.command("guess", user_id=ANN, word=answer)
    report = only(await double.command("coach", user_id=ANN, share=True))
    assert report.ephemeral and "stays private" in report.text
    await double.command("wordle", "practice", user_id=ANN)
    await double.command("guess", user_id=ANN, word="cigar")
    public = only(await double.command("coach", user_id=ANN, share=True))
    assert not public.ephemeral and "CIGAR" in public.text


async def test_a_database_locked_elsewhere_defers_then_answers(tmp_path, lock_database):
    """Another process holds the write lock past the point where the bot would miss
    Discord's 3-second window: the bot defers in time, then edits in its answer."""
    import time

    path = str(tmp_path / "locked.sqlite3")
    bot = WordleBot(load_settings(database_path=path, daily_seed=SEED), warm_engine=False)
    await bot._async_setup_hook()
    await bot.setup_hook()
    try:
        double = DiscordDouble(bot)
        only(await double.command("wordle", "practice", user_id=ANN))
        locker = lock_database(path, 3.0)
        begin = time.perf_counter()
        before = len(double.sent)
        answered = only(await double.command("guess", user_id=ANN, word="crane"))
        deferred, deleted, _ = double.sent[before:]  # what was sent: deferral is the point
        took = time.perf_counter() - begin
        locker.kill()  # its lock has served: the rest of its seconds would be waited out
        locker.wait(timeout=10)
        assert deferred.kind == 5  # deferred, well inside the window
        # The refusal is private: the public "thinking..." goes, the answer comes to one player
        assert deleted.method == "DELETE" and deleted.path.endswith("/messages/@original")
        assert answered.method == "POST" and answered.ephemeral and "busy" in answered.text
        assert took < 60 and bot.settings.defer_seconds < 3.0  # Discord times the deferral
        stored = await bot.services.storage.active_games(ANN, 900000000000000002)
        assert stored[0].state["rows"] == []  # refused, and so nothing was written
    finally:
        await bot.close()


async def test_the_deferral_counts_from_the_interactions_arrival():
    """Discord's 3 s run from the interaction's arrival: a handler that reaches its service
    call late (the checks before it took the time) defers at once, not DEFER_SECONDS later.
    The interaction here is a stand-in for the three things cogs.common.in_time touches."""
    import asyncio
    from types import SimpleNamespace

    from bot.discord_bot import ARRIVED
    from cogs.common import in_time

    deferred = asyncio.Event()

    async def defer(**_options):
        deferred.set()

    loop = asyncio.get_running_loop()
    interaction = SimpleNamespace(
        extras={ARRIVED: loop.time() - 2.5},  # admitted 2.5 s ago
        response=SimpleNamespace(is_done=lambda: deferred.is_set(), defer=defer),
        client=SimpleNamespace(settings=SimpleNamespace(defer_seconds=2.5)),
    )

    async def work():  # a service call that ends only once the interaction was deferred
        await deferred.wait()
        return "answer"

    async with asyncio.timeout(2.0):  # counted from its start, this call would defer at 2.5 s
        assert await in_time(interaction, work()) == "answer"


async def test_answers_past_a_deferral_read_as_answers_given_at_once(make_double, tmp_path):
    """Issue 39.9: a bot that defers (its database busy elsewhere, a loaded host) answers
    rightly, and what a test reads of an answer (its kind, text, buttons, picture, who sees
    it) is the same whether it came at once or past the deferral. The write lock is held by
    another connection until the bot has deferred, then let go: a new board, a board updated
    from the guess form, and a typed guess, each deferred, then answered."""
    import asyncio
    import sqlite3

    path = str(tmp_path / "busy.sqlite3")
    # Deferring sooner than the default 1 s: the lock is let go the moment the bot has deferred
    double = await make_double(path, answers={"wordle": "cigar"}, defer_seconds=0.2)

    async def deferred(interaction):
        before = len(double.sent)
        lock = sqlite3.connect(path, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")

        async def let_go_once_deferred():  # a task of its own: the dispatch waits for it
            try:
                for _ in range(6000):  # a minute at most
                    if any(s.kind in (5, 6) for s in double.sent[before:]):
                        return
                    await asyncio.sleep(0.01)
            finally:
                lock.execute("COMMIT")
                lock.close()

        watcher = asyncio.ensure_future(let_go_once_deferred())
        sent = await interaction
        await watcher
        assert any(s.kind in (5, 6) for s in double.sent[before:]), sent  # it did defer
        return sent

    [board] = await deferred(double.command("wordle", "practice", user_id=ANN))
    assert board.a_new_message and not board.ephemeral and board.files == ["board.png"]
    assert "Guess 1 of 6" in board.text
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=ANN, on=board))
    [updated] = await deferred(double.submit(modal, {"word": "crane"}, user_id=ANN))
    assert updated.an_update and "CRANE" in updated.text and "Guess 2 of 6" in updated.text
    typed, old_board_gone = await deferred(double.command("guess", user_id=ANN, word="slate"))
    assert typed.a_new_message and not typed.ephemeral and typed.files == ["board.png"]
    assert "SLATE" in typed.text and old_board_gone.method == "DELETE"


async def test_a_slow_guess_on_a_race_board_still_answers_privately(tmp_path, lock_database):
    """Deferred before the game is known, the public "thinking..." is deleted and the race
    board comes as a private follow-up: nobody else sees a racer's letters."""
    from discord_double import GUILD_ID

    from bot.services import Player

    path = str(tmp_path / "slow.sqlite3")
    bot = WordleBot(load_settings(database_path=path, daily_seed=SEED), warm_engine=False)
    await bot._async_setup_hook()
    await bot.setup_hook()
    try:
        double = DiscordDouble(bot)
        started = await bot.services.games.start_set(Player(ANN), GUILD_ID, "wordle:race",
                                                     "race:1", ["cigar"])  # fmt: skip
        assert started.ok
        locker = lock_database(path, 1.25)  # past DEFER_SECONDS, inside the busy timeout
        before = len(double.sent)
        board = only(await double.command("guess", user_id=ANN, word="crane"))
        locker.wait(timeout=10)
        deferred, deleted, _ = double.sent[before:]  # what was sent: deferral is the point
        assert deferred.kind == 5 and not deferred.ephemeral  # before the game was known
        assert deleted.method == "DELETE" and deleted.path.endswith("/messages/@original")
        assert board.method == "POST" and board.ephemeral and "CRANE" in board.text
    finally:
        await bot.close()


async def test_a_guess_modal_opened_before_a_restart_still_plays(tmp_path):
    settings = load_settings(database_path=str(tmp_path / "bot.sqlite3"), daily_seed=SEED)
    first = WordleBot(settings, warm_engine=False)
    await first._async_setup_hook()
    await first.setup_hook()
    first.services.games.choose_answer = {"wordle": "cigar"}.get
    old = DiscordDouble(first)
    board = only(await old.command("wordle", "practice", user_id=ANN))
    guess_button = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await old.click(guess_button, user_id=ANN, on=board))  # opened, not sent
    await first.close()

    second = WordleBot(settings, warm_engine=False)
    await second._async_setup_hook()
    await second.setup_hook()
    try:
        played = only(await DiscordDouble(second).submit(modal, {"word": "crane"}, user_id=ANN))
        assert played.an_update and "CRANE" in played.text and "Guess 2 of 6" in played.text
    finally:
        await second.close()


async def test_past_capacity_new_interactions_are_turned_away_at_once(double):
    double.bot.capacity = 0  # every handler slot taken
    busy = only(await double.command("wordle", "practice", user_id=ANN))
    assert busy.ephemeral and "busy" in busy.text
    assert await double.bot.services.storage.active_games(ANN, 900000000000000002) == []
    double.bot.capacity = 400
    board = only(await double.command("wordle", "practice", user_id=ANN))
    assert board.a_new_message and not board.ephemeral
    guess = next(i for i in board.custom_ids() if ":guess:" in i)
    modal = only(await double.click(guess, user_id=ANN, on=board))
    double.bot.capacity = 0  # buttons and modals are turned away too
    for sent in (await double.click(guess, user_id=ANN, on=board),
                 await double.submit(modal, {"word": "crane"}, user_id=ANN)):  # fmt: skip
        assert only(sent).ephemeral and "busy" in only(sent).text
    stored = await double.bot.services.storage.active_games(ANN, 900000000000000002)
    assert stored[0].state["rows"] == []


def test_every_button_is_admitted_as_a_command_is(double):
    """Each kind of button the bot answers (the board's above, and the others alike) turns
    away a press past capacity: none bypasses cogs.common.Admitted."""
    from cogs.common import Admitted

    buttons = [item for item in discord.ui.DynamicItem.__subclasses__()
               if item.__module__.startswith("cogs.")]  # fmt: skip
    assert len(buttons) >= 7 and all(issubclass(item, Admitted) for item in buttons), buttons
