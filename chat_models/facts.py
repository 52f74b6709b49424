"""Facts about the user, found in what the offline model is sent, and answers to questions about them.

Sources, all read on every call (the model keeps nothing between calls; only the reading of a line, which
depends on the line alone, is memoized):
- first-person statements in user-role messages ("I'm Alex.", "I ship on Fridays", "My favourite colour is teal");
- third-person statements in instructions ("The user's name is Alex.", "The user is 31 years old.");
- memory lines in context blocks, one per line, often bulleted ("- Alex ships on Fridays").
Every fact is kept restated for the listener ("you ship on Fridays"), so answering is matching
a question's words against facts (with light stemming) and quoting the best one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from offline_reader.speaker import extract_age, extract_name, is_plausible_name, strip_remember_prefix
from .text import (
    NAME_WORD,
    capitalize_first,
    content_stems,
    looks_like_name,
    normalize_quotes,
    sentences,
    stem,
    to_second_person,
    verb_to_base,
)

# What the user says about themselves ("my name is alex", "call me Sam", "I'm 31", "remember that …")
# is read with the shared vocabulary in offline_reader.speaker, as the provider and the memory server
# read it. This module's own policy is on top: statements about the user in instructions and memory
# lines, and restating every fact for the listener.
# Any script (Tomás, Łukasz, Zoë, Mary-Jane, O'Brien); _name_fact checks the capital letter.
_NAME = rf"({NAME_WORD})"
_AGE_UNITS = r"(?!\s*(?:%|percent|minutes?|mins?|hours?|days?|weeks?|months?|kg|km|miles?|cm|lbs?|pounds?|feet|ft|euros?|dollars?|times|am\b|pm\b))"

_SUBJECT = r"(?i:the user|user|the human)"
_THIRD_PERSON_NAME = [
    re.compile(_SUBJECT + r"(?:'s)?\s+(?i:name is|is called|is named|goes by)\s+" + _NAME),
    re.compile(r"^(?i:name)\s*[:=]\s*" + _NAME),
]
_LEADING_FILLER = re.compile(r"^(?i:(?:hi|hello|hey|oh|well|also|and|btw|but|so|ok(?:ay)?)\b[,!]?\s*)+")
_CLAUSE_SPLIT = re.compile(r",?\s+(?i:and|but)\s+(?=(?:I|I'm|my|My)\b)|[,;]\s*(?=(?:I|I'm|my|My)\b)")
_NOT_FACTS = re.compile(
    r"(?i)^(?:i|i'm|i am)\s+(?:want|wanna|'d like|would like|need you|think|guess|wonder|mean|meant|said|asked|"
    r"told|hope|see|know|don't know|forgot|just|was wondering|am wondering|wondering|asking|curious)\b|\bjoke\b|\byou\b"
)
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_THIRD_TO_SECOND = {"his": "your", "her": "your", "their": "your", "him": "you", "them": "you",
                    "himself": "yourself", "herself": "yourself", "themselves": "yourself"}
_ADVERBS = frozenset("usually often always never sometimes also really typically generally normally mostly".split())
#: Lines read, remembered: the same memory lines come back turn after turn (recall returns them again), and a
#: line's reading depends on nothing else, so each is read once (facts are frozen; results are tuples).
_READ_CACHE = 4096


@dataclass(frozen=True)
class Fact:
    """One thing known about the user, restated for the listener (e.g. "you ship on Fridays")."""

    text: str
    slot: str | None = None  # "name" or "age" for the two facts lessons ask about directly
    value: str | None = None
    source: str = "user"  # "user", "instructions", "context" (e.g. a summary) or "memory"

    @property
    def stems(self) -> frozenset[str]:
        return _stems(self.text)


@lru_cache(maxsize=_READ_CACHE)
def _stems(text: str) -> frozenset[str]:
    """A fact's content stems, worked out once per text (a question is matched against every fact)."""
    return frozenset(content_stems(text))


