"""Committed results of studies the bot quotes, as their commands wrote them:
``hardmode-<variant>.json`` (``wordlebot study hard-mode --variant V --json``) and its
picture ``hardmode-<variant>.png`` (``--plot``)."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
