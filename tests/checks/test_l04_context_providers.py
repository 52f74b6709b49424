"""Lesson 04's check helpers (and the shared ones it introduces): each fails where its claim is false."""

from __future__ import annotations

from agent_framework import Agent, ContextProvider, Message, tool

from course_kit.checks.agents import agent_remembers
from course_kit.lessons.l04_context_providers.checks import tool_tags
from course_kit.checks.requests import texts_sent
from chat_models import OfflineChatClient


@tool
def local_time(city: str) -> str:
    """The local time in a city."""
    return "12:00"


def weather(city: str) -> str:
    return "sunny"


def test_tool_tags_name_the_tagging_provider_and_leave_plain_functions_untagged() -> None:
    assert tool_tags([weather]) == {"weather": None}
    assert tool_tags([local_time]) == {"local_time": None}  # not yet contributed by any provider
    local_time.additional_properties["context_source"] = "profile"
    try:
        assert tool_tags([local_time, weather]) == {"local_time": "profile", "weather": None}
        assert tool_tags([local_time]) != {"local_time": "notes"}
    finally:
        local_time.additional_properties.pop("context_source")


class _Remembering(ContextProvider):
    """A wrong provider: it keeps the user's name on itself."""

    def __init__(self) -> None:
        super().__init__("wrong")
        self.name = "Priya"


def test_agent_remembers_finds_a_name_on_a_provider_or_in_the_instructions() -> None:
    clean = Agent(client=OfflineChatClient(), instructions="Be kind.", context_providers=[ContextProvider("x")])
    assert agent_remembers(clean, "Priya") == []
    keeps = Agent(client=OfflineChatClient(), instructions="Be kind.", context_providers=[_Remembering()])
    assert agent_remembers(keeps, "Priya", "Kenji") == ["Priya"]
    told = Agent(client=OfflineChatClient(), instructions="The user is Kenji.")
    assert agent_remembers(told, "Priya", "Kenji") == ["Kenji"]


class _Request:
    def __init__(self, *messages: Message) -> None:
        self.messages = list(messages)


def test_texts_sent_leave_out_the_system_message_only() -> None:
    request = _Request(Message(role="system", contents=["Be kind."]), Message(role="user", contents=["Hi"]),
                       Message(role="assistant", contents=["Hello!"]), Message(role="user", contents=["Again"]))
    assert texts_sent(request) == ["Hi", "Hello!", "Again"]
    assert texts_sent(_Request(Message(role="user", contents=["Again"]))) != ["Hi", "Hello!", "Again"]
