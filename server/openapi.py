"""The OpenAPI 3.1 description of the HTTP routes (served at /api/openapi.json).

Request bodies reuse the protocol's JSON Schema definitions, copied into
`components/schemas` with every `$ref` pointed there, so the two documents
cannot disagree about what a request may hold and every reference resolves
inside this document.
"""

from __future__ import annotations

from functools import lru_cache

from . import protocol as P

_REF = "#/components/schemas/"


def _rebase(node):
    """A schema fragment with its `#/$defs/X` references pointed at components."""
    if isinstance(node, dict):
        return {k: (_REF + v.split("/")[-1] if k == "$ref" and isinstance(v, str) and v.startswith("#/$defs/") else _rebase(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_rebase(v) for v in node]
    return node


def _json_response(description: str, schema: dict | None = None) -> dict:
    content = {"application/json": {"schema": schema or {"type": "object"}}}
    return {"description": description, "content": content}


def _body(name: str, required: bool = True) -> dict:
    return {"required": required, "content": {"application/json": {"schema": {"$ref": _REF + name}}}}


_ERROR = _json_response("the request was refused; `error` says why", {"$ref": _REF + "problem"})


@lru_cache(maxsize=1)
def openapi() -> dict:
    schemas = {name: _rebase(d) for name, d in P.schema()["$defs"].items()}
    schemas["problem"] = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
    hand = {"name": "hand", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
            "description": "1 for the match's first hand"}
    refused = {"400": _ERROR, "404": _ERROR, "409": _ERROR, "410": _ERROR, "413": _ERROR, "415": _ERROR}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "mjc serve",
            "version": str(P.VERSION),
            "description": "HTTP side of the mahjong game server. Play happens over the WebSocket "
                           "/ws/tables/{table_id}; its messages are described by /api/protocol.schema.json. "
                           "Request bodies are JSON (Content-Type: application/json).",
        },
        "paths": {
            "/api/variants": {"get": {
                "summary": "The compiled variants with their option panels",
                "responses": {"200": _json_response("{variants: [...]}")},
            }},
            "/api/variants/{name}": {"get": {
                "summary": "One variant and its option panel",
                "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": _json_response("the variant"), "404": _ERROR},
            }},
            "/api/tables": {
                "get": {"summary": "The open tables of this process (waiting ones first): variant, options, seats, free seats",
                        "responses": {"200": _json_response("{tables: [...]}")}},
                "post": {
                    "summary": "Create a table; the reply holds `owner_token` (the creator's secret) and `invite` (a link that seats a friend)",
                    "requestBody": _body("create_table"),
                    "responses": {"201": _json_response("the table's public state, owner_token, invite"), **refused,
                                  "429": _ERROR, "503": _ERROR},
                },
            },
            "/api/tables/{table_id}": {
                "get": {
                    "summary": "A table's public state: seats, scores and what a spectator may see of the hand",
                    "parameters": [table_id],
                    "responses": {"200": _json_response("the table"), "404": _ERROR, "410": _ERROR},
                },
                "delete": {
                    "summary": "Close (abandon) the table: its creator only, with `Authorization: Bearer OWNER_TOKEN`",
                    "parameters": [table_id],
                    "responses": {"200": _json_response("the table, status abandoned"), "403": _ERROR, "404": _ERROR},
                },
            },
            "/api/tables/{table_id}/join": {"post": {
                "summary": "Take a free seat (or one whose player left); the reply's token authenticates the seat's WebSocket",
                "parameters": [table_id],
                "requestBody": _body("join", required=False),
                "responses": {"201": _json_response("{table, seat, token, socket}"), **refused},
            }},
            "/api/tables/{table_id}/bots": {"post": {
                "summary": "The creator seats bots in every free seat (before the match)",
                "parameters": [table_id],
                "requestBody": _body("owner"),
                "responses": {"200": _json_response("{table, bots, status}"), "403": _ERROR, **refused},
            }},
            "/api/tables/{table_id}/hands": {"get": {
                "summary": "Per hand: dealer and SHA-256 of its seed; the seed itself once the hand is over (for `mjc verify-deal`)",
                "parameters": [table_id],
                "responses": {"200": _json_response("{table, hands: [...]}"), "404": _ERROR},
            }},
            "/api/tables/{table_id}/hands/{hand}/replay": {"get": {
                "summary": "A finished hand step by step with every tile shown: frames of {action, events, view, hands}",
                "parameters": [table_id, hand],
                "responses": {"200": _json_response("{frames: [...], result, ...}"), "404": _ERROR, "409": _ERROR},
            }},
            "/api/tables/{table_id}/hands/{hand}/scenario.yaml": {"get": {
                "summary": "A finished hand as a scenario file that `mjc scenario FILE` replays to the same result",
                "parameters": [table_id, hand],
                "responses": {"200": {"description": "the scenario (YAML)", "content": {"application/yaml": {"schema": {"type": "string"}}}},
                              "404": _ERROR, "409": _ERROR},
            }},
            "/api/protocol.schema.json": {"get": {
                "summary": "JSON Schema (2020-12) of every WebSocket message and request body",
                "responses": {"200": _json_response("the schema")},
            }},
            "/api/openapi.json": {"get": {"summary": "This document", "responses": {"200": _json_response("OpenAPI 3.1")}}},
            "/healthz": {"get": {"summary": "Liveness", "responses": {"200": _json_response("{ok, tables, refused, instance}")}}},
        },
        "components": {"schemas": schemas},
    }
