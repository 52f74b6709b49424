"""Lesson 02's check helpers: each fails where its claim is false."""

from __future__ import annotations

from agent_framework import Agent, AgentResponse, AgentSession, InMemoryHistoryProvider, Message

from course_kit.lessons.l02_sessions.checks import input_tokens_grew, provider_ids, stored_texts
from chat_models import OfflineChatClient


def _response(input_tokens: int | None) -> AgentResponse:
    usage = None if input_tokens is None else {"input_token_count": input_tokens}
    return AgentResponse(messages=[Message(role="assistant", contents=["ok"])], usage_details=usage)


def test_provider_ids_name_each_provider_by_class_and_source_id() -> None:
    assert provider_ids(Agent(client=OfflineChatClient())) == []
    agent = Agent(client=OfflineChatClient(), context_providers=[InMemoryHistoryProvider(source_id="chat")])
    assert provider_ids(agent) == [("InMemoryHistoryProvider", "chat")]
    assert provider_ids(agent) != [("InMemoryHistoryProvider", "in_memory")]


def test_stored_texts_read_the_history_providers_slot() -> None:
    session = AgentSession()
    assert stored_texts(session) == []
    session.state["in_memory"] = {"messages": [Message(role="user", contents=["hi"]), Message(role="assistant", contents=["hello"])]}
    session.state["notes"] = {"messages": [Message(role="user", contents=["other"])]}
    assert stored_texts(session) == ["hi", "hello"]
    assert stored_texts(session, "notes") == ["other"]
    assert stored_texts(session, "missing") == []


def test_input_tokens_grew_compares_reported_counts_and_says_none_without_them() -> None:
    assert input_tokens_grew(_response(20), _response(45)) is True
    assert input_tokens_grew(_response(45), _response(45)) is False
    assert input_tokens_grew(_response(45), _response(20)) is False
    assert input_tokens_grew(_response(None), _response(45)) is None
