"""From validation failures to the contract's 400 ``ValidationProblemDetails`` body.

The real server is ASP.NET Core: a bad body or query gets ``{"type", "title", "status": 400,
"errors": {field: [messages]}}``, with every problem at once so a caller can fix a request in
one go. It is sent as ``application/json``, the first media type the contract lists for a 400. The request models (``request_models.py``) and the JSON body
reader (``reading.py``) raise FastAPI's ``RequestValidationError``; this module names each
failing field the way the contract's clients see it (``messages[1].content``, ``$`` for the body
as a whole) and writes one sentence per problem: "The top_k field must be between 1 and 50 (got 99)."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

TITLE = "One or more validation errors occurred."
PROBLEM_TYPE = "https://tools.ietf.org/html/rfc9110#section-15.5.1"
MEDIA_TYPE = "application/json"

# Phrases for pydantic's own error types; the request models' own rules raise ValueError(phrase).
_PHRASES = {
    "missing": "is required",
    "string_type": "must be a string, not {json}",
    "bool_type": "must be true or false, not {json}",
    "int_type": "must be an integer, not {json}",
    "int_from_float": "must be an integer, not {json}",
    "int_parsing": "must be an integer, not {input!r}",
    "dict_type": "must be a JSON object, not {json}",
    "model_type": "must be a JSON object, not {json}",
    "model_attributes_type": "must be a JSON object, not {json}",
    "list_type": "must be an array, not {json}",
}


def field_error(where: str, loc: tuple[str, ...], phrase: str, kind: str) -> RequestValidationError:
    """One problem found by hand (not by a request model), shaped as the models' errors are:
    ``where`` is ``"body"`` or ``"query"``, ``loc`` the field's path, ``phrase`` what is wrong."""
    return RequestValidationError([{"type": kind, "loc": (where, *loc), "msg": phrase, "input": None}])


def json_type(value: Any) -> str:
    """How a JSON value's type reads in a sentence: "a number", "an array", ..."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null"


def field_name(loc: Sequence[int | str]) -> str:
    """``("body", "messages", 1, "content")`` -> ``messages[1].content``; the body itself is ``""``."""
    name = ""
    for part in loc[1:] if loc and loc[0] in ("body", "query", "path") else loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name


def message(error: dict[str, Any]) -> str:
    """One sentence for one problem, naming the field (or the request body) it is about."""
    loc = tuple(error.get("loc") or ())
    field = field_name(loc)
    template = _PHRASES.get(error.get("type", ""))
    if template is not None:
        value = error.get("input")
        phrase = template.format(json=json_type(value), input=value)
    elif error.get("type") == "value_error":  # a request model's own rule: its ValueError is the phrase
        phrase = str((error.get("ctx") or {}).get("error") or error.get("msg"))
    else:
        phrase = str(error.get("msg", "is not valid"))
    if field in ("", "$"):
        subject = "The request body"
    else:
        subject = f"The {field} {'parameter' if loc[:1] == ('query',) else 'field'}"
    return f"{subject} {phrase}."


def field_errors(errors: Sequence[Any]) -> dict[str, list[str]]:
    """The contract's ``errors`` member: each field's messages, in the order they were found."""
    found: dict[str, list[str]] = {}
    for error in errors:
        found.setdefault(field_name(tuple(error.get("loc") or ())), []).append(message(error))
    return found


def validation_problem(errors: Sequence[Any]) -> JSONResponse:
    """The 400 ``ValidationProblemDetails`` response for ``errors`` (pydantic/FastAPI error dicts)."""
    body = {"type": PROBLEM_TYPE, "title": TITLE, "status": 400, "errors": field_errors(errors)}
    return JSONResponse(body, status_code=400, media_type=MEDIA_TYPE)
