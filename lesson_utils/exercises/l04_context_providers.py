"""Lesson 04's exercise: a context provider that remembers the user's city and says it back.

The checker drives the learner's provider through a real ``Agent`` on the offline lesson model and
looks only at what the framework did with it: what ``after_run`` left in the session's state, and
what ``before_run`` put in front of the model. Three sessions tell apart the plausible mistakes:

- a user who says "I live in Lisbon", then a *fresh* session that carries only the provider's slot
  of the first one (no transcript): Lisbon must reach the model, so it came from the provider's
  ``state`` and was injected — not read back from the history;
- a second user who never named a city: Lisbon must not reach the model for them, which catches a
  city kept on the provider instance (``self.city``) instead of in ``state``.
"""

from __future__ import annotations

import json
from typing import Any

from agent_framework import Agent, AgentSession, ContextProvider

from ..models import OfflineChatClient, RequestRecorder
from ._registry import Hint, call_learner, exercise

_INSTRUCTIONS = "You are a friendly assistant."


def _sent_text(recorder: RequestRecorder) -> str:
    """Everything the model was sent on the last call, as text: instructions and every message."""
    request = recorder.last_request
    if request is None:
        return ""
    return "\n".join([request.instructions, *(message.text or "" for message in request.messages)])


async def _run(agent: Agent, text: str, session: AgentSession, what: str) -> None:
    await call_learner(agent.run, text, session=session, what=what)


@exercise("04.remember_city", title="remember the user's city and say it back")
async def check_remember_city(answer: Any) -> None:
    if not (isinstance(answer, type) and issubclass(answer, ContextProvider)):
        raise Hint("hand in the class itself (`CityMemory`, not `CityMemory()`), a subclass of ContextProvider")
    provider = await call_learner(answer, what="`CityMemory()`")
    if not isinstance(getattr(provider, "source_id", None), str):
        raise Hint("CityMemory has no source_id: call super().__init__(\"city_memory\") in its __init__")
    recorder = RequestRecorder()
    agent = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS, context_providers=[provider],
                  middleware=[recorder])
    hooks = "your CityMemory's before_run/after_run"

    ana = agent.create_session()
    await _run(agent, "Hi! I live in Lisbon.", ana, hooks)
    slot = ana.state.get(provider.source_id)
    if not slot or "Lisbon" not in json.dumps(slot, ensure_ascii=False, default=str):
        where = "on the provider instance" if "Lisbon" in json.dumps(vars(provider), default=str) else "nowhere"
        raise Hint(f"after \"I live in Lisbon\" the session's state[{provider.source_id!r}] is {slot!r}; "
                   f"the city is {where}. In after_run, read context.input_messages and write the city into `state`")
    try:
        json.dumps(ana.to_dict())
    except TypeError as exc:
        raise Hint(f"the state must be JSON-native (str, int, list, dict) so the session can be saved: {exc}") from None

    # A new session holding only the provider's slot: no transcript, so Lisbon can only come from before_run.
    later = AgentSession()
    later.state[provider.source_id] = json.loads(json.dumps(slot))
    await _run(agent, "Where do I live?", later, hooks)
    if "Lisbon" not in _sent_text(recorder):
        raise Hint("the city was stored in state but never reached the model: in before_run, read it from `state` "
                   "and add it with context.extend_instructions(self.source_id, ...) or context.extend_messages(self, ...)")

    ben = agent.create_session()
    await _run(agent, "Hello! Where do I live?", ben, hooks)
    if "Lisbon" in _sent_text(recorder):
        raise Hint("a second user who never named a city was told about Lisbon: keep the city in `state` "
                   "(one slot per session), not on `self`, which every session shares")

    await _run(agent, "I live in Kyoto.", ben, hooks)
    await _run(agent, "Where do I live?", later, hooks)
    if "Kyoto" in _sent_text(recorder):
        raise Hint("the first user's run was told about Kyoto, the second user's city: keep each city in that "
                   "session's `state`, not on the provider")
