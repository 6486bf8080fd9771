"""Boards, keyboards, stats and leaderboards as text (Discord markdown or plain terminal)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from bot.render.keyboards import ABSENT, CORRECT, PRESENT, UNUSED, key_states
from bot.render.letters import capital
from bot.render.palette import STANDARD, Palette
from bot.services import Board, GameView, Stats

if TYPE_CHECKING:
    from bot.services.analysis import Analysis
    from bot.services.challenges import ChallengeBoard
    from bot.services.coop import CoopView, Turn
    from bot.services.digest import Digest, Member
    from bot.services.races import RaceBoard
    from bot.storage.coop import CoopStanding
    from bot.storage.races import Racer, RaceStanding
    from engine.solver.coach import Coaching
    from engine.solver.hints import Hint
    from engine.solver.multiboard import MultiHint
from engine.pattern import to_emoji
from engine.solver.coach import BoardsCoaching, WorstCaseCoaching

METRIC_TITLES = {
    "wins": "Wins",
    "win_rate": "Win rate",
    "average": "Average guesses",
    "skill": "Skill (the coach's, 0-99)",
    "current_streak": "Current streak",
    "max_streak": "Max streak",
}


def board_rows(
    game: GameView, *, hide_letters: bool = False, palette: Palette = STANDARD
) -> list[str]:
    """One line per row: the coloured squares, then the guess (in spoilers when hidden).
    Multi-board games show every board's squares side by side, a dot once it is solved."""
    if game.boards is not None:
        return multi_rows(game, palette)
    lines = []
    for guess, digits in game.rows:
        squares = squares_of(digits, palette)
        word = f"||{guess.upper()}||" if hide_letters else f"`{guess.upper()}`"
        lines.append(f"{squares}  {word}")
    return lines


def squares_of(digits: str, palette: Palette = STANDARD) -> str:
    """A row's pattern digits as the emoji squares of ``palette``."""
    return to_emoji(int(digits, 3), len(digits), high_contrast=palette.high_contrast)


def multi_rows(game: GameView, palette: Palette = STANDARD) -> list[str]:
    assert game.boards is not None
    lines = []
    for i, (guess, _) in enumerate(game.rows):
        cells = [squares_of(b[i][1], palette) if i < len(b) else "·" * game.length
                 for b in game.boards]  # fmt: skip
        lines.append(f"`{guess.upper()}` " + " ".join(cells))
    return lines


def multi_squares(game: GameView, palette: Palette = STANDARD) -> list[str]:
    """Each guess's squares on every board, side by side (blank once a board is solved)."""
    assert game.boards is not None
    lines = []
    for i in range(len(game.rows)):
        cells = [squares_of(b[i][1], palette) if i < len(b) else "⬜" * game.length
                 for b in game.boards]  # fmt: skip
        lines.append(" ".join(cells))
    return lines


def keyboard(game: GameView, rows: Sequence[str] | None = None) -> list[list[tuple[str, int]]]:
    """Each key, in the game's layout (or ``rows``), with what the rows revealed about it:
    correct beats present beats absent (:mod:`bot.render.keyboards`)."""
    return key_states(game, rows)


KEY_LEGEND = "**bold**: right place, __underlined__: elsewhere, ~~struck~~: not in it"


def keyboard_markdown(game: GameView, rows: Sequence[str] | None = None) -> str:
    """Discord markdown: **bold** correct, __underlined__ present, ~~struck~~ absent, never
    colour alone (whatever the palette), and a line saying so. ``rows``: the layout, the
    game's own by default."""
    style = {UNUSED: "{}", ABSENT: "~~{}~~", PRESENT: "__{}__", CORRECT: "**{}**"}
    lines = [" ".join(style[status].format(capital(key)) for key, status in row)
             for row in keyboard(game, rows)]  # fmt: skip
    return "\n".join([*lines, KEY_LEGEND])


def title(game: GameView) -> str:
    """The game's name. The bot's dailies are "wordlebot Wordle #N": the number counts days
    as the NYT's does, but the answer is ours, so the name keeps the two apart."""
    kind = game.kind.split(":")[1]
    if game.number is not None:
        name = f"wordlebot {game.title} #{game.number}"
    else:
        name = f"{game.title} {kind}"
    mode = "" if game.mode == "normal" else f" ({game.mode} mode)"
    return f"{name}{mode}"


