"""HTTP routes of the local memory server: Cortadel's REST contract over a ``MemoryService``.

Bodies are parsed and validated by hand rather than by FastAPI models so the error bodies match
the contract exactly: 400 ``ValidationProblemDetails`` with per-field ``errors`` for a bad body,
``ErrorResponse`` (``status``/``code``/``message``) for 401/403/404/415 and anything else. No
request reaches a 500 for bad input; a 500 means a bug and is logged with its traceback.

Work that blocks (embedding, SQLite) runs in the thread pool, so one slow request does not stall
the event loop and many clients are served at once.
"""

from __future__ import annotations

import logging
from typing import Any
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from .auth import AuthError
from .docs import add_docs_routes
from .embeddings import EmbeddingError
from .service import BadRequest, MemoryService, NotFound
from .validation import ValidationFailed, parse_json_object

logger = logging.getLogger(__name__)

_JSON_TYPES = ("application/json", "text/json")


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"status": status, "code": code, "message": message}, status_code=status)


def problem_response(exc: ValidationFailed) -> JSONResponse:
    return JSONResponse(
        {
            "type": "https://tools.ietf.org/html/rfc9110#section-15.5.1",
            "title": exc.title,
            "status": 400,
            "errors": exc.errors,
        },
        status_code=400,
        media_type="application/problem+json",
    )


async def _json_body(request: Request) -> dict[str, Any]:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type and not (content_type in _JSON_TYPES or (content_type.startswith("application/") and content_type.endswith("+json"))):
        raise _Unsupported(content_type)
    return parse_json_object(await request.body())


class _Unsupported(Exception):
    pass


def create_app(service: MemoryService) -> FastAPI:
    """The ASGI app serving ``service``; ``/openapi.json`` and ``/docs`` serve Cortadel's contract (see docs.py)."""
    app = FastAPI(title="lesson_utils memory server (Cortadel-compatible)", docs_url=None, redoc_url=None,
                  openapi_url=None)
    add_docs_routes(app)

    async def guarded(call: Callable[[], Awaitable[JSONResponse]]) -> JSONResponse:
        try:
            return await call()
        except ValidationFailed as exc:
            return problem_response(exc)
        except AuthError as exc:
            return error_response(exc.status, exc.code, exc.message)
        except NotFound as exc:
            return error_response(404, "not_found", str(exc))
        except BadRequest as exc:
            return error_response(400, "validation_error", str(exc))
        except _Unsupported as exc:
            return error_response(415, "unsupported_media_type",
                                  f"Send the body as application/json (got {exc.args[0]}).")
        except EmbeddingError as exc:
            logger.error("Embedding provider failed: %s", exc)
            return error_response(503, "embeddings_unavailable", str(exc))

    @app.get("/api/health")
    async def health() -> JSONResponse:
        status, body = await run_in_threadpool(service.health)
        return JSONResponse(body, status_code=status)

    @app.post("/api/v1/memories")
    async def create(request: Request) -> JSONResponse:
        async def call() -> JSONResponse:
            body = await _json_body(request)
            return JSONResponse(await run_in_threadpool(service.create, body, request.headers))
        return await guarded(call)

    @app.get("/api/v1/memories")
    async def list_memories(request: Request) -> JSONResponse:
        async def call() -> JSONResponse:
            params = dict(request.query_params)
            return JSONResponse(await run_in_threadpool(service.list, params, request.headers))
        return await guarded(call)

    @app.delete("/api/v1/memories")
    async def delete(request: Request) -> JSONResponse:
        async def call() -> JSONResponse:
            body = await _json_body(request)
            return JSONResponse(await run_in_threadpool(service.delete, body, request.headers))
        return await guarded(call)

    @app.post("/api/v1/memories/search")
    async def search(request: Request) -> JSONResponse:
        async def call() -> JSONResponse:
            body = await _json_body(request)
            return JSONResponse(await run_in_threadpool(service.search, body, request.headers))
        return await guarded(call)

    @app.post("/api/v1/memories/from-conversation")
    async def from_conversation(request: Request) -> JSONResponse:
        async def call() -> JSONResponse:
            body = await _json_body(request)
            return JSONResponse(await run_in_threadpool(service.from_conversation, body, request.headers))
        return await guarded(call)

    @app.get("/api/v1/memories/{memory_id}")
    async def get(memory_id: str, request: Request) -> JSONResponse:
        async def call() -> JSONResponse:
            params = dict(request.query_params)
            return JSONResponse(await run_in_threadpool(service.get, memory_id, params, request.headers))
        return await guarded(call)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = "No such route." if exc.status_code == 404 else str(exc.detail)
        return error_response(exc.status_code, code, message)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("Unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", "The server hit an unexpected error; see its log.")

    return app
