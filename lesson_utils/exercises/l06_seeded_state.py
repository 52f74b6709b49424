"""Lesson 06's exercise: seed a session for a second user from a dict you build.

The learner writes ``seed_second_user(agent, memory, first_user, name, age)``. The checker gives it a
real ``Agent`` on the offline lesson model whose ``UserMemoryProvider`` has a source id of its own
(so the slot must be found through ``memory.source_id``), and a first user's session with a
conversation in it. The new user's very first question must be answered from the seeded slot; the
first user's session must come out exactly as it went in.
"""

from __future__ import annotations

import json
from typing import Any

from agent_framework import Agent, AgentSession

from ..models import OfflineChatClient, RequestRecorder
from ..user_memory import UserMemoryProvider
from ._registry import Hint, call_learner, exercise

_SOURCE_ID = "crm_profile"  # not the default: the slot is wherever *this* provider keeps its state
_FIRST = "Hi, I'm Ana and I'm 31."
_SECOND = {"name": "Ben", "age": 52}
_QUESTION = "What is my name and age?"


def _snapshot(session: AgentSession) -> str:
    return json.dumps(session.to_dict(), sort_keys=True)


@exercise("06.seed_second_user", title="seed a session for a second user")
async def check_seed_second_user(answer: Any) -> None:
    recorder = RequestRecorder()
    memory = UserMemoryProvider(source_id=_SOURCE_ID)
    agent = Agent(client=OfflineChatClient(), instructions="Be friendly.", context_providers=[memory],
                  middleware=[recorder])
    first_user = agent.create_session()
    await agent.run(_FIRST, session=first_user)
    before = _snapshot(first_user)

    second = await call_learner(answer, agent, memory, first_user, _SECOND["name"], _SECOND["age"],
                                what="`seed_second_user`")
    if not isinstance(second, AgentSession):
        raise Hint(f"return the new user's session (an AgentSession); got {type(second).__name__}")
    if second is first_user or second.session_id == first_user.session_id:
        raise Hint("that is the first user's conversation, not a new one: start from agent.create_session()")
    if _snapshot(first_user) != before:
        raise Hint("the first user's session changed: build the second user's dict on its own and put it in the "
                   "new session only — never edit (or share) the first user's state")
    history = (second.state.get("in_memory") or {}).get("messages") or []
    if history:
        raise Hint(f"the new session carries {len(history)} message(s) of the first user's chat: a copy of a session "
                   "is a fork of that conversation; a new user starts from agent.create_session()")
    slot = second.state.get(memory.source_id)
    if slot is None:
        found = ", ".join(repr(k) for k in second.state) or "nothing"
        raise Hint(f"nothing is seeded under this provider's source_id {memory.source_id!r} (found {found}): "
                   "use session.state[memory.source_id] = {...}")
    if slot != _SECOND:
        raise Hint(f"the seeded slot is {slot!r}; the provider reads {{'name': str, 'age': int}} — here "
                   f"{_SECOND!r}")

    reply = (await agent.run(_QUESTION, session=second)).text
    sent = recorder.last_request
    if sent is None or "Ana" in sent.render():
        raise Hint("the new user's first request carried the first user's data: keep their sessions apart")
    if "The user's name is Ben." not in sent.instructions or "Ben" not in reply or "52" not in reply:
        raise Hint("the first question was not answered from the seeded slot; seed before the first run")
    if _snapshot(first_user) != before:
        raise Hint("running the second user's session changed the first user's: the two share a state dict; "
                   "give the new session its own dict")
