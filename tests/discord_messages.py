"""Messages as Discord keeps them, for the stand-in: what a create makes, how an edit merges
into what is there, and Discord's limits on a message body.

An edit (PATCH) changes only the fields it carries: one that leaves out ``components`` keeps
the old buttons. ``attachments`` in an edit (API v10) is the whole list the message keeps: old
ones by id, new uploads by their ``files[n]`` index; left out, new uploads are added to the
old ones. The ephemeral flag is chosen once, when the message is made."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

APP_ID = BOT_ID = 950000000000000001
EPHEMERAL, LOADING, SUPPRESS_EMBEDS = 1 << 6, 1 << 7, 1 << 2
_ids = itertools.count(960000000000000000)
Upload = tuple[str, str, int]  # a file sent with a message: (form field, filename, size)


def snowflake() -> str:
    return str(next(_ids))


def user(user_id: int, name: str = "player", bot: bool = False) -> dict[str, Any]:
    """A user object as Discord's API describes it (``UserResponse``)."""
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None, "bot": bot, "public_flags": 0, "flags": 0,
            "primary_guild": None}  # fmt: skip


HAS_SNAPSHOT = 1 << 14  # a message that forwards another
FORWARD = 1  # message_reference.type of a forward


def member_message(content: str, *, channel_id: int, author_id: int, guild_id: int | None = None,
                   **fields: Any) -> dict[str, Any]:  # fmt: skip
    """A member's message as Discord sends it (MESSAGE_CREATE: ``guild_id`` and ``member``
    where it was posted in a server)."""
    message = {
        "id": snowflake(), "channel_id": str(channel_id), "type": 0, "content": content,
        "author": user(author_id), "embeds": [], "components": [], "attachments": [],
        "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
        "tts": False, "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None,
        "flags": 0,
    }  # fmt: skip
    if guild_id is not None:
        message["guild_id"] = str(guild_id)
        message["member"] = {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                             "deaf": False, "mute": False, "flags": 0}  # fmt: skip
    return message | fields


def forwarded(original: dict[str, Any], *, channel_id: int, author_id: int,
              guild_id: int | None = None) -> dict[str, Any]:  # fmt: skip
    """``original`` forwarded by ``author_id`` into ``channel_id``, as Discord delivers a
    forward: an empty message of its own whose ``message_reference`` (type 1) points at the
    original and whose ``message_snapshots`` carry a copy of the original's content."""
    kept = ("type", "content", "embeds", "attachments", "timestamp", "edited_timestamp",
            "flags", "mentions", "mention_roles", "components")  # fmt: skip
    reference = {"type": FORWARD, "channel_id": original["channel_id"],
                 "message_id": original["id"]}  # fmt: skip
    if "guild_id" in original:
        reference["guild_id"] = original["guild_id"]
    return member_message(
        "", channel_id=channel_id, author_id=author_id, guild_id=guild_id,
        message_reference=reference, flags=HAS_SNAPSHOT,
        message_snapshots=[{"message": {k: original[k] for k in kept if k in original}}],
    )  # fmt: skip


DISCORD_EPOCH_MS = 1420070400000


