"""Lesson 07's check helpers: each fails where the claim it names is false."""

from __future__ import annotations

import asyncio

from agent_framework import AgentResponse, Content, Message
from cortadel import ChatMessage

from lesson_utils.checks.l07_memory_provider import error_of, has_error_content, stored_texts

TURN = [ChatMessage(role="user", content="I moved to Oslo."), ChatMessage(role="assistant", content="Noted.")]


def test_stored_texts_reads_the_turn_in_order_and_by_role() -> None:
    assert stored_texts(TURN) == ["I moved to Oslo.", "Noted."]
    assert stored_texts(TURN, role="user") == ["I moved to Oslo."]
    assert stored_texts(TURN, role="user") != ["Noted."]
    assert stored_texts([], role="user") == []


def test_has_error_content_only_for_a_reply_with_error_content() -> None:
    apology = Message("assistant", ["Sorry.", Content.from_error(message="down")])
    assert has_error_content(AgentResponse(messages=[apology])) is True
    assert has_error_content(AgentResponse(messages=[Message("assistant", ["Fine."])])) is False
    assert has_error_content(AgentResponse(messages=[])) is False


def test_error_of_returns_the_error_raised_or_none() -> None:
    async def ok() -> str:
        return "answered"

    async def broken() -> None:
        raise ConnectionError("refused")

    assert asyncio.run(error_of(ok())) is None
    error = asyncio.run(error_of(broken()))
    assert isinstance(error, ConnectionError) and str(error) == "refused"


def test_error_of_lets_cancellation_through() -> None:
    async def cancelled() -> None:
        raise asyncio.CancelledError

    async def main() -> None:
        try:
            await error_of(cancelled())
        except asyncio.CancelledError:
            return
        raise AssertionError("error_of swallowed a cancellation")

    asyncio.run(main())
