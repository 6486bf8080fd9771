"""Boards, keyboards, stats and leaderboards as text (Discord markdown or plain terminal).

Every sentence is looked up in the current locale's catalog (:mod:`bot.i18n`) when it is
written; the share (its header and squares, which other bots read) stays as the game writes
it, and so do game names and the words of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from bot.i18n import N_, _, format_number, format_percent, ngettext, pgettext, use_locale
from bot.render.keyboards import ABSENT, CORRECT, PRESENT, UNUSED, key_states
from bot.render.letters import capital, capitals
from bot.render.palette import STANDARD, Palette
from bot.services import Board, GameView, Stats
from bot.services.kinds import KINDS, shown_title

if TYPE_CHECKING:
    from bot.services.analysis import Analysis
    from bot.services.challenges import ChallengeBoard
    from bot.services.coop import CoopView, Turn
    from bot.services.digest import Digest, Member
    from bot.services.races import RaceBoard
    from bot.storage.coop import CoopStanding
    from bot.storage.races import Racer, RaceStanding
    from engine.definitions import Definition
    from engine.solver.coach import Coaching
    from engine.solver.hints import Hint
    from engine.solver.multiboard import MultiHint
from engine.pattern import to_emoji
from engine.solver.coach import BoardsCoaching, WorstCaseCoaching

MESSAGE_LIMIT = 2000  # characters in one Discord message's content
# Marked for the catalogs: translate where shown, _(METRIC_TITLES[metric]).
METRIC_TITLES = {
    "wins": N_("Wins"),
    "win_rate": N_("Win rate"),
    "average": N_("Average guesses"),
    "skill": N_("Skill (the coach's, 0-99)"),
    "current_streak": N_("Current streak"),
    "max_streak": N_("Max streak"),
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
        word = f"||{capitals(guess)}||" if hide_letters else f"`{capitals(guess)}`"
        lines.append(f"{squares}  {word}")
    return lines


def squares_of(digits: str, palette: Palette = STANDARD) -> str:
    """A row's pattern digits as the emoji squares of ``palette``."""
    return to_emoji(int(digits, 3), len(digits), high_contrast=palette.high_contrast)


def multi_rows(game: GameView, palette: Palette = STANDARD) -> list[str]:
    assert game.boards is not None
    lines = []
    for i, (guess, _digits) in enumerate(game.rows):
        cells = [squares_of(b[i][1], palette) if i < len(b) else "·" * game.length
                 for b in game.boards]  # fmt: skip
        lines.append(f"`{capitals(guess)}` " + " ".join(cells))
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


# Translators: keep the Markdown marks (** __ ~~) around the words they style.
KEY_LEGEND = N_("**bold**: right place, __underlined__: elsewhere, ~~struck~~: not in it")
MULTI_KEY_LEGEND = N_(
    "Each key shows what holds on every unsolved board (plain where they differ)."
)


def keyboard_markdown(game: GameView, rows: Sequence[str] | None = None) -> str:
    """Discord markdown: **bold** correct, __underlined__ present, ~~struck~~ absent, never
    colour alone (whatever the palette), and a line saying so. ``rows``: the layout, the
    game's own by default."""
    style = {UNUSED: "{}", ABSENT: "~~{}~~", PRESENT: "__{}__", CORRECT: "**{}**"}
    lines = [" ".join(style[status].format(capital(key)) for key, status in row)
             for row in keyboard(game, rows)]  # fmt: skip
    legend = [_(KEY_LEGEND)] if game.boards is None else [_(KEY_LEGEND), _(MULTI_KEY_LEGEND)]
    return "\n".join([*lines, *legend])


