"""Reading a request into its model, the way the contract's server reads it.

FastAPI's own body parsing would accept ``NaN`` (Python's ``json`` does; JSON does not), name a
broken body differently from the contract, and take any content type. ``json_body`` reads the
body itself: a non-JSON content type is a 415, broken or non-object JSON is a 400 on ``$``, an
empty body is a 400 on the body, and the rest is the request model's job. It runs after the API
key check (``auth.caller_key``), and tells the model whether the body must name its user.

``query`` validates the query string as one model in one call. FastAPI's query-parameter models
do the same with a per-parameter pass first, which costs more per request than the rest of a
list request's routing; the answers are the same (``ValidationProblemDetails`` on the parameter).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from .auth import CallerKey
from .problems import UnsupportedMediaType
from .request_models import NEEDS_USER_ID
from .validation import field_error, json_type

Model = TypeVar("Model", bound=BaseModel)

_JSON_TYPES = ("application/json", "text/json")


def _is_json(content_type: str) -> bool:
    """The contract's media types: application/json, text/json and application/*+json."""
    return content_type in _JSON_TYPES or (content_type.startswith("application/") and content_type.endswith("+json"))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _body_error(loc: tuple[str, ...], phrase: str, kind: str = "json_invalid") -> RequestValidationError:
    return field_error("body", loc, phrase, kind)


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or a RequestValidationError naming what is wrong with it."""
    if not raw or not raw.strip():
        raise _body_error((), "is required (send a non-empty JSON object)", kind="missing_body")
    try:
        body = json.loads(raw, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _body_error(("$",), f"is not valid JSON: {exc}") from None
    if not isinstance(body, dict):
        raise _body_error(("$",), f"must be a JSON object, not {json_type(body)}", kind="not_an_object")
    return body


def _invalid(exc: ValidationError, where: str) -> RequestValidationError:
    return RequestValidationError([{**e, "loc": (where, *e["loc"])} for e in exc.errors()])


def json_body(model: type[Model]) -> Callable[..., Awaitable[Model]]:
    """A dependency that reads the request's JSON body and validates it as ``model``."""

    async def read(request: Request, key_user: CallerKey) -> Model:
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type and not _is_json(content_type):
            raise UnsupportedMediaType(f"Send the body as application/json (got {content_type}).")
        body = parse_json_object(await request.body())
        try:
            return model.model_validate(body, context={NEEDS_USER_ID: key_user is None})
        except ValidationError as exc:
            raise _invalid(exc, "body") from None

    return read


def query(model: type[Model]) -> Callable[..., Awaitable[Model]]:
    """A dependency that validates the request's query string as ``model`` (the last value of a repeated key)."""

    async def read(request: Request) -> Model:
        try:
            return model.model_validate(dict(request.query_params))
        except ValidationError as exc:
            raise _invalid(exc, "query") from None

    return read
