import os
import subprocess
import sys
from pathlib import Path

from bot.console import Console, run_console
from bot.services import Player, open_services
from bot.settings import load_settings

SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"  # strong enough for the seed check


def script(*lines: str):
    """A reader that types ``lines`` and then ends the input."""
    queue = list(lines)

    async def read(_: str) -> str | None:
        return queue.pop(0) if queue else None

    return read


async def test_a_scripted_session_plays_a_practice_game_and_shows_stats(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "c.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = {"wordle": "cigar"}.get
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script(
        "/wordle practice hard", "crane", "zzzzz", "/hint", "slate", "/guess cigar",
        "/stats wordle practice", "/streak wordle", "/leaderboard nonsense", "/quit",
        "never read",
    ))  # fmt: skip
    await services.close()
    text = "\n".join(shown)
    assert "Wordle practice (hard mode)" in text
    assert "🟩🟨🟨⬛⬛ CRANE" in text  # CRANE against CIGAR
    assert "  Not in word list" in text
    assert "possible:" in text  # the hint
    assert "  1st letter must be C" in shown  # SLATE in hard mode: CRANE's green C first
    assert "Solved in 2/6!" in text and "Wordle practice 2/6*" in text  # and its share
    assert "Played 1 | Win % 100 | Current streak 1 | Max streak 1" in text
    assert "Wordle daily streak: 0 (best 0)" in text  # /streak counts dailies, as in Discord
    assert "metric takes wins, win_rate, average" in text and "not 'nonsense'" in text


async def test_the_console_uses_the_same_database_as_the_services(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "shared.sqlite3"), daily_seed=SEED)
    shown: list[str] = []
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from bot.services.daily import DailyPuzzles

    answer = DailyPuzzles(SEED, ZoneInfo("UTC")).answer("wordle", datetime.now(UTC).date())
    opener = "crane" if answer != "crane" else "slate"  # never the day's answer
    await run_console(settings, script("/wordle daily", opener), shown.append)
    services = await open_services(settings)
    from bot.console import console_player

    current = await services.games.current(console_player(), 0)
    assert [g for g, _ in current.game.rows] == [opener]
    await services.close()


def kept_environment(tmp_path) -> dict[str, str]:
    """What a console run in a bare environment keeps of the test's: its pictures in the
    test's folder, the session's matrix cache (nothing written outside temporary folders)."""
    return {"TMPDIR": str(tmp_path), "WORDLEBOT_CACHE_DIR": os.environ["WORDLEBOT_CACHE_DIR"]}