# A game's name by its flavour (a kind's part after the colon), when it has no number.
FLAVOUR_TITLES = {
    "practice": N_("{game} practice"),
    "challenge": N_("{game} challenge"),
    "race": N_("{game} race"),
    "custom": N_("{game} custom"),
    "coop": N_("{game} coop"),
    "daily": N_("{game} daily"),
    "archive": N_("{game} archive"),
    "shared": N_("{game} (shares)"),  # typed shares of the original game: not our puzzle
}
MODE_TITLES = {"hard": N_("{name} (hard mode)"), "strict": N_("{name} (strict mode)")}


def kind_text(kind: str) -> str:
    """A kind of game as a heading names it, in the current locale: "wordle daily"."""
    game, _colon, flavour = kind.partition(":")
    name = game_name(game) if game in KINDS and KINDS[game].base else game
    if not flavour:
        return name
    if (game, flavour) == ("wordle", "shared"):  # the NYT's Wordle, named as such
        return _("{game} (NYT shares)").format(game=name)
    return _(FLAVOUR_TITLES.get(flavour, f"{{game}} {flavour}")).format(game=name)


def share_title(game: GameView) -> str:
    """The game's name as its share's header writes it, in English whatever the reader's
    language: other bots read it ("wordlebot Wordle #20260301", "Wordle practice")."""
    name = game.title
    if game.kind.split(":")[0] in KINDS and KINDS[game.kind.split(":")[0]].base:
        with use_locale("en"):  # another language's Wordle: its English name
            name = game_name(game.kind.split(":")[0])
    if game.number is not None:
        return f"wordlebot {name} #{game.number}"
    return f"{name} {game.kind.split(':')[1]}"


def title(game: GameView) -> str:
    """The game's name, in the current locale. The bot's dailies are "wordlebot Wordle
    #20260301": numbered by their date (:func:`bot.services.daily.shown_number`), never with
    a number of the NYT's kind, whose answer is another."""
    kind = game.kind.split(":")[1]
    if game.number is not None:
        name = f"wordlebot {game.title} #{game.number}"
    else:
        name = _(FLAVOUR_TITLES.get(kind, f"{{game}} {kind}")).format(game=game.title)
    if game.mode == "normal":
        return name
    return _(MODE_TITLES.get(game.mode, f"{{name}} ({game.mode} mode)")).format(name=name)


def status_line(game: GameView, *, spoiler: bool) -> str:
    count = len(game.rows)
    if game.boards is not None:
        solved = sum(1 for b in game.boards if b and b[-1][1] == "2" * game.length)
        if game.status == "won":
            return _("All {boards} boards solved in {count}/{limit}!").format(
                boards=len(game.boards), count=count, limit=game.max_guesses
            )
        if game.status == "lost":
            return _("X/{limit}. The answers were {answers}.").format(
                limit=game.max_guesses, answers=capitals(game.answer or "")
            )
        return _("{solved}/{boards} boards solved. Guess {number} of {limit}").format(
            solved=solved, boards=len(game.boards), number=count + 1, limit=game.max_guesses
        )
    if game.remaining is not None:  # Absurdle
        target = capitals(game.target or "")
        if game.status == "won":
            if game.target:
                return _("Cornered in {count} guesses! Target: {target}.").format(
                    count=count, target=target
                )
            return _("Cornered in {count} guesses!").format(count=count)
        if game.status == "lost" and game.target:
            return _("The target {target} is gone: the adversary dodged it.").format(target=target)
        if game.status == "lost":  # a practice game given up: no target to name
            return ngettext("Given up with {count} word left.", "Given up with {count} words left.",
                            game.remaining or 0).format(count=game.remaining or 0)  # fmt: skip
        if game.target:
            return ngettext("{count} word left. Target: {target}.",
                            "{count} words left. Target: {target}.", game.remaining
                            ).format(count=game.remaining, target=target)  # fmt: skip
        return ngettext("{count} word left.", "{count} words left.", game.remaining).format(
            count=game.remaining
        )
    if game.status == "won":
        return _("Solved in {count}/{limit}!").format(count=count, limit=game.max_guesses)
    if game.status == "lost":
        answer = capitals(game.answer or "")
        shown = f"||{answer}||" if spoiler else answer
        return _("X/{limit}. The answer was {answer}.").format(limit=game.max_guesses,
                                                              answer=shown)  # fmt: skip
    return _("Guess {number} of {limit}").format(number=count + 1, limit=game.max_guesses)


