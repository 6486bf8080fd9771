"""What an operator sees of `wordlebot run`: a token that cannot be one refused before any
connection, and a log with nothing to act on left out (voice) and no colour codes in a file."""

import base64
import socket
import subprocess
import sys

import pytest
from bot_process import TOKEN, BotProcess, clean_env, started
from hypothesis import given
from hypothesis import strategies as st

from bot.settings import bot_id_of

SIGNATURE = "Zm9vYmFyLXNpZ25hdHVyZS1vZi10aGUtdGVzdA"


def token_of(bot_id: int) -> str:
    return (
        f"{base64.urlsafe_b64encode(str(bot_id).encode()).decode().rstrip('=')}.GwE2Ea.{SIGNATURE}"
    )


@given(st.integers(min_value=10**16, max_value=2**64 - 1))
def test_a_tokens_first_part_is_its_bots_id(bot_id: int) -> None:
    assert bot_id_of(token_of(bot_id)) == bot_id


@given(st.text(max_size=80))
def test_what_is_not_three_base64url_parts_is_no_token(text: str) -> None:
    parts = text.split(".")
    if len(parts) != 3 or any(
        not part
        or set(part) - set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for part in parts
    ):
        assert bot_id_of(text) is None


def test_run_refuses_a_token_that_cannot_be_one_before_connecting(tmp_path) -> None:
    """Discord's API and the database both point at a port that only listens: nothing may
    connect to it."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    secret = "hunter2-secret-part"
    for token in (
        secret,  # one part
        f"Bot {token_of(10**17)}{secret}",  # the Authorization header's prefix, pasted along
        f'"{token_of(10**17)}{secret}"',  # quoted
        f"{secret}.GwE2Ea.{secret}",  # a first part that is no id
        f"MTIz.{secret}",  # cut short
    ):
        env = clean_env(discord_token=token, discord_api_base=f"http://127.0.0.1:{port}/api/v10",
                        database_url=f"postgresql://ann:pw@127.0.0.1:{port}/wordlebot")  # fmt: skip
        result = subprocess.run([sys.executable, "-m", "bot.cli", "run"], capture_output=True,
                                text=True, env=env, timeout=120, cwd=tmp_path)  # fmt: skip
        output = result.stdout + result.stderr
        assert result.returncode == 2, output
        assert result.stderr.strip().splitlines() == [
            "wordlebot: error: DISCORD_TOKEN is not a bot token (three parts joined by dots, the "
            "first the bot's id): copy it again from the Developer Portal, Bot > Reset Token"
        ]
        assert secret not in output and "hunter2" not in output
    try:
        listener.accept()
        raise AssertionError("something connected")
    except BlockingIOError:
        pass
    finally:
        listener.close()


async def test_the_log_file_has_no_colour_codes_and_no_voice_warnings(server, tmp_path):
    """The log goes to a file here (stderr redirected): discord.py would colour it inside a
    container (this suite's machines) and warn that voice, which this bot never uses, is
    missing PyNaCl and davey."""
    bot = BotProcess(server, str(tmp_path / "bot.sqlite3"), log_level="INFO")
    await started(server, bot)
    code, err = await bot.stop()
    assert code == 0, err[-2000:]
    assert "logged in as" in err.lower() or "INFO" in err  # the log was written
    assert "\x1b[" not in err
    assert "voice will NOT be supported" not in err
    assert TOKEN.split(".")[2] not in err


@pytest.mark.parametrize(("given", "shards"), [("0", [0]), ("3", [3]), ("0,1", [0, 1]),
                                               ("[2, 3]", [2, 3])])  # fmt: skip
def test_a_process_holding_one_shard_says_so_as_it_would_several(
    monkeypatch, given: str, shards: list[int]
) -> None:
    """SHARD_IDS=3 (one shard a process: the usual large deployment) was read as the number
    3, not a list, and refused."""
    from bot.settings import load_settings

    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", given)
    assert load_settings().shard_ids == shards
