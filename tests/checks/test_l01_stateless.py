"""Lesson 01's check helpers, and the shared ``texts_sent`` it introduces: each fails where its claim is false."""

from __future__ import annotations

from agent_framework import AgentResponse, Message

from course_kit.lessons.l01_stateless_runs.checks import usage_reported
from course_kit.checks.requests import texts_sent


class _Request:
    def __init__(self, *messages: Message) -> None:
        self.messages = list(messages)


def _response(usage: dict | None) -> AgentResponse:
    return AgentResponse(messages=[Message(role="assistant", contents=["Arr!"])], usage_details=usage)


def test_texts_sent_are_the_conversation_without_the_instructions() -> None:
    request = _Request(
        Message(role="system", contents=["You tell jokes."]),
        Message(role="user", contents=["Tell me a joke."]),
        Message(role="assistant", contents=["Arr!"]),
        Message(role="user", contents=["Again, with emojis."]),
    )
    assert texts_sent(request) == ["Tell me a joke.", "Arr!", "Again, with emojis."]
    assert texts_sent(request) != ["Again, with emojis."]  # a request that carried turn 1 is not "only its own message"
    assert texts_sent(_Request(Message(role="user", contents=["Again, with emojis."]))) == ["Again, with emojis."]


def test_usage_reported_only_when_the_output_was_counted() -> None:
    assert usage_reported(_response({"input_token_count": 12, "output_token_count": 5})) is True
    assert usage_reported(_response(None)) is False
    assert usage_reported(_response({"input_token_count": 12})) is False
    assert usage_reported(_response({"output_token_count": 0})) is False
