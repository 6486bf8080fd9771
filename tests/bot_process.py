"""The real `wordlebot run` process pointed at the Discord stand-in, and interactions as
Discord sends them: what the end-to-end tests and the ramp benchmark share."""

import asyncio
import base64
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence

import bot_fork
from discord_messages import submitted_form
from discord_server import APP_ID, DiscordServer, snowflake, user

GUILDS = [970000000000000000, 970000000000000100, 970000000000000200]
SEED = "e2e-5eed-9f8e7d6c5b4a39281706f5e4d3c2b1a0"


ALL = 2251799813685247  # every permission: the guild's owner
MANAGE_GUILD = 0x20
MEMBER = ALL & ~MANAGE_GUILD & ~0x8  # a member without Manage Server (nor Administrator)
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction contexts
# What a user-installed app may do where its bot is not a member: answer, with embeds and files
APP_ELSEWHERE = 0x4000 | 0x8000 | 0x40000  # EMBED_LINKS, ATTACH_FILES, USE_EXTERNAL_EMOJIS


def command(name: str, *path: str, user_id: int, guild: int | None = GUILDS[0],
            where: dict | None = None, **options):  # fmt: skip
    """A slash command as Discord sends it; ``where``: :func:`base`'s keywords (a DM, a
    locale, a member's permissions)."""
    leaf = [{"name": k, "type": 3 if isinstance(v, str) else 5 if isinstance(v, bool) else 4,
             "value": v} for k, v in options.items()]  # fmt: skip
    for sub in reversed(path):
        leaf = [{"name": sub, "type": 1, "options": leaf}]
    data = {"id": snowflake(), "name": name, "type": 1, "options": leaf}
    if guild is not None:  # a guild command (synced to the dev guild)
        data["guild_id"] = str(guild)
    return base(2, user_id, guild, **(where or {})) | {"data": data}


def click(custom_id: str, *, user_id: int, on: dict, guild: int | None = GUILDS[0],
          where: dict | None = None):  # fmt: skip
    """A button press on the message ``on`` (the board the bot sent: its callback's data, or
    the message as the stand-in keeps it, with its id), as Discord sends it."""
    payload = base(3, user_id, guild, **(where or {}))
    kept = ("id", "components", "embeds", "flags")
    clicked = message_stub(payload["channel_id"]) | {k: on[k] for k in kept if k in on}
    return payload | {"data": {"custom_id": custom_id, "component_type": 2},
                      "message": clicked}  # fmt: skip


def submit(modal: dict, value: str, *, user_id: int, guild: int | None = GUILDS[0],
           on: dict | None = None, where: dict | None = None):  # fmt: skip
    """A modal submitted (type 5): the text input's value, and the message whose button
    opened the modal (``on``, as in :func:`click`)."""
    payload = base(5, user_id, guild, **(where or {}))
    kept = ("id", "components", "embeds", "flags")
    message = message_stub(payload["channel_id"]) | {k: v for k, v in (on or {}).items()
                                                     if k in kept}  # fmt: skip
    return payload | {"data": {"custom_id": modal["custom_id"],
                               "components": submitted_form(modal, [value])},
                      "message": message}  # fmt: skip


def base(kind: int, user_id: int, guild: int | None, *, context: int = GUILD,
         locale: str = "en-US", permissions: int = ALL,
         roles: Sequence[int] = ()) -> dict:  # fmt: skip
    """An interaction: in a guild that installed the app (a member with ``permissions`` and
    ``roles``), or
    with ``guild`` None in the bot's DM (context 1) or a group DM (context 2) through a user
    install, where the bot is no member and can only answer the interaction."""
    common = {"id": snowflake(), "application_id": str(APP_ID), "type": kind,
              "token": snowflake(), "version": 1, "locale": locale, "entitlements": [],
              "attachment_size_limit": 8388608, "context": context}  # fmt: skip
    if guild is None:
        players = [user(user_id), user(user_id + 1, "friend")]
        channel = (
            {"id": str(980000000000000000 + user_id), "type": 1, "flags": 0,
             "recipients": players[:1]}
            if context == BOT_DM
            else {"id": str(990000000000000000 + user_id), "type": 3, "flags": 0,
                  "recipients": players, "name": None, "owner_id": str(user_id)}
        )  # fmt: skip
        return common | {
            "channel_id": channel["id"], "channel": channel, "user": user(user_id),
            "authorizing_integration_owners": {"1": str(user_id)},
            "app_permissions": str(ALL if context == BOT_DM else APP_ELSEWHERE),
        }  # fmt: skip
    return common | {
        "channel_id": str(guild + 1), "guild_id": str(guild), "guild_locale": locale,
        "channel": {"id": str(guild + 1), "type": 0, "name": "games", "position": 0,
                    "guild_id": str(guild), "permission_overwrites": [],
                    "permissions": str(permissions)},
        "app_permissions": str(ALL), "authorizing_integration_owners": {"0": str(guild)},
        "member": {"user": user(user_id), "roles": [str(r) for r in roles],
                   "joined_at": "2026-01-01T00:00:00+00:00",
                   "deaf": False, "mute": False, "flags": 0, "permissions": str(permissions)},
    }  # fmt: skip


