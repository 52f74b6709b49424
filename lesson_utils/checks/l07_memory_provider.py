"""Checks for lesson 07: what the learner's provider stored, and whether a turn raised or failed.

Lesson 07's providers keep a copy of every turn they hand to ``add_conversation`` (``self.sent``, a list
of ``cortadel.ChatMessage`` lists). These helpers read such a stored turn and the agent's replies, so
each of the lesson's check cells proves its claim in a line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Any


def stored_texts(turn: Sequence[Any], role: str | None = None) -> list[str]:
    """The texts of a turn handed to ``add_conversation``, in order (only ``role``'s, when given)."""
    return [message.content for message in turn if role is None or message.role == role]


def has_error_content(response: Any) -> bool:
    """True when a reply carries the framework's error content (``Content.from_error``) in any message."""
    return any(content.type == "error" for message in response.messages for content in message.contents)


async def error_of(run: Awaitable[Any]) -> Exception | None:
    """The exception awaiting ``run`` raised, or ``None`` when it returned (cancellation is not caught)."""
    try:
        await run
    except Exception as error:
        return error
    return None