def status_line(game: GameView, *, spoiler: bool) -> str:
    count = len(game.rows)
    if game.boards is not None:
        solved = sum(1 for b in game.boards if b and b[-1][1] == "2" * game.length)
        if game.status == "won":
            return f"All {len(game.boards)} boards solved in {count}/{game.max_guesses}!"
        if game.status == "lost":
            return f"X/{game.max_guesses}. The answers were {(game.answer or '').upper()}."
        return f"{solved}/{len(game.boards)} boards solved. Guess {count + 1} of {game.max_guesses}"
    if game.remaining is not None:  # Absurdle
        goal = f" Target: {game.target.upper()}." if game.target else ""
        if game.status == "won":
            return f"Cornered in {count} guesses!{goal}"
        if game.status == "lost":
            return f"The target {(game.target or '').upper()} is gone: the adversary dodged it."
        return f"{game.remaining} word{'s' if game.remaining != 1 else ''} left.{goal}"
    if game.status == "won":
        return f"Solved in {count}/{game.max_guesses}!"
    if game.status == "lost":
        answer = (game.answer or "").upper()
        shown = f"||{answer}||" if spoiler else answer
        return f"X/{game.max_guesses}. The answer was {shown}."
    return f"Guess {count + 1} of {game.max_guesses}"


def share_text(game: GameView, palette: Palette = STANDARD) -> str:
    """The spoiler-free share, as the original game writes it (its high-contrast squares
    too)."""
    score = len(game.rows) if game.status == "won" else "X"
    hard = "*" if game.mode != "normal" else ""
    limit = f"/{game.max_guesses}" if game.max_guesses else ""
    header = f"{title(game).split(' (')[0]} {score}{limit}{hard}"
    if game.boards is not None:  # colours only: the guessed words would give the answers away
        return "\n".join([header, "", *multi_squares(game, palette)])
    return "\n".join([header, "", *(squares_of(d, palette) for _, d in game.rows)])


def stats_text(stats: Stats, who: str) -> str:
    most = max(stats.distribution.values(), default=0) or 1
    lines = [
        f"{who}: {stats.kind.replace(':', ' ')}",
        f"Played {stats.played} | Win % {stats.win_percent} | Current streak "
        f"{stats.current_streak} | Max streak {stats.max_streak}",
        "Guess distribution:",
    ]
    for guesses, count in stats.distribution.items():
        bar = "█" * max(1, round(20 * count / most)) if count else ""
        lines.append(f"{guesses} {bar} {count}")
    for line in (stats.shared, stats.archive):  # results kept apart from the streak
        if line is not None:
            average = "" if line.average is None else f" | Average {line.average:.2f}"
            lines.append(f"{line.label}: Played {line.played} | Won {line.wins}{average}")
    return "\n".join(lines)


VALUE_FORMATS = {"win_rate": "{:.0%}", "average": "{:.2f}"}


def board_text(board: Board) -> str:
    scope = "this server" if board.scope is not None else "everyone"
    heading = (f"{METRIC_TITLES[board.metric]}, {board.kind.replace(':', ' ')}, {scope}, "
               f"{board.period}")  # fmt: skip
    if not board.entries:
        return f"{heading}\nNobody is on this board yet."
    lines = [heading]
    for entry in board.entries:
        value = VALUE_FORMATS.get(board.metric, "{:.0f}").format(entry.value)
        lines.append(f"{entry.rank:>3}. {entry.name} - {value} ({entry.played} played)")
    lines.append(f"Page {board.page} of {board.pages}")
    return "\n".join(lines)


