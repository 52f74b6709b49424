"""Tool calls a model wrote as text instead of making them.

Small local models (Qwen2.5-Coder, many 0.5-3B models, any model behind a server whose chat
template has no tool support) often answer a tool-worthy request with the call *written out*:
``{"name": "add_memories", "arguments": {...}}``, the same in a code fence, in ``{{…}}``, in
``<tool_call>`` tags, or as ``add_memories(text="…")``. The framework sees plain text, runs no
tool, and a lesson that only looks for real calls shows nothing and says nothing. This module
recognises such text — only calls to tools that were actually offered — so the lesson can say in
one line what happened and what to try.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class TextToolCall:
    """A call to ``name`` found in a model's text; ``form`` is ``"json"`` or ``"call"`` (``name(...)``)."""

    name: str
    arguments: Any = field(default=None, compare=False)
    form: str = "json"

    def __str__(self) -> str:
        args = self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments, ensure_ascii=False)
        return f"{self.name}({args or ''})"


def tool_names(tools: Iterable[Any]) -> list[str]:
    """The names of ``tools`` (framework tools, anything with ``.name``, or plain strings)."""
    return [tool if isinstance(tool, str) else str(getattr(tool, "name", "")) for tool in tools]


def find_text_tool_calls(text: str | None, tools: Iterable[Any]) -> list[TextToolCall]:
    """Every call to one of ``tools`` written in ``text``, in order (empty when there is none)."""
    names = {name for name in tool_names(tools) if name}
    if not text or not names:
        return []
    found = [call for value in _json_values(text) for call in _calls_in(value, names)]
    if found:
        return found
    return _call_syntax(text, names)


def _json_values(text: str) -> Iterable[Any]:
    """Every JSON object or array embedded in ``text`` (fences, tags and ``{{…}}`` are just text around it)."""
    index = 0
    while index < len(text):
        starts = [i for i in (text.find("{", index), text.find("[", index)) if i >= 0]
        if not starts:
            return
        start = min(starts)
        try:
            value, end = _DECODER.raw_decode(text, start)
        except ValueError:
            index = start + 1
            continue
        yield value
        index = end


def _calls_in(value: Any, names: set[str]) -> Iterable[TextToolCall]:
    if isinstance(value, list):
        for item in value:
            yield from _calls_in(item, names)
        return
    if not isinstance(value, dict):
        return
    if isinstance(value.get("tool_calls"), list):
        yield from _calls_in(value["tool_calls"], names)
        return
    if isinstance(value.get("function"), dict):  # {"type": "function", "function": {"name": …}}
        yield from _calls_in(value["function"], names)
        return
    name = value.get("name") or value.get("tool") or value.get("function")
    if isinstance(name, str) and name in names:
        arguments = next((value[k] for k in ("arguments", "parameters", "args", "input") if k in value), None)
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                pass
        yield TextToolCall(name, arguments, "json")


def _call_syntax(text: str, names: set[str]) -> list[TextToolCall]:
    """``search_memory(query="…")`` written as code: the name of an offered tool, then arguments in parentheses."""
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names)) + r")\s*\(([^()]*)\)")
    return [TextToolCall(m.group(1), m.group(2).strip(), "call") for m in pattern.finditer(text)]


README_SECTION = "README, 'Choosing a local model'"


def written_call_hint(text: str | None, tools: Iterable[Any]) -> str:
    """The hint for a reply that *wrote* a call to one of ``tools`` as text, or "" when it wrote none."""
    written = find_text_tool_calls(text, tools)
    if not written:
        return ""
    return (
        f"it wrote the call as text ({written[0]}) instead of making it; small local models often write "
        f"tool calls as text \u2014 see {README_SECTION}"
    )


def missing_call_hint(text: str | None, tools: Iterable[Any]) -> str:
    """What to tell a learner whose model did not call a tool: did it write the call as text instead?"""
    written = written_call_hint(text, tools)
    if written:
        return written
    return f"it answered without the tool; a model that calls tools reliably helps \u2014 see {README_SECTION}"
