"""The OpenAPI 3.1 description of the HTTP routes (served at /api/openapi.json).

Request bodies reuse the protocol's JSON Schema definitions, so the two
documents cannot disagree about what a request may hold.
"""

from __future__ import annotations

from functools import lru_cache

from . import protocol as P


def _json_response(description: str, schema: dict | None = None) -> dict:
    content = {"application/json": {"schema": schema or {"type": "object"}}}
    return {"description": description, "content": content}


_ERROR = _json_response("the request was refused; `error` says why",
                        {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]})


@lru_cache(maxsize=1)
def openapi() -> dict:
    defs = P.schema()["$defs"]
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "mjc serve",
            "version": str(P.VERSION),
            "description": "HTTP side of the mahjong game server. Play happens over the WebSocket "
                           "/ws/tables/{table_id}; its messages are described by /api/protocol.schema.json.",
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
                "get": {"summary": "Tables in play or waiting for players",
                        "responses": {"200": _json_response("{tables: [...]}")}},
                "post": {
                    "summary": "Create a table",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": defs["create_table"]}}},
                    "responses": {"201": _json_response("the table's public state"), "400": _ERROR, "429": _ERROR, "503": _ERROR},
                },
            },
            "/api/tables/{table_id}": {"get": {
                "summary": "A table's public state: seats, scores and what a spectator may see of the hand",
                "parameters": [table_id],
                "responses": {"200": _json_response("the table"), "404": _ERROR, "410": _ERROR},
            }},
            "/api/tables/{table_id}/join": {"post": {
                "summary": "Take a human seat; the reply's token authenticates the seat's WebSocket",
                "parameters": [table_id],
                "requestBody": {"content": {"application/json": {"schema": defs["join"]}}},
                "responses": {
                    "201": _json_response("{table, seat, token, socket}"),
                    "400": _ERROR, "404": _ERROR, "409": _ERROR,
                },
            }},
            "/api/tables/{table_id}/hands": {"get": {
                "summary": "Per hand: dealer and SHA-256 of its seed; the seed itself once the hand is over (for `mjc verify-deal`)",
                "parameters": [table_id],
                "responses": {"200": _json_response("{table, hands: [...]}"), "404": _ERROR},
            }},
            "/api/protocol.schema.json": {"get": {
                "summary": "JSON Schema (2020-12) of every WebSocket message and request body",
                "responses": {"200": _json_response("the schema")},
            }},
            "/healthz": {"get": {"summary": "Liveness", "responses": {"200": _json_response("{ok, tables, refused}")}}},
        },
    }
