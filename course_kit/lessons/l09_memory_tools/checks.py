"""Lesson 09's checks: what the model did with its memory tools during a run, read from the response.

A response holds the run's whole tool loop: the calls the model made (``function_call``), what each tool
answered (``function_result``), and the final text — in which a small model sometimes *writes* a call
instead of making it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...claims import Shown
from chat_models.text_tool_calls import find_text_tool_calls, missing_call_hint
from ...checks.requests import injected_texts

__all__ = ["called_tool", "injected_once_mentioning", "show_tool_calls", "tool_results", "tools_called"]


def _contents(response: Any, kind: str) -> list[Any]:
    return [content for message in response.messages for content in message.contents if content.type == kind]


def tools_called(response: Any) -> list[str]:
    """The names of the tools the model called during the run, in order."""
    return [content.name for content in _contents(response, "function_call")]


def called_tool(response: Any, name: str, tools: Iterable[Any]) -> Shown:
    """Whether the model called the tool ``name`` during the run; when it did not, why: it wrote the call as
    text instead (a small local model's habit), or answered without the tool."""
    return Shown(name in tools_called(response), why=missing_call_hint(response.text, tools))


def tool_results(response: Any) -> list[str]:
    """What each tool answered during the run, as text, in order."""
    return [str(content.result) for content in _contents(response, "function_result")]


def show_tool_calls(response: Any, tools: Iterable[Any]) -> list[str]:
    """Print the tool calls the model made, what the tools replied, any call it only *wrote* as text, and
    its answer; return the names of the tools it called."""
    for message in response.messages:
        for content in message.contents:
            if content.type == "function_call":
                print(f"  model called {content.name}({content.arguments})")
            elif content.type == "function_result":
                print(f"  tool replied: {content.result!r}")
    for written in find_text_tool_calls(response.text, tools):
        print(f"  model WROTE a call as text instead of making it: {written}")
    print("answer:", response.text)
    return tools_called(response)


def injected_once_mentioning(request: Any, word: str) -> bool:
    """A provider injected exactly one message into ``request``, and it mentions ``word``."""
    texts = injected_texts(request)
    return len(texts) == 1 and word in texts[0]