def analysis_text(analysis: Analysis) -> str:
    """What a paste showed: each share's result and, for a Wordle grid, the answers it fits."""
    lines: list[str] = []
    for share, reading in zip(analysis.shares, analysis.readings, strict=True):
        number = f" #{share.puzzle}" if share.puzzle is not None else ""
        mode = " (hard mode)" if share.hard else ""
        results = ", ".join(f"{b.guesses}" if b.solved else "X" for b in share.boards)
        lines.append(f"**{share.game.title()}{number}**{mode}: {results}")
        if reading is not None:
            likely = ", ".join(w.upper() for w in reading.likely[:6])
            lines.append(f"The grid alone fits {reading.count} answers; most likely: {likely}")
            if not reading.complete:
                lines.append("(The hard-mode check ran out of time, so the count may be high: "
                             "add the words you played for an exact reading.)")  # fmt: skip
    if analysis.hint is not None:
        result = analysis.hint
        lines.append(f"{result.remaining} possible: {candidates_text(result, 12)}")
        if result.suggestions:
            lines.append(f"Best next guess: {result.suggestions[0].guess.upper()}")
    if analysis.coaching is not None:
        lines.append(f"```\n{coaching_text(analysis.coaching)}\n```")
    lines.extend(f"Note: {p}" for p in analysis.problems)
    return "\n".join(lines) or "Nothing to analyse."


def candidates_text(result: Hint, shown: int) -> str:
    """The first ``shown`` candidates, each with its chance under an answer model."""
    words = [w.upper() for w in result.candidates[:shown]]
    if result.probabilities:
        words = [f"{w} {percent(p)}" for w, p in zip(words, result.probabilities, strict=False)]
    return ", ".join(words)


def percent(p: float) -> str:
    """A chance for people: 12%, 0.4%, <0.1%."""
    return f"{p:.0%}" if p >= 0.01 else f"{p:.1%}" if p >= 0.001 else "<0.1%"


def hint_text(result: Hint, shown: int = 15) -> str:
    """A hint for one board: what is left, then the best guesses, each marked when it
    could be the answer (with its chance under an answer model)."""
    more = f" and {result.remaining - shown} more" if result.remaining > shown else ""
    lines = [f"**{result.remaining}** possible: {candidates_text(result, shown)}{more}",
             "Best guesses:"]  # fmt: skip
    for s in result.suggestions:
        finish = f", {s.expected_guesses:.2f} guesses to finish" if s.expected_guesses else ""
        chance = f": {percent(s.chance)}" if s.chance else ""
        mark = f" (could be it{chance})" if s.possible else ""
        lines.append(
            f"`{s.guess.upper()}` {s.entropy:.2f} bits, {s.expected:.1f} left on average,"
            f" worst {s.worst}{mark}{finish}"
        )
    return "\n".join(lines)


def multi_hint_text(result: MultiHint) -> str:
    """A hint for a multi-board game: each board's candidates, then one guess for all."""
    lines = []
    for board, words in enumerate(result.candidates, 1):
        if not words:
            lines.append(f"Board {board}: solved")
            continue
        shown = ", ".join(w.upper() for w in words[:8])
        more = f" and {len(words) - 8} more" if len(words) > 8 else ""
        lines.append(f"Board {board}: {len(words)} possible: {shown}{more}")
    lines.append(f"Best guess for all boards: `{result.guess.upper()}`")
    return "\n".join(lines)


def plain(text: str) -> str:
    """Markdown as a terminal shows it: without its marks."""
    return text.replace("**", "").replace("`", "").replace("||", "")


