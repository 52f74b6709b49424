"""Typed provider state: a dataclass in ``session.state`` that survives ``to_dict`` → JSON → ``from_dict``.

A provider's slot, ``session.state[source_id]``, may hold more than JSON-native values: here a
:class:`UserProfile` dataclass, so the provider reads ``profile.city`` instead of ``state.get("city")``.
JSON cannot carry a dataclass, so the framework has to be told how to write it and rebuild it:
``register_state_type(UserProfile, type_id=...)``, called at module level right after the class.
``AgentSession.to_dict()`` then writes the value with its codec (here the class's own ``to_dict``)
plus a ``"type"`` tag, and ``AgentSession.from_dict()`` turns a tagged dict back into the class.

The registry is per process, filled by importing this module. A process that loads the session
without importing it — or a class that was never registered — gets the plain dict back. That is why
the registration sits beside the class and not in application start-up code: whoever imports the
provider has registered its state type.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent_framework import AgentSession, ContextProvider, SessionContext, register_state_type

if TYPE_CHECKING:
    from agent_framework import SupportsAgentRun

__all__ = ["PROFILE_TYPE_ID", "ProfileProvider", "UserProfile", "profile_of"]

logger = logging.getLogger(__name__)

PROFILE_TYPE_ID = "lesson_utils.user_profile"  # stable and package-qualified: it is written into saved sessions


@dataclass
class UserProfile:
    """What the provider knows about the user, as a typed value."""

    name: str | None = None
    city: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "city": self.city}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UserProfile:
        return cls(name=_text_or_none(data.get("name")), city=_text_or_none(data.get("city")))


register_state_type(UserProfile, type_id=PROFILE_TYPE_ID)  # at import time, before any session is loaded


_NAME = re.compile(r"\bmy name is\s+([A-Z][\w'-]+)")
_CITY = re.compile(r"\bI (?:live in|moved to|am moving to)\s+([A-Z][\w'-]+(?:\s[A-Z][\w'-]+)?)")


class ProfileProvider(ContextProvider):
    """Keeps a :class:`UserProfile` in its state slot; tells the model what it knows."""

    DEFAULT_SOURCE_ID = "profile"

    def __init__(self, source_id: str = DEFAULT_SOURCE_ID) -> None:
        super().__init__(source_id)

    async def before_run(
        self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        profile = profile_of(state)
        if profile.name:
            context.extend_instructions(self.source_id, f"The user's name is {profile.name}.")
        if profile.city:
            context.extend_instructions(self.source_id, f"The user lives in {profile.city}.")

    async def after_run(
        self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        profile = profile_of(state)
        for message in context.input_messages:
            if message.role == "user" and message.text:
                if name := _NAME.search(message.text):
                    profile.name = name.group(1)
                if city := _CITY.search(message.text):
                    profile.city = city.group(1)
        state["profile"] = profile  # a UserProfile, not a dict: to_dict() writes it through the codec


def profile_of(state: dict[str, Any]) -> UserProfile:
    """The profile in a provider's slot; an untyped dict (a session loaded unregistered) is converted."""
    value = state.get("profile")
    if isinstance(value, UserProfile):
        return value
    if isinstance(value, dict):
        logger.warning(
            "profile state came back as a plain dict: import lesson_utils.typed_state before "
            "AgentSession.from_dict so its type is registered"
        )
        return UserProfile.from_dict(value)
    return UserProfile()


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
