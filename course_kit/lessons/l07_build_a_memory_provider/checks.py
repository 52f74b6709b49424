"""Checks for lesson 07: what the learner's provider stored, and whether a turn raised or failed.

Lesson 07's providers keep a copy of every turn they hand to ``add_conversation`` (``self.sent``, a list
of ``cortadel.ChatMessage`` lists). These helpers read such a stored turn and the agent's replies, so
each of the lesson's check cells proves its claim in a line. ``fix_table`` maps each fix the lesson makes
to the line of the production provider that makes it, found in the installed source when it runs.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
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


def line_of(function: Callable[..., Any], marker: str) -> int:
    """The file line number of the first line of ``function``'s source that contains ``marker``."""
    lines, first = inspect.getsourcelines(function)
    found = [first + i for i, line in enumerate(lines) if marker in line]
    if not found:
        raise AssertionError(f"{marker!r} is no longer in {function.__qualname__}: update this table")
    return found[0]


def fix_table(fixes: Sequence[tuple[str, str, Callable[..., Any], str]]) -> str:
    """A markdown table of (failure, fix, function, marker) rows with the file and line where ``function``
    holds ``marker``, read from the installed source — so the table cannot drift from the code."""
    rows = [
        f"| {failure} | {fix} | `{Path(inspect.getsourcefile(function) or '?').name}` | {line_of(function, marker)} |"
        for failure, fix, function, marker in fixes
    ]
    return "| failure | fix | file | line |\n|---|---|---|---:|\n" + "\n".join(rows)
