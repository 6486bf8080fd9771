"""Regenerate ``openapi_subset.json`` from a checkout of github.com/discord/discord-api-spec.

    python tests/discord_api/extract.py /path/to/discord-api-spec [--commit SHA --date DATE]

Keeps only the routes the bot calls (``ROUTES``): each one's JSON request body and JSON
response bodies (``$ref``s to shared responses inlined), the rate-limit headers, and every
schema under ``components/schemas`` those reach, ``$ref``s left pointing at them. Run by hand
when Discord's description changes; never at test time (the tests are offline).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

# (method, path) of every route the bot (discord.py on its behalf) calls
ROUTES = [
    ("get", "/users/@me"),
    ("get", "/users/{user_id}"),
    ("post", "/users/@me/channels"),
    ("get", "/oauth2/applications/@me"),
    ("get", "/applications/@me"),
    ("get", "/gateway/bot"),
    ("get", "/applications/{application_id}/commands"),
    ("put", "/applications/{application_id}/commands"),
    ("get", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("delete", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("post", "/channels/{channel_id}/messages"),
    ("patch", "/channels/{channel_id}/messages/{message_id}"),
    ("get", "/channels/{channel_id}/messages"),
    ("get", "/channels/{channel_id}"),
    ("put", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"),
    ("delete", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"),
    ("get", "/applications/{application_id}/activity-instances/{instance_id}"),
]
JSON = "application/json"
SPEC = "specs/openapi.json"


def refs(node: Any) -> set[str]:
    """Every component name a ``$ref`` under ``node`` points at."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            found |= refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= refs(value)
    return found


def extract(spec: dict[str, Any], source: dict[str, str]) -> dict[str, Any]:
    components = spec["components"]
    operations: dict[str, Any] = {}
    for method, path in ROUTES:
        operation = spec["paths"][path][method]
        kept: dict[str, Any] = {"operationId": operation["operationId"], "responses": {}}
        body = (operation.get("requestBody") or {}).get("content", {}).get(JSON)
        if body is not None:
            kept["request"] = body["schema"]
        for status, response in operation["responses"].items():
            if "$ref" in response:  # a shared response: inline it
                response = components["responses"][response["$ref"].rsplit("/", 1)[1]]
            schema = response.get("content", {}).get(JSON, {}).get("schema")
            kept["responses"][status] = schema  # None: no body (204)
        operations[f"{method.upper()} {path}"] = kept
    names: set[str] = set()
    todo = refs(operations)
    while todo:  # the closure of what the operations reach
        name = todo.pop()
        if name not in names:
            names.add(name)
            todo |= refs(components["schemas"][name]) - names
    return {
        "source": source,
        "operations": operations,
        "components": {
            "headers": components["headers"],
            "schemas": {name: components["schemas"][name] for name in sorted(names)},
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a clone of discord/discord-api-spec")
    parser.add_argument("--commit", help="the commit read (default: the checkout's HEAD)")
    parser.add_argument("--date", help="the commit's date (default: read from git)")
    args = parser.parse_args()
    commit = args.commit or git(args.checkout, "rev-parse", "HEAD")
    date = args.date or git(args.checkout, "show", "-s", "--format=%cs", commit)
    spec = json.loads(git(args.checkout, "show", f"{commit}:{SPEC}"))
    source = {"repository": "https://github.com/discord/discord-api-spec", "file": SPEC,
              "commit": commit, "date": date, "openapi": spec["openapi"],
              "api_version": spec["info"]["version"], "licence": "MIT"}  # fmt: skip
    out = Path(__file__).with_name("openapi_subset.json")
    out.write_text(json.dumps(extract(spec, source), indent=1, sort_keys=False) + "\n")
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB) from {commit[:12]} of {date}")


def git(checkout: Path, *args: str) -> str:
    """Read the checkout through git, so a bare clone works as well as a work tree."""
    where = checkout / ".git" if (checkout / ".git").exists() else checkout
    return subprocess.run(["git", "--git-dir", str(where), *args], check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip


if __name__ == "__main__":
    main()
