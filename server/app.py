"""The ASGI application: HTTP routes, the WebSocket route, start-up and shut-down.

`create_app(db)` returns a Starlette app; uvicorn serves it (server/cli.py).
Handlers stay thin: requests are checked against the protocol schema and
passed to the table manager. Request bodies are JSON only
(`Content-Type: application/json`, else 415), so a form on another web site
cannot create or join tables through a visitor's browser.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from . import protocol as P
from .catalog import catalog
from .connection import serve_socket
from .manager import Manager, TableError
from .openapi import openapi
from .ratelimit import TokenBucket
from .replaylog import ReplayUnavailable, hand_replay, hand_scenario
from .store import open_store
from .tables import Limits

log = logging.getLogger("mjc.server")
STATIC = resources.files("server").joinpath("static")


def _json(data, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _problem(message: str, status: int) -> JSONResponse:
    return _json({"error": message}, status)


async def _body(request: Request, schema: str) -> dict:
    """The request's JSON body, checked against a definition of the protocol schema."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise TableError(f"request bodies are JSON: send Content-Type: application/json, not {kind or 'none'!r}", 415)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > P.MAX_BODY_BYTES:
            raise TableError(f"request body over {P.MAX_BODY_BYTES} bytes", 413)
    try:
        data = P.loads(raw or b"{}")
    except ValueError as exc:
        raise TableError(f"the body is not JSON: {exc}") from None
    try:
        P.check(schema, data)
    except P.ProtocolError as exc:
        raise TableError(exc.message) from None
    return data


def _bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else ""


def create_app(db: str = "mjc-server.sqlite3", limits: Limits | None = None, instance: str = "") -> Starlette:
    limits = limits or Limits()
    buckets: dict[str, TokenBucket] = {}

    @asynccontextmanager
    async def lifespan(app):
        store = open_store(db, lease_seconds=limits.lease_seconds)
        manager = Manager(store, limits, instance)
        manager.restore_all()
        manager.start_leases()
        app.state.manager = manager
        log.info("serving %d tables from %s (%d refused)", len(manager.tables), store.url, len(manager.refused))
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    def manager_of(request) -> Manager:
        return request.app.state.manager

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC.joinpath("index.html")), headers={"Cache-Control": "no-cache"})

    async def variants(request: Request) -> Response:
        return _json({"variants": catalog()})

    async def variant(request: Request) -> Response:
        name = request.path_params["name"]
        for v in catalog():
            if v["name"] == name:
                return _json(v)
        return _problem(f"unknown variant {name[:64]!r}", 404)

    async def tables(request: Request) -> Response:
        m = manager_of(request)
        if request.method == "GET":
            return _json({"tables": m.listing()})
        client = request.client.host if request.client else "?"
        if limits.create_rate > 0:
            bucket = buckets.setdefault(client, TokenBucket(limits.create_rate, limits.create_burst))
            if not bucket.allow():
                return _problem("too many tables created from this address; slow down", 429)
        table, owner_token = m.create(await _body(request, "create_table"))
        return _json({**table.public(), "owner_token": owner_token, "invite": f"/t/{table.id}"}, 201)

    async def table(request: Request) -> Response:
        m = manager_of(request)
        t = await m.serve(request.path_params["table_id"])
        if request.method == "DELETE":
            if not t.is_owner(_bearer(request)):
                return _problem("only the table's creator may close it (Authorization: Bearer OWNER_TOKEN)", 403)
            m.abandon(t)
        return _json(t.public())

    async def bots(request: Request) -> Response:
        t = await manager_of(request).serve(request.path_params["table_id"])
        body = await _body(request, "owner")
        if not t.is_owner(body["token"]):
            return _problem("only the table's creator may seat bots", 403)
        try:
            seats = t.fill_with_bots()
        except LookupError as exc:
            return _problem(str(exc), 409)
        return _json({"table": t.id, "bots": seats, "status": t.status})

    async def join(request: Request) -> Response:
        t = await manager_of(request).serve(request.path_params["table_id"])
        body = await _body(request, "join")
        try:
            seat, token = t.join(body.get("seat"), body.get("name", "").strip())
        except LookupError as exc:
            return _problem(str(exc), 409)
        return _json({"table": t.id, "seat": seat, "token": token, "socket": f"/ws/tables/{t.id}"}, 201)

    async def hands(request: Request) -> Response:
        t = await manager_of(request).serve(request.path_params["table_id"])
        return _json({"table": t.id, "hands": t.proofs()})

    def _hand_index(request: Request) -> int:
        text = request.path_params["hand"]
        if not text.isdigit() or len(text) > 4:
            raise TableError(f"a hand is a number from 1, not {text[:8]!r}", 404)
        return int(text) - 1

    async def replay(request: Request) -> Response:
        t = await manager_of(request).serve(request.path_params["table_id"])
        try:
            return _json(hand_replay(t, _hand_index(request)))
        except ReplayUnavailable as exc:
            return _problem(str(exc), exc.status)

    async def scenario(request: Request) -> Response:
        t = await manager_of(request).serve(request.path_params["table_id"])
        i = _hand_index(request)
        try:
            text = hand_scenario(t, i)
        except ReplayUnavailable as exc:
            return _problem(str(exc), exc.status)
        return Response(text, media_type="application/yaml; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{t.id}-hand{i + 1}.yaml"', "Cache-Control": "no-store"})

    async def schema(request: Request) -> Response:
        return _json(P.schema())

    async def openapi_doc(request: Request) -> Response:
        return _json(openapi())

    async def health(request: Request) -> Response:
        m = manager_of(request)
        return _json({"ok": True, "tables": len(m.tables), "refused": len(m.refused), "instance": m.owner})

    async def socket(ws: WebSocket) -> None:
        await serve_socket(ws, ws.app.state.manager, ws.path_params["table_id"])

    async def table_error(request: Request, exc: TableError) -> Response:
        return _problem(str(exc), exc.status)

    routes = [
        Route("/", index),
        Route("/t/{table_id}", index),
        Route("/watch/{table_id}", index),
        Route("/replay/{table_id}/{hand}", index),
        Route("/healthz", health),
        Route("/api/variants", variants),
        Route("/api/variants/{name}", variant),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", table, methods=["GET", "DELETE"]),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", bots, methods=["POST"]),
        Route("/api/tables/{table_id}/hands", hands),
        Route("/api/tables/{table_id}/hands/{hand}/replay", replay),
        Route("/api/tables/{table_id}/hands/{hand}/scenario.yaml", scenario),
        Route("/api/protocol.schema.json", schema),
        Route("/api/openapi.json", openapi_doc),
        WebSocketRoute("/ws/tables/{table_id}", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={TableError: table_error})
