"""How every failure becomes the contract's error body, registered once on the app.

The contract has two error shapes. A bad request body or query gets a 400
``ValidationProblemDetails`` (``errors`` maps each field to its messages; see ``validation.py``).
Everything else gets an ``ErrorResponse``: ``{"status", "code", "message"}``. The routes raise
plain exceptions and never build error responses themselves; :func:`add_problem_handlers` maps
each kind to its answer in one place, so no route can answer a failure differently.

No request reaches a 500 for bad input; a 500 means a bug, and is logged with its traceback.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .embeddings import EmbeddingError
from .service import NotFound
from .validation import validation_problem

logger = logging.getLogger(__name__)


class HttpProblem(Exception):
    """A failure answered with an ``ErrorResponse``: its status, a short code, and one sentence."""

    status = 400
    code = "validation_error"

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code


class BadRequest(HttpProblem):
    """A 400 where the contract answers with an ``ErrorResponse`` (``GET /memories/{id}``)."""


class UnsupportedMediaType(HttpProblem):
    """A body that is not JSON."""

    status = 415
    code = "unsupported_media_type"


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"status": status, "code": code, "message": message}, status_code=status)


def add_problem_handlers(app: FastAPI) -> None:
    """Answer every failure a route can raise with the contract's body for it."""

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_problem(exc.errors())

    @app.exception_handler(HttpProblem)
    async def http_problem(request: Request, exc: HttpProblem) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> JSONResponse:
        return error_response(404, "not_found", str(exc))

    @app.exception_handler(EmbeddingError)
    async def embeddings_down(request: Request, exc: EmbeddingError) -> JSONResponse:
        logger.error("Embedding provider failed: %s", exc)
        return error_response(503, "embeddings_unavailable", str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = "No such route." if exc.status_code == 404 else str(exc.detail)
        return error_response(exc.status_code, code, message)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("Unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", "The server hit an unexpected error; see its log.")
