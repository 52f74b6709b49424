"""The offline lesson model's answers to a memory *writer's* prompts: extract memories, consolidate a topic.

The framework's ``MemoryContextProvider`` calls the agent's own model twice outside the conversation:
once after a turn ("return JSON like ``{"memories":[{"topic":…,"memory":…}]}``") and, now and then, once
per topic file ("return JSON like ``{"summary":…,"memories":[…]}``"). A real model reads those prompts;
the offline model must take part honestly too, so a lesson can show extraction and consolidation
working. It recognises the prompts by the JSON *shape* they ask for (an example object in the
instructions), never by their wording, so a custom ``extraction_prompt`` works as long as it asks for
the same shape. It answers only from the message it is sent, and follows the prompt's rules that a
model can follow mechanically: topic names short and stable, one sentence per memory, "at most N".

- Extraction reads the user's lines of the transcript ("USER: …") with the same fact rules the model
  uses in conversation (:mod:`.facts`): durable first-person statements, restated about "the user".
  Questions, requests and the assistant's own words are not memories.
- A topic is the thing a fact is about: "my coffee order is …" -> ``coffee order``; a name or an age ->
  ``profile``; "I <verb> …" -> the verb's topic (:data:`VERB_TOPICS`, else the verb itself).
- Consolidation drops paraphrases: two memories whose content words mostly overlap (see
  :func:`same_memory`) keep the one that says more.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import facts as factlib
from .text import content_stems, normalize_quotes, to_third_person

__all__ = [
    "VERB_TOPICS",
    "MemoryPrompt",
    "answer_memory_prompt",
    "consolidate",
    "extract_memories",
    "recognise",
    "same_memory",
    "topic_of",
]

#: Verbs whose facts belong under a broader, stable topic ("I moved to Porto" and "I live in Lyon": ``home``).
VERB_TOPICS: dict[str, str] = {
    "live": "home", "move": "home", "moved": "home", "relocate": "home", "relocated": "home",
    "work": "work", "worked": "work", "like": "preferences", "love": "preferences", "prefer": "preferences",
    "enjoy": "preferences", "hate": "preferences", "dislike": "preferences", "eat": "food", "drink": "drinks",
    "speak": "languages", "study": "studies", "ship": "shipping", "deploy": "deploys",
}
_ADVERBS = frozenset("usually often always never sometimes also really typically generally normally mostly now still".split())
_MODIFIERS = frozenset("usual current new present actual real main own".split())
_TRAILING_FILLER = re.compile(r"(?i)[,;]?\s+(?:by the way|btw|actually|as well|too|now|these days)\s*$")
_AT_MOST = re.compile(r"(?i)\bat most (\d+)\b")
_ROLE_LINE = re.compile(r"^(USER|ASSISTANT|SYSTEM|TOOL):\s?(.*)$")


@dataclass(frozen=True)
class MemoryPrompt:
    """A recognised memory-writer prompt: which job, and the JSON keys its example uses."""

    kind: str  # "extract" or "consolidate"
    list_key: str  # "memories"
    topic_key: str = ""  # extraction: the key naming the topic ("topic")
    memory_key: str = ""  # extraction: the key holding one memory ("memory")
    summary_key: str = ""  # consolidation: the key holding the summary ("summary")
    limit: int | None = None  # "return at most 5 memory items"


def _json_examples(text: str) -> list[Any]:
    """Every JSON object written in ``text`` (an example of the shape the prompt asks for)."""
    found: list[Any] = []
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text[match.start():])
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def recognise(instructions: str) -> MemoryPrompt | None:
    """The memory job ``instructions`` ask for, judged by the shape of their JSON example, or ``None``."""
    limit_match = _AT_MOST.search(instructions or "")
    limit = int(limit_match.group(1)) if limit_match else None
    for example in _json_examples(instructions or ""):
        for key, value in example.items():
            if not isinstance(value, list) or not value:
                continue
            first = value[0]
            if isinstance(first, Mapping) and len(first) == 2 and all(isinstance(v, str) for v in first.values()):
                topic_key, memory_key = _label_and_content(list(first))
                return MemoryPrompt("extract", key, topic_key=topic_key, memory_key=memory_key, limit=limit)
            others = [k for k, v in example.items() if k != key and isinstance(v, str)]
            if all(isinstance(item, str) for item in value) and len(others) == 1:
                return MemoryPrompt("consolidate", key, summary_key=others[0], limit=limit)
    return None


def _label_and_content(keys: list[str]) -> tuple[str, str]:
    """Of an item's two keys, which names the topic and which holds the memory ("topic", "memory")."""
    labelish = re.compile(r"(?i)topic|category|subject|label|name|key|title|kind|type")
    first, second = keys
    if labelish.search(second) and not labelish.search(first):
        return second, first
    return first, second


