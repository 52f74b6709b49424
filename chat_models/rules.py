"""The offline lesson model's decision: given exactly what it was sent, what does it say or call?

One pure function, :func:`respond`, so the rules can be read top to bottom and tested without a
client. Order of the rules:

0. A memory writer's prompt (extract memories, consolidate a topic: see :mod:`.memory_prompts`) -> its JSON.
   Asked for a summary of a conversation -> summarise it, keeping what the user said about themselves.
1. A tool result just arrived -> answer from it (never call another tool: one round per turn).
2. "Remember that ..." and an add/remember-like tool is offered -> call it.
3. A joke request -> a joke on the topic.
4. A follow-up about "the joke" -> transform the latest joke in view, or ask which joke.
5. Questions -> answer from the facts in view; unknown and a search-like tool offered -> call it.
6. Statements, greetings -> acknowledge what was said.
Then the instructions are followed (ask for the name, speak in a voice, shout, keep it short).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent_framework import Message

from offline_reader.speaker import remember_request
from . import facts as factlib
from . import jokes, memory_prompts, memory_tools, summaries
from .text import (
    LETTER,
    NAME_WORD,
    capitalize_first,
    ensure_period,
    looks_like_name,
    normalize_quotes,
    sentences,
    verb_to_third,
)


@dataclass(frozen=True)
class ToolSpec:
    """What the model can see of an offered tool: its name, description and JSON-schema parameters."""

    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @property
    def properties(self) -> dict[str, Any]:
        props = self.parameters.get("properties") if isinstance(self.parameters, Mapping) else None
        return dict(props) if isinstance(props, Mapping) else {}


@dataclass(frozen=True)
class TextReply:
    text: str


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]


Decision = TextReply | ToolCall

_SEARCH_LIKE = re.compile(r"(?i)search|recall|find|query|lookup|look_up|retrieve|get_mem|read|fetch")
_ADD_LIKE = re.compile(r"(?i)add|remember|save|store|write|memori[sz]e|note|record|insert|upsert")
_ROLE_LABEL = re.compile(r"(?i)^\[(user|assistant|tool|system)\]\s*(.*)$")
_GREETING = re.compile(r"(?i)^\W*(?:hi|hello|hey|howdy|good (?:morning|afternoon|evening)|greetings)\b")
_ASK_FOR = re.compile(r"(?i)\bask (?:the user|them|him|her)?\s*(?:for|about|what)?\s*(?:their|his|her|the user's)\s+(\w+)")
_VOICE_INSTRUCTION = re.compile(
    rf"(?i)\b(?:talk|speak|respond|answer|reply|write)\s+(?:like|as)\s+an?\s+({LETTER}+)|\bin an?\s+({LETTER}+)(?:'s)? voice"
)
_ASSISTANT_NAME = re.compile(rf"(?i:\b(?:your name is|you are called|you are named|call yourself))\s+({NAME_WORD})")


def respond(*, instructions: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Decision:
    """Decide the reply to one request, using nothing but what is passed in."""
    results = _pending_tool_results(messages)
    user_index = _input_index(messages)
    user_input = messages[user_index].text if user_index is not None else ""
    memory_json = memory_prompts.answer_memory_prompt(instructions, user_input)
    if memory_json is not None:  # e.g. MemoryContextProvider's extraction and consolidation prompts
        return TextReply(memory_json)
    if summaries.asks_for_summary_of_transcript(instructions):  # e.g. the framework's SummarizationStrategy
        return TextReply(summaries.summarize(summaries.parse_transcript(user_input)))
    if summaries.asks_for_summary_of_chat(user_input):
        earlier = [m for i, m in enumerate(messages) if i != user_index and m.role in ("user", "assistant") and m.text]
        return TextReply(summaries.summarize([(m.role, m.text) for m in earlier]))
    sheet = factlib.collect_facts(instructions, _user_texts(messages), _assistant_texts(messages))

    if results:
        return TextReply(_follow_instructions(_answer_from_tool_results(results, user_input, sheet), instructions, sheet))

    decision = _respond_to_input(user_input, messages, tools, sheet, instructions)
    if isinstance(decision, ToolCall):
        return decision
    return TextReply(_follow_instructions(decision.text, instructions, sheet))


# --------------------------------------------------------------------------- reading the request


def _input_index(messages: Sequence[Message]) -> int | None:
    """The turn's input: the last user message not injected by a context provider (else the last one)."""
    fallback = None
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if msg.role != "user":
            continue
        if fallback is None:
            fallback = i
        if "_attribution" not in (msg.additional_properties or {}):
            return i
    return fallback


