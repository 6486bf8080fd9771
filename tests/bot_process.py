"""The real `wordlebot run` process pointed at the Discord stand-in, and interactions as
Discord sends them: what the end-to-end tests and the ramp benchmark share."""

import asyncio
import os
import signal
import subprocess
import sys
import tempfile

from discord_server import APP_ID, DiscordServer, snowflake, user

GUILDS = [970000000000000000, 970000000000000100, 970000000000000200]
SEED = "e2e-5eed-9f8e7d6c5b4a39281706f5e4d3c2b1a0"


def command(name: str, *path: str, user_id: int, guild: int = GUILDS[0], **options):
    leaf = [{"name": k, "type": 3 if isinstance(v, str) else 5 if isinstance(v, bool) else 4,
             "value": v} for k, v in options.items()]  # fmt: skip
    for sub in reversed(path):
        leaf = [{"name": sub, "type": 1, "options": leaf}]
    data = {"id": snowflake(), "name": name, "type": 1, "options": leaf, "guild_id": str(guild)}
    return base(2, user_id, guild) | {"data": data}


def click(custom_id: str, *, user_id: int, on: dict, guild: int = GUILDS[0]):
    """A button press on the message ``on`` (the board the bot sent), as Discord sends it."""
    clicked = message_stub(guild) | {"components": on.get("components", []),
                                     "embeds": on.get("embeds", [])}  # fmt: skip
    return base(3, user_id, guild) | {"data": {"custom_id": custom_id, "component_type": 2},
                                      "message": clicked}  # fmt: skip


def submit(modal: dict, value: str, *, user_id: int, guild: int = GUILDS[0]):
    field = modal["components"][0]["components"][0]
    return base(5, user_id, guild) | {"data": {"custom_id": modal["custom_id"], "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": field["custom_id"], "value": value}]}
    ]}, "message": message_stub(guild)}  # fmt: skip


def base(kind: int, user_id: int, guild: int) -> dict:
    return {
        "id": snowflake(), "application_id": str(APP_ID), "type": kind, "token": snowflake(),
        "version": 1, "channel_id": str(guild + 1), "guild_id": str(guild), "locale": "en-US",
        "channel": {"id": str(guild + 1), "type": 0, "name": "games", "position": 0,
                    "guild_id": str(guild), "permission_overwrites": [],
                    "permissions": "2251799813685247"},
        "guild_locale": "en-US", "app_permissions": "2251799813685247", "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
        "attachment_size_limit": 8388608,
        "member": {"user": user(user_id), "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                   "deaf": False, "mute": False, "flags": 0, "permissions": "2251799813685247"},
    }  # fmt: skip


def message_stub(guild: int) -> dict:
    return {"id": snowflake(), "channel_id": str(guild + 1), "type": 0, "content": "",
            "author": user(APP_ID, "wordlebot", bot=True), "embeds": [], "components": [],
            "attachments": [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": "2026-11-21T00:00:00+00:00",
            "edited_timestamp": None, "flags": 0}  # fmt: skip


class BotProcess:
    """The real bot process, pointed at the stand-in through settings only."""

    def __init__(
        self, server: DiscordServer, database: str, log_level: str = "WARNING",
        dev_guild: bool = True, **settings: str,
    ) -> None:  # fmt: skip
        env = {**os.environ, "DISCORD_TOKEN": "e2e-token", "DISCORD_API_BASE": server.api_base,
               "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{server.port}/gateway",
               "DEV_GUILD_ID": str(GUILDS[0]), "DAILY_SEED": SEED,
               "BUILD_TREES": "false", "LOG_LEVEL": log_level}  # fmt: skip
        # A path (the file), or a URL (``sqlite:///...``, ``postgresql://...``)
        env["DATABASE_URL" if "://" in database else "DATABASE_PATH"] = database
        env |= {name.upper(): value for name, value in settings.items()}
        if not dev_guild:
            del env["DEV_GUILD_ID"]
        # The log goes to a file: a pipe nobody reads until the end would fill up at DEBUG
        # and block the bot.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen([sys.executable, "-m", "bot.cli", "run"], env=env,
                                        stdout=subprocess.DEVNULL, stderr=self.log)  # fmt: skip

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        self.process.send_signal(sig)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.seek(0)
        err = self.log.read()
        self.log.close()
        return self.process.returncode, err.decode(errors="replace")


async def started(server: DiscordServer, bot: BotProcess) -> None:
    try:
        await asyncio.wait_for(server.identified.wait(), 90)
    except TimeoutError:
        _, err = bot.stop(signal.SIGKILL)
        raise AssertionError(f"the bot never identified: {err[-2000:]}") from None
    for _ in range(100):  # the guild's commands are synced in setup_hook, before connecting
        if server.synced:
            return
        await asyncio.sleep(0.05)