# A dictionary's parts of speech (engine/definitions.py), marked for the catalogs.
PARTS_OF_SPEECH = {"noun": N_("noun"), "verb": N_("verb"), "adjective": N_("adjective"),
                   "adverb": N_("adverb")}  # fmt: skip
GLOSS = 300  # a board's definition's characters at most


def part_of_speech(part: str) -> str:
    return _(PARTS_OF_SPEECH[part]) if part in PARTS_OF_SPEECH else part


def sense_text(part: str, gloss: str, longest: int | None = None) -> str:
    """ "(noun) a roll of tobacco", or the gloss alone where the dictionary names no part of
    speech (German Wiktionary's glosses); cut to ``longest`` characters if given."""
    if longest is not None and len(gloss) > longest:
        gloss = gloss[: longest - 1] + "…"
    return f"({part_of_speech(part)}) {gloss}" if part else gloss


def definition_text(found: Definition) -> str:
    """/define's answer: the word, its senses, and the dictionary it comes from."""
    lines = [f"**{capitals(found.word)}**"]
    lines += [sense_text(sense.part, sense.gloss) for sense in found.senses]
    lines.append("-# " + _("Source: {source}").format(source=found.source))
    return "\n".join(lines)


def day_definition(answer: str, variant: str) -> str:
    """ " (noun) a large long-necked bird": a day's word's first sense, behind a spoiler, for
    a digest of a day that is over; "" where the language has no dictionary."""
    from engine.definitions import definition
    from engine.variants import get_variant

    found = definition(answer, get_variant(variant).language)
    if found is None:
        return ""
    sense = found.senses[0]
    return f" ||{sense_text(sense.part, sense.gloss, GLOSS)}||"


def finished_definition(game: GameView, *, spoiler: bool) -> str:
    """The answer's first sense, for a finished game's board: "" while the game is played (a
    game in progress shows no answer, so nothing of it either), for games of several boards,
    Absurdle, and languages without a dictionary. ``spoiler`` hides it as the board hides
    the answer of a daily, without the word (the status line above has it, behind its own
    spoiler)."""
    if not game.over or not game.answer or game.boards is not None or game.remaining is not None:
        return ""
    from engine.definitions import definition
    from engine.variants import get_variant

    found = definition(game.answer, get_variant(game.variant).language)
    if found is None:
        return ""
    sense = found.senses[0]
    if spoiler:
        return f"||{sense_text(sense.part, sense.gloss, GLOSS)}||"
    gloss = sense_text("", sense.gloss, GLOSS)
    if not sense.part:
        return _("{word}: {gloss}").format(word=capitals(found.word), gloss=gloss)
    return _("{word} ({part}): {gloss}").format(
        word=capitals(found.word), part=part_of_speech(sense.part), gloss=gloss
    )


def share_text(game: GameView, palette: Palette = STANDARD) -> str:
    """The spoiler-free share, as the original game writes it (its high-contrast squares
    too)."""
    score = len(game.rows) if game.status == "won" else "X"
    hard = "*" if game.mode != "normal" else ""
    limit = f"/{game.max_guesses}" if game.max_guesses else ""
    header = f"{share_title(game)} {score}{limit}{hard}"
    if game.boards is not None:  # colours only: the guessed words would give the answers away
        return "\n".join([header, "", *multi_squares(game, palette)])
    return "\n".join([header, "", *(squares_of(d, palette) for _guess, d in game.rows)])