@dataclass
class FactSheet:
    """All facts found in one request, in the order they appeared (later ones win)."""

    facts: list[Fact] = field(default_factory=list)

    def add(self, fact: Fact) -> None:
        if all(f.text.lower() != fact.text.lower() for f in self.facts):
            self.facts.append(fact)

    def latest(self, slot: str) -> str | None:
        for fact in reversed(self.facts):
            if fact.slot == slot:
                return fact.value
        return None

    @property
    def name(self) -> str | None:
        return self.latest("name")

    @property
    def age(self) -> str | None:
        return self.latest("age")

    @property
    def free_facts(self) -> list[Fact]:
        return [f for f in self.facts if f.slot is None]

    def __bool__(self) -> bool:
        return bool(self.facts)


# --------------------------------------------------------------------------- extraction


def _name_fact(name: str | None, source: str) -> Fact | None:
    if not name or not is_plausible_name(name):
        return None
    return Fact(f"your name is {name}", slot="name", value=name, source=source)


def _age_fact(age: str, source: str) -> Fact | None:
    if not 0 < int(age) < 130:
        return None
    return Fact(f"you are {int(age)} years old", slot="age", value=str(int(age)), source=source)


def _name_facts(patterns: list[re.Pattern[str]], text: str, source: str) -> list[Fact]:
    """Name facts the patterns find, in pattern order; "I'm tired" and "I'm Fine" are skipped."""
    return [fact for pattern in patterns for m in pattern.finditer(text) if (fact := _name_fact(m.group(1), source))]


@lru_cache(maxsize=_READ_CACHE)
def first_person_facts(text: str, source: str = "user") -> tuple[Fact, ...]:
    """Facts a user states about themselves: name, age, and any "I ..."/"My ..." clause."""
    found: list[Fact] = []
    for sentence in sentences(normalize_quotes(text)):
        sentence = strip_remember_prefix(sentence)
        is_question = sentence.endswith("?")
        for clause in _CLAUSE_SPLIT.split(sentence):
            clause = strip_remember_prefix(_LEADING_FILLER.sub("", clause.strip())).strip()
            clause = clause.rstrip(".!?").strip()
            if not clause:
                continue
            slot_found = False
            if name := _name_fact(extract_name(clause), source):
                found.append(name)
                slot_found = True
            if (years := extract_age(clause)) is not None and (age := _age_fact(str(years), source)):
                found.append(age)
                slot_found = True
            if slot_found or (is_question and clause is not None and _looks_interrogative(clause)):
                continue
            if is_question:
                continue
            if re.match(r"(?:I|I'm|I've|My|my)\b", clause) and not _NOT_FACTS.search(clause):
                if len(clause.split()) >= 3 or clause.lower().startswith("my "):
                    found.append(Fact(to_second_person(clause), source=source))
    return tuple(found)


def _looks_interrogative(clause: str) -> bool:
    return bool(re.match(r"(?i)(?:what|when|where|who|how|which|why|do|does|did|can|could|is|are)\b", clause))


@lru_cache(maxsize=_READ_CACHE)
def third_person_facts(text: str, *, known_name: str | None, any_name: bool, source: str) -> tuple[Fact, ...]:
    """Facts stated about the user: "The user's name is Alex.", "- Alex ships on Fridays"."""
    return tuple(_third_person_facts(text, known_name, any_name, source))


