"""Small helpers the widgets share: turning framework objects into short, readable text.

Kept apart so the chat widget and the session inspector describe messages and state the same way.
"""

from __future__ import annotations

import html
import json
from typing import Any

MAX_VALUE_CHARS = 200


def message_text(message: Any) -> str:
    """The text of a framework ``Message`` or of its ``to_dict()`` form."""
    text = getattr(message, "text", None)
    if isinstance(text, str):
        return text
    if isinstance(message, dict):
        parts = [
            str(content.get("text", ""))
            for content in message.get("contents", [])
            if isinstance(content, dict) and content.get("type") == "text"
        ]
        return "".join(parts)
    return str(message)


def message_role(message: Any) -> str:
    role = getattr(message, "role", None)
    if role is None and isinstance(message, dict):
        role = message.get("role")
    return str(getattr(role, "value", role) or "?")


def is_message_list(value: Any) -> bool:
    """True for a non-empty list whose items look like chat messages (objects or dicts)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(hasattr(item, "role") or (isinstance(item, dict) and "role" in item) for item in value)
    )


def clip(text: str, limit: int = MAX_VALUE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """A one-line JSON-ish rendering of a state value, cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return clip(text, limit)


def esc(text: Any) -> str:
    return html.escape(str(text))