def stats_text(stats: Stats, who: str) -> str:
    most = max(stats.distribution.values(), default=0) or 1
    lines = [
        f"{who}: {kind_text(stats.kind)}",
        _("Played {played} | Win % {percent} | Current streak {current} | Max streak {longest}")
        .format(played=stats.played, percent=stats.win_percent, current=stats.current_streak,
                longest=stats.max_streak),
        _("Guess distribution:"),
    ]  # fmt: skip
    for guesses, count in stats.distribution.items():
        bar = "█" * max(1, round(20 * count / most)) if count else ""
        lines.append(f"{guesses} {bar} {count}")
    for line in (stats.shared, stats.archive):  # results kept apart from the streak
        if line is not None:
            if line.average is None:
                said = _("{label}: Played {played} | Won {wins}")
            else:
                said = _("{label}: Played {played} | Won {wins} | Average {average}")
            lines.append(said.format(label=line.label, played=line.played, wins=line.wins,
                                     average=format_number(line.average or 0, 2)))  # fmt: skip
    return "\n".join(lines)


def board_value(metric: str, value: float) -> str:
    """A board's value as a person reads it, in the current locale: 46%, 3.52, 12."""
    if metric == "win_rate":
        return format_percent(value)
    if metric == "average":
        return format_number(value, 2)
    return f"{value:.0f}"


def board_text(board: Board) -> str:
    scope = _("this server") if board.scope is not None else _("everyone")
    heading = (f"{_(METRIC_TITLES[board.metric])}, {kind_text(board.kind)}, {scope}, "
               f"{board.period}")  # fmt: skip
    if not board.entries:
        return f"{heading}\n" + _("Nobody is on this board yet.")
    lines = [heading]
    for entry in board.entries:
        value = board_value(board.metric, entry.value)
        line = f"{entry.rank:>3}. " + _("{player} - {value} ({count} played)").format(
            player=entry.name, value=value, count=entry.played)  # fmt: skip
        if entry.shared:  # told apart from the games played with the bot
            line += " " + ngettext("📋 {count} of them a typed share, not played with the bot",
                                   "📋 {count} of them typed shares, not played with the bot",
                                   entry.shared).format(count=entry.shared)  # fmt: skip
        lines.append(line)
    lines.append(_("Page {page} of {pages}").format(page=board.page, pages=board.pages))
    return "\n".join(lines)


def analysis_text(analysis: Analysis) -> str:
    """What a paste showed: each share's result and, for a Wordle grid, the answers it fits."""
    lines: list[str] = []
    for share, reading in zip(analysis.shares, analysis.readings, strict=True):
        number = f" #{share.puzzle}" if share.puzzle is not None else ""
        results = ", ".join(f"{b.guesses}" if b.solved else "X" for b in share.boards)
        name = f"**{share.title}{number}**"
        if share.hard:
            # Translators: {share} is the share's name in bold ("**Wordle #1982**").
            lines.append(_("{share} (hard mode): {results}").format(share=name, results=results))
        else:
            lines.append(f"{name}: {results}")
        if reading is not None:
            likely = ", ".join(capitals(w) for w in reading.likely[:6])
            lines.append(
                ngettext(
                    "The grid alone fits {count} answer; most likely: {words}",
                    "The grid alone fits {count} answers; most likely: {words}",
                    reading.count,
                ).format(count=reading.count, words=likely)
            )
            if not reading.complete:
                lines.append(_("(The hard-mode check ran out of time, so the count may be high: "
                               "add the words you played for an exact reading.)"))  # fmt: skip
    if analysis.hint is not None:
        result = analysis.hint
        lines.append(
            _("{count} possible: {words}").format(
                count=result.remaining, words=candidates_text(result, 12)
            )
        )
        if result.suggestions:
            lines.append(
                _("Best next guess: {guess}").format(guess=capitals(result.suggestions[0].guess))
            )
    if analysis.coaching is not None:
        lines.append(f"```\n{coaching_text(analysis.coaching)}\n```")
    lines.extend(_("Note: {problem}").format(problem=p) for p in analysis.problems)
    return "\n".join(lines) or _("Nothing to analyse.")


