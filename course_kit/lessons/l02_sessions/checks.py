"""Lesson 02's checks: what the framework added to the agent, and what a session stores.

A session keeps each provider's data under its source id; the history provider the framework adds
keeps the conversation in ``session.state[source_id]["messages"]``. These helpers read those places,
so a check cell can say "the session holds these four messages" in one line.
"""

from __future__ import annotations

from typing import Any


def provider_ids(agent: Any) -> list[tuple[str, str]]:
    """The agent's context providers as ``(class name, source_id)`` pairs, in order."""
    return [(type(provider).__name__, provider.source_id) for provider in agent.context_providers]


def stored_texts(session: Any, source_id: str = "in_memory") -> list[str]:
    """The texts of the messages ``session`` stores under a history provider's ``source_id`` (none: ``[]``)."""
    slot = session.state.get(source_id) or {}
    return [message.text for message in slot.get("messages", [])] if isinstance(slot, dict) else []


def input_tokens_grew(earlier: Any, later: Any) -> bool | None:
    """Whether ``later``'s reported input tokens exceed ``earlier``'s; ``None`` when either reported none."""
    before, after = ((getattr(r, "usage_details", None) or {}).get("input_token_count") for r in (earlier, later))
    if not before or not after:
        return None
    return int(after) > int(before)
