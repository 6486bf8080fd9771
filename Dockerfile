# The bot, one process per container. Build: docker build -t wordlebot .
# Run with DISCORD_TOKEN, DATABASE_URL and, for sharding, SHARD_COUNT and SHARD_IDS set
# (see compose.yaml and .env.example).
# BASE: any image with Python 3.11 and pip (`.ci/image` checks the image; where Docker Hub
# cannot be reached, on a Debian one: docs/development.md).
ARG BASE=python:3.11-slim
FROM ${BASE}

# Without DATABASE_URL the bot keeps its SQLite file in the volume /data (the user's home,
# /app, is not writable): docker run -v wordlebot-data:/data ...
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    WORDLEBOT_CACHE_DIR=/var/cache/wordlebot \
    DATABASE_PATH=/data/wordlebot.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY engine ./engine
COPY wordlists ./wordlists
RUN pip install --no-cache-dir . \
    && useradd --system --home /app wordlebot \
    && mkdir -p /var/cache/wordlebot /data \
    && chown wordlebot /var/cache/wordlebot /data
# After the chown: a new volume starts with the folder's owner, so the bot can write there.
VOLUME /data

USER wordlebot
# English's exact trees, searched at build time (26 s; 58 MiB with the matrix they read):
# a new cache volume starts with them.
# Every other list's patterns, coaching figures and trees are built on first use into
# the volume, once per deployment (measured in docs/operators.md, "The engine's cache").
RUN wordlebot tree --strategy optimal --mode normal --out-cache \
    && wordlebot tree --strategy optimal --mode hard --out-cache \
    && wordlebot tree --strategy optimal --mode strict --out-cache

# SIGTERM lets interactions in flight finish, then closes the database.
STOPSIGNAL SIGTERM
CMD ["wordlebot", "run"]