def snowflake_at(when: datetime, serial: int = 0) -> str:
    """An id of a message posted at ``when``, as Discord makes them: its time in the high
    bits (discord.py reads a message's time from its id), ``serial`` in the low ones."""
    return str((int(when.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22 | serial & 0xFFF)


def past_message(content: str, *, channel_id: int, author_id: int, at: datetime,
                 serial: int = 0, **fields: Any) -> dict[str, Any]:  # fmt: skip
    """A member's message posted at ``at``, as a channel's history serves it."""
    message = member_message(content, channel_id=channel_id, author_id=author_id, **fields)
    return message | {"id": snowflake_at(at, serial), "timestamp": at.isoformat()}


def submitted_form(modal: dict[str, Any], values: list[str]) -> list[dict[str, Any]]:
    """A submitted form's ``components`` as Discord sends them, in the form's own layout: a
    field in a Label (type 18) comes back in a Label, one in an ActionRow (type 1, the old
    layout) in an ActionRow; ``values`` fill the text inputs in order."""
    answered = []
    for n, (top, value) in enumerate(zip(modal["components"], values, strict=False)):
        field = top["component"] if top.get("type") == 18 else top["components"][0]
        answer = {"type": 4, "id": 2 * n + 2, "custom_id": field["custom_id"], "value": value}
        if top.get("type") == 18:
            answered.append({"type": 18, "id": 2 * n + 1, "component": answer})
        else:
            answered.append({"type": 1, "id": 2 * n + 1, "components": [answer]})
    return answered


def check_modal(data: dict[str, Any], where: str) -> list[str]:
    """A form's layout: Discord deprecated the text input in an ActionRow for the Label."""
    return [f"{where}: a form's text input in an ActionRow (deprecated): put it in a Label"
            for top in data.get("components") or [] if top.get("type") == 1]  # fmt: skip


def check_message(body: dict[str, Any], where: str) -> list[str]:
    """Discord's limits on a message body that its API description leaves out (the total of
    embed text), and the rules for action rows."""
    problems = []
    total = 0
    for embed in body.get("embeds") or []:
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        for f in embed.get("fields") or []:
            total += len(f.get("name", "")) + len(f.get("value", ""))
    if total > 6000:
        problems.append(f"{where}: embeds over 6000 characters")
    for row in body.get("components") or []:
        if row.get("type") == 1 and not 1 <= len(row.get("components", [])) <= 5:
            problems.append(f"{where}: an action row must hold 1 to 5 components")
    return problems


class Messages:
    """Every message the bot made, by id, in its current state."""

    def __init__(self) -> None:
        self.by_id: dict[str, dict[str, Any]] = {}

    def create(self, body: dict[str, Any], files: list[Upload], *,
               channel_id: str, flags: int = 0, webhook: bool = False,
               message_id: str | None = None) -> dict[str, Any]:  # fmt: skip
        """A new message from a create body; ``files``: (field, filename, size) uploaded."""
        message: dict[str, Any] = {
            "id": message_id or snowflake(), "channel_id": channel_id, "type": 0,
            "content": "", "author": user(BOT_ID, "wordlebot", bot=True), "embeds": [],
            "components": [], "attachments": [], "mentions": [], "mention_roles": [],
            "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None, "flags": flags,
        }  # fmt: skip
        if webhook:  # made through an interaction token
            message |= {"webhook_id": str(APP_ID), "application_id": str(APP_ID)}
        self.by_id[message["id"]] = message
        self.merge(message, body, files, edit=False)
        return message

    def adopt(self, message: dict[str, Any]) -> dict[str, Any]:
        """A message an interaction names (a component's) that the stand-in never saw made."""
        return self.by_id.setdefault(message["id"], {**message, "attachments": []})

    def merge(
        self, message: dict[str, Any], body: dict[str, Any], files: list[Upload], *,
        edit: bool = True,
    ) -> dict[str, Any]:  # fmt: skip
        for key in ("content", "embeds", "components", "tts"):
            if key in body:
                message[key] = body[key] if body[key] is not None else message_default(key)
        if "components" in body:
            message["components"] = numbered(message["components"])
        if edit:
            message["edited_timestamp"] = "2026-11-21T00:00:01+00:00"
            if body.get("flags") is not None:  # of the flags, an edit may change only this one
                keep = message["flags"] & ~SUPPRESS_EMBEDS
                message["flags"] = keep | (body["flags"] & SUPPRESS_EMBEDS)
        uploads = {int(field[6:-1]): (name, size) for field, name, size in files
                   if field.startswith("files[")}  # fmt: skip
        old = {a["id"]: a for a in message["attachments"]}
        if body.get("attachments") is not None:
            kept = []
            for entry in body["attachments"]:
                known = old.get(str(entry["id"]))
                if known is not None:
                    kept.append({**known, **_described(entry)})
                elif int(entry["id"]) in uploads:
                    kept.append(self._attachment(message, *uploads.pop(int(entry["id"])), entry))
            message["attachments"] = kept
        message["attachments"] += [self._attachment(message, name, size, {})
                                   for name, size in uploads.values()]  # fmt: skip
        return message

    def _attachment(self, message: dict[str, Any], filename: str, size: int,
                    entry: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
        attachment_id = snowflake()
        url = (f"https://cdn.discordapp.com/attachments/{message['channel_id']}/"
               f"{attachment_id}/{filename}")  # fmt: skip
        content_type = "image/png" if filename.endswith(".png") else "application/octet-stream"
        return {"id": attachment_id, "filename": filename, "size": size, "url": url,
                "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
                "content_type": content_type, **_described(entry)}  # fmt: skip

    def missing_images(self, message: dict[str, Any]) -> list[str]:
        """Embed images that name an ``attachment://`` the message does not hold."""
        names = {a["filename"] for a in message["attachments"]}
        wanted = [(embed.get("image") or {}).get("url") or "" for embed in message["embeds"]]
        return [url for url in wanted
                if url.startswith("attachment://") and url[13:] not in names]  # fmt: skip


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord answers with them: each with an ``id``, unique in the message
    (1, 2, ... in reading order where the bot gave none)."""
    ids = itertools.count(1)

    def number(component: dict[str, Any]) -> dict[str, Any]:
        inner = [number(c) for c in component.get("components") or []]
        return {**component, "id": component.get("id") or next(ids),
                **({"components": inner} if "components" in component else {})}  # fmt: skip

    return [number(c) for c in components]


def _described(entry: dict[str, Any]) -> dict[str, Any]:
    return {"description": entry["description"]} if entry.get("description") else {}


def message_default(key: str) -> Any:
    return {"content": "", "embeds": [], "components": [], "tts": False}[key]
