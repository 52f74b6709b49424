"""The two prompts the local server sends a model to understand a conversation, and the JSON each must answer.

Why prompts and not rules: people tell the same change in endless ways ("started at Siemens on Monday",
"it's Leeds, not Leicester", "packed in the darts"), and hand-written rules only ever read the phrasings they were
written for. So, as mem0 and the framework's ``MemoryContextProvider`` do, a model reads; code only stores and
searches. These prompts are this local server's own choice, not a description of how Cortadel decides.

Two calls per written turn, at most:

1. **extract** — the conversation in, standalone facts out, each labelled: whose it is, what it is about, whether a
   person has one of it at a time, and whether it holds now;
2. **decide** — each new fact with the user's stored memories most like it (found by embedding and BM25
   similarity, not by rules), one event per fact: ``ADD``, ``UPDATE`` (id), ``DELETE`` (id) or ``NONE``. The model
   first answers ``both_true`` — can the new fact and that memory both be true at once? — because a small model
   asked for the event first replaces memories that were still true.

The fixed instructions and examples come first and the conversation last, so a server with a prompt cache
(``llama-server``) reuses the prefix. The examples teach kinds of decision with sentences of their own, none
from an evaluation set.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

__all__ = ["DECIDE_SCHEMA", "DECIDE_SYSTEM", "EVENTS", "EXTRACT_SCHEMA", "EXTRACT_SYSTEM", "WHEN",
           "decide_messages", "extract_messages"]

#: What a fact's time can be: holds now, is over, or is only planned or wished for.
WHEN = ("now", "past", "plan")
#: What the deciding call may answer for each new fact.
EVENTS = ("ADD", "UPDATE", "DELETE", "NONE")

EXTRACT_SYSTEM = """\
You read a chat between a user and an assistant and write down what is worth remembering about the user.
- One short standalone sentence per fact, in the third person, starting with "The user" or with the other person \
it is about ("The user's sister lives in Cork.").
- Only what the user said about themselves or the people in their life. Skip questions, greetings, small talk, \
requests and everything the assistant said.
- Keep names, places, numbers and dates exactly as the user wrote them.
- When the user says something stopped or is no longer true, write that ("The user no longer eats meat.").
- When the user corrects something, write only the corrected fact.
For each fact also give:
- "whose": "user", or the other person ("sister", "Tom");
- "topic": two or three words for what it is about ("home city", "employer", "pet", "diet", "gym days");
- "single": true when a person has one of it at a time (home, employer, job, manager, partner, age, phone \
number, doctor, a favourite of one kind, the day of a weekly habit); false when several can be true together \
(pets, hobbies, friends, languages, likes, trips, events);
- "when": "now" (true now), "past" (over, or a finished event), or "plan" (a plan, wish or what-if).
Answer with JSON only: {"facts": [...]}; {"facts": []} when there is nothing to remember."""

EXTRACT_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    (("user: morning! finally handed in my notice at the council, I start as a park ranger next month. "
     "my brother thinks I'm mad lol\nassistant: Congratulations!"),
     {"facts": [
         {"fact": "The user is leaving their job at the council.", "whose": "user", "topic": "employer",
          "single": True, "when": "now"},
         {"fact": "The user will start working as a park ranger next month.", "whose": "user", "topic": "job",
          "single": True, "when": "plan"}]}),
    (("user: can you suggest a pasta recipe? I've gone vegetarian, so nothing with bacon. Also my daughter Ines "
     "is allergic to nuts.\nassistant: Sure, try this."),
     {"facts": [
         {"fact": "The user is vegetarian.", "whose": "user", "topic": "diet", "single": True, "when": "now"},
         {"fact": "The user's daughter Ines is allergic to nuts.", "whose": "Ines", "topic": "allergy",
          "single": False, "when": "now"}]}),
    ("user: what's the capital of Peru?\nassistant: Lima.", {"facts": []}),
]

EXTRACT_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["facts"],
    "properties": {"facts": {"type": "array", "maxItems": 8, "items": {
        "type": "object", "additionalProperties": False, "required": ["fact", "whose", "topic", "single", "when"],
        "properties": {
            "fact": {"type": "string", "minLength": 3, "maxLength": 300},
            "whose": {"type": "string", "maxLength": 40},
            "topic": {"type": "string", "maxLength": 40},
            "single": {"type": "boolean"},
            "when": {"enum": list(WHEN)},
        }}}},
}

DECIDE_SYSTEM = """\
You keep a user's long-term memory up to date. For each NEW fact you see the STORED memories most like it, each \
with a number. For each new fact, in order:
- "both_true": can the new fact and the closest stored memory both be true at the same time? Two pets, two \
hobbies, two friends, a past and a present, a plan and a present, someone else's fact and the user's: true. A new \
home and the old home, a new employer and the old one, a fact and the same fact said to be over: false.
- "event": "ADD" when it is new information and every stored memory stays true; "UPDATE" when it replaces a \
stored memory that can no longer be true; "DELETE" when it says a stored memory has stopped or was wrong and \
gives nothing new to store; "NONE" when a stored memory already says the same.
- "id": the stored memory's number for UPDATE, DELETE and NONE; 0 for ADD.
Answer with JSON only: {"decisions": [{"fact": 1, "both_true": ..., "event": ..., "id": ...}, ...]}."""

DECIDE_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    (("NEW 1: The user works as a dental nurse.\n  STORED 1: The user works as a bus driver.\n"
     "  STORED 2: The user's wife is a teacher.\n"
     "NEW 2: The user has a tortoise called Pebble.\n  STORED 3: The user has a dog.\n"
     "NEW 3: The user no longer swims on Sundays.\n  STORED 4: The user swims on Sunday mornings.\n"
     "  STORED 5: The user likes the sea."),
     {"decisions": [
         {"fact": 1, "both_true": False, "event": "UPDATE", "id": 1},
         {"fact": 2, "both_true": True, "event": "ADD", "id": 0},
         {"fact": 3, "both_true": False, "event": "DELETE", "id": 4}]}),
    (("NEW 1: The user's brother moved to Oslo.\n  STORED 1: The user lives in Bergen.\n"
     "NEW 2: The user lived in Rome as a child.\n  STORED 2: The user lives in Bergen.\n"
     "NEW 3: The user is vegetarian.\n  STORED 3: The user does not eat meat."),
     {"decisions": [
         {"fact": 1, "both_true": True, "event": "ADD", "id": 0},
         {"fact": 2, "both_true": True, "event": "ADD", "id": 0},
         {"fact": 3, "both_true": True, "event": "NONE", "id": 3}]}),
]

DECIDE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["decisions"],
    "properties": {"decisions": {"type": "array", "maxItems": 8, "items": {
        "type": "object", "additionalProperties": False, "required": ["fact", "both_true", "event", "id"],
        "properties": {
            "fact": {"type": "integer", "minimum": 1, "maximum": 8},
            "both_true": {"type": "boolean"},
            "event": {"enum": list(EVENTS)},
            "id": {"type": "integer", "minimum": 0, "maximum": 99},
        }}}},
}


def _shots(system: str, examples: Sequence[tuple[str, dict[str, Any]]], last: str) -> list[dict[str, str]]:
    """The system prompt, each example as a user turn and the JSON answer, then ``last``: the fixed part first."""
    messages = [{"role": "system", "content": system}]
    for said, answer in examples:
        messages += [{"role": "user", "content": said}, {"role": "assistant", "content": json.dumps(answer)}]
    return [*messages, {"role": "user", "content": last}]


def extract_messages(transcript: str) -> list[dict[str, str]]:
    """The extraction request for a conversation written as ``role: text`` lines."""
    return _shots(EXTRACT_SYSTEM, EXTRACT_EXAMPLES, transcript)


def decide_messages(new: Sequence[str], stored: Sequence[Sequence[tuple[int, str]]]) -> list[dict[str, str]]:
    """The deciding request: new fact ``i`` with its stored memories ``stored[i]`` as (number, text)."""
    lines: list[str] = []
    for i, (fact, memories) in enumerate(zip(new, stored, strict=True), 1):
        lines.append(f"NEW {i}: {fact}")
        lines += [f"  STORED {number}: {text}" for number, text in memories] or ["  (no stored memory like it)"]
    return _shots(DECIDE_SYSTEM, DECIDE_EXAMPLES, "\n".join(lines))
