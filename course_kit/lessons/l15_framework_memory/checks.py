"""Lesson 15's checks: what the framework's memory providers sent, filed and learned.

``MemoryContextProvider`` makes model calls of its own (extraction, consolidation), told apart from the
agent's by their instructions; its index links topic files; the file and vector providers act through tool
calls. Each helper reads one of those, so a check cell states its claim in a line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from memory_evaluation.designs import says_it_does_not_know
from chat_models.request_reading import tool_calls

__all__ = ["answered_from", "consolidation_inputs", "index_links_every_topic", "learned_by", "requests_with_prompt",
           "rewrote_one_file", "sent_turn_without_tools", "tool_found"]


def requests_with_prompt(recorder: Any, prompt: str) -> list[Any]:
    """The recorded requests whose instructions are ``prompt`` (the provider's own calls), in order."""
    return [r for r in recorder.requests if r.instructions.strip() == prompt.strip()]


def sent_turn_without_tools(request: Any, opening: str) -> bool:
    """The request offered no tools and its last message is the transcript of a turn opening with ``opening``."""
    return request.tool_names == [] and bool(request.messages) and request.messages[-1].text.startswith(f"USER: {opening}")


def index_links_every_topic(index: str, records: Iterable[Any]) -> bool:
    """``MEMORY.md`` (``index``) links each topic file of ``records`` (whatever the model extracted: with no
    topics there is nothing to link, and whether it extracted any is a claim about the model)."""
    return all(f"(topics/{record.slug}.md)" in index for record in records)


def consolidation_inputs(requests: Iterable[Any]) -> list[dict[str, Any]]:
    """What each consolidation request sent: the topic file's JSON (its ``memories``, ``session_ids``...)."""
    return [json.loads(r.messages[-1].text) for r in requests]


def sent_both_paraphrases(inputs: list[dict[str, Any]]) -> bool:
    """The last consolidation request (of ``consolidation_inputs``) carried two memories of one topic, with
    the sessions they came from; False when no consolidation ran (a model that extracted nothing)."""
    return bool(inputs) and len(inputs[-1].get("memories", [])) == 2 and bool(inputs[-1].get("session_ids"))


def rewrote_one_file(*replies: Any) -> bool:
    """Each reply wrote a memory file with ``file_memory_write``, and all of them wrote the same one."""
    written = [[args.get("file_name") for name, args in tool_calls(reply) if name == "file_memory_write"]
               for reply in replies]
    return all(len(names) == 1 for names in written) and len({names[0] for names in written}) == 1


def learned_by(session: Any, source_id: str = "learned_instructions") -> list[str]:
    """The instructions ``LearnedInstructionsProvider`` has learned in ``session``."""
    return list((session.state.get(source_id) or {}).get("instructions") or [])


def tool_found(response: Any, tool: str, text: str) -> bool:
    """``response`` called ``tool``, and what that call returned holds ``text`` (what the tool found, whatever
    the reply then made of it)."""
    calls = {c.call_id for m in response.messages for c in m.contents if c.type == "function_call" and c.name == tool}
    return any(text in str(c.result) for m in response.messages for c in m.contents
               if c.type == "function_result" and c.call_id in calls)


def answered_from(reply: str, text: str) -> bool:
    """The reply answers with ``text``: it names it and does not say it does not know (quoting a tool result
    after "I don't know" is not answering from it)."""
    return text.lower() in reply.lower() and not says_it_does_not_know(reply)