def _user_texts(messages: Sequence[Message]) -> list[str]:
    """The user-role texts, in order; a bare "Zoe." answering "What's your name?" reads as "My name is Zoe."."""
    texts: list[str] = []
    asked_name = False
    for msg in messages:
        if msg.role == "assistant" and msg.text:
            asked_name = bool(re.search(r"(?i)your name\s*\?", msg.text))
        elif msg.role == "user" and msg.text:
            bare = re.fullmatch(rf"\s*(?:it's\s+)?({NAME_WORD})\s*[.!]?\s*", normalize_quotes(msg.text))
            named = asked_name and bare is not None and looks_like_name(bare.group(1))
            texts.append(f"My name is {bare.group(1)}." if named and bare else msg.text)
    return texts


def _assistant_texts(messages: Sequence[Message]) -> list[str]:
    """Assistant-role texts: an earlier summary that replaced compacted turns is one of them."""
    return [msg.text for msg in messages if msg.role == "assistant" and msg.text]


def _pending_tool_results(messages: Sequence[Message]) -> list[tuple[str, str]]:
    """(tool name, result text) for results that arrived after the turn's last user message."""
    names: dict[str, str] = {}
    pending: list[tuple[str, str]] = []
    for msg in messages:
        if msg.role == "user" and "_attribution" not in (msg.additional_properties or {}):
            pending = []
        for content in msg.contents:
            if content.type == "function_call" and content.call_id:
                names[content.call_id] = content.name or "tool"
            elif content.type == "function_result":
                text = content.result if isinstance(content.result, str) else str(content.result or "")
                if not text and content.exception:
                    text = f"The tool failed: {content.exception}"
                pending.append((names.get(content.call_id or "", "the tool"), text))
    return pending


def _tool_like(tools: Sequence[ToolSpec], pattern: re.Pattern[str], avoid: re.Pattern[str] | None = None) -> ToolSpec | None:
    """The first offered tool whose name (else description) fits the pattern and not ``avoid``."""

    def fits(text: str) -> bool:
        return bool(pattern.search(text)) and not (avoid and avoid.search(text))

    for tool in tools:  # the name decides first; the description only when the name says nothing
        if fits(tool.name):
            return tool
    for tool in tools:
        if not (avoid and avoid.search(tool.name)) and fits(tool.description):
            return tool
    return None


def _recall_call(tools: Sequence[ToolSpec], question: str, messages: Sequence[Message]) -> ToolCall | None:
    """The first search-like tool (by name, then by description) that can be called for ``question``.

    A single-value tool gets the question (``search_memory(query)``); a tool that wants a file or topic
    name gets one listed in view, or is passed over (:func:`.memory_tools.recall_arguments`).
    """
    by_name = [t for t in tools if _SEARCH_LIKE.search(t.name)]
    by_description = [t for t in tools if t not in by_name and not _ADD_LIKE.search(t.name) and _SEARCH_LIKE.search(t.description)]
    listing = memory_tools.listed_names([m.text for m in messages if m.role == "user" and m.text])
    for tool in by_name + by_description:
        if not tool.properties:
            continue
        arguments = memory_tools.recall_arguments(tool.parameters, question, listing)
        if arguments is None:
            continue
        if all(value == question for value in arguments.values()):  # a query tool: the general rule fills it
            return _call(tool, ("query", "question", "text", "q", "search"), question)
        return ToolCall(tool.name, arguments)
    return None


def _call(tool: ToolSpec, preferred: Sequence[str], value: str) -> ToolCall:
    props = tool.properties
    name = next((p for p in preferred if p in props), next(iter(props), preferred[0]))
    schema = props.get(name, {}) if isinstance(props.get(name), Mapping) else {}
    return ToolCall(tool.name, {name: [value] if schema.get("type") == "array" else value})


