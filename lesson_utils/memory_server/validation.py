"""Request validation with the contract's limits, collecting every problem per field.

The real server is ASP.NET Core: a bad body gets a 400 ``ValidationProblemDetails`` whose
``errors`` maps each field to its messages. We check the same limits (``top_k`` 1–50, text up to
50 000 characters, 1–500 messages, roles, ...) and report all problems at once, so a caller can
fix a request in one go. Validation happens before any write: a rejected request changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

MAX_TEXT = 50_000
MAX_QUERY = 5_000
MAX_MESSAGES = 500
MAX_ROLE = 20
MAX_DELETE_IDS = 10_000
ROLES = ("user", "assistant", "system")


class ValidationFailed(Exception):
    """400 with a ValidationProblemDetails body."""

    def __init__(self, errors: dict[str, list[str]], title: str = "One or more validation errors occurred.") -> None:
        super().__init__(title)
        self.errors = errors
        self.title = title


class Fields:
    """Reads typed fields out of a JSON object, recording an error for each bad one."""

    def __init__(self, body: dict[str, Any], prefix: str = "") -> None:
        self.body = body
        self.prefix = prefix
        self.errors: dict[str, list[str]] = {}

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(self.prefix + name, []).append(message)

    def string(
        self, name: str, *, required: bool = False, min_len: int = 0, max_len: int | None = None,
        blank_ok: bool = True,
    ) -> str | None:
        value = self.body.get(name)
        if value is None:
            if required:
                self.error(name, f"The {name} field is required.")
            return None
        if not isinstance(value, str):
            self.error(name, f"The {name} field must be a string, not {_json_type(value)}.")
            return None
        if len(value) < min_len or (not blank_ok and not value.strip()):
            self.error(name, f"The {name} field must not be empty or blank.")
            return None
        if max_len is not None and len(value) > max_len:
            self.error(name, f"The {name} field must be at most {max_len} characters (got {len(value)}).")
            return None
        return value

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.body.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.error(name, f"The {name} field must be true or false, not {_json_type(value)}.")
            return default
        return value

    def integer(self, name: str, default: int, lo: int, hi: int) -> int:
        value = self.body.get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            self.error(name, f"The {name} field must be an integer between {lo} and {hi}, not {_json_type(value)}.")
            return default
        if not lo <= value <= hi:
            self.error(name, f"The {name} field must be between {lo} and {hi} (got {int(value)}).")
            return default
        return int(value)

    def string_list(self, name: str, *, required: bool = False, min_items: int = 0, max_items: int | None = None):
        value = self.body.get(name)
        if value is None:
            if required:
                self.error(name, f"The {name} field is required.")
            return None
        if not isinstance(value, list):
            self.error(name, f"The {name} field must be an array of strings, not {_json_type(value)}.")
            return None
        if len(value) < min_items:
            self.error(name, f"The {name} field must contain at least {min_items} item(s).")
            return None
        if max_items is not None and len(value) > max_items:
            self.error(name, f"The {name} field must contain at most {max_items} items (got {len(value)}).")
            return None
        bad = [i for i, v in enumerate(value) if not isinstance(v, str) or not v.strip()]
        if bad:
            self.error(name, f"Every item of {name} must be a non-empty string (bad index {bad[0]}).")
            return None
        return list(value)

    def obj(self, name: str) -> dict[str, Any] | None:
        value = self.body.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.error(name, f"The {name} field must be a JSON object, not {_json_type(value)}.")
            return None
        return value


def _json_type(value: Any) -> str:
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


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or ValidationFailed naming what is wrong with it."""
    if not raw or not raw.strip():
        raise ValidationFailed({"": ["A non-empty request body is required."]})
    try:
        body = json.loads(raw, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValidationFailed({"$": [f"The request body is not valid JSON: {exc}."]}) from None
    if not isinstance(body, dict):
        raise ValidationFailed({"$": [f"The request body must be a JSON object, not {_json_type(body)}."]})
    return body