def topic_of(fact_text: str, slot: str | None = None) -> str:
    """A short, stable topic for one fact (second person, as :mod:`.facts` keeps it)."""
    if slot in ("name", "age"):
        return "profile"
    words = normalize_quotes(fact_text).lower().rstrip(".").split()
    if words[:1] == ["your"]:
        head: list[str] = []
        for word in words[1:]:
            if word in ("is", "are", "was", "were", "has", "have"):
                break
            head.append(word)
        else:  # no "is": "your train leaves at 7:40" is about the train
            head = words[1:2]
        head = [w for w in head if w not in _MODIFIERS] or head
        return " ".join(head[-2:]) if head else "about the user"
    rest = [w for w in words[1:] if w not in _ADVERBS] if words[:1] == ["you"] else words
    rest = [w for w in rest if w not in ("your", "my", "a", "an", "the") and not w.startswith("you")]
    if not rest:
        return "about the user"
    verb, objects = rest[0], rest[1:]
    if verb in ("are", "am", "is", "'re", "have", "has", "own", "got") and objects:
        return objects[-1] if verb in ("have", "has", "own", "got") else objects[0]  # "two cats"; "allergic"
    return VERB_TOPICS.get(verb, verb)


def _user_lines(transcript: str) -> list[str]:
    """The user's own lines of a "ROLE: text" transcript (all lines when it has no role labels)."""
    blocks: list[tuple[str, list[str]]] = []
    for line in (transcript or "").splitlines():
        match = _ROLE_LINE.match(line)
        if match:
            blocks.append((match.group(1), [match.group(2)]))
        elif blocks:
            blocks[-1][1].append(line)
        else:
            blocks.append(("USER", [line]))
    return [" ".join(part for part in lines if part.strip()) for role, lines in blocks if role == "USER"]


def extract_memories(transcript: str, limit: int | None = None) -> list[tuple[str, str]]:
    """(topic, memory) for each durable fact the user states in ``transcript``; one sentence each."""
    found: list[tuple[str, str]] = []
    for line in _user_lines(transcript):
        for fact in factlib.first_person_facts(line):
            memory = _TRAILING_FILLER.sub("", to_third_person(fact.text).rstrip(".")) + "."
            pair = (topic_of(fact.text, fact.slot), memory)
            if pair not in found:
                found.append(pair)
    return found[:limit] if limit is not None else found


def same_memory(a: str, b: str) -> bool:
    """Two memories say the same thing: at least two content words shared, and most of the shorter one."""
    ours, theirs = content_stems(a) - {"user"}, content_stems(b) - {"user"}
    shared = ours & theirs
    return len(shared) >= 2 and len(shared) >= 0.66 * min(len(ours), len(theirs))


def consolidate(memories: Sequence[str], limit: int | None = None) -> tuple[str, list[str]]:
    """(summary, memories): paraphrases merged (the fuller one kept, in first-seen order); summary = first memory."""
    kept: list[str] = []
    for memory in memories:
        twin = next((i for i, other in enumerate(kept) if same_memory(memory, other)), None)
        if twin is None:
            kept.append(memory)
        elif len(content_stems(memory)) > len(content_stems(kept[twin])):
            kept[twin] = memory
    kept = kept[:limit] if limit is not None else kept
    return (kept[0] if kept else ""), kept


def answer_memory_prompt(instructions: str, user_input: str) -> str | None:
    """The JSON reply to a memory-writer prompt, or ``None`` when ``instructions`` are not one."""
    prompt = recognise(instructions)
    if prompt is None:
        return None
    if prompt.kind == "extract":
        items = [{prompt.topic_key: t, prompt.memory_key: m} for t, m in extract_memories(user_input, prompt.limit)]
        return json.dumps({prompt.list_key: items}, ensure_ascii=False)
    try:
        record = json.loads(user_input)
    except ValueError:
        record = None
    memories = record.get(prompt.list_key) if isinstance(record, Mapping) else None
    if not isinstance(memories, list):  # nothing to consolidate was sent: say so in the asked shape
        return json.dumps({prompt.summary_key: "", prompt.list_key: []})
    summary, kept = consolidate([m for m in memories if isinstance(m, str)], prompt.limit)
    return json.dumps({prompt.summary_key: summary, prompt.list_key: kept}, ensure_ascii=False)
