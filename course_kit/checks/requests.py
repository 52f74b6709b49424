"""What a provider put into a model request, read from the request the recorder kept.

The framework stamps every message a context provider adds with ``context.extend_messages`` with
``additional_properties["_attribution"]["source_id"]``. These helpers read that stamp; they are how the
lessons from 07 on show what memory was injected. Messages a provider adds some other way (a compaction
summary, instructions) carry no stamp and are not counted here.
"""

from __future__ import annotations

from typing import Any


def _source_id(message: Any) -> str | None:
    attribution = (getattr(message, "additional_properties", None) or {}).get("_attribution")
    return attribution.get("source_id") if isinstance(attribution, dict) else None


def injected_texts(request: Any, source_id: str | None = None) -> list[str]:
    """The texts of the messages providers injected into ``request`` (only ``source_id``'s, when given)."""
    return [
        message.text
        for message in request.messages
        if _source_id(message) is not None and (source_id is None or _source_id(message) == source_id)
    ]


def injected_lines(request: Any, source_id: str | None = None) -> list[str]:
    """The memory bullets (lines starting ``- ``) of the injected messages, without the bullet."""
    return [
        line[2:].strip()
        for text in injected_texts(request, source_id)
        for line in text.splitlines()
        if line.startswith("- ")
    ]


def texts_sent(request: Any) -> list[str]:
    """The texts of the conversation messages ``request`` carried, in order (instructions left out)."""
    return [message.text for message in request.messages if message.role != "system"]
