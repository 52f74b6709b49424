"""Wrong answers to 04.remember_city, written from the exercise text only (issue 21, item 1).

Each remembers "I live in Lisbon." and says it back on the lesson's example; each breaks one rule:
the city in the user's own session state, read back with no transcript, never leaking to a second user,
for any city the user names.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import re

from agent_framework import ContextProvider

CITY = re.compile(r"I live in ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)")


class HardcodedLisbon(ContextProvider):
    """Remembers *that* a city was said, but tells the model the example's city, Lisbon."""

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if state.get("knows_city"):
            context.extend_instructions(self.source_id, "The user lives in Lisbon.")

    async def after_run(self, *, agent, session, context, state):
        if any("I live in" in (m.text or "") for m in context.input_messages):
            state["knows_city"] = True


class CityOnInstance(ContextProvider):
    """Keeps the city on the provider instance: the second user hears the first user's city."""

    def __init__(self):
        super().__init__("city_memory")
        self.city = None

    async def before_run(self, *, agent, session, context, state):
        if self.city:
            context.extend_instructions(self.source_id, f"The user lives in {self.city}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = CITY.search(message.text or "")
            if found:
                self.city = found.group(1)


class CityOnClass(ContextProvider):
    """Keeps the city in a class attribute: shared by every instance and every user."""

    city = None

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if CityOnClass.city:
            context.extend_instructions(self.source_id, f"The user lives in {CityOnClass.city}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = CITY.search(message.text or "")
            if found:
                CityOnClass.city = found.group(1)


class OneWordCity(ContextProvider):
    """The lesson's first regex shape, [A-Z][a-z]+: "New York" becomes "New", "Rio de Janeiro" "Rio"."""

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if "city" in state:
            context.extend_instructions(self.source_id, f"The user lives in {state['city']}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = re.search(r"I live in ([A-Z][a-z]+)", message.text or "")
            if found:
                state["city"] = found.group(1)


class OverwritesWithNothing(ContextProvider):
    """Writes the slot on every turn: a turn that names no city overwrites the city with None."""

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if state.get("city"):
            context.extend_instructions(self.source_id, f"The user lives in {state['city']}.")

    async def after_run(self, *, agent, session, context, state):
        text = " ".join(m.text or "" for m in context.input_messages)
        found = CITY.search(text)
        state["city"] = found.group(1) if found else None


class ReadsTheTranscript(ContextProvider):
    """Finds the city again in the session's transcript on every turn instead of remembering it."""

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        history = (session.state.get("in_memory") or {}).get("messages", []) if session else []
        for message in history:
            found = CITY.search(message.text or "")
            if found:
                context.extend_instructions(self.source_id, f"The user lives in {found.group(1)}.")

    async def after_run(self, *, agent, session, context, state):
        return None


class CityFromTheReply(ContextProvider):
    """Learns from the whole turn, the model's reply included: any "live in <City>" the model says counts."""

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if "city" in state:
            context.extend_instructions(self.source_id, f"The user lives in {state['city']}.")

    async def after_run(self, *, agent, session, context, state):
        texts = [m.text or "" for m in context.input_messages]
        if context.response is not None:
            texts.append(context.response.text or "")
        for text in texts:
            found = re.search(r"live in ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)", text)
            if found:
                state["city"] = found.group(1)


class LisbonInState(ContextProvider):
    """Hard-codes the example: remembers "Lisbon" when the user says it, and nothing else."""

    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if "city" in state:
            context.extend_instructions(self.source_id, f"The user lives in {state['city']}.")

    async def after_run(self, *, agent, session, context, state):
        if any("I live in Lisbon" in (m.text or "") for m in context.input_messages):
            state["city"] = "Lisbon"


class CityCachedOnInstance(ContextProvider):
    """Writes the city to state, but also caches it on the instance and reads the cache first: it leaks to the next user."""

    def __init__(self):
        super().__init__("city_memory")
        self.city = None

    async def before_run(self, *, agent, session, context, state):
        city = self.city or state.get("city")
        if city:
            context.extend_instructions(self.source_id, f"The user lives in {city}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = CITY.search(message.text or "")
            if found:
                self.city = state["city"] = found.group(1)


# Not shown wrong by behaviour: on the offline model the reply only ever echoes the user's own city ("Got it:
# you live in Cape Town."), so learning from it stores the same city. Reading only the user's messages is still
# the better rule; the check cannot tell the two apart without a model that says another city.
NOT_WRONG = [("04.remember_city", CityFromTheReply, "learns from the model's reply too")]

WRONG = [
    ("04.remember_city", HardcodedLisbon, "hard-codes the example city Lisbon (flag in state)"),
    ("04.remember_city", LisbonInState, "hard-codes the example city Lisbon (in state)"),
    ("04.remember_city", CityCachedOnInstance, "city in state, but also cached on the instance"),
    ("04.remember_city", CityOnInstance, "city kept on the provider instance"),
    ("04.remember_city", CityOnClass, "city kept on the class"),
    ("04.remember_city", OneWordCity, "one-word city regex ([A-Z][a-z]+)"),
    ("04.remember_city", OverwritesWithNothing, "slot overwritten with None by a turn without a city"),
    ("04.remember_city", ReadsTheTranscript, "reads the city from the transcript, not state"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


class _CityInState(ContextProvider):
    """Right in all but the one place each answer below changes: the city in `state`, said back as an instruction."""

    PATTERN = CITY

    def __init__(self):
        super().__init__("city_memory")

    def _find(self, text):
        found = self.PATTERN.search(text or "")
        return found.group(1) if found else None

    async def before_run(self, *, agent, session, context, state):
        if state.get("city"):
            context.extend_instructions(self.source_id, f"The user lives in {state['city']}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            if message.role != "user":
                continue
            city = self._find(message.text)
            if city:
                state["city"] = city


class OnlyTheLessonSentence(_CityInState):
    """Matches the lesson's sentence only: the message must be exactly "I live in <City>." (anchored, full stop)."""

    PATTERN = re.compile(r"^I live in ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)\.$")

    def _find(self, text):
        found = self.PATTERN.match((text or "").strip())
        return found.group(1) if found else None


class AtMostTwoWords(_CityInState):
    """ "A city can have more than one" word, read as at most two: a third capitalised word is cut off."""

    PATTERN = re.compile(r"I live in ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)")


class CityInSessionStateRoot(_CityInState):
    """Ignores its `state` argument: writes and reads session.state["city"] at the top level, outside its slot."""

    async def before_run(self, *, agent, session, context, state):
        city = session.state.get("city") if session is not None else None
        if city:
            context.extend_instructions(self.source_id, f"The user lives in {city}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            city = self._find(message.text)
            if city and session is not None:
                session.state["city"] = city


_LAST_CITY = {"city": None}


class LastCityFallback(_CityInState):
    """Keeps the city in state, and also in a module-level "last city" used when a session has none yet."""

    async def before_run(self, *, agent, session, context, state):
        city = state.get("city") or _LAST_CITY["city"]
        if city:
            context.extend_instructions(self.source_id, f"The user lives in {city}.")

    async def after_run(self, *, agent, session, context, state):
        await super().after_run(agent=agent, session=session, context=context, state=state)
        if state.get("city"):
            _LAST_CITY["city"] = state["city"]


NEW_FROM_TEXT = [
    ("04.remember_city", OnlyTheLessonSentence, "only the lesson's sentence shape: ^I live in X.$"),
    ("04.remember_city", AtMostTwoWords, "city of at most two words (boundary: a third word cut)"),
    ("04.remember_city", CityInSessionStateRoot, "ignores `state`: city at session.state['city'], outside its slot"),
    ("04.remember_city", LastCityFallback, "module-level last city as a fallback for sessions without one"),
]
WRONG += NEW_FROM_TEXT
