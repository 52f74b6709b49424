"""Lesson 06's exercise: "New chat" — start over, but keep what the providers learned.

The learner writes ``start_over(agent, session)``: a new session for the same user that carries every
context provider's slot of ``session.state`` except the history provider's. It is the lesson's two
moves at once — seeding a new session with saved state, and a fork that must not share mutable state —
and it makes the learner decide which slots are "what was learned", and how to copy them.

The checker's agent has three providers, each under a ``source_id`` drawn per run (never a default,
so no key can be typed in): lesson 04's ``UserMemoryProvider``, a provider that keeps a growing *list*
of what the user likes (a shallow copy shares it), and a history provider — the framework's
``InMemoryHistoryProvider`` and, in a second round, a small one of a different class that keeps turns
under another key, so neither "the slot with ``messages`` in it" nor "an ``InMemoryHistoryProvider``" is a rule. Three users (drawn names, some of two words;
the second never said their age, the third what they like) are started over one after another, then every session,
old and new, chats on. That catches, each with its own hint: the old transcript carried, a slot
left behind, the old session edited or returned, state shared between the two sessions (by
reference or one level down), and a template kept outside the session leaking one user into another.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agent_framework import (
    Agent,
    AgentSession,
    ContextProvider,
    HistoryProvider,
    InMemoryHistoryProvider,
    Message,
    SessionContext,
    SupportsAgentRun,
)

from chat_models import OfflineChatClient, RequestRecorder
from lesson_utils.user_memory import UserMemoryProvider
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

MEMORY_IDS = ("profile", "crm_profile", "who_is_this", "user_facts", "about_user")  # never "user_memory"
LIKES_IDS = ("likes", "interests", "taste", "favourites", "preferences")
HISTORY_IDS = ("transcript", "chat_log", "conversation", "history", "turns_so_far")  # never "in_memory"
NAMES = ("Chiara", "Dawit", "Elif", "Finn", "Gulnara", "Hamid", "Isla", "Jonas", "Kalani", "Leona",
         "Mary Ann", "Jean Luc", "Anna Lena", "Ji Woo")
LIKES = ("bird watching", "jazz piano", "sourdough baking", "trail running", "board games", "Japanese woodblock prints",
         "sea kayaking", "old maps", "crossword puzzles", "salsa dancing", "Nordic noir novels", "urban sketching")
SMALL_TALK = ("Can you suggest a name for a {} club?", "What is a good first step into {}?",
              "Tell me a fun fact that has to do with {}.", "Which book would you give a friend who loves {}?")


class _LikesMemory(ContextProvider):
    """A second provider for the check: a list of what the user likes, grown in place by ``after_run``."""

    _SAID = re.compile(r"\bI (?:also |really )?like ([^.!?]+)")

    async def before_run(self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext,
                         state: dict[str, Any]) -> None:
        if state.get("likes"):
            context.extend_instructions(self.source_id, "The user likes " + "; ".join(state["likes"]) + ".")

    async def after_run(self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext,
                        state: dict[str, Any]) -> None:
        for message in context.input_messages:
            for match in self._SAID.finditer(message.text or ""):
                state.setdefault("likes", []).append(match.group(1).strip())


class _TurnLog(HistoryProvider):
    """A history provider of another class than the framework's: its turns live under ``"turns"``."""

    async def get_messages(self, session_id: str | None, *, state: dict[str, Any] | None = None,
                           **kwargs: Any) -> list[Message]:
        return [Message(turn["role"], [turn["text"]]) for turn in (state or {}).get("turns", [])]

    async def save_messages(self, session_id: str | None, messages: Sequence[Message], *,
                            state: dict[str, Any] | None = None, **kwargs: Any) -> None:
        if state is not None:
            state.setdefault("turns", []).extend({"role": m.role, "text": m.text or ""} for m in messages)


@dataclass
class _User:
    name: str
    age: int | None
    likes: list[str]
    said: list[str] = field(default_factory=list)  # every sentence this user typed in the old session
    old: AgentSession | None = None
    new: AgentSession | None = None


def _dump(session: AgentSession) -> str:
    return json.dumps(session.to_dict(), sort_keys=True, ensure_ascii=False)