def message_stub(channel: str) -> dict:
    return {"id": snowflake(), "channel_id": channel, "type": 0, "content": "",
            "author": user(APP_ID, "wordlebot", bot=True), "embeds": [], "components": [],
            "attachments": [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": "2026-11-21T00:00:00+00:00",
            "edited_timestamp": None, "flags": 0}  # fmt: skip


# What a process the tests start may inherit from the caller: how to run Python and where
# the pattern-matrix cache is, never a setting (an inherited DATABASE_URL would win over the
# test's own database: a developer's server). COVERAGE_*: measuring the suite's coverage.
INHERITED = ("PATH", "HOME", "PYTHONPATH", "WORDLEBOT_CACHE_DIR", "TMPDIR")


# A token of a bot token's shape (`wordlebot run` refuses any other): the bot's id, a
# timestamp, a signature. The stand-in takes any.
TOKEN_SECRET = "e2e-token-signature-part-of-the-tests"
TOKEN = (
    f"{base64.urlsafe_b64encode(str(APP_ID).encode()).decode().rstrip('=')}.GwE2Ea.{TOKEN_SECRET}"
)


def clean_env(**settings: str) -> dict[str, str]:
    """An environment built from nothing but what a process of the tests needs, and
    ``settings`` (``database_path="..."`` sets DATABASE_PATH)."""
    env = {name: os.environ[name] for name in INHERITED if name in os.environ}
    env |= {name: value for name, value in os.environ.items() if name.startswith("COVERAGE_")}
    return env | {name.upper(): value for name, value in settings.items()}


class BotProcess:
    """The real bot process, pointed at the stand-in through settings only, in an
    environment of its own (:func:`clean_env`)."""

    def __init__(
        self, server: DiscordServer, database: str, log_level: str = "WARNING",
        dev_guild: bool = True, **settings: str,
    ) -> None:  # fmt: skip
        env = clean_env(
            discord_token=TOKEN, discord_api_base=server.api_base,
            discord_gateway_url=f"ws://127.0.0.1:{server.port}/gateway",
            daily_seed=SEED, build_trees="false", log_level=log_level,
            guild_ready_seconds="0.1",  # the stand-in sends every server at once
            identify_seconds="0",  # and takes any number of IDENTIFYs at once
        )  # fmt: skip
        if dev_guild:
            env["DEV_GUILD_ID"] = str(GUILDS[0])
        # A path (the file), or a URL (``sqlite:///...``, ``postgresql://...``)
        env["DATABASE_URL" if "://" in database else "DATABASE_PATH"] = database
        env |= {name.upper(): value for name, value in settings.items()}
        self.log_level = log_level
        self.spawn(env)

    def spawn(self, env: dict[str, str], log: str | None = None) -> None:
        # The log goes to a file: a pipe nobody reads until the end would fill up at DEBUG
        # and block the bot.
        self.log = open(log, "w+b") if log else tempfile.TemporaryFile()  # noqa: SIM115
        forker = bot_fork.forker(env)  # the same process, without a second of imports
        self.process: subprocess.Popen[bytes] | bot_fork.Forked = (
            forker.spawn(env, self.log.fileno()) if forker
            else subprocess.Popen([sys.executable, "-m", "bot.cli", "run"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=self.log)
        )  # fmt: skip
        RUNNING.append(self)

    async def stop(self, sig: int = signal.SIGTERM, *, prompt: bool = True) -> tuple[int, str]:
        """Signal the bot, wait for it to exit, and return its status and log. The wait
        leaves this event loop free: the stand-in runs on it and must answer what the bot
        sends while it shuts down (a follow-up in flight), or the bot waits out its drain.
        ``prompt``: fail if the bot's drain ran out (it says so in its log; the load ramp,
        which overloads the bot on purpose, may leave it work to drain)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            await asyncio.to_thread(self.process.wait, 30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        code, err = self._ended()
        # A drain that runs out means the bot waited on an answer that never came (the
        # stand-in held, or a route left on hold): said in the bot's own log, not timed here.
        assert not prompt or "interactions still running after" not in err, (
            f"the bot's drain ran out on an unanswered request\n{err[-2000:]}"
        )
        return code, err

    def kill(self) -> tuple[int, str]:
        """SIGKILL, waited for here: a killed process sends nothing more, so holding the loop
        while the kernel reaps it costs the stand-in nothing (and fixtures without a loop
        can call it)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        return self._ended()

    def _ended(self) -> tuple[int, str]:
        """The exit status and the whole log, once the process has exited."""
        if self in RUNNING:
            RUNNING.remove(self)
        if self.log.closed:
            return self.process.returncode, ""
        self.log.seek(0)
        err = self.log.read()
        self.log.close()
        return self.process.returncode, err.decode(errors="replace")

    def logged(self) -> str:
        """The log so far, the process still running."""
        return os.pread(self.log.fileno(), 1 << 24, 0).decode(errors="replace")

    def job_rounds(self) -> int:
        """How many rounds of its background jobs the bot has run (each logged at DEBUG)."""
        from bot.discord_bot import JOBS_RAN

        assert self.log_level == "DEBUG", "start the bot with log_level='DEBUG' to count rounds"
        return self.logged().count(JOBS_RAN)

    async def more_job_rounds(self, count: int, timeout: float = 60) -> None:
        """Until the bot has run ``count`` more rounds of its background jobs than so far (the
        round running now, if one is, may be the first)."""
        target = self.job_rounds() + count
        for _ in range(int(timeout / 0.02)):
            if self.job_rounds() >= target:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"{self.job_rounds()} rounds of jobs, not {target}: "
                             f"{self.logged()[-2000:]}")  # fmt: skip


# Every bot process started and not yet stopped: tests/conftest.py kills those a test leaves
# behind, whatever its outcome.
RUNNING: list[BotProcess] = []


def kill_running(keep: list[BotProcess] | None = None) -> None:
    """SIGKILL every bot process still running but those in ``keep``: before a stand-in
    stops, which would wait a minute on a live bot's gateway connection."""
    for process in list(RUNNING):
        if process not in (keep or []):
            process.kill()


async def started(server: DiscordServer, bot: BotProcess) -> None:
    """Once the bot has identified: setup_hook, which syncs the dev guild's commands (if it
    does), finishes before discord.py connects, so there is nothing else to wait for."""
    try:
        await asyncio.wait_for(server.identified.wait(), 90)
    except TimeoutError:
        _, err = bot.kill()
        raise AssertionError(f"the bot never identified: {err[-2000:]}") from None


def an_opener_leaving_several(database: str, player: int) -> str:
    """CRANE, unless it would leave the player's latest practice answer (drawn at random by
    the bot, read from its SQLite database) alone, as for about 1 answer in 80; then SLATE,
    which leaves each of those with others. A hint after it always weighs several words."""
    import json
    import sqlite3
    from contextlib import closing

    from engine.pattern import score
    from engine.variants import get_variant

    with closing(sqlite3.connect(database)) as db:
        [(state,)] = db.execute(
            "SELECT state FROM games WHERE player_id = ? ORDER BY id DESC LIMIT 1", (player,)
        ).fetchall()
    answer, words = json.loads(state)["answer"], get_variant("wordle").answers.words
    for opener in ("crane", "slate"):
        pattern = score(opener, answer)
        if sum(score(opener, word) == pattern for word in words) > 1:
            return opener
    raise AssertionError(f"both openers leave {answer} alone")