def _third_person_facts(text: str, known_name: str | None, any_name: bool, source: str) -> list[Fact]:
    line = _BULLET.sub("", normalize_quotes(text)).strip().rstrip(".!").strip()
    if not line or line.endswith("?"):
        return []
    if names_stated := _name_facts(_THIRD_PERSON_NAME, line, source):
        return names_stated[:1]
    names = [re.escape(known_name)] if known_name else []
    subject = "(?:" + "|".join([_SUBJECT, *names, *([NAME_WORD] if any_name else [])]) + ")"
    if m := re.match(r"^(?i:age)\s*[:=]\s*(\d{1,3})\b", line):
        return [f] if (f := _age_fact(m.group(1), source)) else []
    if m := re.match(rf"^{subject}(?:'s age is| is| is aged| turned)\s+(\d{{1,3}})\b{_AGE_UNITS}", line):
        if subject_ok(line, known_name, any_name):
            return [f] if (f := _age_fact(m.group(1), source)) else []
    m = re.match(rf"^(?P<subj>{subject})(?P<poss>'s)?\s+(?P<rest>.+)$", line)
    if not m or not subject_ok(line, known_name, any_name):
        return []
    rest = re.sub(r"\b(?:his|her|their|him|them|himself|herself|themselves)\b",
                  lambda w: _THIRD_TO_SECOND[w.group(0)], m.group("rest").strip())
    if m.group("poss"):
        return [Fact("your " + rest, source=source)]
    head, _, tail = rest.partition(" ")
    if head.lower() in _ADVERBS and tail:
        verb, _, obj = tail.partition(" ")
        clause = f"{head} {verb_to_base(verb)} {obj}".strip()
    else:
        clause = f"{verb_to_base(head)} {tail}".strip()
    if clause.split()[0].lower() in {"name", "names"}:
        return []
    return [Fact("you " + clause, source=source)]


_SUBJECT_STOP = frozenset(
    "You Your We Our They Their It Its This That These Those There Here Answer Always Never Use Do Be Keep "
    "Respond Reply Ask Tell When If The A An Please Remember Consider Memories Memory Context Note Notes".split()
)


def subject_ok(line: str, known_name: str | None, any_name: bool) -> bool:
    first = re.sub(r"'s$", "", line.split()[0])  # "Alex's", "O'Brien's" -> the name itself
    if re.match(r"(?i)the user|user|the human", line):
        return True
    if known_name and first == known_name:
        return True
    return any_name and looks_like_name(first) and first not in _SUBJECT_STOP


def collect_facts(instructions: str, user_texts: list[str], context_texts: Sequence[str] = ()) -> FactSheet:
    """Read every fact in a request: instructions, then other context, then user-role messages in order.

    ``context_texts`` are other messages the model was sent, such as an earlier summary standing in
    for compacted turns ("- The user's name is Priya."): only statements *about* the user count there.
    """
    sheet = FactSheet()
    blocks: list[tuple[str, str]] = [("instructions", instructions)]
    blocks += [("context", t) for t in context_texts]
    blocks += [("user", t) for t in user_texts]
    # Two passes: the name must be known before "- Alex ships on Fridays" can be read as about the user.
    for _ in range(2):
        for source, block in blocks:
            for raw_line in (block or "").splitlines():
                if not raw_line.strip():
                    continue
                bullet = bool(_BULLET.match(raw_line))
                if source == "user":
                    for fact in first_person_facts(_BULLET.sub("", raw_line)):
                        sheet.add(fact if not bullet else Fact(fact.text, fact.slot, fact.value, "memory"))
                for sentence in [raw_line] if bullet else sentences(raw_line):
                    for fact in third_person_facts(
                        sentence, known_name=sheet.name, any_name=bullet, source="memory" if bullet else source
                    ):
                        sheet.add(fact)
    return sheet


# --------------------------------------------------------------------------- answering

