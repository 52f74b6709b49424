"""Lesson 04's exercise: a context provider that remembers the user's city and says it back.

The checker drives the learner's provider through a real ``Agent`` on the offline lesson model and
looks only at what the framework did with it: what ``after_run`` left in the session's state, and
what ``before_run`` put in front of the model. Sessions tell apart the plausible mistakes:

- a user who says "I live in <city>", then a *fresh* session that carries only the provider's slot
  of the first one (no transcript): the city must reach the model, so it came from the provider's
  ``state`` and was injected — not read back from the history;
- a second user who never named a city: the first user's city must not reach the model for them,
  which catches a city kept on the provider instance (``self.city``) or class instead of in ``state``;
- a later turn that names no city: the city must still be in ``state`` afterwards.

The cities and sentences are drawn per run (:mod:`._cases`), never the lesson's Lisbon; the first
user's city always has three words or more ("Salt Lake City"): no cap on the number of words.
"""

from __future__ import annotations

import json
from typing import Any

from agent_framework import Agent, AgentSession, ContextProvider

from chat_models import OfflineChatClient, RequestRecorder
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

_INSTRUCTIONS = "You are a friendly assistant."


def _sent_text(recorder: RequestRecorder) -> str:
    """Everything the model was sent on the last call, as text: instructions and every message."""
    request = recorder.last_request
    if request is None:
        return ""
    return "\n".join([request.instructions, *(message.text or "" for message in request.messages)])


async def _run(agent: Agent, text: str, session: AgentSession, what: str) -> None:
    await call_learner(agent.run, text, session=session, what=what)


MULTI_WORD_CITIES = ("Cape Town", "Buenos Aires", "Kuala Lumpur", "San Francisco", "Tel Aviv", "Ho Chi Minh City",
                     "Addis Ababa", "Mexico City", "Saint Petersburg", "Hong Kong")
# The first user's city always has three words or more: "the capitalised words after 'I live in'" has no
# upper limit, so an answer that takes one or two words cuts it.
LONG_CITIES = ("Ho Chi Minh City", "Salt Lake City", "Bandar Seri Begawan", "Port Saint Lucie",
               "Sri Jayawardenepura Kotte", "Santa Rosa Beach")
ONE_WORD_CITIES = ("Tromsø", "Quito", "Nairobi", "Tbilisi", "Valparaíso", "Winnipeg", "Kraków", "Hobart", "Osaka",
                   "Marrakesh", "Reykjavik", "Ljubljana")
SAYINGS = ("Hi! I live in {}.", "I live in {} now, close to the old market.", "Good evening. I live in {}, by the way.")
CHAT_WITHOUT_A_CITY = ("What should I cook tonight?", "Can you recommend a good book?", "How do I fix a squeaky door?",
                       "Tell me something about owls.")


@exercise("04.remember_city", title="remember the user's city and say it back")
async def check_remember_city(answer: Any) -> None:
    if not (isinstance(answer, type) and issubclass(answer, ContextProvider)):
        raise Hint("hand in the class itself (`CityMemory`, not `CityMemory()`), a subclass of ContextProvider")
    with drawn_cases() as rng:
        await _two_users(answer, rng)


async def _slot_only(agent: Agent, provider: Any, session: AgentSession, recorder: RequestRecorder) -> str:
    """Ask "Where do I live?" in a new session that holds only the provider's slot of ``session``: no transcript."""
    later = AgentSession()
    later.state[provider.source_id] = json.loads(json.dumps(session.state.get(provider.source_id)))
    await _run(agent, "Where do I live?", later, "your CityMemory's before_run/after_run")
    return _sent_text(recorder)


async def _two_users(answer: Any, rng: Any) -> None:
    provider = await call_learner(answer, what="`CityMemory()`")
    if not isinstance(getattr(provider, "source_id", None), str):
        raise Hint("CityMemory has no source_id: call super().__init__(\"city_memory\") in its __init__")
    recorder = RequestRecorder()
    agent = Agent(client=OfflineChatClient(), instructions=_INSTRUCTIONS, context_providers=[provider],
                  middleware=[recorder])
    hooks = "your CityMemory's before_run/after_run"
    city = rng.choice(LONG_CITIES)  # never the lesson's Lisbon, and of three words or more
    other_city = rng.choice(ONE_WORD_CITIES + tuple(c for c in MULTI_WORD_CITIES if c != city))

    ana = agent.create_session()
    said = rng.choice(SAYINGS).format(city)
    await _run(agent, said, ana, hooks)
    slot = ana.state.get(provider.source_id)
    stored = json.dumps(slot, ensure_ascii=False, default=str)
    if not slot or city not in stored:
        everywhere = json.dumps({**vars(provider), **vars(type(provider))}, ensure_ascii=False, default=str)
        first_word = city.split()[0]
        if slot and first_word in stored:
            raise Hint(f"after {said!r} the session's state[{provider.source_id!r}] is {slot!r}: a city can have "
                       f"any number of words ({city} has {len(city.split())}); take every capitalised word after "
                       "\"I live in\", not one or two")
        where = "on the provider (self or the class)" if city in everywhere else "nowhere"
        raise Hint(f"after {said!r} the session's state[{provider.source_id!r}] is {slot!r}; the city is {where}. "
                   "In after_run, read context.input_messages and write the city the user said into `state`")
    try:
        json.dumps(ana.to_dict())
    except TypeError as exc:
        raise Hint(f"the state must be JSON-native (str, int, list, dict) so the session can be saved: {exc}") from None

    # A new session holding only the provider's slot: no transcript, so the city can only come from before_run.
    if city not in await _slot_only(agent, provider, ana, recorder):
        raise Hint("the city was stored in state but never reached the model in a session with no transcript: in "
                   "before_run, read it from `state` and add it with context.extend_instructions(self.source_id, ...) "
                   "or context.extend_messages(self, ...)")

    ben = agent.create_session()
    await _run(agent, "Hello! Where do I live?", ben, hooks)
    if city in _sent_text(recorder):
        raise Hint(f"a second user who never named a city was told about {city}: the city must live in "
                   "session.state (the `state` you are given), not on the provider or its class, which every "
                   "session shares")

    await _run(agent, rng.choice(SAYINGS).format(other_city), ben, hooks)
    await _run(agent, rng.choice(CHAT_WITHOUT_A_CITY), ana, hooks)  # a turn that names no city
    if city not in json.dumps(ana.state.get(provider.source_id), ensure_ascii=False, default=str):
        raise Hint(f"a turn that named no city wiped the remembered one: state is now "
                   f"{ana.state.get(provider.source_id)!r}. Write the slot only when the user names a city")
    sent = await _slot_only(agent, provider, ana, recorder)
    if other_city in sent:
        raise Hint(f"the first user's run was told about {other_city}, the second user's city: the city must live "
                   "in session.state, not on the provider (a provider instance serves every session)")
    if city not in sent:
        raise Hint(f"after a turn without a city, {city} no longer reached the model: keep it in state and tell "
                   "the model on every turn")