def candidates_text(result: Hint, shown: int) -> str:
    """The first ``shown`` candidates, each with its chance under an answer model."""
    words = [capitals(w) for w in result.candidates[:shown]]
    if result.probabilities:
        words = [f"{w} {percent(p)}" for w, p in zip(words, result.probabilities, strict=False)]
    return ", ".join(words)


def percent(p: float) -> str:
    """A chance for people, in the current locale: 12%, 0.4%, <0.1%."""
    return format_percent(p) if p >= 0.01 else format_percent(p, 1) if p >= 0.001 else (
        "<" + format_percent(0.001, 1))  # fmt: skip


def game_name(game: str) -> str:
    """A game by its name as the reader knows it (each language's Wordle in their words)."""
    return shown_title(KINDS[game]) if game in KINDS else game.title()


def hint_text(result: Hint, shown: int = 15) -> str:
    """A hint for one board: what is left, then the best guesses, each marked when it
    could be the answer (with its chance under an answer model). With one word left, that
    word alone; where the worst case is all (Absurdle), each guess by the words it leaves."""
    if result.remaining == 1:
        return _("Only one word is left: {word}").format(word=f"`{capitals(result.candidates[0])}`")
    if result.measure == "minimax":
        return _worst_case_text(result, shown)
    lines = [_hint_head(result, shown), _("Best guesses:")]
    for s in result.suggestions:
        said = _("{guess} {bits} bits, {left} left on average, worst {worst}").format(
            guess=f"`{capitals(s.guess)}`", bits=format_number(s.entropy, 2),
            left=format_number(s.expected, 1), worst=s.worst)  # fmt: skip
        if s.possible and s.chance:
            said += " " + _("(could be it: {chance})").format(chance=percent(s.chance))
        elif s.possible:
            said += " " + _("(could be it)")
        if s.expected_guesses:
            said += ", " + _("{count} guesses to finish").format(
                count=format_number(s.expected_guesses, 2)
            )
        lines.append(said)
    return "\n".join(lines)


def _hint_head(result: Hint, shown: int) -> str:
    """How many words are left, and the first ``shown`` of them."""
    words = candidates_text(result, shown)
    count = f"**{result.remaining}**"
    if result.remaining > shown:
        head = _("{count} possible: {words} and {more} more").format(
            count=count, words=words, more=result.remaining - shown
        )
    else:
        head = _("{count} possible: {words}").format(count=count, words=words)
    return head


def _worst_case_text(result: Hint, shown: int) -> str:
    """Absurdle: the adversary always keeps the biggest group, so a guess's worst case is
    what it leaves; the best guesses leave the fewest."""
    lines = [_hint_head(result, shown), _("Best guesses (the adversary keeps the biggest group):")]
    for s in result.suggestions:
        said = ngettext("{guess} leaves {count} word", "{guess} leaves {count} words",
                        s.worst).format(guess=f"`{capitals(s.guess)}`", count=s.worst)  # fmt: skip
        lines.append(said)  # no "could be it": the adversary keeps another word while it can
    return "\n".join(lines)