@exercise("06.start_over", title="start over, but keep what the providers learned")
async def check_start_over(answer: Any) -> None:
    with drawn_cases() as rng:
        # once with the framework's InMemoryHistoryProvider and once with a history provider of another class,
        # in a drawn order: an answer that knows only the lesson's class carries the transcript on every draw
        for history_class in rng.sample((InMemoryHistoryProvider, _TurnLog), 2):
            await _start_over_several_users(answer, rng, history_class)


async def _start_over_several_users(answer: Any, rng: Any, history_class: type[HistoryProvider]) -> None:
    recorder = RequestRecorder()
    memory = UserMemoryProvider(source_id=rng.choice(MEMORY_IDS))
    likes = _LikesMemory(rng.choice(LIKES_IDS))
    history_id = rng.choice(HISTORY_IDS)
    history: HistoryProvider = history_class(history_id)
    providers: list[ContextProvider] = [history, memory, likes]
    agent = Agent(client=OfflineChatClient(), instructions="You are a friendly assistant.",
                  context_providers=providers, middleware=[recorder])
    learned = [memory.source_id, likes.source_id]

    users = [_draw_user(rng, name, index) for index, name in enumerate(rng.sample(NAMES, 3))]
    for user in users:
        await _chat_in_old_session(agent, user, rng)

    for user in users:  # one after another: nothing kept from one call may reach the next
        assert user.old is not None
        before = _dump(user.old)
        new = await call_learner(answer, agent, user.old, what="`start_over`")
        user.new = _one_new_session(new, user, before, history_id, learned, history_class)

    for user in users:
        _slots_carried(user, users, learned)
    for user in users:
        await _new_session_starts_clean(agent, recorder, user, users)
    await _sessions_stay_apart(agent, users, learned, rng)


def _draw_user(rng: Any, name: str, index: int) -> _User:
    # The first user told everything; the second never said their age, the third never said what they like,
    # so state carried over from an earlier user shows up as a fact this user never told.
    age = None if index == 1 else rng.randrange(19, 88)
    n_likes = 0 if index == 2 else rng.choice((1, 2))
    return _User(name=name, age=age, likes=rng.sample(LIKES, n_likes))


async def _chat_in_old_session(agent: Agent, user: _User, rng: Any) -> None:
    user.old = agent.create_session()
    intro = f"Hello, my name is {user.name}" + (f" and I am {user.age} years old." if user.age else ".")
    lines = [intro, *(f"I really like {thing}." for thing in user.likes),
             rng.choice(SMALL_TALK).format(rng.choice(LIKES))]
    for line in lines:
        await agent.run(line, session=user.old)
    user.said = lines


def _one_new_session(new: Any, user: _User, before: str, history_id: str, learned: list[str],
                     history_class: type[HistoryProvider] = InMemoryHistoryProvider) -> AgentSession:
    assert user.old is not None
    if not isinstance(new, AgentSession):
        raise Hint(f"return the new session (an AgentSession); got {type(new).__name__}")
    if _dump(user.old) != before:
        raise Hint("the old session changed: build the new session beside it, and take nothing out of the old one "
                   "(the user may go back to that chat)")
    if new is user.old or new.session_id == user.old.session_id:
        raise Hint("that is the old conversation under its old session_id, not a new one: start from "
                   "agent.create_session() (or give a copy a session_id of its own)")
    state = new.to_dict()["state"]  # as it would be stored: history messages serialised too
    carried = [line for line in user.said if line in json.dumps(state, ensure_ascii=False)]
    if carried:
        where = [key for key, value in state.items() if carried[0] in json.dumps(value, ensure_ascii=False)]
        if history_class is not InMemoryHistoryProvider:
            raise Hint(f"the new session still carries the old transcript (in state[{where[0]!r}]): this agent's "
                       f"history provider is a {history_class.__name__}, not InMemoryHistoryProvider — leave out the "
                       "slot of every provider that is an agent_framework.HistoryProvider, whatever its class")
        raise Hint(f"the new session still carries the old transcript ({len(carried)} of the user's messages, in "
                   f"state[{where[0]!r}], the history provider's slot): what the providers learned goes along, "
                   "the messages stay behind")
    return new


def _slot(session: AgentSession | None, source_id: str) -> Any:
    return (session.state.get(source_id) if session is not None else None) or {}