# --------------------------------------------------------------------------- the rules


def _respond_to_input(
    user_input: str, messages: Sequence[Message], tools: Sequence[ToolSpec], sheet: factlib.FactSheet, instructions: str
) -> Decision:
    text = normalize_quotes(user_input).strip()
    if not text:
        return TextReply("Hello! What would you like to talk about?")

    what = remember_request(text)  # the shared vocabulary: "remember that …", "note: …", "for the record …"
    if what and not text.endswith("?"):
        what = what.rstrip(".!")
        add_tool = _tool_like(tools, _ADD_LIKE, _SEARCH_LIKE)
        if add_tool is not None:
            memory = _third_person(what, sheet)
            call = _call(add_tool, ("text", "memory", "content", "fact", "memories", "message"), memory)
            extra = memory_tools.write_arguments(add_tool.parameters, next(iter(call.arguments)), memory, what, instructions)
            return ToolCall(call.name, {**extra, **call.arguments})
        return TextReply(f"Noted: {factlib.to_second_person(what)}.")

    topic = jokes.topic_of(text)
    if topic is not None:
        return TextReply(jokes.tell_joke(topic))

    if jokes.is_transform_request(text):
        joke = _latest_joke(messages)
        return TextReply(jokes.transform(joke, text) if joke else jokes.no_joke_reply())

    questions = [s for s in sentences(text) if factlib.is_question(s)]
    if questions:
        answers: list[str] = []
        for question in questions:
            own = _about_the_assistant(question, instructions)
            if own:
                answers.append(own)
                continue
            answer = factlib.answer_question(question, sheet)
            if not answer.known:
                recall = _recall_call(tools, question, messages)
                if recall is not None:
                    return recall
            answers.append(answer.text)
        prefix = _acknowledge(text, sheet, only_name=True)
        return TextReply(" ".join(([prefix] if prefix else []) + answers))

    ack = _acknowledge(text, sheet)
    if ack:
        return TextReply(ack)
    if _GREETING.match(text):
        return TextReply(f"Hello{', ' + sheet.name if sheet.name else ''}! How can I help you today?")
    return TextReply(factlib.OFFLINE_ONLY)  # a request it has no rule for: say so plainly, once


def _acknowledge(text: str, sheet: factlib.FactSheet, *, only_name: bool = False) -> str:
    stated = factlib.first_person_facts(text)
    if not stated:
        return ""
    name = next((f.value for f in stated if f.slot == "name"), None)
    others = [f.text for f in stated if f.slot != "name"]
    parts = [f"Nice to meet you, {name}!"] if name else []
    if others and not only_name:
        parts.append("Got it: " + "; ".join(others) + ".")
    return " ".join(parts)


def _about_the_assistant(question: str, instructions: str) -> str | None:
    if not re.search(r"(?i)\b(?:your name|who are you)\b", question):
        return None
    m = next((m for m in _ASSISTANT_NAME.finditer(instructions or "") if looks_like_name(m.group(1))), None)
    return f"My name is {m.group(1)}." if m else "I'm the offline lesson model."


def _latest_joke(messages: Sequence[Message]) -> str | None:
    """The most recent assistant joke among the messages sent.

    A reply to a joke request (or to a follow-up on one) wins over any other assistant text that
    merely looks like a joke (a question followed by more text).
    """
    last_user = ""
    answered: list[str] = []
    lookalikes: list[str] = []
    for msg in messages:
        if msg.role == "user":
            last_user = msg.text or ""
        elif msg.role == "assistant" and msg.text and "which joke" not in msg.text:
            if jokes.topic_of(last_user) is not None or jokes.is_transform_request(last_user):
                answered.append(msg.text)
            elif jokes.looks_like_joke(msg.text):
                lookalikes.append(msg.text)
    jokes_seen = answered or lookalikes
    return jokes_seen[-1] if jokes_seen else None