def multi_hint_text(result: MultiHint) -> str:
    """A hint for a multi-board game: each board's candidates, then one guess for all."""
    lines = []
    for board, words in enumerate(result.candidates, 1):
        if not words:
            lines.append(_("Board {board}: solved").format(board=board))
            continue
        shown = ", ".join(capitals(w) for w in words[:8])
        if len(words) > 8:
            lines.append(
                _("Board {board}: {count} possible: {words} and {more} more").format(
                    board=board, count=len(words), words=shown, more=len(words) - 8
                )
            )
        else:
            lines.append(
                _("Board {board}: {count} possible: {words}").format(
                    board=board, count=len(words), words=shown
                )
            )
    lines.append(
        _("Best guess for all boards: {guess}").format(guess=f"`{capitals(result.guess)}`")
    )
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
            if solved is not None:
                done = _("Board {board}: {answer}, solved in {count}").format(
                    board=board, answer=capitals(answer), count=solved
                )
            else:
                done = _("Board {board}: {answer}, not solved").format(
                    board=board, answer=capitals(answer)
                )
            blocks.append(f"{done}\n{coaching_text(coaching)}")
        skill = "-" if report.skill is None else report.skill
        return "\n\n".join([*blocks, _("Skill over the boards {skill}/99").format(skill=skill)])
    if isinstance(report, WorstCaseCoaching):
        # Translators: a table's header: keep each column's word within its spaces.
        lines = [_("Turn  guess   left        best (leaves)  skill")]
        for i, w in enumerate(report.turns, 1):
            skill = "-" if w.skill is None else f"{w.skill:>2}"
            left = pgettext("a coaching table's cell", "won") if w.after == 0 else f"{w.after}"
            best = "-" if w.after == 0 else f"{capitals(w.best)} ({w.best_after})"
            lines.append(f"{i:>4}  {capitals(w.guess):<6} {w.before:>4} -> {left:<4} "
                         f"{best:<14} {skill:>5}")  # fmt: skip
        skill = "-" if report.skill is None else report.skill
        lines.append(_("Skill {skill}/99 (the adversary keeps the largest group: no luck)")
                     .format(skill=skill))  # fmt: skip
        return "\n".join(lines)
    # Translators: a table's header: keep each column's word within its spaces.
    lines = [_("Turn  guess   left        best    skill luck")]
    for i, t in enumerate(report.turns, 1):
        skill = "-" if t.skill is None else f"{t.skill:>2}"
        rollout = ("  " + _("(rollout: {guess})").format(guess=capitals(t.rollout))
                   if t.rollout else "")  # fmt: skip
        lines.append(f"{i:>4}  {capitals(t.guess):<6} {t.before:>4} -> {t.after:<4} "
                     f"{capitals(t.best):<6} {skill:>5} {t.luck:>4}{rollout}")  # fmt: skip
    skill = "-" if report.skill is None else report.skill
    lines.append(_("Skill {skill}/99, luck {luck}/99").format(skill=skill, luck=report.luck))
    return "\n".join(lines)


def challenge_text(board: ChallengeBoard, name: Callable[[int], str] = lambda p: f"<@{p}>",
                   shown: int = 40) -> str:  # fmt: skip
    """A challenge's public message: who set it, who may play, and each finished player's
    result in colours only (never a letter: others may still play the word). ``name``
    shows a player (a mention on Discord); the first ``shown`` finishers are listed."""
    c = board.challenge
    # Translators: keep the Markdown marks (**).
    if c.target_id is None:
        head = _(
            "**Challenge #{number}**: {game}, {count} guesses, set by {setter}, for anyone "
            "but the setter."
        ).format(number=c.id, game=game_name(c.game), count=c.max_guesses, setter=name(c.setter_id))
    else:
        head = _(
            "**Challenge #{number}**: {game}, {count} guesses, set by {setter}, for {player} only."
        ).format(
            number=c.id,
            game=game_name(c.game),
            count=c.max_guesses,
            setter=name(c.setter_id),
            player=name(c.target_id),
        )
    lines = [head, _("Press Play: you play privately; your result shows here in colours only.")]
    for f in board.finishes[:shown]:
        score = f.guesses if f.won else "X"
        grid = " ".join(to_emoji(int(d, 3), len(d)) for d in f.patterns)
        lines.append(f"{name(f.player_id)} {score}/{c.max_guesses}  {grid}".rstrip())
    if len(board.finishes) > shown:
        lines.append(_("... and {count} more").format(count=len(board.finishes) - shown))
    return "\n".join(lines)


# The heading of the shares typed in a server, shown apart from the games played with the bot
# (the live board's and the digest's).
SHARED_APART = N_("Shares typed here, not played with the bot: they win nothing")


