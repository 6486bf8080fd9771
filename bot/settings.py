"""Settings from the environment and ``.env``, validated once at start.

Every setting is documented in ``.env.example``. Secrets are ``SecretStr``: they print as
``**********`` in logs, errors and reprs.
"""

from __future__ import annotations

import base64
import logging
import math
import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import platformdirs
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.database import DatabaseUrl, parse_database_url

MEMORY = ":memory:"
RETENTION_DAYS = 30  # see retention_days


def default_database() -> str:
    return str(Path(platformdirs.user_data_dir("wordlebot")) / "wordlebot.sqlite3")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", frozen=True)

    discord_token: SecretStr | None = None
    # The database: DATABASE_URL (sqlite:///path or postgresql://...) if set, else the SQLite
    # file DATABASE_PATH. A secret: a PostgreSQL URL may hold a password.
    database_url: SecretStr | None = None
    database_path: str = Field(default_factory=default_database)
    # PostgreSQL: moves in a game still going commit without waiting for the server's log
    # (faster under heavy load); a crash of the server may then undo the last moves
    # acknowledged (up to about wal_writer_delay's worth). Off: every commit is durable.
    postgres_async_moves: bool = False
    dev_guild_id: int | None = None
    owner_ids: list[int] = Field(default_factory=list)
    daily_timezone: str = "UTC"
    daily_seed: SecretStr | None = None
    log_level: str = "INFO"
    build_trees: bool = True  # search missing exact trees in the background at start
    message_content_intent: bool = False  # needed only to record shares posted in channels
    # Sharding, for several processes on one PostgreSQL database: this process holds the
    # shards SHARD_IDS (e.g. 0,1) of SHARD_COUNT. Neither set: one process, as Discord deals.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: list[int] | None = None
    # The daily digest: how long after a day ends its digest waits for the last guesses, and
    # how often the process that runs the deployment's jobs looks for work.
    digest_delay_seconds: float = Field(default=300, ge=0)
    jobs_interval_seconds: float = Field(default=60, gt=0)
    # A digest being made is leased by its process for this long, renewed while it works: a
    # process that stops midway leaves it to the next leader once it lapses.
    digest_lease_seconds: float = Field(default=30, gt=0)
    # At start, how long after the last server arrives the bot counts itself ready (and
    # starts those jobs): discord.py's guild_ready_timeout.
    guild_ready_seconds: float = Field(default=2.0, gt=0, le=60)
    # Before each IDENTIFY to the gateway but a process's first (its next shards, a session
    # Discord invalidated), the bot waits this long: Discord allows one per 5 seconds.
    identify_seconds: float = Field(default=5.0, ge=0, le=60)
    # Discord waits 3 s for the first answer to an interaction: one still being worked out
    # after this long (a database locked by another process) is deferred, its answer then
    # edited in, instead of the player being told the interaction failed.
    defer_seconds: float = Field(default=1.0, gt=0, lt=3)
    # On SIGTERM, how long interactions in flight (and a round of the jobs) get to finish.
    drain_seconds: float = Field(default=5.0, gt=0, le=60)
    # Requests a second to Discord for the whole deployment, all its processes together (the
    # answers to interactions aside): Discord allows 50; a little fewer keeps any second,
    # however it is cut, under that while a busy process sends a little late.
    discord_requests_per_second: float = Field(default=48.0, gt=0, le=50)
    # The live daily board (/liveboard): at most one edit of a server's board in this many
    # seconds (a burst of finishes becomes one edit).
    live_board_seconds: float = Field(default=5.0, gt=0)
    # Rows no reader needs any more (the boards of days, weeks, months and seasons no board
    # shows, old digests' claims and live boards' messages) are purged this many days after
    # (bot/services/retention.py); 0 keeps them. Players' own history is never purged.
    retention_days: int = Field(default=RETENTION_DAYS, ge=0)
    # /analyze: seconds of one core that reading one paste's grids may take, all together.
    analysis_budget_seconds: float = Field(default=5.0, gt=0, le=60)
    # Tests only: the bot's clock starts at this instant (and runs on at the real pace), so
    # an end-to-end test can cross a day boundary. Unset: the real time.
    clock_start: datetime | None = None
    # Servers' pages on the web (bot/web/; docs/operators.md): served on WEB_HOST:WEB_PORT by
    # `wordlebot run` and the console, or alone by `wordlebot web`; no port, no web server.
    # WEB_BASE_URL is the address people reach it at (behind a proxy: https://stats.example.org);
    # unset, http://WEB_HOST:WEB_PORT. Each client may ask for WEB_REQUESTS_PER_MINUTE pages
    # (bursts of a few at once); behind a proxy, WEB_TRUST_FORWARDED=true counts clients by
    # the address the proxy puts last in X-Forwarded-For (only if the proxy sets it).
    web_host: str = "127.0.0.1"
    web_port: int | None = Field(default=None, ge=0, le=65535)
    web_base_url: str | None = None
    web_requests_per_minute: float = Field(default=60, gt=0)
    web_trust_forwarded: bool = False
    # The game window in Discord (an Activity; docs/admins.md): its OAuth2 client (the
    # application's id and client secret, from the Developer Portal). Both set, the web
    # server answers the window's requests under /activity/.
    discord_client_id: int | None = None
    discord_client_secret: SecretStr | None = None
    # Origins besides Discord's that may frame the window (a test's stand-in client).
    activity_frame_origins: list[str] = Field(default_factory=list)
    discord_api_base: str | None = None  # a stand-in for Discord's API (tests), else Discord
    discord_gateway_url: str | None = None  # and for its gateway

    @field_validator("daily_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {value!r} (use a name like Europe/Paris)"
            ) from None
        return value

    @field_validator("daily_seed")
    @classmethod
    def _strong_seed(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            problem = seed_weakness(value.get_secret_value())
            if problem is not None:  # the message never contains the seed itself
                raise ValueError(f"too weak: {problem}. Leave it unset to have one generated")
        return value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            parse_database_url(value.get_secret_value())  # its message hides any password
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, int):  # SHARD_IDS=3, which the environment's reader takes as JSON
            return [value]
        if isinstance(value, str):  # SHARD_IDS=0,1 as well as SHARD_IDS=[0,1]
            text = value.strip().strip("[]")
            try:
                return [int(part) for part in text.split(",") if part.strip()]
            except ValueError:
                raise ValueError(f"{value!r}: write shard numbers like 0,1") from None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if (self.shard_ids is None) != (self.shard_count is None):
            raise ValueError("SHARD_IDS and SHARD_COUNT go together (e.g. SHARD_IDS=0,1 "
                             "SHARD_COUNT=4)")  # fmt: skip
        if self.shard_ids is not None and self.shard_count is not None:
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong or not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to "
                                 f"{self.shard_count - 1}")  # fmt: skip
        return self

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def activity(self) -> bool:
        """The game window is on: its OAuth2 client is set (bot/web/activity.py)."""
        return self.discord_client_id is not None and self.discord_client_secret is not None

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError(f"unknown log level {value!r} (DEBUG, INFO, WARNING, ERROR)")
        return level

    @property
    def database(self) -> DatabaseUrl:
        if self.database_url is not None:
            return parse_database_url(self.database_url.get_secret_value())
        return DatabaseUrl("sqlite", self.database_path)

    @field_validator("web_base_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            raise ValueError(f"{value!r}: write an address like https://stats.example.org")
        return None if value is None else value.rstrip("/")

    @property
    def web_link_base(self) -> str:
        """Where pages' links start: WEB_BASE_URL, else the local server ("" if none)."""
        if self.web_base_url is not None:
            return self.web_base_url
        if self.web_port is None:
            return ""
        host = f"[{self.web_host}]" if ":" in self.web_host else self.web_host
        return f"http://{host}:{self.web_port}"

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.daily_timezone)


