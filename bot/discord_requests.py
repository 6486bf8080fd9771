"""Every request the bot sends Discord with its token, through the deployment's budget
(:mod:`bot.services.request_budget`): an aiohttp trace on discord.py's own session (and the
window's), so nothing escapes it, discord.py's own retries included. The answers to
interactions are not counted, as Discord does not count them against the global limit; nor
is the gateway's connection."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.services.request_budget import RequestBudget

# Interaction callbacks and the webhooks of an interaction's token: outside the global limit
ANSWERS = re.compile(r"^/api(/v\d+)?/(interactions|webhooks)/")
REFUSED = frozenset({401, 403, 429})


def counted(url: Any) -> bool:
    """Whether a request to ``url`` counts against the bot's global limit."""
    path = url.path
    return path.startswith("/api/") and not ANSWERS.match(path)


def budget_trace(budget: Callable[[], RequestBudget | None]) -> aiohttp.TraceConfig:
    """A trace that waits for the budget before each counted request and tells it of each
    refusal. ``budget``: the process's, or None before the services are open."""
    trace = aiohttp.TraceConfig()

    async def start(_session: Any, _context: SimpleNamespace, params: Any) -> None:
        door = budget()
        if door is not None and counted(params.url):
            await door.turn()

    async def end(_session: Any, _context: SimpleNamespace, params: Any) -> None:
        door, response = budget(), params.response
        if door is None or response.status not in REFUSED or not counted(params.url):
            return
        if response.status == 429 and response.headers.get("X-RateLimit-Scope") == "shared":
            return  # a shared resource's limit: Discord does not count it
        door.refused()

    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    return trace
