"""How the offline lesson model fills in a memory tool that needs more than one value.

The Cortadel tools take one value (``add_memories(memories)``, ``search_memory(query)``), and the
model's general rule fills it (:func:`chat_models.rules._call`). The framework's own memory
tools ask for more: ``file_memory_write(file_name, content, description)``, ``write_memory(topic,
memory)``, ``file_memory_read(file_name)``, ``read_memory_topic(topic)``, ``file_memory_grep(regex_pattern)``.
The rules here are the same for any tool, read off its JSON schema, never off its name:

- A required parameter that names something (its name or description says file, topic, name, key,
  title) gets the memory's short, stable topic (:func:`.memory_prompts.topic_of`); a *file* name gets a
  slug plus ``.md``. So "my favourite colour is green" goes to ``favourite-colour.md`` every time, and a
  later change overwrites that same file, as the framework's instructions ask.
- A ``description`` parameter is filled only when the instructions ask for descriptions.
- To recall, a tool whose parameter names a thing is called with the best-matching name *in view*
  (a markdown listing such as ``memories.md`` or ``MEMORY.md`` that a provider injected); a pattern
  parameter gets the question's content words as an alternation; else the question goes to a query.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import facts as factlib
from .memory_prompts import topic_of
from .text import content_stems

__all__ = ["Listed", "listed_names", "recall_arguments", "write_arguments"]

_NAMES_A_THING = re.compile(r"(?i)file|topic|name|key|title|path|slug")
_NAMES_A_FILE = re.compile(r"(?i)file|path")
_PATTERN = re.compile(r"(?i)pattern|regex")
_QUERY = re.compile(r"(?i)query|question|text|search|q\b")
# "- **notes.md**: what it holds" (memories.md) and "- [coffee order](topics/coffee-order.md): summary" (MEMORY.md)
_LISTED = re.compile(r"^\s*[-*]\s+(?:\*\*(?P<bold>[^*]+)\*\*|\[(?P<link>[^\]]+)\]\([^)]*\))\s*(?::\s*(?P<about>.*))?$")


@dataclass(frozen=True)
class Listed:
    """One entry of a listing the model was sent: a file or topic name and what it says it holds."""

    name: str
    about: str = ""


def listed_names(texts: Sequence[str]) -> list[Listed]:
    """Every file or topic listed (as a markdown bullet) in ``texts``."""
    found: list[Listed] = []
    for text in texts:
        for line in (text or "").splitlines():
            match = _LISTED.match(line)
            if match:
                found.append(Listed((match.group("bold") or match.group("link")).strip(), (match.group("about") or "").strip()))
    return found


def _required(schema: Mapping[str, Any]) -> list[str]:
    required = schema.get("required") if isinstance(schema, Mapping) else None
    return [str(r) for r in required] if isinstance(required, list) else []


def _describes(props: Mapping[str, Any], name: str) -> str:
    prop = props.get(name)
    return f"{name} {prop.get('description', '')}" if isinstance(prop, Mapping) else name


def _slug(topic: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-") or "memory"


def write_arguments(schema: Mapping[str, Any], main: str, memory: str, said: str, instructions: str) -> dict[str, Any]:
    """Arguments for an add-like tool: ``memory`` in ``main``, plus a topic or file name and a description."""
    props = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    assert isinstance(props, Mapping)
    stated = factlib.first_person_facts(said)
    topic = topic_of(stated[0].text, stated[0].slot) if stated else (sorted(content_stems(memory))[:1] or ["memory"])[0]
    arguments: dict[str, Any] = {}
    for name in _required(schema):
        if name == main:
            continue
        described = _describes(props, name)
        if _NAMES_A_THING.search(described):
            arguments[name] = f"{_slug(topic)}.md" if _NAMES_A_FILE.search(described) else topic
    if "description" in props and "description" != main and re.search(r"(?i)\bdescription\b", instructions):
        arguments["description"] = memory
    return arguments


def recall_arguments(schema: Mapping[str, Any], question: str, listing: Sequence[Listed]) -> dict[str, Any] | None:
    """Arguments to recall the answer to ``question`` with a tool of this schema, or ``None`` if it cannot.

    A tool that wants a name is only called with a name that is listed in view and shares a content
    word with the question; it is never sent the question itself as a file name.
    """
    props = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    assert isinstance(props, Mapping)
    required = _required(schema) or list(props)[:1]
    if not required:
        return {}
    name = required[0]
    described = _describes(props, name)
    asked = content_stems(question)
    if _PATTERN.search(described):
        words = sorted(w for w in re.findall(r"[^\W\d_]{3,}", question.lower()) if content_stems(w))
        return {name: "|".join(words)} if words else None
    if _NAMES_A_THING.search(name) or (not _QUERY.search(described) and _NAMES_A_THING.search(described)):
        scored = [(len(asked & content_stems(f"{e.name.replace('-', ' ').replace('_', ' ')} {e.about}")), e) for e in listing]
        best = max(scored, key=lambda pair: pair[0], default=(0, None))
        return {name: best[1].name} if best[1] is not None and best[0] > 0 else None
    return {name: question}
