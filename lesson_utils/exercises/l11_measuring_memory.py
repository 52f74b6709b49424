"""Lesson 11's exercise: measure what the provider injected for one question.

A scorecard scores what the model would have been *sent*, not what the search returned: the gate
can skip the search, the floor can drop hits, dedup can hide ones already injected in the session.
So the learner writes the measuring seam themselves — run the provider's ``before_run`` for one
question in a brand-new session and read back the ids it injected — and the checker compares it
with the right answer on a throwaway local server, for providers with and without gating.
"""

from __future__ import annotations

from typing import Any

from agent_framework import AgentSession, Message, SessionContext
from cortadel import ChatMessage

from ..cortadel.gating import BOTH_ARMS_FLOOR
from ..cortadel.provider import INJECTED_IDS_KEY, CortadelContextProvider
from ._registry import Hint, call_learner, exercise

_HISTORY = [
    "Hi! My name is Alex.", "I'm allergic to shellfish.", "I have a cat named Miso.", "I live in Lisbon.",
    "I play the cello in a band.", "My favourite colour is teal.",
]


async def _reference(provider: CortadelContextProvider, question: str) -> list[str]:
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[question])])
    state = session.state.setdefault(provider.source_id, {})
    await provider.before_run(agent=None, session=session, context=context, state=state)
    return list(state.get(INJECTED_IDS_KEY, []))


@exercise("11.injected_ids", title="measure what the provider injected for one question")
async def check_injected_ids(answer: Any) -> None:
    if not callable(answer):
        raise Hint("pass your function itself: check('11.injected_ids', injected_ids)")
    from ..memory_server import start_memory_server

    server = start_memory_server()
    providers: list[CortadelContextProvider] = []
    try:
        plain = CortadelContextProvider(server.url, "learner", store_turns=False)
        gated = CortadelContextProvider(server.url, "learner", store_turns=False, gate=True, min_score=BOTH_ARMS_FLOOR)
        providers += [plain, gated]
        await plain.client.add_conversation([ChatMessage(role="user", content=text) for text in _HISTORY])
        returned_before: set[str] = set()

        for provider, question, label in [
            (plain, "What am I allergic to?", "a plain provider"),
            (gated, "What am I allergic to?", "a provider with gate=True and a floor"),
            (gated, "thanks a lot!", "a gated provider and the turn 'thanks a lot!'"),
            (gated, "What is my brother's name?", "a provider with a floor and a question nothing answers"),
            # Last: a broad question injects several memories, so their order (best first) is checked too.
            (plain, "Tell me everything you know about me: my name, allergies, pets, city, music and colours.",
             "a plain provider and a broad question"),
        ]:
            expected = await _reference(provider, question)
            got = await call_learner(answer, provider, question, what="`injected_ids(provider, question)`")
            if not isinstance(got, list) or not all(isinstance(i, str) for i in got):
                raise Hint(f"return a list of memory ids (strings), in the order injected; got {type(got).__name__}")
            if got != expected:
                if sorted(got) == sorted(expected):
                    raise Hint("right ids, wrong order: keep the order the provider injected them (best first)")
                stale = (set(got) - set(expected)) & returned_before
                if (not got and expected) or stale:
                    raise Hint(
                        f"with {label} your function returned {got}, but the provider injected {expected}; "
                        "use a brand-new AgentSession for every question — a reused session remembers what it "
                        "injected before (and dedup hides it)"
                    )
                raise Hint(
                    f"with {label} the provider injected {expected} but your function returned {got}; run "
                    "provider.before_run(...) and read what it injected (session.state[provider.source_id]"
                    f"['{INJECTED_IDS_KEY}']), not the raw search results — the gate and the floor decide what is sent"
                )
            returned_before.update(got)
            again = await call_learner(answer, provider, question, what="`injected_ids(provider, question)`")
            if again != expected:
                raise Hint(
                    "asking the same question twice gave different ids; use a brand-new AgentSession for every "
                    "question, so one measurement does not change the next"
                )
    finally:
        for provider in providers:
            await provider.aclose()
        server.stop()