_ASKS_NAME = re.compile(r"(?i)\b(?:my name|who am i|what am i called|what do you call me)\b")
_ASKS_AGE = re.compile(r"(?i)\b(?:how old|age)\b")
_ASKS_ALL = re.compile(
    r"(?i)\b(?:(?:what|anything)\b.*\b(?:know|remember|recall)\b.*\babout me|about myself|what have i told you|"
    r"what do you (?:know|remember)\??$|tell me about (?:me|myself))"
)
_SLOT_WORDS = {stem(w) for w in ("name", "old", "age", "called", "call", "years")}
# A question is about the user when the user is in it as "I"/"my" ("Where do I work?", "What's my
# dog called?"), not merely as the one helped ("Can you recommend me a book?", "What should I cook?").
_ABOUT_THE_USER = re.compile(r"(?i)\b(?:i|i'm|i've|i'd|my|mine|myself)\b|\babout me\b")
_ASKS_ADVICE = re.compile(r"(?i)\b(?:should|shall|can|could|may|might) i\b|\bhow (?:can|should|would|could) i\b")
OFFLINE_ONLY = (
    "I'm the offline lesson model, so I can only answer from what you tell me in this conversation "
    "\u2014 for anything else, set a real model in .env (see notebook 00)."
)
_SMALL_TALK = re.compile(r"(?i)\bhow (?:are|r) (?:you|u)\b|\bhow's it going\b|\bwhat's up\b")


@dataclass(frozen=True)
class Answer:
    text: str
    known: bool


def is_question(text: str) -> bool:
    text = text.strip()
    return text.endswith("?") or bool(
        re.match(
            r"(?i)(?:what|when|where|who|whom|how|which|why|do you know|can you tell me|tell me what|"
            r"tell me about (?:me|myself))\b",
            text,
        )
    )


def is_about_the_user(question: str) -> bool:
    """Whether a question asks for a fact about the user, which only the user could have told."""
    q = normalize_quotes(question)
    return bool(_ABOUT_THE_USER.search(q)) and not _ASKS_ADVICE.search(q)


def answer_question(question: str, sheet: FactSheet) -> Answer:
    """Answer a question about the user from the facts, in second person, or say it is not known."""
    q = normalize_quotes(question)
    if _ASKS_ALL.search(q):
        if not sheet:
            return Answer("I don't know anything about you yet \u2014 you haven't told me.", False)
        return Answer("Here's what I know about you: " + "; ".join(f.text for f in _summary(sheet)) + ".", True)
    parts: list[str] = []
    missing: list[str] = []
    if _ASKS_NAME.search(q):
        (parts if sheet.name else missing).append(f"your name is {sheet.name}" if sheet.name else "your name")
    if _ASKS_AGE.search(q):
        (parts if sheet.age else missing).append(f"you are {sheet.age} years old" if sheet.age else "your age")
    asked = content_stems(q) - _SLOT_WORDS
    if not asked and not parts and not missing:
        if _SMALL_TALK.search(q):
            return Answer("I'm doing well, thank you! How can I help?", True)
        return Answer("I'm not sure what you're asking \u2014 could you say a bit more?", False)
    if asked or not (parts or missing):
        best = _best_match(asked, sheet.free_facts)
        if best is not None:
            parts.append(best.text)
        elif asked and not parts and not missing:
            if not is_about_the_user(q):
                return Answer(OFFLINE_ONLY, False)  # a request or world question: no "you haven't told me"
            missing.append("that")
    if missing:
        said = _join(parts)
        unknown = " or ".join(missing)
        prefix = f"{capitalize_first(said)}, but " if said else ""
        return Answer(f"{prefix}I don't know {unknown} \u2014 you haven't told me.", False)
    return Answer(capitalize_first(_join(parts)) + ".", True)


def _best_match(asked: set[str], facts: list[Fact]) -> Fact | None:
    best: Fact | None = None
    best_score = 0
    for fact in facts:  # later facts win ties: the user may have corrected themselves
        score = len(asked & fact.stems)
        if score and score >= best_score:
            best, best_score = fact, score
    return best


def _summary(sheet: FactSheet) -> list[Fact]:
    seen_slots: set[str] = set()
    out: list[Fact] = []
    for fact in reversed(sheet.facts):
        if fact.slot:
            if fact.slot in seen_slots:
                continue
            seen_slots.add(fact.slot)
        out.append(fact)
    return list(reversed(out))


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