def _third_person(what: str, sheet: factlib.FactSheet) -> str:
    """Memories are stored about the user: "I ship on Fridays" -> "Alex ships on Fridays"."""
    subject = sheet.name or "The user"
    m = re.match(r"(?i)^(?:i'm|i am)\s+(.*)$", what)
    if m:
        return f"{subject} is {m.group(1)}"
    m = re.match(r"(?i)^my\s+(.*)$", what)
    if m:
        return f"{subject}'s {m.group(1)}"
    m = re.match(r"(?i)^i\s+(?:(usually|often|always|never|sometimes|also|really)\s+)?(\w+)\s*(.*)$", what)
    if m:
        adverb = f"{m.group(1)} " if m.group(1) else ""
        return f"{subject} {adverb}{verb_to_third(m.group(2))} {m.group(3)}".strip()
    return what


def _answer_from_tool_results(results: list[tuple[str, str]], user_input: str, sheet: factlib.FactSheet) -> str:
    name, _ = results[-1]
    lines = [line for _, text in results for line in _result_lines(text)]
    quoted = " ".join(lines) or "(no output)"
    if remember_request(normalize_quotes(user_input)) is not None or (_ADD_LIKE.search(name) and not _SEARCH_LIKE.search(name)):
        return f'I passed that to {name}, which replied: "{quoted}"'
    # A transcript line labelled with its role ("[user] I'm staying at …", as search_history returns them) is
    # what that speaker said: the user's lines are the user's own statements, the assistant's are not facts.
    said = [_ROLE_LABEL.match(line) for line in lines]
    user_said = [m.group(2) for m in said if m and m.group(1).lower() == "user"]
    memory_block = "\n".join(f"- {line}" for line, m in zip(lines, said, strict=True) if not m)
    combined = factlib.collect_facts(memory_block, [*user_said, user_input])
    for fact in sheet.facts:
        combined.add(fact)
    questions = [s for s in sentences(user_input) if factlib.is_question(s)] or [user_input]
    answers = [factlib.answer_question(q, combined) for q in questions]
    if all(a.known for a in answers):
        return " ".join(a.text for a in answers)
    return f'I don\'t know \u2014 I checked {name} and it said: "{quoted}"'


def _result_lines(text: str) -> list[str]:
    """A tool result as lines of text; JSON results are flattened to their string values."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        data = None
    if isinstance(data, (dict, list)):
        found: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, str):
                found.append(node)
            elif isinstance(node, Mapping):
                for key in ("memory", "text", "content", "fact", "message"):
                    if isinstance(node.get(key), str):
                        found.append(node[key])
                        return
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for item in node:
                    walk(item)

        walk(data)
        return [s.strip() for s in found if s.strip()]
    stripped = [re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s+", "", line).strip() for line in (text or "").splitlines()]
    return [line for line in stripped if line]


# --------------------------------------------------------------------------- instructions


def _follow_instructions(reply: str, instructions: str, sheet: factlib.FactSheet) -> str:
    """Apply what the instructions ask of every reply."""
    ins = normalize_quotes(instructions or "")
    for m in _ASK_FOR.finditer(ins):
        wanted = m.group(1).lower()
        if wanted == "name" and not sheet.name:
            reply = _append(reply, "What's your name?")
        elif wanted == "age" and not sheet.age:
            reply = _append(reply, "How old are you?")
        elif wanted not in {"name", "age"} and not any(wanted in f.text for f in sheet.facts):
            reply = _append(reply, f"What's your {wanted}?")
    if re.search(r"(?i)\b(?:by (?:their )?name|use (?:the user's|their) name)\b", ins) and sheet.name:
        if sheet.name not in reply:
            reply = f"{sheet.name}, {reply[:1].lower()}{reply[1:]}"
    if re.search(r"(?i)\b(?:one sentence|keep (?:your )?(?:answers|replies|it) (?:short|brief))\b", ins):
        first = sentences(reply)
        reply = first[0] if first else reply
    voice = _VOICE_INSTRUCTION.search(ins)
    if voice:
        reply = jokes.transform(reply, f"in a {voice.group(1) or voice.group(2)}'s voice")
    if re.search(r"(?i)\b(?:in (?:all )?(?:caps|uppercase|capital letters)|always shout)\b", ins):
        reply = reply.upper()
    return reply


def _append(reply: str, sentence: str) -> str:
    if sentence.lower() in reply.lower():
        return reply
    return f"{ensure_period(reply)} {sentence}".strip() if reply else capitalize_first(sentence)
