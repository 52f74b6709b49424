"""Lesson 04: the package's user-memory provider — the one the learner wrote in cells, hardened.

A port of the Go seed's user-memory provider onto the Python seams. ``before_run`` turns what is
remembered into instructions; ``after_run`` reads what the *user* said this turn and writes what it
learned into its slot of the session, ``state`` (= ``session.state[source_id]``). The provider
object holds no per-user data, so one agent with one provider serves every conversation: the memory
travels with the session, which makes it serialisable (lesson 05) and seedable (lesson 06).

What it adds to the lesson's few-line version lives beside the hooks, each in one place: the
extraction rules ("my name is priya", "call me Sam", "I'm tired" is no name) in
:mod:`offline_reader.speaker`; validation of remembered values (a hand-edited session file) in
:meth:`UserMemoryProvider.remembered`; a log line for every fact learned.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from agent_framework import AgentSession, ContextProvider, Message, SessionContext

if TYPE_CHECKING:
    from agent_framework import SupportsAgentRun

from offline_reader.speaker import extract_age, extract_name, is_plausible_age, is_plausible_name

__all__ = [
    "ASK_FOR_NAME",
    "UserMemoryProvider",
    "extract_age",
    "extract_name",
    "extract_user_facts",
    "is_plausible_age",
    "is_plausible_name",
]

logger = logging.getLogger(__name__)

ASK_FOR_NAME = "Ask the user for their name before answering."


class UserMemoryProvider(ContextProvider):
    """Remembers the user's name and age in the session and tells the model about them.

    State (JSON-native, in ``session.state[source_id]``): ``{"name": str, "age": int}``, either key
    absent until learned. Seed it to make a new session know the user.
    """

    DEFAULT_SOURCE_ID: ClassVar[str] = "user_memory"

    def __init__(self, source_id: str = DEFAULT_SOURCE_ID, *, ask_for_name: bool = True) -> None:
        """``ask_for_name``: tell the model to ask for the name while it is unknown."""
        super().__init__(source_id)
        self.ask_for_name = ask_for_name

    async def before_run(
        self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        """Add what is remembered (or a request for the name) to this run's instructions."""
        lines = self.instructions_for(state)
        if lines:
            context.extend_instructions(self.source_id, "\n".join(lines))

    async def after_run(
        self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        """Learn the name and age the user stated in this turn's input (never from replies)."""
        for key, value in extract_user_facts(context.input_messages).items():
            if state.get(key) != value:
                logger.info("%s: learned %s=%r", self.source_id, key, value)
                state[key] = value

    def instructions_for(self, state: dict[str, Any]) -> list[str]:
        """The instructions ``before_run`` adds for this state."""
        facts = self.remembered(state)
        lines: list[str] = []
        if "name" in facts:
            lines.append(f"The user's name is {facts['name']}.")
        if "age" in facts:
            lines.append(f"The user is {facts['age']} years old.")
        if "name" not in facts and self.ask_for_name:
            lines.append(ASK_FOR_NAME)
        return lines

    def remembered(self, state: dict[str, Any]) -> dict[str, Any]:
        """The valid facts in ``state``; malformed values (from a hand-edited file) are ignored."""
        facts: dict[str, Any] = {}
        for key, valid, what in (("name", is_plausible_name, "a plausible name"),
                                 ("age", is_plausible_age, "a whole number of years")):
            value = state.get(key)
            if value is None:
                continue
            if valid(value):
                facts[key] = value
            else:
                logger.warning("%s: ignoring remembered %s %r: not %s", self.source_id, key, value, what)
        return facts


def extract_user_facts(messages: Iterable[Message]) -> dict[str, Any]:
    """Name and age stated by the user across ``messages`` (user-role messages only; last one wins)."""
    facts: dict[str, Any] = {}
    for message in messages:
        if message.role != "user" or not message.text:
            continue
        if (name := extract_name(message.text)) is not None:
            facts["name"] = name
        if (age := extract_age(message.text)) is not None:
            facts["age"] = age
    return facts
