"""Lesson 10's checks: what the memory browser shows of a memory's history."""

from __future__ import annotations

from typing import Any

__all__ = ["shows_replaced"]

#: The CSS class the browser gives a superseded row (greyed, struck through).
SUPERSEDED_CLASS = "lesson-memory-superseded"


def shows_replaced(browser: Any, old: str, new: str) -> bool:
    """The browser shows exactly one outdated row, mentioning ``old``, replaced by one mentioning ``new``,
    and draws it as superseded."""
    outdated = [row for row in browser.rows if not row.is_current]
    return (len(outdated) == 1 and old in outdated[0].content and new in (outdated[0].replaced_by or "")
            and SUPERSEDED_CLASS in browser.table.value)