SEED_MIN_LENGTH = 32
SEED_MIN_BITS = 85  # estimated: a 32-character hex token (128 bits) scores 100-120


def seed_weakness(seed: str) -> str | None:
    """Why a daily seed could be guessed, or None. Two observed answers would let someone
    test guesses of the seed offline and so read every future answer; the bar is a random
    string of 128 bits or more (``python -c "import secrets; print(secrets.token_hex(32))"``),
    estimated from the length and the spread of its characters (Shannon entropy), and no
    pattern repeated over and over."""
    if len(seed) < SEED_MIN_LENGTH:
        return f"use at least {SEED_MIN_LENGTH} random characters"
    counts = Counter(seed)
    per_char = -sum(n / len(seed) * math.log2(n / len(seed)) for n in counts.values())
    periodic = seed in (seed + seed)[1:-1]  # "abcabcabc..."
    if periodic or per_char * len(seed) < SEED_MIN_BITS:
        return "it is too regular to be random; use a random string"
    return None


class SettingsError(ValueError):
    """A bad setting, named in the game's plain words, with no secret in it."""


def load_settings(**overrides: object) -> Settings:
    """Read the settings; a bad one raises :class:`SettingsError` naming it."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            ".".join(str(p) for p in err["loc"]).upper()
            + ": " * bool(err["loc"])
            + err["msg"].removeprefix("Value error, ")
            for err in exc.errors()
        )
        raise SettingsError(f"Bad setting: {problems}") from None


BOT_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")


def bot_id_of(token: str) -> int | None:
    """The bot's user id a Discord bot token starts with, or None if ``token`` cannot be
    one: three base64url parts joined by dots, the first the id's digits in base64."""
    parts = token.split(".")
    if len(parts) != 3 or not all(BOT_TOKEN_PART.fullmatch(part) for part in parts):
        return None
    first = parts[0]
    try:
        digits = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        return None
    return int(digits) if digits.isdigit() and digits.isascii() else None


def usable_token(settings: Settings) -> str:
    """The token ``wordlebot run`` and ``sync`` connect with, refused before any connection
    if it cannot be one (a paste cut short, quotes, a "Bot " prefix, a client secret). The
    refusal never repeats the value: it is a secret."""
    token = settings.discord_token
    assert token is not None
    if bot_id_of(token.get_secret_value()) is None:
        raise SettingsError(
            "DISCORD_TOKEN is not a bot token (three parts joined by dots, the first the bot's "
            "id): copy it again from the Developer Portal, Bot > Reset Token"
        )
    return token.get_secret_value()


NO_TOKEN = """No DISCORD_TOKEN is set, so the bot cannot connect to Discord.

To get one: open https://discord.com/developers/applications, create an application, add a
Bot, press "Reset Token" and put it in a .env file beside you as DISCORD_TOKEN=... (see
.env.example). Invite the bot with the applications.commands and bot scopes.

Meanwhile, everything works offline on the same database:  wordlebot console"""
