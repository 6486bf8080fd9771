"""The year card (bot/services/year.py): a PNG of a player's or a server's year, in the
house's colours and font, its words in the reader's language; and its alt text."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import N_, _, format_day, format_number, format_percent, month_letters, ngettext
from bot.render.alt_text import LIMIT, bar
from bot.render.images import BACKGROUND, DARK, EMPTY_BORDER, GREY, WHITE, _png, clipped
from bot.render.letters import capitals, font
from bot.render.palette import STANDARD, Palette
from bot.services.year import Highlight, PlayerYear, ServerYear

WIDTH, HEIGHT, MARGIN, GAP = 800, 640, 28, 16
HEADER = 104
SOFT = (120, 124, 126)  # labels, in the absent tiles' grey
TITLE = N_("{year} in review")
THIS_SERVER = N_("This server")
WIN_RATE, BEST_STREAK = N_("win rate"), N_("best streak")
DISTRIBUTION, SKILL_BY_MONTH = N_("Guess distribution"), N_("Skill by month (0 to 99)")
OPENER, LUCKIEST, SKILFUL = N_("Favourite opener"), N_("Luckiest game"), N_("Most skilful game")
LUCK, SKILL = N_("{day}, {result}: luck {value}/99"), N_("{day}, {result}: skill {value}/99")
NOT_MEASURED = N_("not measured yet")
NOT_SOLVED = N_("not solved")
GROUP_STREAK = N_("days in a row someone played")
MOST_WINS, GAMES_BY_MONTH = N_("Most wins (wins / games)"), N_("Games by month")


def games_label(count: int) -> str:
    return ngettext("game played", "games played", count)


def solved(guesses: int | None) -> str:
    if guesses is None:
        return _(NOT_SOLVED)
    return ngettext("solved in {count} guess", "solved in {count} guesses", guesses).format(
        count=guesses
    )


def highlight_text(template: str, game: Highlight | None) -> str:
    """A named game as the card and its alt text say it: its day, result and figure."""
    if game is None:
        return _(NOT_MEASURED)
    return _(template).format(day=format_day(date.fromisoformat(game.day)),
                              result=solved(game.guesses), value=game.value)  # fmt: skip


def _fit(
    text: str, width: int, size: int, smallest: int = 11
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` in the largest font up to ``size`` that fits ``width`` (cut if even the
    smallest does not): a translation may be longer than the English."""
    while size > smallest and font(size).getlength(text) > width:
        size -= 1
    return clipped(text, font(size), width), font(size)


def _two_lines(text: str, width: int, size: int) -> list[str]:
    """``text`` on one line if it fits ``width``, else split at the space that leaves its
    two lines the most even."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    if font(size).getlength(text) <= width or not spaces:
        return [text]
    cut = min(spaces, key=lambda i: abs(len(text) - 2 * i))
    return [text[:cut], text[cut + 1 :]]


class Card:
    """A card being drawn: a header band in the palette's green, then boxes and charts."""

    def __init__(self, title: str, subtitle: str, palette: Palette) -> None:
        self.palette = palette
        self.image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.rectangle((0, 0, WIDTH, HEADER), fill=palette.correct)
        text, drawn = _fit(title, WIDTH - 2 * MARGIN, 38)
        self.draw.text((MARGIN, 22), text, fill=WHITE, font=drawn)
        text, drawn = _fit(subtitle, WIDTH - 2 * MARGIN, 20)
        self.draw.text((MARGIN, 68), text, fill=WHITE, font=drawn)

    def text(self, xy: tuple[float, float], text: str, width: int, size: int,
             fill: tuple[int, int, int] = DARK, anchor: str = "la") -> None:  # fmt: skip
        shown, drawn = _fit(text, width, size)
        self.draw.text(xy, shown, fill=fill, font=drawn, anchor=anchor)

    def figures(self, figures: Sequence[tuple[str, str]], top: int) -> int:
        """Big numbers side by side, each over its label; returns the bottom."""
        width = (WIDTH - 2 * MARGIN - (len(figures) - 1) * GAP) // len(figures)
        for i, (number, label) in enumerate(figures):
            x = MARGIN + i * (width + GAP)
            self.draw.rounded_rectangle((x, top, x + width, top + 96), 10, outline=EMPTY_BORDER,
                                        width=2)  # fmt: skip
            self.text((x + width / 2, top + 38), number, width - 16, 36, anchor="mm")
            lines = _two_lines(label, width - 16, 15)
            for n, line in enumerate(lines):
                y = top + 76 + (n * 17 - 8 if len(lines) == 2 else 0)
                self.text((x + width / 2, y), line, width - 16, 15 if len(lines) == 1 else 14,
                          SOFT, anchor="mm")  # fmt: skip
        return top + 96

    def bars(self, rows: Sequence[tuple[str, int]], box: tuple[int, int, int, int],
             heading: str) -> None:  # fmt: skip
        """Horizontal bars, the longest filling the box, each with its label and count."""
        left, top, right, bottom = box
        self.text((left, top), heading, right - left, 17)
        top += 30
        step = (bottom - top) // max(len(rows), 1)
        tall = min(26, step - 6)
        most = max((count for _label, count in rows), default=0) or 1
        for i, (label, count) in enumerate(rows):
            y = top + i * step
            self.text((left, y + tall / 2), label, 24, 15, anchor="lm")
            start = left + 26
            length = max(34, round((right - start) * count / most))
            self.draw.rectangle((start, y, start + length, y + tall),
                                fill=self.palette.correct if count else GREY)  # fmt: skip
            self.text((start + length - 6, y + tall / 2), format_number(count), length - 8, 15,
                      WHITE, anchor="rm")  # fmt: skip

    def columns(self, values: dict[int, int | None], box: tuple[int, int, int, int],
                heading: str, most: int | None = None) -> None:  # fmt: skip
        """A column a month, its value over it and the month's letter under it."""
        left, top, right, bottom = box
        self.text((left, top), heading, right - left, 17)
        top, base = top + 52, bottom - 22
        step = (right - left) / 12
        highest = most or max((v or 0 for v in values.values()), default=0) or 1
        self.draw.line((left, base, right, base), fill=EMPTY_BORDER, width=2)
        for i, letter in enumerate(month_letters()):
            value = values.get(i + 1)
            x0, x1 = left + i * step + 4, left + (i + 1) * step - 4
            centre = (x0 + x1) / 2
            if value:
                y = base - (base - top) * value / highest
                self.draw.rectangle((x0, y, x1, base - 1), fill=self.palette.present)
                self.text((centre, y - 4), format_number(value), int(step), 12, SOFT,
                          anchor="md")  # fmt: skip
            self.text((centre, base + 4), letter, int(step), 14, SOFT, anchor="ma")

    def png(self) -> bytes:
        return _png(self.image)