def _slots_carried(user: _User, users: list[_User], learned: list[str]) -> None:
    for source_id in learned:
        old, new = _slot(user.old, source_id), _slot(user.new, source_id)
        if old == new:
            continue
        text = json.dumps(new, ensure_ascii=False)
        strangers = [u.name for u in users if u is not user and (u.name in text or any(x in text for x in u.likes))]
        if strangers:
            raise Hint(f"{user.name}'s new session holds {strangers[0]}'s state under {source_id!r}: something kept "
                       "outside the session (a module-level dict, the class, the agent) carries one user into "
                       "another — build each new session's state from its own old session only")
        if not new and old:
            assert user.new is not None
            found = ", ".join(repr(k) for k in user.new.state) or "nothing"
            raise Hint(f"the new session lost what the provider {source_id!r} learned ({old!r}; the new state holds "
                       f"{found}): carry the slot of every provider that is not a history provider — look at "
                       "agent.context_providers, not at a key you know")
        if isinstance(new, dict) and isinstance(old, dict) and set(new) - set(old):
            raise Hint(f"the new session's slot {source_id!r} is {new!r}, but the old one never learned "
                       f"{sorted(set(new) - set(old))[0]!r}: it came from another session — build each new "
                       "session's state from its own old session only")
        raise Hint(f"the new session's slot {source_id!r} is {new!r}, but the old one is {old!r}: carry each slot "
                   "as it is")


async def _new_session_starts_clean(agent: Agent, recorder: RequestRecorder, user: _User, users: list[_User]) -> None:
    assert user.new is not None
    question = "What do you remember about me?"
    await call_learner(agent.run, question, session=user.new, what="the agent's run on your new session")
    sent = recorder.last_request
    assert sent is not None
    chat = [m.text for m in sent.messages if m.role != "system"]
    if chat != [question]:
        raise Hint(f"the new session's first request carried {len(chat) - 1} earlier message(s): a new chat starts "
                   "with no transcript")
    expected = [f"The user's name is {user.name}.", *([f"The user is {user.age} years old."] if user.age else []),
                *user.likes]
    missing = [line for line in expected if line not in sent.instructions]
    if missing:
        raise Hint(f"the new session's first request did not tell the model {missing[0]!r}: the provider's slot "
                   "did not reach it")
    others = [u.name for u in users if u is not user and u.name in sent.render()]
    if others:
        raise Hint(f"{user.name}'s new chat told the model about {others[0]}: keep each user's state in their own "
                   "session")


async def _sessions_stay_apart(agent: Agent, users: list[_User], learned: list[str], rng: Any) -> None:
    spare = [thing for thing in LIKES if all(thing not in u.likes for u in users)]
    for user in users:
        assert user.old is not None and user.new is not None
        everyone_else = [(u.name, s, _dump(s)) for u in users for s in (u.old, u.new)
                         if s is not None and s is not user.new]
        await agent.run(f"I also like {spare.pop(rng.randrange(len(spare)))}.", session=user.new)
        for name, session, before in everyone_else:
            if _dump(session) != before:
                which = "old session" if session is user.old else f"{name}'s sessions"
                raise Hint(f"what {user.name}'s new session learned also changed the {which}: they share state "
                           f"({_shared_part(user.new, session, learned)}) — give the new session its own copy, "
                           "all the way down (copy.deepcopy, or through to_dict/from_dict)")
        new_before = _dump(user.new)
        await agent.run(f"I also like {spare.pop(rng.randrange(len(spare)))}.", session=user.old)
        if _dump(user.new) != new_before:
            raise Hint(f"what the old session learned later changed {user.name}'s new session: they share state "
                       f"({_shared_part(user.new, user.old, learned)}) — give the new session its own copy, all the "
                       "way down")


def _shared_part(one: AgentSession, other: AgentSession, learned: list[str]) -> str:
    if one.state is other.state:
        return "the very same state dict"
    for source_id in learned:
        a, b = one.state.get(source_id), other.state.get(source_id)
        if a is not None and a is b:
            return f"the slot {source_id!r} itself"
        if isinstance(a, dict) and isinstance(b, dict) and any(v is b.get(k) for k, v in a.items()
                                                               if isinstance(v, (list, dict))):
            return f"a list or dict inside the slot {source_id!r}: a shallow copy"
    return "a value one of them grows in place"
