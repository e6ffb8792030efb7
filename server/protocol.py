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

MOVED = 4409  # close code: another server process serves this table now; reconnect
MAX_DEPTH = 12  # nesting of a client message or request body (real ones nest 3 deep)
MAX_INT = 2**53  # integers beyond what every JSON reader keeps exactly
CLIENT_TYPES = ("hello", "act", "resume", "sync", "ping", "ready", "leave", "emote")


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


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise ValueError(f"the integer {text[:20]}… is too large")
    return int(text)


def _well_formed(value, depth: int = 0) -> None:
    """Refuse what JSON allows but no message needs: deep nesting, integers
    past 2^53, strings that are not Unicode text (lone surrogates)."""
    if depth > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a string holds a lone surrogate (\\ud800-\\udfff), which is not text") from None
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ValueError(f"the integer {str(value)[:20]}… is too large")
    elif isinstance(value, list):
        for v in value:
            _well_formed(v, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _well_formed(k, depth + 1)
            _well_formed(v, depth + 1)


def loads(raw) -> object:
    """JSON text (or UTF-8 bytes) as data, under the limits above; raises
    ValueError with a message for the client. NaN and Infinity are refused."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if _depth(raw) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    data = json.loads(raw, parse_constant=_no_constant, parse_int=_int)
    _well_formed(data)
    return data


def _depth(text: str) -> int:
    """The deepest bracket nesting outside strings (checked before parsing,
    so a deep document never reaches the recursive parser)."""
    depth = best = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


def reference(data) -> object:
    """A message's correlation id, when it is one (to echo in the reply)."""
    ref = data.get("id") if isinstance(data, dict) else None
    if isinstance(ref, bool) or not isinstance(ref, (str, int)):
        return None
    if isinstance(ref, int) and abs(ref) > MAX_INT or isinstance(ref, str) and len(ref) > 64:
        return None
    if isinstance(ref, str):
        try:
            ref.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return ref


def parse_client(text) -> dict:
    """Parse and check one text frame from a client."""
    if not isinstance(text, str):
        raise ProtocolError(BAD_MESSAGE, "messages are JSON text frames, not binary")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"message of {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_int) if _depth(text) <= MAX_DEPTH else None
    except json.JSONDecodeError as exc:
        raise ProtocolError(BAD_JSON, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:
        raise ProtocolError(BAD_MESSAGE, str(exc)) from None
    if data is None:
        raise ProtocolError(BAD_MESSAGE, f"nested more than {MAX_DEPTH} deep")
    ref = reference(data)
    try:
        _well_formed(data)
    except ValueError as exc:
        raise ProtocolError(BAD_MESSAGE, str(exc), ref) from None
    if not isinstance(data, dict) or "type" not in data:
        raise ProtocolError(BAD_MESSAGE, 'a message is a JSON object with a "type"')
    if data["type"] not in CLIENT_TYPES:
        raise ProtocolError(BAD_MESSAGE, f"unknown message type {str(data['type'])[:32]!r}; expected one of {', '.join(CLIENT_TYPES)}", ref)
    try:
        check(data["type"], data)
    except ProtocolError as exc:
        exc.ref = ref
        raise
    return data


def reply(kind: str, ref=None, **fields) -> dict:
    out = {"type": kind, **fields}
    if ref is not None:
        out["id"] = ref
    return out


def error(code: str, message: str, ref=None) -> dict:
    return reply("error", ref, code=code, message=message)


def dumps(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