def player_year_png(year: PlayerYear, who: str, game: str,
                    palette: Palette = STANDARD) -> bytes:  # fmt: skip
    """A player's year: big numbers, the guess distribution, skill month by month, the
    favourite opener as tiles, and the luckiest and most skilful games."""
    card = Card(_(TITLE).format(year=year.year), f"{who} · {game}", palette)
    bottom = card.figures([
        (format_number(year.games), games_label(year.games)),
        (format_number(year.wins), ngettext("win", "wins", year.wins)),
        (format_percent(year.win_percent / 100), _(WIN_RATE)),
        (format_number(year.best_streak), _(BEST_STREAK)),
    ], HEADER + 24)  # fmt: skip
    middle = (bottom + 24, bottom + 24 + 240)
    half = (WIDTH - 2 * MARGIN - 2 * GAP) // 2
    card.bars([(str(n), c) for n, c in year.distribution.items()],
              (MARGIN, middle[0], MARGIN + half, middle[1]), _(DISTRIBUTION))  # fmt: skip
    card.columns(year.skill_by_month, (WIDTH - MARGIN - half, middle[0], WIDTH - MARGIN,
                                       middle[1]), _(SKILL_BY_MONTH), most=99)  # fmt: skip
    top = middle[1] + 22
    card.draw.line((MARGIN, top - 10, WIDTH - MARGIN, top - 10), fill=EMPTY_BORDER, width=2)
    card.text((MARGIN, top), _(OPENER), 250, 17)
    if year.opener:
        letters = capitals(year.opener)
        size = min(40, (250 - (len(letters) - 1) * 4) // len(letters))
        for i, letter in enumerate(letters):
            x = MARGIN + i * (size + 4)
            card.draw.rectangle((x, top + 28, x + size, top + 28 + size), fill=palette.correct)
            card.draw.text((x + size / 2, top + 28 + size / 2), letter, fill=WHITE,
                           font=font(size // 2 + 2), anchor="mm")  # fmt: skip
        times = ngettext("played {count} time", "played {count} times", year.opener_games)
        card.text((MARGIN, top + 36 + size), times.format(count=format_number(year.opener_games)),
                  250, 14, SOFT)  # fmt: skip
    else:
        card.text((MARGIN, top + 30), _(NOT_MEASURED), 250, 15, SOFT)
    x = MARGIN + 280
    for i, (label, line) in enumerate((
        (_(LUCKIEST), highlight_text(LUCK, year.luckiest)),
        (_(SKILFUL), highlight_text(SKILL, year.most_skilful)),
    )):  # fmt: skip
        y = top + i * 50
        card.text((x, y), label, WIDTH - MARGIN - x, 17)
        card.text((x, y + 22), line, WIDTH - MARGIN - x, 15, SOFT)
    return card.png()


def server_year_png(year: ServerYear, game: str, palette: Palette = STANDARD) -> bytes:
    """A server's year: its players, games, longest group streak and busiest day, who won
    most, and the games month by month."""
    card = Card(_(TITLE).format(year=year.year), f"{_(THIS_SERVER)} · {game}", palette)
    busiest = format_day(date.fromisoformat(year.busiest_day)) if year.busiest_day else "-"
    bottom = card.figures([
        (format_number(year.players), ngettext("player", "players", year.players)),
        (format_number(year.games), games_label(year.games)),
        (format_number(year.group_streak), _(GROUP_STREAK)),
        (busiest, ngettext("busiest day ({count} game)", "busiest day ({count} games)",
                           year.busiest_games).format(count=format_number(year.busiest_games))),
    ], HEADER + 24)  # fmt: skip
    middle = (bottom + 24, HEIGHT - MARGIN)
    half = (WIDTH - 2 * MARGIN - 2 * GAP) // 2
    left, top = MARGIN, middle[0]
    card.text((left, top), _(MOST_WINS), half, 17)
    for i, (name, wins, games) in enumerate(year.top):
        y = top + 40 + i * 42
        card.draw.rounded_rectangle((left, y, left + 30, y + 30), 6,
                                    fill=palette.correct if i == 0 else GREY)  # fmt: skip
        card.text((left + 15, y + 15), str(i + 1), 26, 16, WHITE, anchor="mm")
        card.text((left + 42, y + 15), name, half - 150, 17, anchor="lm")
        card.text((left + half, y + 15), f"{format_number(wins)} / {format_number(games)}",
                  100, 17, SOFT, anchor="rm")  # fmt: skip
    card.columns(dict(year.games_by_month), (WIDTH - MARGIN - half, top, WIDTH - MARGIN,
                                             middle[1]), _(GAMES_BY_MONTH))  # fmt: skip
    return card.png()


def _months(values: dict[int, int | None], year: int) -> str:
    return ", ".join(f"{format_day(date(year, m, 1), 'MMM')} {format_number(v)}"
                     for m, v in values.items() if v)  # fmt: skip


def player_year_alt(year: PlayerYear, who: str, game: str) -> str:
    """The player's card in words: every figure it shows."""
    parts = [
        _("{who}'s {year}, {game}").format(who=who, year=year.year, game=game),
        ngettext("{count} game played", "{count} games played", year.games)
        .format(count=format_number(year.games)),
        ngettext("{count} win ({percent})", "{count} wins ({percent})", year.wins)
        .format(count=format_number(year.wins), percent=format_percent(year.win_percent / 100)),
        _("best streak {count}").format(count=format_number(year.best_streak)),
    ]  # fmt: skip
    if year.opener:
        parts.append(ngettext("favourite opener {word} ({count} game)",
                              "favourite opener {word} ({count} games)", year.opener_games)
                     .format(word=capitals(year.opener), count=year.opener_games))  # fmt: skip
    bars = ", ".join(bar(n, c) for n, c in year.distribution.items())
    parts.append(_("guess distribution: {bars}").format(bars=bars))
    parts.append(_("luckiest game: {game}").format(game=highlight_text(LUCK, year.luckiest)))
    parts.append(_("most skilful game: {game}").format(
        game=highlight_text(SKILL, year.most_skilful)))  # fmt: skip
    months = _months(year.skill_by_month, year.year)
    if months:
        parts.append(_("skill by month: {months}").format(months=months))
    return _within("; ".join(parts) + ".")


def _within(text: str) -> str:
    """Alt text as Discord keeps it: at most :data:`LIMIT` characters, cut visibly."""
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def server_year_alt(year: ServerYear, game: str) -> str:
    """The server's card in words."""
    parts = [
        _("This server's {year}, {game}").format(year=year.year, game=game),
        ngettext("{count} player", "{count} players", year.players)
        .format(count=format_number(year.players)),
        ngettext("{count} game played", "{count} games played", year.games)
        .format(count=format_number(year.games)),
        ngettext("longest group streak {count} day", "longest group streak {count} days",
                 year.group_streak).format(count=format_number(year.group_streak)),
    ]  # fmt: skip
    if year.busiest_day:
        parts.append(ngettext("busiest day {day} ({count} game)",
                              "busiest day {day} ({count} games)", year.busiest_games).format(
            day=format_day(date.fromisoformat(year.busiest_day)),
            count=format_number(year.busiest_games)))  # fmt: skip
    top = ", ".join(ngettext("{name} {count} win of {games}", "{name} {count} wins of {games}",
                             wins).format(name=name, count=format_number(wins),
                                          games=format_number(games))
                    for name, wins, games in year.top)  # fmt: skip
    parts.append(_("most wins: {players}").format(players=top))
    parts.append(_("games by month: {months}").format(
        months=_months(dict(year.games_by_month), year.year)))  # fmt: skip
    return _within("; ".join(parts) + ".")
