"""Lesson 04's checks: which of a provider's contributions keep its ``source_id``.

``SessionContext.extend_tools`` tags a tool with the contributing provider's id only when the tool
has an ``additional_properties`` dict (a ``@tool`` function); a plain function is accepted but not
tagged. This helper reads that tag so the lesson's check cell says which tools were tagged in one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def tool_tags(tools: Iterable[Any]) -> dict[str, str | None]:
    """Each tool's name and the ``context_source`` a provider tagged it with (``None``: untagged)."""
    tags: dict[str, str | None] = {}
    for tool in tools:
        name = str(getattr(tool, "name", None) or getattr(tool, "__name__", repr(tool)))
        properties = getattr(tool, "additional_properties", None)
        tags[name] = properties.get("context_source") if isinstance(properties, dict) else None
    return tags
