"""How the offline lesson model summarises a conversation, so history compaction has something to keep.

The framework's ``SummarizationStrategy`` sends a chat client a system prompt asking for a summary and
one user message holding the older turns as a numbered transcript (``1. [user] …``,
``2. [assistant] …``); the reply replaces those turns in the history. A summary is only worth
its tokens if the next turns can still answer from it, so the offline model keeps what a user
said about themselves, restated about "the user" one per line, and names the questions asked:

    Summary of the earlier conversation:
    - The user's name is Priya.
    - The user ships on Fridays.
    Earlier questions: "What's the capital of Peru?"

An earlier summary inside the transcript is read like any other statement about the user, so a
summary of a summary still carries the first turn's facts. The rules are general: any name, fact
or phrasing the fact reader (:mod:`chat_models.facts`, which reads the user's name and age through :mod:`offline_reader`) understands is kept.
"""

from __future__ import annotations

import re

from . import facts as factlib
from .text import normalize_quotes, sentences, to_third_person

SUMMARY_HEADING = "Summary of the earlier conversation:"

# The instructions ask for a summary of a conversation (the framework's prompt, or a learner's own).
_SUMMARY_INSTRUCTION = re.compile(
    r"(?is)\bsummar(?:y|ies|ise|ize|ising|izing)\b.*\b(?:conversation|transcript|dialogue|chat|messages|history)\b"
)
# The user asks for a summary of *this* conversation ("Summarise our chat so far"), not of an article.
_SUMMARY_REQUEST = re.compile(
    r"(?i)\bsummar(?:y|ise|ize)\b.*\b(?:(?:our|this|the) (?:conversation|chat|discussion)|what we(?:'ve| have)? "
    r"(?:talked about|discussed|said)|so far)\b"
)
# One transcript line: "3. [user] text", "[assistant] text", "User: text", "assistant: text".
_TRANSCRIPT_LINE = re.compile(
    r"^\s*(?:\d+[.)]\s*)?(?:\[(?P<bracketed>[A-Za-z_]+)\]\s*:?|(?P<labelled>user|assistant|human|ai|system|tool)\s*:)\s*(?P<text>.*)$",
    re.IGNORECASE,
)
_USER_ROLES = {"user", "human"}
_MAX_QUESTIONS = 3


def asks_for_summary_of_transcript(instructions: str) -> bool:
    """Whether the instructions ask the model to summarise a conversation it is handed."""
    return bool(_SUMMARY_INSTRUCTION.search(normalize_quotes(instructions or "")))


def asks_for_summary_of_chat(user_input: str) -> bool:
    """Whether the user asks for a summary of the conversation so far."""
    return bool(_SUMMARY_REQUEST.search(normalize_quotes(user_input or "")))


def parse_transcript(text: str) -> list[tuple[str, str]]:
    """(role, text) entries of a transcript; unlabelled lines continue the entry above them.

    Text with no role labels at all is one user entry: whatever the user handed over is theirs.
    """
    entries: list[tuple[str, str]] = []
    for line in (text or "").splitlines():
        m = _TRANSCRIPT_LINE.match(line)
        if m:
            role = (m.group("bracketed") or m.group("labelled")).lower()
            entries.append(("user" if role in _USER_ROLES else role, m.group("text").strip()))
        elif line.strip() and entries:
            role, previous = entries[-1]
            entries[-1] = (role, f"{previous}\n{line.strip()}")
    if not entries and (text or "").strip():
        entries.append(("user", text.strip()))
    return entries


def summarize(entries: list[tuple[str, str]]) -> str:
    """A summary of ``entries`` that keeps every fact the user stated and the questions they asked."""
    user_texts = [text for role, text in entries if role == "user"]
    other_texts = [text for role, text in entries if role != "user"]
    # Statements about the user from earlier summaries (any role) are read like instructions are.
    sheet = factlib.collect_facts("\n".join(other_texts), user_texts)
    lines = [SUMMARY_HEADING]
    kept = _latest_per_slot(sheet.facts)
    lines.extend(f"- {to_third_person(fact.text)}." for fact in kept)
    if not kept:
        lines.append("No facts about the user yet.")
    questions = [s for text in user_texts for s in sentences(normalize_quotes(text)) if factlib.is_question(s)]
    questions = [q for q in questions if not asks_for_summary_of_chat(q)]
    if questions:
        quoted = " ".join(f'"{q}"' for q in questions[-_MAX_QUESTIONS:])
        lines.append(f"Earlier questions: {quoted}")
    return "\n".join(lines)


def _latest_per_slot(found: list[factlib.Fact]) -> list[factlib.Fact]:
    """Every fact once; for a slot (name, age) only the latest value, so a correction wins."""
    latest = {fact.slot: fact for fact in found if fact.slot}
    return [fact for fact in found if not fact.slot or latest[fact.slot] is fact]
