"""course_kit.lessons.l09_memory_tools.checks: each helper holds where its claim is true and fails where it is not."""

from __future__ import annotations

from agent_framework import AgentResponse, Content, FunctionTool, Message

from course_kit.lessons.l09_memory_tools.checks import (
    called_tool,
    injected_once_mentioning,
    show_tool_calls,
    tool_results,
    tools_called,
)


def search_memory(query: str) -> str:
    return "Ships on Fridays."


TOOLS = [FunctionTool(name="search_memory", description="search", func=search_memory)]

SEARCHED = AgentResponse(messages=[
    Message("assistant", [Content.from_function_call("c1", "search_memory", arguments='{"query": "ship"}')]),
    Message("tool", [Content.from_function_result("c1", result="Ships on Fridays.")]),
    Message("assistant", ["You ship on Fridays."]),
])
WROTE_IT = AgentResponse(messages=[Message("assistant", ['{"name": "search_memory", "arguments": {"query": "ship"}}'])])


def test_tools_called_and_their_results():
    assert tools_called(SEARCHED) == ["search_memory"] and tool_results(SEARCHED) == ["Ships on Fridays."]
    assert tools_called(WROTE_IT) == [] and tool_results(WROTE_IT) == []


def test_show_tool_calls_prints_a_call_written_as_text(capsys):
    assert show_tool_calls(WROTE_IT, TOOLS) == []
    assert "WROTE a call as text" in capsys.readouterr().out
    assert show_tool_calls(SEARCHED, TOOLS) == ["search_memory"]
    assert "WROTE" not in capsys.readouterr().out


def test_called_tool_says_why_when_the_model_did_not_call_it():
    assert called_tool(SEARCHED, "search_memory", TOOLS)
    wrote = called_tool(WROTE_IT, "search_memory", TOOLS)
    assert not wrote and "wrote the call as text" in wrote.why and "README" in wrote.why
    answered = called_tool(AgentResponse(messages=[Message("assistant", ["No idea."])]), "search_memory", TOOLS)
    assert not answered and "answered without the tool" in answered.why


class _Request:
    def __init__(self, *messages):
        self.messages = list(messages)


def _stamped(text):
    return Message("user", [text], additional_properties={"_attribution": {"source_id": "cortadel"}})


def test_injected_once_mentioning():
    assert injected_once_mentioning(_Request(Message("user", ["hi"]), _stamped("- ships on Fridays")), "Friday")
    assert not injected_once_mentioning(_Request(_stamped("- lives in Porto")), "Friday")
    assert not injected_once_mentioning(_Request(_stamped("- Friday"), _stamped("- Friday again")), "Friday")
    assert not injected_once_mentioning(_Request(Message("user", ["Friday"])), "Friday")  # typed, not injected
