"""Lesson 06's exercise: seed a session for a second user from a dict you build.

The learner writes ``seed_second_user(agent, memory, first_user, name, age)``. The checker gives it a
real ``Agent`` on the offline lesson model whose ``UserMemoryProvider`` has a source id of its own
(so the slot must be found through ``memory.source_id``), and a first user's session with a
conversation in it. The new user's very first question must be answered from the seeded slot; the
first user's session must come out exactly as it went in.

The source id, the users, their names and ages are drawn per run (:mod:`._cases`), and two new users
are seeded one after the other, so a seed dict shared between sessions (module, class) is caught.
"""

from __future__ import annotations

import json
from typing import Any

from agent_framework import Agent, AgentSession

from ..models import OfflineChatClient, RequestRecorder
from ..user_memory import UserMemoryProvider
from ._cases import drawn_cases
from ._registry import Hint, call_learner, exercise

SOURCE_IDS = ("crm_profile", "signup_form", "account_profile", "onboarding")  # never the default "user_memory"
NAMES = ("Chiara", "Dawit", "Elif", "Finn", "Gulnara", "Hamid", "Isla", "Jonas", "Kalani", "Leona")
_QUESTION = "What is my name and age?"


def _snapshot(session: AgentSession) -> str:
    return json.dumps(session.to_dict(), sort_keys=True)


@exercise("06.seed_second_user", title="seed a session for a second user")
async def check_seed_second_user(answer: Any) -> None:
    with drawn_cases() as rng:
        await _seed_two_new_users(answer, rng)


async def _seed_two_new_users(answer: Any, rng: Any) -> None:
    recorder = RequestRecorder()
    memory = UserMemoryProvider(source_id=rng.choice(SOURCE_IDS))
    agent = Agent(client=OfflineChatClient(), instructions="Be friendly.", context_providers=[memory],
                  middleware=[recorder])
    first_name, *new_names = rng.sample(NAMES, 3)
    first_user = agent.create_session()
    await agent.run(f"Hi, I'm {first_name} and I'm {rng.randrange(18, 40)}.", session=first_user)
    before = _snapshot(first_user)
    seeded: list[tuple[AgentSession, dict[str, Any]]] = []
    for name in new_names:  # two sign-ups in a row: nothing one seeds may be shared with the next
        expected = {"name": name, "age": rng.randrange(40, 90)}
        second = await _seed_one(answer, agent, memory, recorder, first_user, first_name, before, expected)
        seeded.append((second, expected))
    for session, expected in seeded:
        if session.state.get(memory.source_id) != expected:
            raise Hint(f"seeding the next user changed {expected['name']}'s slot to "
                       f"{session.state.get(memory.source_id)!r}: build a new dict for every user (not one dict at "
                       "module level or on the class, shared by every session)")


async def _seed_one(answer: Any, agent: Agent, memory: UserMemoryProvider, recorder: RequestRecorder,
                    first_user: AgentSession, first_name: str, before: str, expected: dict[str, Any]) -> AgentSession:
    second = await call_learner(answer, agent, memory, first_user, expected["name"], expected["age"],
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
    if slot != expected:
        raise Hint(f"the seeded slot is {slot!r}; the provider reads {{'name': str, 'age': int}} — here "
                   f"{expected!r} (the name and age you were given)")

    reply = (await agent.run(_QUESTION, session=second)).text
    sent = recorder.last_request
    if sent is None or first_name in sent.render():
        raise Hint("the new user's first request carried the first user's data: keep their sessions apart")
    if (f"The user's name is {expected['name']}." not in sent.instructions or expected["name"] not in reply
            or str(expected["age"]) not in reply):
        raise Hint("the first question was not answered from the seeded slot; seed before the first run")
    if _snapshot(first_user) != before:
        raise Hint("running the second user's session changed the first user's: the two share a state dict; "
                   "give the new session its own dict")
    return second
