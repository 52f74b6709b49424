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

Both calls send the same system message — the instructions for both tasks and their examples — and only the
last message differs ("TASK extract" and the turn, or "TASK decide" and the facts). A server with a prompt cache
(``llama-server`` keeps the last prompt) so reuses the whole fixed part on every call, whichever task comes next;
two system prompts would alternate and re-read each other's every time. The examples teach kinds of decision
with sentences of their own, none from an evaluation set; ``copies_an_example`` tells when a small model hands one
of them back as a fact of the user's, and ``said_by_the_assistant`` when it writes down the assistant's words as the
user's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .fulltext import normalise_text

__all__ = ["DECIDE", "DECIDE_SCHEMA", "EVENTS", "decide_schema", "EXTRACT", "EXTRACT_SCHEMA", "SYSTEM_PROMPT", "WHEN",
           "copies_an_example", "decide_messages", "extract_messages", "said_by_the_assistant"]

#: What a fact's time can be: holds now, is over, or is only planned or wished for.
WHEN = ("now", "past", "plan")
#: What the deciding call may answer for each new fact.
EVENTS = ("ADD", "UPDATE", "DELETE", "NONE")

SYSTEM = """\
You keep a user's long-term memory. You do one of two tasks, named on the first line of the request.

TASK extract: read a chat between a user and an assistant and write down what is worth remembering about the user.
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
Answer {"facts": [...]}; {"facts": []} when there is nothing to remember.

TASK decide: for each NEW fact you see the STORED memories most like it, each with a number. For each new fact, \
in order:
- "both_true": can the new fact and the closest stored memory both be true at the same time? Two pets, two \
hobbies, two friends, a past and a present, a plan and a present, someone else's fact and the user's: true. A new \
home and the old home, a new employer and the old one, a fact and the same fact said to be over: false.
- "event": "ADD" when it is new information and every stored memory stays true; "UPDATE" when it replaces a \
stored memory that can no longer be true; "DELETE" when it says a stored memory has stopped or was wrong and \
gives nothing new to store; "NONE" when a stored memory already says the same.
- "id": the number of the stored memory you compared it with: the one it replaces, ends or repeats, or for ADD \
the closest one.
Answer {"decisions": [...]}, one per new fact, in order.

Answer with JSON only.
"""

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

DECIDE_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    (("NEW 1: The user works as a dental nurse.\n  STORED 1: The user works as a bus driver.\n"
      "  STORED 2: The user's wife is a teacher.\n"
      "NEW 2: The user has a tortoise called Pebble.\n  STORED 3: The user has a dog.\n"
      "NEW 3: The user no longer swims on Sundays.\n  STORED 4: The user swims on Sunday mornings.\n"
      "  STORED 5: The user likes the sea."),
     {"decisions": [
         {"fact": 1, "both_true": False, "event": "UPDATE", "id": 1},
         {"fact": 2, "both_true": True, "event": "ADD", "id": 3},
         {"fact": 3, "both_true": False, "event": "DELETE", "id": 4}]}),
    (("NEW 1: The user's brother moved to Oslo.\n  STORED 1: The user lives in Bergen.\n"
      "NEW 2: The user lived in Rome as a child.\n  STORED 1: The user lives in Bergen.\n"
      "NEW 3: The user is vegetarian.\n  STORED 2: The user does not eat meat."),
     {"decisions": [
         {"fact": 1, "both_true": True, "event": "ADD", "id": 1},
         {"fact": 2, "both_true": True, "event": "ADD", "id": 1},
         {"fact": 3, "both_true": True, "event": "NONE", "id": 2}]}),
]


@lru_cache(maxsize=64)
def _words(text: str) -> frozenset[str]:
    """The words of ``text`` as the full-text index splits them (case-folded runs of letters and digits).

    Cached: the guards split the same turn once for every fact extracted from it."""
    return frozenset(normalise_text(text).split())


#: The words every fact starts with, as the instructions ask ("The user …", "The user's sister …").
_FRAME = _words("The user's")


def _longer(text: str) -> frozenset[str]:
    """The words of four letters or more, past the frame: the ones that say what a sentence is about."""
    return frozenset(w for w in _words(text) - _FRAME if len(w) > 3)


#: What each sentence the examples show the model is about (as a fact it wrote or a memory it was shown), for
#: the sentences with three such words or more: fewer, and a user's own fact could hold them all by chance
#: ("The user works as a bus driver." from "I drive buses for a living").
_EXAMPLE_SENTENCES: tuple[frozenset[str], ...] = tuple(words for words in (
    [_longer(f["fact"]) for _, answer in EXTRACT_EXAMPLES for f in answer["facts"]]
    + [_longer(line.partition(": ")[2]) for said, _ in DECIDE_EXAMPLES for line in said.splitlines()]
) if len(words) >= 3)