def digest_text(digest: Digest, name: Callable[[Member], str] = lambda m: m.name) -> str:
    """A server's digest of one day, as the official app's digest reads, per game: the
    group streak, the best score crowned, every score's players, who did not finish, and
    the coach's highlights (the guessed words behind spoilers). ``name`` shows a player (a
    mention on Discord)."""
    blocks = []
    for game in digest.games:
        lines = [f"**{game.title}** ({digest.day.isoformat()})"]
        if game.shared:
            lines.append(_(SHARED_APART))
        if game.streak:  # a kind's shares after its games played here: said there
            lines.append(ngettext("Your group is on a {count} day streak! Here are the results:",
                                  "Your group is on a {count} days streak! Here are the results:",
                                  game.streak).format(count=game.streak))  # fmt: skip
        for score, members in game.scores:
            crown = "👑 " if members == game.crowned else ""
            lines.append(f"{crown}{score}: {' '.join(name(m) for m in members)}")
        if game.unfinished:
            lines.append(
                _("Started, not finished: {players}").format(
                    players=" ".join(name(m) for m in game.unfinished)
                )
            )
        highlights = (
            (_("Most skilful guess: {player}, guess {turn} {word} (skill {value})"), game.skilful),
            (_("Luckiest guess: {player}, guess {turn} {word} (luck {value})"), game.luckiest),
        )
        for said, shown in highlights:
            if shown is not None:
                lines.append(
                    said.format(
                        player=name(shown.member),
                        turn=shown.turn,
                        word=f"||{capitals(shown.guess)}||",
                        value=shown.value,
                    )
                )
        if game.answer:  # the day is over: its word, and what it means where we know
            lines.append(_("The word: {word}").format(word=f"||{capitals(game.answer)}||")
                         + day_definition(game.answer, game.variant))  # fmt: skip
        blocks.append("\n".join(lines))
    if digest.podium is not None:
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        places = [f"{medals.get(rank, f'{rank}.')} {name(member)} "
                  + ngettext("({count} win)", "({count} wins)", wins).format(count=wins)
                  for rank, member, wins in digest.podium.places]  # fmt: skip
        # Translators: keep the Markdown marks (**); {season} is "Season 61 (... to ...)".
        heading = _("**{season} is over!** Wordle daily podium:").format(season=digest.podium.title)
        blocks.append(heading + "\n" + "\n".join(places))
    if blocks:
        return "\n\n".join(blocks)
    return _("No daily was finished on {day}.").format(day=digest.day)


