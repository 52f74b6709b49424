"""Lesson 02's exercise: one agent, many conversations — one session per conversation id.

A web app or a chat bot serves many conversations with one agent. What keeps them apart is the
session: each conversation id needs its own ``AgentSession``, created once and passed to every run
of that conversation. The checker interleaves two conversations through the learner's class, on a
real ``Agent`` and the offline lesson model, and reads what the model was sent on each turn.

Ids and colours are drawn per run (:mod:`._cases`); two apps (two objects, two agents) reuse the same
ids, so sessions kept on the class or the module leak; the colour is asked for two turns after it
was said, so keeping only the last exchange forgets it.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent

from chat_models import OfflineChatClient, RequestRecorder
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

_INSTRUCTIONS = "You are a friendly assistant."
COLOURS = ("teal", "burnt orange", "sea green", "mustard yellow", "lilac", "navy blue", "coral", "olive",
           "dusty rose", "slate grey", "crimson", "pale lemon")
FILLERS = ("What is a good name for a goldfish?", "Can you suggest a quick lunch?", "How far away is the moon?",
           "Tell me a fun fact about owls.", "What rhymes with window?")


def _sent_text(recorder: RequestRecorder) -> str:
    request = recorder.last_request
    return "\n".join(m.text or "" for m in request.messages if m.role != "system") if request else ""


def _ids(rng: Any, n: int) -> list[str]:
    forms = ("chat-{}", "user:{}", "window {}", "{}", "support/{}")
    ids = [rng.choice(forms).format(rng.randrange(100, 99999)) for _ in range(n)]
    # and always one id that differs from another only in case: ids are compared as given, so "Chat-7" and
    # "chat-7" are two conversations (an answer that lower-cases or strips ids merges them)
    lettered = rng.choice(("chat-{}", "user:{}", "window {}", "support/{}")).format(rng.randrange(100, 99999))
    variant = rng.choice((lettered.upper(), lettered[0].upper() + lettered[1:], lettered.title()))
    return [*ids, lettered, variant]


def _merged(cid: str, other: str) -> str:
    if cid != other and cid.strip().lower() == other.strip().lower():
        return (f"ids {other!r} and {cid!r} are two conversations, but yours shared one session: use the id exactly "
                "as given as the key (no lower-casing or stripping)")
    return ""


@exercise("02.conversations", title="one agent, one session per conversation id")
async def check_conversations(answer: Any) -> None:
    with drawn_cases() as rng:
        # Two apps (two Conversations objects on two agents) that happen to use the same conversation ids:
        # sessions kept on the class or the module would leak from the first app into the second.
        ids = _ids(rng, 2)
        for _app in range(2):
            colours = rng.sample(COLOURS, len(ids))
            await _one_app(answer, dict(zip(ids, colours, strict=True)), rng)


async def _one_app(answer: Any, facts: dict[str, str], rng: Any) -> None:
    recorder = RequestRecorder()
    agent = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS, middleware=[recorder])
    conversations = await call_learner(answer, agent, what="`Conversations(agent)`")
    send = getattr(conversations, "send", None)
    if not callable(send):
        raise Hint("Conversations needs an async method `send(self, conversation_id, text)`")

    for cid, colour in facts.items():
        before = len(recorder.requests)
        await call_learner(send, cid, f"My favourite colour is {colour}.", what="`send`")
        if len(recorder.requests) != before + 1:
            raise Hint("each send should run the agent you were given once (self.agent.run); the model was called "
                       f"{len(recorder.requests) - before} time(s) for one send")
        sent = _sent_text(recorder)
        said_here = list(facts.values())[: list(facts).index(cid)]
        leaked = [c for c in said_here if c in sent]
        if leaked:
            merged = _merged(cid, next(other for other, c in facts.items() if c == leaked[0]))
            if merged:
                raise Hint(merged)
            raise Hint(f"conversation {cid!r} was sent another conversation's message ({leaked[0]!r}): give each "
                       "conversation id its own session (agent.create_session()), not one shared session")
        if "My favourite colour is" in sent.replace(f"My favourite colour is {colour}.", ""):
            raise Hint(f"a new conversation {cid!r} was sent messages from before it started: each Conversations "
                       "object keeps its own sessions (on self, not on the class or the module), and each id its "
                       "own session")
    for cid in facts:  # a turn in between: the colour is two turns back when it is asked for
        await call_learner(send, cid, rng.choice(FILLERS), what="`send`")

    for cid, colour in facts.items():
        reply = await call_learner(send, cid, "What is my favourite colour?", what="`send`")
        sent = _sent_text(recorder)
        others = [c for other, c in facts.items() if other != cid and c in sent]
        if others:
            merged = _merged(cid, next(other for other, c in facts.items() if c == others[0]))
            if merged:
                raise Hint(merged)
            raise Hint(f"conversation {cid!r} was sent another conversation's message ({others[0]!r}): give each "
                       "conversation id its own session (agent.create_session()), not one shared session")
        if colour not in sent:
            raise Hint(f"a later turn of conversation {cid!r} was sent without its first turn: create a session "
                       "the first time you see an id, keep it (a dict on self works), and pass the same one on "
                       "every turn — it keeps the whole conversation, not just the last exchange")
        if not isinstance(reply, str):
            raise Hint(f"send should return the reply's text (`response.text`); it returned {type(reply).__name__}")
        if colour not in reply:
            raise Hint(f"send returned {reply!r:.80}, not the model's answer to this turn: return `response.text`")