def copies_an_example(fact: str, conversation: str) -> bool:
    """Whether ``fact`` is one of the examples' sentences that ``conversation`` never told.

    A small model sometimes hands an example back as a fact of the user's: on the scorecard's long chats
    Qwen2.5-Coder 1.5B stored "The user has a tortoise called Pebble." for users who never named a pet
    (bench/README.md, "Twenty-fifth round"). Such a fact holds every longer word of an example sentence
    ("tortoise", "called", "pebble"; sentences with three such words or more), and at least two of them,
    more than half, never occur in the conversation. A user who does have a tortoise called Pebble said
    those words and keeps the fact; a fact that only shares an example's shape ("The user lives in Porto."
    beside "The user lives in Bergen.") is no copy."""
    words, told = _words(fact), _words(conversation)
    for example in _EXAMPLE_SENTENCES:
        untold = len(example - told)
        if example <= words and untold >= 2 and untold * 2 > len(example):
            return True
    return False


def said_by_the_assistant(fact: str, user_said: str, assistant_said: str) -> bool:
    """Whether ``fact`` is mostly in the assistant's words: three or more of its longer words, and more than half,
    occur in what the assistant said and never in what the user said.

    Asked for the user's facts, a small model also writes down the assistant's answers: "The user likes the song
    'Electric Feel' by MGMT." from a playlist the assistant suggested, or how TCP opens a connection (bench/README.md,
    "Twenty-sixth round"). A user's own fact keeps the user's words, however the model rephrases it; a user who says
    "yes, that one" to the assistant's question keeps a fact of one or two of the assistant's words ("a Border
    Collie"), which is under the three."""
    mine, user, assistant = _longer(fact), _words(user_said), _words(assistant_said)
    theirs = [w for w in mine if w in assistant and w not in user]
    return len(theirs) >= 3 and len(theirs) * 2 > len(mine)


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

DECIDE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["decisions"],
    "properties": {"decisions": {"type": "array", "maxItems": 8, "items": {
        "type": "object", "additionalProperties": False, "required": ["fact", "both_true", "event", "id"],
        "properties": {
            "fact": {"type": "integer", "minimum": 1, "maximum": 8},
            "both_true": {"type": "boolean"},
            "event": {"enum": list(EVENTS)},
            "id": {"type": "integer", "minimum": 1, "maximum": 99},  # narrowed to the numbers shown: decide_schema
        }}}},
}

EXTRACT, DECIDE = "TASK extract", "TASK decide"


def decide_schema(facts: int, shown: Sequence[int]) -> dict[str, Any]:
    """:data:`DECIDE_SCHEMA` for one request: exactly ``facts`` decisions, each naming one of the ``shown`` numbers.

    Constrained decoding then cannot name a memory that was not shown (a small model otherwise answers "id": 0)."""
    schema = json.loads(json.dumps(DECIDE_SCHEMA))
    decisions = schema["properties"]["decisions"]
    decisions["minItems"] = decisions["maxItems"] = facts
    item = decisions["items"]["properties"]
    item["fact"] = {"type": "integer", "minimum": 1, "maximum": facts}
    item["id"] = {"enum": sorted(set(shown))}
    return schema


def _examples() -> str:
    """Every example of both tasks, as request and answer, for the fixed system prompt."""
    shots = [(EXTRACT, said, answer) for said, answer in EXTRACT_EXAMPLES]
    shots += [(DECIDE, said, answer) for said, answer in DECIDE_EXAMPLES]
    return "\n\n".join(f"Example request:\n{task}\n{said}\nAnswer:\n{json.dumps(answer)}" for task, said, answer in shots)


#: The one system message both calls send: instructions, then examples; nothing of the turn is in it, so a
#: server's prompt cache reuses all of it from one call to the next, whichever task comes next.
SYSTEM_PROMPT = f"{SYSTEM}\n{_examples()}"


def _request(task: str, body: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": f"{task}\n{body}"}]


def extract_messages(transcript: str) -> list[dict[str, str]]:
    """The extraction request for a conversation written as ``role: text`` lines."""
    return _request(EXTRACT, transcript)


def decide_messages(new: Sequence[str], stored: Sequence[Sequence[tuple[int, str]]]) -> list[dict[str, str]]:
    """The deciding request: new fact ``i`` with its stored memories ``stored[i]`` as (number, text)."""
    lines: list[str] = []
    for i, (fact, memories) in enumerate(zip(new, stored, strict=True), 1):
        lines.append(f"NEW {i}: {fact}")
        lines += [f"  STORED {number}: {text}" for number, text in memories] or ["  (no stored memory like it)"]
    return _request(DECIDE, "\n".join(lines))
