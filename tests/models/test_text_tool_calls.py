"""Tool calls written as text are recognised in every shape small models write them, and only for
tools that were offered; ordinary answers (even ones with JSON or parentheses) are not calls."""

from __future__ import annotations

import pytest

from chat_models.text_tool_calls import TextToolCall, find_text_tool_calls

TOOLS = ["search_memory", "add_memories"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"name": "add_memories", "arguments": {"text": "I ship on Fridays."}}',
         [TextToolCall("add_memories", {"text": "I ship on Fridays."})]),
        ('```json\n{"name": "search_memory", "arguments": {"query": "ship day"}}\n```',
         [TextToolCall("search_memory", {"query": "ship day"})]),
        ('{{"name": "search_memory", "arguments": {"query": "ship"}}}', [TextToolCall("search_memory")]),
        ('<tool_call>\n{"name": "add_memories", "parameters": {"text": "x"}}\n</tool_call>',
         [TextToolCall("add_memories", {"text": "x"})]),
        ('Sure! {"type": "function", "function": {"name": "search_memory", "arguments": "{\\"query\\": \\"q\\"}"}}',
         [TextToolCall("search_memory", {"query": "q"})]),
        (
            (
                '{"tool_calls": [{"function": {"name": "search_memory", "arguments": {}}}, '
                '{"function": {"name": "add_memories", "arguments": {}}}]}'
            ),
            [TextToolCall("search_memory"), TextToolCall("add_memories")],
        ),
        ('[{"name": "search_memory", "arguments": {"query": "a"}}]', [TextToolCall("search_memory")]),
        ('I will call search_memory(query="when do I ship") now.',
         [TextToolCall("search_memory", 'query="when do I ship"', "call")]),
    ],
)
def test_calls_written_as_text_are_found(text: str, expected: list[TextToolCall]) -> None:
    found = find_text_tool_calls(text, TOOLS)
    assert [(c.name, c.form) for c in found] == [(c.name, c.form) for c in expected]
    for got, want in zip(found, expected, strict=True):
        if want.arguments is not None:
            assert got.arguments == want.arguments


@pytest.mark.parametrize(
    "text",
    [
        "You usually ship on Fridays.",
        "",
        None,
        '{"name": "delete_everything", "arguments": {}}',  # a tool that was not offered
        'Here is your data: {"day": "Friday", "count": 3}',
        "I searched my memory (nothing found) and I don't know.",
        "{not json at all",
        "search_memory is a tool I have.",  # named, not called
    ],
)
def test_ordinary_answers_are_not_calls(text: str | None) -> None:
    assert find_text_tool_calls(text, TOOLS) == []


def test_framework_tools_are_accepted_by_name() -> None:
    from agent_framework import FunctionTool

    def lookup(query: str) -> str:
        return query

    tool = FunctionTool(name="lookup", description="Look up.", func=lookup)
    assert [c.name for c in find_text_tool_calls('{"name": "lookup", "arguments": {"query": "x"}}', [tool])] == [
        "lookup"
    ]
    assert find_text_tool_calls('{"name": "lookup"}', []) == []


def test_a_found_call_reads_as_a_call() -> None:
    (call,) = find_text_tool_calls('{"name": "search_memory", "arguments": {"query": "ship"}}', TOOLS)
    assert str(call) == 'search_memory({"query": "ship"})'


def test_the_hint_says_whether_the_call_was_written_as_text() -> None:
    from chat_models.text_tool_calls import missing_call_hint

    written = missing_call_hint('```json\n{"name": "search_memory", "arguments": {"query": "ship"}}\n```', TOOLS)
    assert "wrote the call as text" in written and "search_memory" in written and "README" in written
    skipped = missing_call_hint("I don't know when you ship.", TOOLS)
    assert "without the tool" in skipped and "README" in skipped
