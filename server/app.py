"""The ASGI application: HTTP routes, the WebSocket route, start-up and shut-down.

`create_app(db_path)` returns a Starlette app; uvicorn serves it
(server/cli.py). Handlers stay thin: requests are checked against the
protocol schema and passed to the table manager.
"""

from __future__ import annotations

import json
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
from .store import Store
from .tables import Limits

log = logging.getLogger("mjc.server")
STATIC = resources.files("server").joinpath("static")


def _json(data, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _problem(message: str, status: int) -> JSONResponse:
    return _json({"error": message}, status)


async def _body(request: Request, schema: str) -> dict:
    """The request's JSON body, checked against a definition of the protocol schema."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > P.MAX_BODY_BYTES:
            raise TableError(f"request body over {P.MAX_BODY_BYTES} bytes", 413)
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TableError(f"the body is not JSON: {exc}") from None
    try:
        P.check(schema, data)
    except P.ProtocolError as exc:
        raise TableError(exc.message) from None
    return data


def create_app(db_path: str = "mjc-server.sqlite3", limits: Limits | None = None, instance: str = "") -> Starlette:
    limits = limits or Limits()
    buckets: dict[str, TokenBucket] = {}

    @asynccontextmanager
    async def lifespan(app):
        store = Store(db_path)
        manager = Manager(store, limits, instance)
        manager.restore_all()
        app.state.manager = manager
        log.info("serving %d tables from %s (%d refused)", len(manager.tables), db_path, len(manager.refused))
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
        return _problem(f"unknown variant {name!r}", 404)

    async def tables(request: Request) -> Response:
        m = manager_of(request)
        if request.method == "GET":
            return _json({"tables": m.listing()})
        client = request.client.host if request.client else "?"
        if limits.create_rate > 0:
            bucket = buckets.setdefault(client, TokenBucket(limits.create_rate, limits.create_burst))
            if not bucket.allow():
                return _problem("too many tables created from this address; slow down", 429)
        try:
            table = m.create(await _body(request, "create_table"))
        except TableError as exc:
            return _problem(str(exc), exc.status)
        return _json(table.public(), 201)

    async def table(request: Request) -> Response:
        try:
            return _json(manager_of(request).get(request.path_params["table_id"]).public())
        except TableError as exc:
            return _problem(str(exc), exc.status)

    async def join(request: Request) -> Response:
        try:
            t = manager_of(request).get(request.path_params["table_id"])
            body = await _body(request, "join")
            seat, token = t.join(body.get("seat"), body.get("name", "").strip())
        except TableError as exc:
            return _problem(str(exc), exc.status)
        except LookupError as exc:
            return _problem(str(exc), 409)
        return _json({"table": t.id, "seat": seat, "token": token, "socket": f"/ws/tables/{t.id}"}, 201)

    async def hands(request: Request) -> Response:
        try:
            t = manager_of(request).get(request.path_params["table_id"])
        except TableError as exc:
            return _problem(str(exc), exc.status)
        return _json({"table": t.id, "hands": t.proofs()})

    async def schema(request: Request) -> Response:
        return _json(P.schema())

    async def openapi_doc(request: Request) -> Response:
        return _json(openapi())

    async def health(request: Request) -> Response:
        m = manager_of(request)
        return _json({"ok": True, "tables": len(m.tables), "refused": len(m.refused)})

    async def socket(ws: WebSocket) -> None:
        await serve_socket(ws, ws.app.state.manager, ws.path_params["table_id"])

    routes = [
        Route("/", index),
        Route("/healthz", health),
        Route("/api/variants", variants),
        Route("/api/variants/{name}", variant),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", table),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/hands", hands),
        Route("/api/protocol.schema.json", schema),
        Route("/api/openapi.json", openapi_doc),
        WebSocketRoute("/ws/tables/{table_id}", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