def coaching_text(report: Coaching | BoardsCoaching | WorstCaseCoaching) -> str:
    """A coach's report as a table: turn by turn (a multi-board game: a table per board;
    Absurdle: the worst cases, with no luck in them)."""
    if isinstance(report, BoardsCoaching):
        blocks = []
        for board, (answer, coaching, solved) in enumerate(
            zip(report.answers, report.boards, report.solved_at, strict=True), 1
        ):
            done = f"solved in {solved}" if solved is not None else "not solved"
            blocks.append(f"Board {board}: {answer.upper()}, {done}\n{coaching_text(coaching)}")
        skill = "-" if report.skill is None else report.skill
        return "\n\n".join([*blocks, f"Skill over the boards {skill}/99"])
    if isinstance(report, WorstCaseCoaching):
        lines = ["Turn  guess   left        best (leaves)  skill"]
        for i, t in enumerate(report.turns, 1):
            skill = "-" if t.skill is None else f"{t.skill:>2}"
            left = "won" if t.after == 0 else f"{t.after}"
            best = "-" if t.after == 0 else f"{t.best.upper()} ({t.best_after})"
            lines.append(f"{i:>4}  {t.guess.upper():<6} {t.before:>4} -> {left:<4} "
                         f"{best:<14} {skill:>5}")  # fmt: skip
        skill = "-" if report.skill is None else report.skill
        lines.append(f"Skill {skill}/99 (the adversary keeps the largest group: no luck)")
        return "\n".join(lines)
    lines = ["Turn  guess   left        best    skill luck"]
    for i, t in enumerate(report.turns, 1):
        skill = "-" if t.skill is None else f"{t.skill:>2}"
        rollout = f"  (rollout: {t.rollout.upper()})" if t.rollout else ""
        lines.append(f"{i:>4}  {t.guess.upper():<6} {t.before:>4} -> {t.after:<4} "
                     f"{t.best.upper():<6} {skill:>5} {t.luck:>4}{rollout}")  # fmt: skip
    skill = "-" if report.skill is None else report.skill
    lines.append(f"Skill {skill}/99, luck {report.luck}/99")
    return "\n".join(lines)


def challenge_text(board: ChallengeBoard, name: Callable[[int], str] = lambda p: f"<@{p}>",
                   shown: int = 40) -> str:  # fmt: skip
    """A challenge's public message: who set it, who may play, and each finished player's
    result in colours only (never a letter: others may still play the word). ``name``
    shows a player (a mention on Discord); the first ``shown`` finishers are listed."""
    c = board.challenge
    who = "anyone but the setter" if c.target_id is None else f"{name(c.target_id)} only"
    lines = [f"**Challenge #{c.id}**: {c.game.title()}, {c.max_guesses} guesses, set by "
             f"{name(c.setter_id)}, for {who}.",
             "Press Play: you play privately; your result shows here in colours only."]  # fmt: skip
    for f in board.finishes[:shown]:
        score = f.guesses if f.won else "X"
        grid = " ".join(to_emoji(int(d, 3), len(d)) for d in f.patterns)
        lines.append(f"{name(f.player_id)} {score}/{c.max_guesses}  {grid}".rstrip())
    if len(board.finishes) > shown:
        lines.append(f"... and {len(board.finishes) - shown} more")
    return "\n".join(lines)


def digest_text(digest: Digest, name: Callable[[Member], str] = lambda m: m.name) -> str:
    """A server's digest of one day, as the official app's digest reads, per game: the
    group streak, the best score crowned, every score's players, who did not finish, and
    the coach's highlights (the guessed words behind spoilers). ``name`` shows a player (a
    mention on Discord)."""
    blocks = []
    for game in digest.games:
        days = f"{game.streak} day{'s' if game.streak != 1 else ''}"
        lines = [f"**{game.title}** ({digest.day.isoformat()})",
                 f"Your group is on a {days} streak! Here are the results:"]  # fmt: skip
        for i, (score, members) in enumerate(game.scores):
            crown = "👑 " if i == 0 and game.crowned else ""
            lines.append(f"{crown}{score}: {' '.join(name(m) for m in members)}")
        if game.unfinished:
            lines.append(f"Started, not finished: {' '.join(name(m) for m in game.unfinished)}")
        for label, shown, measure in (("Most skilful guess", game.skilful, "skill"),
                                      ("Luckiest guess", game.luckiest, "luck")):  # fmt: skip
            if shown is not None:
                lines.append(f"{label}: {name(shown.member)}, guess {shown.turn} "
                             f"||{shown.guess.upper()}|| ({measure} {shown.value})")  # fmt: skip
        blocks.append("\n".join(lines))
    if digest.podium is not None:
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        places = [f"{medals.get(rank, f'{rank}.')} {name(member)} ({wins} win{'s' * (wins != 1)})"
                  for rank, member, wins in digest.podium.places]  # fmt: skip
        blocks.append(f"**{digest.podium.title} is over!** Wordle daily podium:\n"
                      + "\n".join(places))  # fmt: skip
    return "\n\n".join(blocks) if blocks else f"No daily was finished on {digest.day}."


