"""The wire protocol: its JSON Schema, inbound checks and error replies.

Every message a client sends is parsed and checked here before anything
else looks at it, so the table code only ever sees well-formed messages.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from jsonschema import Draft202012Validator

VERSION = 1
MAX_MESSAGE_BYTES = 4096  # a real message is under 200 bytes
MAX_BODY_BYTES = 16384  # HTTP request bodies

# error codes (documented in the schema's `error` message)
BAD_JSON = "bad_json"
BAD_MESSAGE = "bad_message"
TOO_LARGE = "too_large"
RATE_LIMITED = "rate_limited"
UNAUTHORIZED = "unauthorized"
WRONG_SEAT = "wrong_seat"
NOT_STARTED = "not_started"
FINISHED = "finished"
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL = "illegal"
STALE = "stale"
SERVER_ERROR = "server_error"


class ProtocolError(ValueError):
    """An inbound message refused before it reaches a table."""

    def __init__(self, code: str, message: str, ref=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


@lru_cache(maxsize=1)
def schema() -> dict:
    text = resources.files("server").joinpath("schema/protocol.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def _inline(node, defs: dict):
    """The schema with every local $ref replaced by its definition (the
    protocol has no recursive definitions): resolving references on each
    message cost more than the rest of the check."""
    if isinstance(node, dict):
        if "$ref" in node and node["$ref"].startswith("#/$defs/"):
            target = _inline(defs[node["$ref"].split("/")[-1]], defs)
            rest = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
            return {**target, **rest} if rest else target
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """A validator for one definition of the schema (client_message, create_table, ...)."""
    defs = schema()["$defs"]
    return Draft202012Validator(_inline(defs[name], defs))


def _describe(error) -> str:
    """One line naming where the message is wrong."""
    best = error
    if error.context:  # oneOf: the branch that got furthest says most
        best = max(error.context, key=lambda e: len(e.absolute_path))
    where = "/".join(str(p) for p in best.absolute_path)
    return f"{where}: {best.message}" if where else best.message


def check(name: str, data) -> None:
    """Raise ProtocolError if `data` does not match definition `name`."""
    v = validator(name)
    error = next(iter(v.iter_errors(data)), None)
    if error is not None:
        raise ProtocolError(BAD_MESSAGE, f"not a valid {name.replace('_', ' ')}: {_describe(error)}")


def parse_client(text) -> dict:
    """Parse and check one text frame from a client."""
    if not isinstance(text, str):
        raise ProtocolError(BAD_MESSAGE, "messages are JSON text frames, not binary")
    size = len(text.encode("utf-8"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"message of {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError(BAD_JSON, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict) or "type" not in data:
        raise ProtocolError(BAD_MESSAGE, 'a message is a JSON object with a "type"')
    ref = data.get("id") if isinstance(data.get("id"), (str, int)) else None
    if data["type"] not in ("hello", "act", "resume", "sync", "ping"):
        raise ProtocolError(BAD_MESSAGE, f"unknown message type {str(data['type'])[:32]!r}; expected hello, act, resume, sync or ping", ref)
    try:
        check(data["type"], data)
    except ProtocolError as exc:
        exc.ref = ref
        raise
    return data


def error(code: str, message: str, ref=None) -> dict:
    out = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["id"] = ref
    return out


def dumps(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