def race_text(board: RaceBoard, name: Callable[[Racer], str] = lambda r: r.name,
              when: Callable[[datetime], str] = lambda t: f"{t:%H:%M:%S} UTC",
              grids: bool = True) -> str:  # fmt: skip
    """A race's lobby, live scoreboard and podium. Colours only: no letters until the race
    is over, when the answers are shown. ``name`` shows a player (a mention on Discord),
    ``when`` a time (a Discord timestamp)."""
    race = board.race
    spec = _("{game} race").format(game=game_name(race.game))
    if race.mode != "normal":
        spec = _(MODE_TITLES.get(race.mode, f"{{name}} ({race.mode} mode)")).format(name=spec)
    # Translators: keep the Markdown marks (**); {race} is "Wordle race (hard mode)".
    if race.status == "lobby":
        return "\n".join([
            _("**{race}**: press Join to race ({count}/25 in)").format(
                race=spec, count=len(board.players)),
            ", ".join(name(r) for r in board.players),
            # Translators: {when} is a time (a Discord timestamp: "in 1 minute").
            _("The host starts it; it starts by itself {when}.").format(when=when(race.start_by)),
        ])  # fmt: skip
    if race.started_at is None:
        return _("**{race}**: called off, fewer than 2 players joined.").format(race=spec)
    if race.status == "over":
        words = capitals(", ".join(race.answers))
        if len(race.answers) > 1:
            head = _("**{race} is over!** The answers were {words}.").format(race=spec, words=words)
        else:
            head = _("**{race} is over!** The answer was {words}.").format(race=spec, words=words)
    else:
        assert race.end_by is not None
        head = _("**{race}**: press Play for your board. It ends {when}.").format(
            race=spec, when=when(race.end_by)
        )
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [head]
    for racer in board.players:
        game = board.games.get(racer.player_id)
        if (racer.won and racer.place is not None and racer.finished_at is not None
                and racer.guesses is not None):  # fmt: skip
            took = int((racer.finished_at - race.started_at).total_seconds())
            line = (f"{medals.get(racer.place, f'{racer.place}.')} {name(racer)}: "
                    + ngettext("{count} guess, {time}", "{count} guesses, {time}", racer.guesses)
                    .format(count=racer.guesses, time=f"{took // 60}:{took % 60:02d}"))  # fmt: skip
        elif racer.finished_at is not None or race.status == "over":
            place = f"{racer.place}. " if race.status == "over" else ""
            line = place + _("{player}: did not solve it").format(player=name(racer))
        else:
            line = _("{player}: playing").format(player=name(racer))
        if grids and game is not None and game.boards is None and game.rows:
            line += "  " + " ".join(to_emoji(int(d, 3), game.length) for _guess, d in game.rows)
        lines.append(line)
    return "\n".join(lines)


def coop_rows(view: CoopView, name: Callable[[Turn], str] = lambda t: t.name) -> list[str]:
    """The shared board's rows (letters shown: the whole channel plays it), each with who
    played it and its points. ``name`` shows a player (a mention on Discord)."""
    deleted = _("(deleted)")
    return [f"{line}  {deleted if turn.player_id is None else f'{name(turn)} +{turn.points}'}"
            for line, turn in zip(board_rows(view.game), view.turns, strict=True)]  # fmt: skip


def coop_status(view: CoopView) -> str:
    if view.status != "ended":
        return status_line(view.game, spoiler=False)
    words = capitals(view.game.answer or "")
    if view.game.boards is not None:
        return _("Ended by a moderator. The answers were {words}.").format(words=words)
    return _("Ended by a moderator. The answer was {words}.").format(words=words)


def coop_standings_text(
    standings: list[CoopStanding], name: Callable[[CoopStanding], str] = lambda s: s.name
) -> str:
    """The server's co-op board: points, then guesses and solves."""
    if not standings:
        return _("Nobody has scored in a co-op game here yet: /coop start")
    return "\n".join(
        f"{rank:>2}. {name(s)}: "
        + ", ".join([
            ngettext("{count} point", "{count} points", s.points).format(count=s.points),
            ngettext("{count} guess", "{count} guesses", s.guesses).format(count=s.guesses),
            ngettext("{count} solve", "{count} solves", s.solves).format(count=s.solves),
        ])
        for rank, s in enumerate(standings, 1)
    )  # fmt: skip


def race_standings_text(
    standings: list[RaceStanding], name: Callable[[RaceStanding], str] = lambda s: s.name
) -> str:
    """The server's racers: wins, podiums, mean place. ``name`` shows a player (a mention on
    Discord)."""
    if not standings:
        return _("Nobody has raced here: /race")
    return "**" + _("Races here") + "**\n" + "\n".join(
        f"{rank}. {name(s)}: "
        + ", ".join([
            ngettext("{count} win", "{count} wins", s.wins).format(count=s.wins),
            ngettext("{count} podium", "{count} podiums", s.podiums).format(count=s.podiums),
            _("mean place {place}").format(place=format_number(s.mean_place, 2)),
        ])
        + " " + ngettext("({count} race)", "({count} races)", s.races).format(count=s.races)
        for rank, s in enumerate(standings, 1)
    )  # fmt: skip
