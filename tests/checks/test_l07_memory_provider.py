"""Lesson 07's check helpers: each fails where the claim it names is false."""

from __future__ import annotations

import asyncio

from agent_framework import AgentResponse, Content, Message
from cortadel import ChatMessage

import pytest

from course_kit.lessons.l07_build_a_memory_provider.checks import (
    error_of,
    fix_table,
    has_error_content,
    line_of,
    stored_texts,
)

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


def _sample() -> int:
    value = 1
    return value + 1  # the marker


def test_line_of_finds_the_marker_or_names_the_missing_one() -> None:
    import inspect

    first = inspect.getsourcelines(_sample)[1]
    assert line_of(_sample, "# the marker") == first + 2
    with pytest.raises(AssertionError, match="'gone' is no longer in _sample"):
        line_of(_sample, "gone")


def test_fix_table_has_a_row_per_fix_with_its_line() -> None:
    import inspect

    first = inspect.getsourcelines(_sample)[1]
    table = fix_table([("a failure", "a fix", _sample, "return value")])
    assert table.splitlines()[2] == f"| a failure | a fix | `test_l07_memory_provider.py` | {first + 2} |"
    with pytest.raises(AssertionError):
        fix_table([("a failure", "a fix", _sample, "not there")])
