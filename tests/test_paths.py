"""Every way to an action is held to the same rules: slash command, button or form share one
limit on playing and hints, and one answer when something fails (private, never silence)."""

import time

import pytest
from discord import app_commands
from discord_double import only, settle
from hypothesis import given
from hypothesis import strategies as st

from cogs.common import Boards
from cogs.cooldowns import Limit

ANN = 111


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_five_in_ten_seconds_then_a_wait_then_five_again():
    clock = Ticks()
    limit = Limit(5, 10.0, clock)
    assert [limit.retry_after(ANN) for _ in range(5)] == [None] * 5
    clock.now += 4
    assert limit.retry_after(ANN) == pytest.approx(6.0)
    clock.now += 6.01
    assert limit.retry_after(ANN) is None


@given(st.lists(st.tuples(st.integers(0, 5), st.floats(0, 6, allow_nan=False)), max_size=80))
def test_the_same_answers_as_discord_cooldowns_kept_forever(actions):
    """Dropping idle players changes nothing anyone is told: the answers equal those of one
    discord.py Cooldown per player kept for ever, and no idle player is held."""
    clock = Ticks()
    limit = Limit(3, 5.0, clock)
    kept: dict[int, app_commands.Cooldown] = {}
    for player, pause in actions:
        clock.now += pause
        expected = kept.setdefault(player, app_commands.Cooldown(3, 5.0))
        assert limit.retry_after(player) == expected.update_rate_limit(clock.now)
        assert all(clock.now <= b._last + 5.0 for b in limit.buckets.values())


def custom_id(reply, action: str) -> str:
    return next(i for i in reply.custom_ids() if f":{action}:" in i)


async def test_the_hint_button_and_the_guess_form_share_the_slash_commands_limit(double):
    (board,) = await double.command("wordle", "practice", user_id=ANN)
    (modal,) = await double.click(custom_id(board, "guess"), user_id=ANN, on=board)
    for word in ("crane", "slate", "moist", "pudgy", "flock"):  # five actions: the limit
        played, *_ = await double.command("guess", user_id=ANN, word=word)  # (old board goes)
        assert played.a_new_message and not played.ephemeral
    (hint,) = await double.click(custom_id(board, "hint"), user_id=ANN, on=board)
    assert hint.ephemeral and hint.text.startswith("Slow down")
    (submitted,) = await double.submit(modal, {"word": "bumpy"}, user_id=ANN)
    assert submitted.ephemeral and submitted.text.startswith("Slow down")
    (slash,) = await double.command("hint", user_id=ANN)
    assert slash.ephemeral and slash.text.startswith("Slow down")
    game = (await double.bot.services.storage.active_games(ANN, 900000000000000002))[0]
    assert len(game.state["rows"]) == 5  # the refused form played nothing


async def test_a_failing_button_or_form_gets_an_apology_not_silence(double, caplog):
    (board,) = await double.command("wordle", "practice", user_id=ANN)
    (modal,) = await double.click(custom_id(board, "guess"), user_id=ANN, on=board)

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    double.bot.services.games.guess = broken
    double.bot.services.games.give_up = broken
    (submitted,) = await double.submit(modal, {"word": "crane"}, user_id=ANN)
    (gave_up,) = await double.click(custom_id(board, "giveup"), user_id=ANN, on=board)
    for reply in (submitted, gave_up):
        assert reply.ephemeral and reply.text.startswith("Sorry, something went wrong")
    assert sum("failed" in r.message for r in caplog.records) == 2


async def test_a_form_left_open_is_forgotten_and_a_late_submit_still_plays(double):
    (board,) = await double.command("wordle", "practice", user_id=ANN)
    (modal,) = await double.click(custom_id(board, "guess"), user_id=ANN, on=board)
    store = double.bot._connection._view_store
    forms = [m for m in store._modals.values() if m.custom_id.startswith("wb:modal:guess")]
    assert forms and all(m.timeout == 900.0 for m in forms)  # not kept for ever
    for form in forms:
        store.remove_view(form)  # as its timeout does
    assert not any(m.custom_id.startswith("wb:modal:guess") for m in store._modals.values())
    (played,) = await double.submit(modal, {"word": "crane"}, user_id=ANN)
    assert played.an_update and "CRANE" in played.text


async def test_a_refusal_after_a_public_deferral_stays_private(double):
    await double.command("absurdle", user_id=ANN)
    await double.command("giveup", user_id=ANN)  # a finished game with nothing to coach
    before = len(double.sent)
    refused = only(await double.command("coach", user_id=ANN, share=True))  # read as one answer
    thinking, gone, _ = double.sent[before:]  # what was sent for it: a test of deferral itself
    assert refused.deferral == thinking
    assert thinking.kind == 5 and not thinking.ephemeral  # public, as asked
    assert gone.method == "DELETE" and gone.path.endswith("/messages/@original")
    assert refused.ephemeral and "nothing to coach" in refused.text


async def test_a_typed_guess_replaces_the_board_so_the_channel_keeps_one(double):
    await double.command("wordle", "practice", user_id=ANN)
    for word in ("crane", "slate"):
        board, *_ = await double.command("guess", user_id=ANN, word=word)
        assert board.a_new_message and not board.ephemeral and board.files == ["board.png"]
    await settle()  # the old boards go in the background
    deleted = [s for s in double.sent if s.method == "DELETE"]
    assert len(deleted) == 2 and all(s.path.endswith("/messages/@original") for s in deleted)


def test_an_old_board_is_deleted_only_while_its_token_lasts():
    clock = Ticks()
    boards = Boards(limit=3, clock=clock)
    first, second, third = object(), object(), object()
    assert boards.replace(1, 10, first) is None
    assert boards.replace(1, 10, second) is first
    assert boards.replace(1, 20, third) is None  # another channel: its own board
    clock.now += 15 * 60
    assert boards.replace(1, 10, first) is None  # its token is over: it stays
    for game in range(2, 6):
        boards.replace(game, 10, first)
    assert len(boards.shown) == 3  # bounded


async def test_a_slow_drawing_is_deferred_too_not_left_past_the_window(double, monkeypatch):
    from bot.render import images

    drawn = images.board_png

    def slow(*args, **kwargs):
        """A busy worker pool: the drawing ends only once the bot has deferred (polled from
        the worker thread; after a minute it ends all the same, and the test fails)."""
        for _ in range(int(60 / 0.01)):
            if any(sent.kind == 5 for sent in double.sent):
                break
            time.sleep(0.01)
        return drawn(*args, **kwargs)

    monkeypatch.setattr(images, "board_png", slow)
    board = only(await double.command("wordle", "practice", user_id=ANN))
    thinking = board.deferral
    assert thinking.kind == 5 and not thinking.ephemeral  # in time, and public as the board
    assert board.method == "PATCH" and board.files == ["board.png"] and "Wordle" in board.text