def test_the_console_reads_commands_from_a_pipe(tmp_path) -> None:
    env = {
        "DATABASE_PATH": str(tmp_path / "pipe.sqlite3"),
        "PATH": "/usr/bin:/bin",
        **kept_environment(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"],
        input="/wordle practice\ncrane\n/giveup\n/stats wordle practice\n",
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "CRANE" in result.stdout and "The answer was" in result.stdout
    assert "Played 1 | Win % 0" in result.stdout
    assert "\x1b[" not in result.stdout  # no colour codes when not on a terminal


async def test_the_console_plays_quordle_and_absurdle(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "m.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.deal = lambda variant, n: ["cigar", "rebut", "sissy", "humph"][:n]
    shown: list[str] = []
    console = Console(services, Player(6, "max"), shown.append, colour=False)
    await console.run(script(
        "/quordle", "cigar", "/hint", "rebut", "sissy", "humph",
        "/absurdle", "arise", "yauld", "tench", "whoop", "/stats quordle practice",
    ))  # fmt: skip
    await services.close()
    text = "\n".join(shown)
    assert "Board 1: solved" in text and "Best guess for all boards" in text
    assert "All 4 boards solved in 4/9!" in text
    assert "1 word left." in text and "Cornered in 4 guesses!" in text
    assert "Played 1 | Win % 100" in text


async def scripted(tmp_path, *lines: str, name: str = "t") -> tuple[str, object]:
    settings = load_settings(database_path=str(tmp_path / f"{name}.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = {"wordle": "cigar", "primel": "99991"}.get
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script(*lines))
    return "\n".join(shown), services


async def test_a_give_up_goes_to_the_board_shown_last_not_the_newest_game(tmp_path) -> None:
    text, services = await scripted(
        tmp_path, "/wordle daily", "/wordle practice", "/wordle daily", "/wordle practice",
        "/giveup",
    )  # fmt: skip
    games = {g.kind: g for g in await services.storage.active_games(5, 0)}
    await services.close()
    assert "wordle:daily" in games and "wordle:practice" not in games
    assert "The answer was CIGAR" in text


async def test_start_commands_refuse_what_they_do_not_understand(tmp_path) -> None:
    text, services = await scripted(tmp_path, "/wordle hard", "/wordle dialy", "/quordle dialy")
    assert await services.storage.active_games(5, 0) == []
    await services.close()
    assert text.count("/wordle takes daily, practice or archive") == 2
    assert "/quordle takes mode (normal, hard, strict)" in text


async def test_bad_leaderboard_pages_and_long_lines_are_answered_in_words(tmp_path) -> None:
    text, services = await scripted(
        tmp_path, "/leaderboard wins ²", "/leaderboard wins 99999999999999999999",
        "/leaderboard wins 3", "x" * 5000,
    )  # fmt: skip
    await services.close()
    assert "page takes a whole number, not '²'" in text
    assert text.count("A page is a number") == 1 and "Page 1 of 1" not in text


async def test_a_long_board_names_its_other_pages_as_commands(tmp_path) -> None:
    """Discord's page buttons, at the console: the line that shows the next page (and the
    one before), and the note that the console's board is everyone's, as in a DM."""
    settings = load_settings(database_path=str(tmp_path / "p.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    rows = [(p, 900000000000000002, "wordle:daily", "2026-11-20", True, 3) for p in range(1, 16)]
    await services.storage.bulk_results(rows)
    await services.close()
    following = "/leaderboard metric:wins period:all game:wordle scope:global page:"
    text, services = await scripted(tmp_path, "/leaderboard", f"{following}2", name="p")
    await services.close()
    first, second = text.split("Page 1 of 2")
    assert first.count("this is everyone's board") == 1 and "everyone, all time" in first
    assert f"{following}2 for the next" in second and "Page 2 of 2" in second
    assert f"{following}1 for the previous" in second and f"{following}3" not in second


async def test_a_share_pasted_over_several_lines_is_read_as_one(tmp_path) -> None:
    text, services = await scripted(
        tmp_path, "/wordle practice", "/analyze Wordle 1,234 3/6", "", "⬛🟨⬛⬛⬛",
        "🟨🟨⬛🟩⬛", "🟩🟩🟩🟩🟩", "crane",
    )  # fmt: skip
    rows = (await services.storage.active_games(5, 0))[0].state["rows"]
    await services.close()
    assert "Wordle #1234" in text and ": 3" in text
    assert [r[0] for r in rows] == ["crane"]  # the grid was not played as guesses


async def test_several_games_and_none_shown_asks_which(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "w.sqlite3"), daily_seed=SEED)
    first = await open_services(settings)
    await first.games.start(Player(5), 0, "wordle")
    await first.games.start(Player(5), 0, "primel")
    await first.close()
    text, services = await scripted(tmp_path, "crane", "/giveup", name="w")
    assert all(g.state["rows"] == [] for g in await services.storage.active_games(5, 0))
    await services.close()
    assert "several games going" in text and "/primel practice" in text


def test_end_of_input_says_the_game_is_saved(tmp_path) -> None:
    env = {
        "DATABASE_PATH": str(tmp_path / "eof.sqlite3"),
        "PATH": "/usr/bin:/bin",
        **kept_environment(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"], input="/wordle practice\n",
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0 and "Your games are saved" in result.stdout


async def test_as_switches_the_local_player_and_back(tmp_path) -> None:
    from bot.console import console_player, player_named

    settings = load_settings(database_path=str(tmp_path / "c.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = {"wordle": "cigar"}.get
    shown: list[str] = []
    console = Console(services, player_named("tess"), shown.append, colour=False)
    await console.run(script("/wordle practice", "/as  ann ", "/wordle practice", "cigar",
                             "/as", "/as tess", "crane", "/quit"))  # fmt: skip
    text = "\n".join(shown)
    assert "You are ann now." in text and "Usage: /as NAME" in text
    assert "Solved in 1/6!" in text  # ann's own game
    assert text.rindex("CRANE") > text.rindex("You are tess now.")  # tess's game goes on
    tess = await services.games.current(player_named("tess"), 0)
    assert tess.ok and [guess for guess, _ in tess.game.rows] == ["crane"]
    assert console_player() == player_named(console_player().name)
    await services.close()


async def test_high_contrast_colours_at_the_console(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "hc.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = {"wordle": "cigar"}.get
    shown: list[str] = []
    console = Console(services, Player(6, "hana"), shown.append, colour=False)
    await console.run(script("/colours purple", "/colours high-contrast", "/wordle practice",
                             "crane", "cigar"))  # fmt: skip
    text = "\n".join(shown)
    # /colours is the console's name of /settings me, and says what that takes
    assert "/colours: 'purple' is not understood; /settings me takes colours" in text
    assert "Your colours: high-contrast 🟧🟦⬛" in text
    assert "🟧🟦🟦⬛⬛ CRANE" in text and "Wordle practice 2/6\n\n🟧🟦🟦⬛⬛\n🟧🟧🟧🟧🟧" in text
    assert "Q W e R? T Y U I O P" in text  # keys marked by more than colour
    again: list[str] = []  # the setting is kept with the player; a colour terminal
    await Console(services, Player(6, "hana"), again.append, colour=True).run(
        script("/colours", "/wordle practice", "crane")
    )
    await services.close()
    coloured = "\n".join(again)
    assert "Your colours: high-contrast" in coloured
    assert "\x1b[1;97;48;5;208m C " in coloured and "\x1b[1;97;48;5;75m R " in coloured
    assert "\x1b[33mR?\x1b[0m" in coloured and "\x1b[90me\x1b[0m" in coloured  # marks too


async def test_the_console_is_a_server_its_person_manages(tmp_path) -> None:
    """Server commands act on the console's own server (CONSOLE_PLACE): its settings, its
    reminders, its digest; each reply says what a terminal does differently."""
    from bot.console_together import CONSOLE_PLACE

    settings = load_settings(database_path=str(tmp_path / "server.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    shown: list[str] = []
    console = Console(services, Player(7, "ida"), shown.append, colour=False)
    await console.run(script(
        "/settings server timezone:Europe/Paris hints_in_daily:off season_days:0",
        "/settings server timezone:Europe/Paris hints_in_daily:off daily_role:5",
        "/settings server timezone:Europe/Paris hints_in_daily:off coop_cooldown:5",
        "/remind on time:25:00", "/remind on 07:30", "/as joe", "/remind on", "/wordle daily",
        "/missing", "/digest channel here", "/digest off", "/resetboard", "/settings",
    ))  # fmt: skip
    storage = services.storage
    stored = await storage.guild_settings(CONSOLE_PLACE)
    reminders = await services.reminders.missing(CONSOLE_PLACE)
    cooldown = await services.coop.cooldown(CONSOLE_PLACE)
    digest = await storage.digests.channels()
    await services.close()
    text = "\n".join(shown)
    assert "  season_days takes a number from 1 to 366" in text  # Discord's range, here too
    assert "  daily_role: the console has no roles" in text  # nothing changed by either
    assert (stored.timezone, stored.hints_in_daily, cooldown) == ("Europe/Paris", False, 5)
    assert "Hints in daily games: off" in text and "played in direct-message scope" in text
    assert "Give the time as HH:MM" in text
    assert "Reminder kept for the console's server, at 07:30 (Europe/Paris)" in text
    assert "A terminal cannot remind you" in text
    assert [p.name for p in reminders] == ["ida"]  # joe has started today's daily
    assert "Not played Wordle #" in text and text.count(": ida\n") == 1
    assert "The console's server has its digest on" in text and "The daily digest is off." in text
    assert digest == []
    assert "Leaderboard cleared (0 entries)" in text
    assert "  /settings takes server or me" in text


async def test_console_hints_are_the_hints_a_player_can_use(tmp_path) -> None:
    """Issue 31.6 and 31.8 through the console (the command model's hint_text, as Discord):
    each pick that can be the answer is marked, and only those; no played word is offered;
    one word left is named alone; Absurdle's picks are ranked and said by their worst case."""
    from engine.pattern import score
    from engine.solver.hints import hint
    from engine.variants import get_variant

    text, services = await scripted(
        tmp_path, "/wordle practice", "crane", "sloth", "/hint", "pilot", "/hint", "vigor",
        "/hint", "/absurdle", "crane", "/hint",
    )  # fmt: skip
    await services.close()
    wordle = get_variant("wordle")
    played = ["crane", "sloth", "pilot", "vigor"]
    hints = text.split("Best guesses")
    for upto, block in ((2, hints[1]), (3, hints[2])):
        expected = hint(wordle, [(w, score(w, "cigar")) for w in played[:upto]])
        lines = [line for line in block.splitlines()[1:] if " bits, " in line]
        assert [line.split()[0].lower() for line in lines] == [
            s.guess for s in expected.suggestions
        ]
        assert any(s.possible for s in expected.suggestions)
        assert any(not s.possible for s in expected.suggestions)
        for line, s in zip(lines, expected.suggestions, strict=True):
            assert ("(could be it)" in line) == s.possible, line
            assert s.guess not in played
    assert "Only one word is left: CIGAR" in text  # after VIGOR: no 0-bit alternatives
    assert " 0.00 bits" not in text
    absurdle = text[text.index("Absurdle") :]
    assert "Best guesses (the adversary keeps the biggest group):" in absurdle
    assert "LOUTS leaves 15 words" in absurdle  # CRANE left 263; no guess leaves fewer
    assert " bits, " not in absurdle


async def test_commands_after_a_pasted_share_are_read(tmp_path) -> None:
    """Issue 39.7: a paste ends at a line no share holds. A command names a game
    (game:primel) but is no header; blank lines inside a share and the link after its grid
    are the share's. (ann pastes the second: one analysis every 10 s a player.)"""
    text, services = await scripted(
        tmp_path, "/analyze Wordle 1,234 3/6", "", "⬛🟨⬛⬛⬛", "🟨🟨⬛🟩⬛", "🟩🟩🟩🟩🟩", "",
        "/leaderboard metric:wins period:today game:primel", "/streak game:wordle",
        "/as ann", "/analyze Wordle (ES) #27 4/6", "", "🟩⬜⬜⬜🟩", "🟩🟩🟩⬜🟩",
        "🟩🟩🟨⬜🟩", "🟩🟩🟩🟩🟩", "", "wordle.danielfrg.com",
        "/settings me colours:high-contrast",
    )  # fmt: skip
    await services.close()
    assert "Wordle #1234: 3" in text
    assert "Wins, primel daily, everyone, today" in text
    assert "Wordle daily streak: 0 (best 0)" in text
    assert "La palabra del día #27: 4" in text and "wordle.danielfrg.com" not in text
    assert "Your colours: high-contrast" in text


async def test_each_picture_is_a_file_of_its_own(tmp_path, monkeypatch) -> None:
    """Issue 39.7: two runs (two people at one machine, or one twice) never write over each
    other's picture; each is readable by its user alone, where the printed path says."""
    import stat
    import tempfile

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))  # the system's temporary folder
    said: list[Path] = []
    for run in ("first", "second"):
        text, services = await scripted(tmp_path, "/stats", "/stats", name=run)
        await services.close()
        said += [Path(line.removeprefix("Picture: ")) for line in text.splitlines()
                 if line.startswith("Picture: ")]  # fmt: skip
    assert len(said) == len(set(said)) == 4
    assert sorted(folder.iterdir()) == sorted(said)  # nothing else, nowhere else
    for path in said:
        assert path.name.startswith("wordlebot-stats-") and path.suffix == ".png"
        assert path.read_bytes().startswith(b"\x89PNG")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_line_that_is_not_utf8_is_refused_in_words_and_the_session_goes_on(tmp_path) -> None:
    """Issue 39.7: a byte that is not UTF-8 (a Latin-1 é, here inside a paste too) gets one
    line; the next lines are read. Strict decoding, as in a UTF-8 locale such as
    en_US.UTF-8 (a C locale would decode leniently)."""
    env = {"DATABASE_PATH": str(tmp_path / "bytes.sqlite3"), "PATH": "/usr/bin:/bin",
           "TMPDIR": str(tmp_path), "PYTHONIOENCODING": "utf-8:strict"}  # fmt: skip
    typed = "/wordle practice\ncr\xe9ne\n/analyze Wordle 1,234 3/6\n\n\xe9\ncrane\n/streak\n"
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"], input=typed.encode("latin-1"),
        capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0 and "Traceback" not in err, err
    assert out.count("That line is not UTF-8 text, so it was not read") == 2
    assert "CRANE" in out and "Wordle daily streak" in out
    assert "Wordle #1234" in out  # the paste before the bad line was read


def test_the_prompt_edits_lines_at_a_terminal_and_leaves_it_as_it_was(tmp_path) -> None:
    """Issue 39.7: at a terminal (a pseudo-terminal here) the prompt edits lines: CANE, three
    left arrows and R play CRANE (without line editing the arrows were typed as ^[[D into
    the guess). Ctrl-C (SIGINT, as the terminal sends it) while the prompt reads leaves
    the terminal echoing and reading lines, as before the console."""
    import os
    import re
    import select
    import signal
    import termios
    import time

    leader, follower = os.openpty()
    env = {"DATABASE_PATH": str(tmp_path / "tty.sqlite3"), "PATH": "/usr/bin:/bin",
           "TMPDIR": str(tmp_path), "HOME": str(tmp_path), "TERM": "xterm"}  # fmt: skip
    modes = termios.tcgetattr(follower)
    console = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console"], stdin=follower, stdout=follower,
        stderr=follower, env=env, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as at a terminal:
    )  # fmt: skip  # a run started in the background (`pytest &`) ignores SIGINT, and a child too
    shown = bytearray()

    def wait_for(pattern: bytes, start: int = 0) -> int:
        """Read what the console shows until ``pattern`` appears after ``start``."""
        deadline = time.monotonic() + 60
        while (found := re.search(pattern, shown[start:])) is None:
            assert time.monotonic() < deadline, shown.decode(errors="replace")
            if select.select([leader], [], [], 1)[0]:
                shown.extend(os.read(leader, 65536))
        return start + found.end()

    try:
        at = wait_for(b"> ")
        os.write(leader, b"/wordle practice\r")
        at = wait_for(rb"Guess 1 of 6[\s\S]*> ", at)
        os.write(leader, b"cane" + b"\x1b[D" * 3 + b"r\r")
        typed, at = at, wait_for(rb"Guess 2 of 6|Solved in 1/6", at)
        played = re.sub(rb"\x1b\[[0-9;]*m", b"", shown[typed:at])  # the tiles, uncoloured
        assert b" C  R  A  N  E " in played, shown.decode(errors="replace")
        wait_for(b"> ", at)
        console.send_signal(signal.SIGINT)
        assert console.wait(timeout=60) != 0
        after = termios.tcgetattr(follower)
        assert after[3] & (termios.ECHO | termios.ICANON) == termios.ECHO | termios.ICANON
        assert after[3] == modes[3]
    finally:
        if console.poll() is None:
            console.kill()
            console.wait()
        os.close(leader)
        os.close(follower)


async def test_german_sharp_s_is_one_letter_on_the_board_and_in_the_definition(tmp_path) -> None:
    """Issue 39.7: str.upper() spells ß as SS, six letters in a row of five; the board, the
    answer, the definition and the give-up line show the capital ẞ, as the board images
    and the keyboard do."""
    settings = load_settings(database_path=str(tmp_path / "de.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    services.games.choose_answer = {"wordle-de-5": "außen"}.get
    shown: list[str] = []
    console = Console(services, Player(8, "uwe"), shown.append, colour=False)
    await console.run(script("/wordle practice language:de", "außer", "/giveup"))
    await services.close()
    text = "\n".join(shown)
    assert "🟩🟩🟩🟩⬛ AUẞER" in text
    assert "The answer was AUẞEN" in text and "X/6. The answer was AUẞEN." in text
    assert "AUẞEN: von innen gesehen jenseits einer Begrenzung" in text
    assert "SS" not in text and "ß" not in text