def race_text(board: RaceBoard, name: Callable[[Racer], str] = lambda r: r.name,
              when: Callable[[datetime], str] = lambda t: f"{t:%H:%M:%S} UTC",
              grids: bool = True) -> str:  # fmt: skip
    """A race's lobby, live scoreboard and podium. Colours only: no letters until the race
    is over, when the answers are shown. ``name`` shows a player (a mention on Discord),
    ``when`` a time (a Discord timestamp)."""
    race = board.race
    spec = f"{race.game.title()} race" + ("" if race.mode == "normal" else f" ({race.mode} mode)")
    if race.status == "lobby":
        return "\n".join([
            f"**{spec}**: press Join to race ({len(board.players)}/25 in)",
            ", ".join(name(r) for r in board.players),
            f"The host starts it; it starts by itself {when(race.start_by)}.",
        ])  # fmt: skip
    if race.started_at is None:
        return f"**{spec}**: called off, fewer than 2 players joined."
    if race.status == "over":
        answers = "answers were" if len(race.answers) > 1 else "answer was"
        head = f"**{spec} is over!** The {answers} {', '.join(race.answers).upper()}."
    else:
        assert race.end_by is not None
        head = f"**{spec}**: press Play for your board. It ends {when(race.end_by)}."
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [head]
    for racer in board.players:
        game = board.games.get(racer.player_id)
        if racer.won and racer.place is not None and racer.finished_at is not None:
            took = int((racer.finished_at - race.started_at).total_seconds())
            line = (f"{medals.get(racer.place, f'{racer.place}.')} {name(racer)}: "
                    f"{racer.guesses} guess{'es' * (racer.guesses != 1)}, "
                    f"{took // 60}:{took % 60:02d}")  # fmt: skip
        elif racer.finished_at is not None or race.status == "over":
            place = f"{racer.place}. " if race.status == "over" else ""
            line = f"{place}{name(racer)}: did not solve it"
        else:
            line = f"{name(racer)}: playing"
        if grids and game is not None and game.boards is None and game.rows:
            line += "  " + " ".join(to_emoji(int(d, 3), game.length) for _, d in game.rows)
        lines.append(line)
    return "\n".join(lines)


def coop_rows(view: CoopView, name: Callable[[Turn], str] = lambda t: t.name) -> list[str]:
    """The shared board's rows (letters shown: the whole channel plays it), each with who
    played it and its points. ``name`` shows a player (a mention on Discord)."""
    return [f"{line}  {'(deleted)' if turn.player_id is None else f'{name(turn)} +{turn.points}'}"
            for line, turn in zip(board_rows(view.game), view.turns, strict=True)]  # fmt: skip


def coop_status(view: CoopView) -> str:
    if view.status != "ended":
        return status_line(view.game, spoiler=False)
    answers = "answers were" if view.game.boards is not None else "answer was"
    return f"Ended by a moderator. The {answers} {(view.game.answer or '').upper()}."


def coop_standings_text(
    standings: list[CoopStanding], name: Callable[[CoopStanding], str] = lambda s: s.name
) -> str:
    """The server's co-op board: points, then guesses and solves."""
    if not standings:
        return "Nobody has scored in a co-op game here yet: /coop start"
    return "\n".join(
        f"{rank:>2}. {name(s)}: {s.points} point{'s' * (s.points != 1)}, {s.guesses} "
        f"guess{'es' * (s.guesses != 1)}, {s.solves} solve{'s' * (s.solves != 1)}"
        for rank, s in enumerate(standings, 1)
    )


def race_standings_text(
    standings: list[RaceStanding], name: Callable[[RaceStanding], str] = lambda s: s.name
) -> str:
    """The server's racers: wins, podiums, mean place. ``name`` shows a player (a mention on
    Discord)."""
    if not standings:
        return "Nobody has raced here: /race"
    return "**Races here**\n" + "\n".join(
        f"{rank}. {name(s)}: {s.wins} win{'s' * (s.wins != 1)}, {s.podiums} "
        f"podium{'s' * (s.podiums != 1)}, mean place {s.mean_place:.2f} "
        f"({s.races} race{'s' * (s.races != 1)})"
        for rank, s in enumerate(standings, 1)
    )
