"""Lesson 01's exercise: make turn 2 work without a session, by sending the history yourself.

An agent without a session sends the model only what ``agent.run`` is given. So the learner's
function must hand turn 2 the whole conversation: turn 1's question, turn 1's reply, then the new
message — each exactly once, in that order. The checker runs it through a real ``Agent`` on the
offline lesson model and compares what the model was sent on each call with what it should be.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent, InMemoryHistoryProvider, Message

from ..models import OfflineChatClient, RequestRecorder
from ._registry import Hint, call_learner, exercise

FIRST = "Tell me a joke about a pirate."
SECOND = "Now add some emojis to the joke and tell it in a parrot's voice."
_INSTRUCTIONS = "You are a cheerful assistant who tells short, family-friendly jokes."


def _sent(request: Any) -> list[tuple[str, str]]:
    return [(str(m.role), m.text or "") for m in request.messages if m.role != "system"]


@exercise("01.send_history", title="make turn 2 work by sending the history yourself")
async def check_send_history(answer: Any) -> None:
    # What each turn should answer: the offline model is deterministic, so a fresh agent tells us.
    reference = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS)
    first = await reference.run(FIRST)
    reply1 = first.text
    reply2 = (await reference.run([Message(role="user", contents=[FIRST]), *first.messages,
                                   Message(role="user", contents=[SECOND])])).text
    recorder = RequestRecorder()
    agent = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS, middleware=[recorder])

    result = await call_learner(answer, agent, FIRST, SECOND)

    if any(isinstance(p, InMemoryHistoryProvider) for p in agent.context_providers):
        raise Hint("you used a session, which keeps the history for you; here, pass no session and give "
                   "agent.run the list of messages yourself")
    if len(recorder.requests) != 2:
        raise Hint(f"expected two runs of the agent (turn 1, then turn 2); the model was called {len(recorder.requests)} time(s)")
    turn1, turn2 = (_sent(r) for r in recorder.requests)
    if turn1 != [("user", FIRST)]:
        raise Hint(f"turn 1 should send just `first`; it sent {turn1!r}")
    expected = [("user", FIRST), ("assistant", reply1), ("user", SECOND)]
    if turn2 == expected:
        text = result if isinstance(result, str) else getattr(result, "text", None)
        if text != reply2:
            raise Hint("the turns were right, but return turn 2's response (what the second agent.run returned); "
                       f"got {text if isinstance(text, str) else type(result).__name__!r:.80}")
        return
    if turn2 == [("user", SECOND)]:
        raise Hint("turn 2 was sent only its new message: put turn 1's question and its reply "
                   "(`response.messages`) before it in the list you pass to agent.run")
    if turn2.count(("user", FIRST)) > 1 or turn2.count(("assistant", reply1)) > 1 or turn2.count(("user", SECOND)) > 1:
        raise Hint("part of the history was sent twice: each earlier message goes into turn 2's list exactly once "
                   f"(the model saw {len(turn2)} messages, it should see 3)")
    if ("assistant", reply1) not in turn2:
        raise Hint("turn 2 was sent turn 1's question but not the model's answer: add turn 1's "
                   "`response.messages` after the question")
    raise Hint(f"turn 2 should send [turn 1's question, turn 1's reply, the new message] in that order; it sent "
               f"{[role for role, _ in turn2]}")
