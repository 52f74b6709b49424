"""Reading what the framework's memory did: the tools a turn called, the files a store wrote.

The lesson's claims are about files and tool calls ("extraction wrote a topic file", "the model called
``file_memory_write``"). These two readers keep the check cells to one line each.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .recording import RequestRecorder

__all__ = ["loaded_topics", "memory_files", "record_every_call", "tool_calls"]


def tool_calls(response: Any) -> list[tuple[str, dict[str, Any]]]:
    """(tool name, arguments) of every tool call in an agent response, in order."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for message in getattr(response, "messages", None) or []:
        for content in message.contents:
            if content.type != "function_call":
                continue
            arguments = content.arguments
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments) if arguments else {}
                except ValueError:
                    arguments = {"_raw": arguments}
            calls.append((str(content.name), dict(arguments or {})))
    return calls


def memory_files(folder: str | Path, pattern: str = "*.md") -> dict[str, str]:
    """Every file matching ``pattern`` under ``folder``, by its path relative to ``folder`` (``/``-separated)."""
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a folder: pass the folder the memory store was given")
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(root.rglob(pattern))
        if path.is_file()
    }


_LOADED_TOPIC = re.compile(r"^### topics/([^\s/]+)\.md$", re.MULTILINE)


def loaded_topics(request: Any) -> list[str]:
    """The topic files ``MemoryContextProvider`` auto-loaded into one request (their slugs), in order."""
    texts = [m.text for m in getattr(request, "messages", None) or [] if m.text]
    return [slug for text in texts for slug in _LOADED_TOPIC.findall(text)]


def record_every_call(client: Any) -> RequestRecorder:
    """Record every request ``client`` is sent, also the ones a provider makes outside the agent's run.

    ``MemoryContextProvider`` calls the agent's client directly to extract and consolidate, so an agent's
    ``middleware=[recorder]`` never sees those calls. A recorder in the client's own chat middleware does.
    """
    middleware = getattr(client, "chat_middleware", None)
    if not isinstance(middleware, list):
        raise TypeError(f"{type(client).__name__} takes no chat middleware; use a client from get_chat_client()")
    recorder = RequestRecorder()
    middleware.append(recorder)
    return recorder
