"""Discord's own API description (the routes the bot calls, see ``discord_api/README.md``) as
validators: the stand-in checks each request body the bot sends, and its own answers,
against them. OpenAPI 3.1 schemas are JSON Schema 2020-12."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SUBSET = Path(__file__).with_name("discord_api") / "openapi_subset.json"
URI = "urn:discord-api-spec"  # the extract's own address, so its "#/components/..." resolve


@cache
def document() -> dict[str, Any]:
    return json.loads(SUBSET.read_text())


# Discord reads a snowflake in a request as a JSON number too (discord.py sends new
# attachments' ids as 0, 1, ...: their ``files[n]`` index); its description says string.
# Requests are checked with that one widening, the stand-in's answers without it.
SNOWFLAKE_IN_REQUESTS = {"anyOf": [{"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
                                   {"type": "integer", "minimum": 0}]}  # fmt: skip


# A message reference is a reply's (DEFAULT, 0) or a forward's (FORWARD, 1), as Discord's
# docs say ("Message Reference Types"); its description lists DEFAULT alone. Both directions:
# a channel's history serves forwards.
REFERENCE_TYPES = {
    "type": "integer",
    "oneOf": [{"title": "DEFAULT", "const": 0}, {"title": "FORWARD", "const": 1}],
    "format": "int32",
}


@cache
def _registry(request: bool) -> Registry:
    spec = document()
    schemas = {**spec["components"]["schemas"], "MessageReferenceType": REFERENCE_TYPES}
    if request:
        schemas["SnowflakeType"] = SNOWFLAKE_IN_REQUESTS
    spec = {**spec, "components": {**spec["components"], "schemas": schemas}}
    return Registry().with_resource(URI, Resource(spec, DRAFT202012))


def operations() -> dict[str, Any]:
    return document()["operations"]


def _tag(branch: dict[str, Any]) -> frozenset[Any] | None:
    """The values of ``type`` a union's branch accepts (its ``enum`` or ``const``), if it says."""
    ref = branch.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        branch = document()["components"]["schemas"][ref.rsplit("/", 1)[1]]
    kind = (branch.get("properties") or {}).get("type") or {}
    if "const" in kind:
        return frozenset([kind["const"]])
    return frozenset(kind["enum"]) if "enum" in kind else None


_tags: dict[int, list[frozenset[Any] | None]] = {}
_consts: dict[int, frozenset[Any] | None] = {}


def _union(keyword: str) -> Any:
    """``anyOf``/``oneOf`` as the standard keyword, with two shortcuts that give the same
    verdict for a fraction of the work (Discord's unions are wide: every component kind, every
    callback kind): a union of bare ``const``s (an enum) is a membership test, and an object
    is tried only against the branches whose ``type`` property admits its ``type``."""
    standard = Draft202012Validator.VALIDATORS[keyword]

    def union(checker: Any, branches: list[Any], instance: Any, schema: Any) -> Any:
        key = id(branches)  # the schemas live as long as the cached document
        if key not in _consts:
            bare = [b for b in branches if set(b) <= {"const", "title", "description"}]
            values = [b.get("const") for b in bare]
            _consts[key] = frozenset(values) if len(values) == len(branches) else None
            _tags[key] = [_tag(b) for b in branches]
        consts = _consts[key]
        if consts is not None:
            if instance not in consts or isinstance(instance, bool):
                yield ValidationError(f"{instance!r} is not one of {sorted(consts)}")
            return
        if isinstance(instance, dict) and "type" in instance:
            tags = _tags[key]
            kept = [b for b, tag in zip(branches, tags, strict=True)
                    if tag is None or instance["type"] in tag]  # fmt: skip
            if kept:
                branches = kept
        yield from standard(checker, branches, instance, schema)

    return union


def _remembering_ref() -> Any:
    """``$ref`` as the standard keyword, remembering the values a referenced schema found
    valid (the same buttons, the same author, in every message): the same verdict, once. The
    document has one base URI, so a ``$ref`` names one schema; one memory per validator kind,
    as a request's snowflakes are read more widely than an answer's."""
    valid: set[tuple[str, bytes]] = set()

    def ref(checker: Any, ref: str, instance: Any, schema: Any) -> Any:
        if not isinstance(instance, dict | list):  # cheaper to check than to remember
            yield from checker._validate_reference(ref=ref, instance=instance)
            return
        key = (ref, orjson.dumps(instance, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))
        if key in valid:
            return
        failed = False
        for error in checker._validate_reference(ref=ref, instance=instance):
            failed = True
            yield error
        if not failed:
            if len(valid) > 100_000:
                valid.clear()
            valid.add(key)

    return ref


def _validator_class() -> Any:
    return validators.extend(
        Draft202012Validator,
        {"anyOf": _union("anyOf"), "oneOf": _union("oneOf"), "$ref": _remembering_ref()},
    )


RequestValidator, AnswerValidator = _validator_class(), _validator_class()


@cache
def validator(operation: str, status: str | None = None) -> Any:
    """A compiled validator (kept: compiling is the expensive part) for the request body of
    ``operation`` ("PUT /applications/{application_id}/commands"), or for its response body
    with ``status``; None where the description has no JSON body."""
    entry = operations()[operation]
    if status is None:
        if "request" not in entry:
            return None
        pointer = "request"
    else:
        responses = entry["responses"]
        status = status if status in responses else f"{status[0]}XX"
        if responses.get(status) is None:
            return None
        pointer = f"responses/{status}"
    path = operation.replace("~", "~0").replace("/", "~1")
    schema = {"$ref": f"{URI}#/operations/{path}/{pointer}"}
    kind = RequestValidator if status is None else AnswerValidator
    return kind(schema, registry=_registry(status is None))


def problems(operation: str, body: Any, status: int | None = None) -> list[str]:
    """What is wrong with ``body`` (sent to ``operation``, or answered with ``status``), by
    Discord's description: empty when it validates."""
    checker = validator(operation, None if status is None else str(status))
    if checker is None:
        return []
    if checker.is_valid(body):  # the common case, and the cheap one (stops at a match)
        return []
    error = _deepest(checker.iter_errors(body))
    where = "/".join(str(p) for p in error.absolute_path) or "(the body)"
    what = "request" if status is None else f"{status} response"
    said = (
        error.message
        if len(error.message) <= 160
        else (f"fails {error.validator} {json.dumps(error.validator_value)[:80]}")
    )
    return [f"{operation} {what} at {where}: {said}"]


def _deepest(errors: Any) -> ValidationError:
    """The most specific failure: a union's error names no field, the branch it meant does."""
    leaves = []
    todo = list(errors)
    while todo:
        error = todo.pop(0)
        if error.context:
            todo += error.context
        else:
            leaves.append(error)
    return max(leaves, key=lambda e: (len(e.absolute_path), e.validator != "type"))
