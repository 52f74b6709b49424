"""Lesson 02's exercise: one agent, many conversations — one session per conversation id.

A web app or a chat bot serves many conversations with one agent. What keeps them apart is the
session: each conversation id needs its own ``AgentSession``, created once and passed to every run
of that conversation. The checker interleaves two conversations through the learner's class, on a
real ``Agent`` and the offline lesson model, and reads what the model was sent on each turn.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent

from ..models import OfflineChatClient, RequestRecorder
from ._registry import Hint, call_learner, exercise

_INSTRUCTIONS = "You are a friendly assistant."
_FACTS = {"a": "teal", "b": "amber"}  # conversation id -> the favourite colour said in it


def _sent_text(recorder: RequestRecorder) -> str:
    request = recorder.last_request
    return "\n".join(m.text or "" for m in request.messages if m.role != "system") if request else ""


@exercise("02.conversations", title="one agent, one session per conversation id")
async def check_conversations(answer: Any) -> None:
    recorder = RequestRecorder()
    agent = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS, middleware=[recorder])
    conversations = await call_learner(answer, agent, what="`Conversations(agent)`")
    send = getattr(conversations, "send", None)
    if not callable(send):
        raise Hint("Conversations needs an async method `send(self, conversation_id, text)`")

    for cid, colour in _FACTS.items():
        await call_learner(send, cid, f"My favourite colour is {colour}.", what="`send`")
    if len(recorder.requests) != len(_FACTS):
        raise Hint(f"each send should run the agent you were given once (self.agent.run); the model was called "
                   f"{len(recorder.requests)} time(s) for {len(_FACTS)} sends")

    for cid, colour in _FACTS.items():
        reply = await call_learner(send, cid, "What is my favourite colour?", what="`send`")
        sent = _sent_text(recorder)
        others = [c for other, c in _FACTS.items() if other != cid and c in sent]
        if others:
            raise Hint(f"conversation {cid!r} was sent another conversation's message ({others[0]!r}): give each "
                       "conversation id its own session (agent.create_session()), not one shared session")
        if colour not in sent:
            raise Hint(f"the second turn of conversation {cid!r} was sent without its first turn: create a session "
                       "the first time you see an id, keep it (a dict works), and pass the same one on every turn")
        if not isinstance(reply, str):
            raise Hint(f"send should return the reply's text (`response.text`); it returned {type(reply).__name__}")
        if colour not in reply:
            raise Hint(f"send returned {reply!r:.80}, not the model's answer to this turn: return `response.text`")
