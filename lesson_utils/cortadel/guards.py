"""What the provider's two hooks refuse to do: the failure modes lesson 07 shows and fixes.

A minimal long-term-memory provider (search in ``before_run``, ``add_conversation`` in
``after_run``) works on the first try and then goes wrong in ways that only show over several
turns. Three of the four fixes are small rules about *which* messages and memories to handle, so
they live here, beside the hooks, and each hook calls them by name:

* **feedback loop** — :func:`ingestible`: store only the caller's and the model's own words, never
  a message some context provider injected. The hook starts from the turn's own words
  (``context.input_messages`` and the response), not from the whole request: a message a provider
  adds with ``context.extend_messages`` is stamped ``additional_properties["_attribution"]["source_id"]``,
  but not every added message is — ``CompactionProvider``'s summary has no stamp. The stamp is the
  second guard (:func:`is_injected`), for a stamped message that turns up in the turn's own list.
  Without them a recalled memory is written back as if the user had said it, replayed history is
  re-stored every turn, and a summary would be stored as a user turn.
* **the same memories every turn** — :func:`fresh_hits` / :func:`remember_injected`: skip memories
  already injected in this session, remembering their ids in ``session.state`` (capped, so state
  cannot grow without bound).
* **a failed turn** — :func:`turn_failed`: the framework does not call ``after_run`` when the model
  call raises, so a failure reaches ``after_run`` only as a response that carries the framework's
  error content (a fallback that answered for a model that could not) — or as no response at all.
  Neither is a conversation worth remembering.

The fourth, *fail open* (a down server must not break the turn), is a ``try``/``except Exception``
around each Cortadel call that hands the error to the shared :class:`~.errors.FailureReporter`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent_framework import AgentResponse, Message
from cortadel import ChatMessage, SearchHit

__all__ = ["INJECTED_IDS_KEY", "fresh_hits", "ingestible", "is_injected", "remember_injected", "turn_failed"]

INJECTED_IDS_KEY = "injected_memory_ids"
"""Key in ``session.state[source_id]``: ids already injected in this session, newest last."""
_INGESTIBLE_ROLES = ("user", "assistant", "system")


def is_injected(message: Message) -> bool:
    """True for a message a context provider added with ``context.extend_messages`` (the framework
    stamps those with ``_attribution``). Not every message a provider puts into a request is stamped:
    ``CompactionProvider``'s summary is not, so this is never the only guard (see the module docstring)."""
    attribution = (message.additional_properties or {}).get("_attribution")
    return isinstance(attribution, dict) and bool(attribution.get("source_id"))


def ingestible(messages: Sequence[Message]) -> list[ChatMessage]:
    """The feedback-loop guard: only the caller's and the model's own words, never injected context."""
    return [
        ChatMessage(role=m.role, content=m.text, uuid=m.message_id or None)
        for m in messages
        if m.role in _INGESTIBLE_ROLES and not is_injected(m) and m.text and m.text.strip()
    ]


def turn_failed(response: AgentResponse | None) -> bool:
    """True when there is nothing worth storing: no response, or one carrying error content."""
    if response is None:
        return True
    return any(content.type == "error" for message in response.messages for content in message.contents)


def fresh_hits(hits: Sequence[SearchHit], state: dict[str, Any]) -> list[SearchHit]:
    """``hits`` minus those already injected in this session (and minus repeats within ``hits``)."""
    seen = set(state.get(INJECTED_IDS_KEY) or [])
    fresh: list[SearchHit] = []
    for hit in hits:
        if hit.id and hit.id in seen:
            continue
        if hit.id:
            seen.add(hit.id)
        fresh.append(hit)
    return fresh


def remember_injected(hits: Sequence[SearchHit], state: dict[str, Any], *, cap: int) -> None:
    """Record the ids of ``hits`` as injected, keeping only the newest ``cap`` (0 keeps none)."""
    if cap == 0:
        state.pop(INJECTED_IDS_KEY, None)
        return
    ids = [i for i in (state.get(INJECTED_IDS_KEY) or []) if isinstance(i, str)]
    ids.extend(hit.id for hit in hits if hit.id)
    state[INJECTED_IDS_KEY] = ids[-cap:]
