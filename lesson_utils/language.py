"""What a user says about themselves: the vocabulary and rules for "my name is …", "I'm 31" and "remember …".

Lesson 04 has the learner write a one-line regex for "my name is X" and watch it fail on
"my name is priya", "call me Sam" and — once made case-insensitive — learn the name "tired" from
"I'm tired". The rules that get those right are not about the framework at all, so they live here,
apart from the provider that uses them (:mod:`lesson_utils.user_memory`), in plain Python with no
framework import. It is the one place for that vocabulary: the provider (:mod:`lesson_utils.user_memory`),
the offline lesson model (:mod:`chat_models.facts`, :mod:`chat_models.rules`) and the
memory server's distiller read a name, an age and a "remember …" request the same way, and each keeps
only its own policy on top (what to store, what to answer, which tool to call).

They are deliberately conservative: a wrong memory is worse than none, so "I'm tired",
"I'm 5 minutes late" and "my son is 5" must teach nothing.

- After an *explicit* phrase ("my name is", "my name's", "the name's", "I'm called/named") the name
  may be written in lower case: "my name is priya" gives "Priya".
- After an *implicit* one ("I'm", "I am", "call me", "I go by") only a capitalised word counts, and
  never a word from :data:`NOT_A_NAME`: "I'm Alex" is a name, "I'm tired" and "I'm Canadian" are not.
- A negated phrase is no name ("don't call me Bob"); the last statement in a text wins
  ("I'm Alexandra, but please call me Alex" gives "Alex").
- An age is a whole number of years after "I'm", "my age is" or "I just turned", and not a quantity
  of something else ("I'm 5 minutes late", "I'm 100% sure").
- A request to remember starts with one of :data:`REMEMBER_PHRASES` ("remember that …", "note: …",
  "for the record, …"), after polite filler ("ok, please remember …").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "MAX_AGE",
    "INSTRUCTION_PHRASES",
    "MIN_AGE",
    "COMMON_WORDS",
    "NOT_A_NAME",
    "PERSONAL_FACTS",
    "REMEMBER_PHRASES",
    "ages_stated",
    "content_words",
    "extract_age",
    "extract_name",
    "instruction_request",
    "is_plausible_age",
    "is_plausible_name",
    "names_stated",
    "places_stated",
    "remember_request",
    "strip_remember_prefix",
]

MIN_AGE, MAX_AGE = 1, 130

# ------------------------------------------------------------------------------ vocabulary

#: Words that follow "I'm" / "call me" / "my name is" without being a name.
NOT_A_NAME: frozenset[str] = frozenset(
    """
    a an the i me my mine you your not no never just only also so very really too quite
    here there back home out in on at from with without of for to into about over off
    fine good great ok okay well sure sorry tired hungry thirsty sick ill busy late early
    ready done happy sad glad bored new old afraid excited confused lost stuck
    interested curious allergic vegan vegetarian
    going trying looking asking wondering thinking working living feeling doing getting
    writing learning using
    what who why how when where which whatever this that it anything nothing something
    later tomorrow today tonight maybe anytime sometime now again soon yet still
    crazy mad silly stupid naive paranoid picky lazy biased
    always usually often sometimes
    and or but if because as than then like
    american british english french german spanish italian portuguese dutch swedish
    norwegian danish finnish polish russian ukrainian chinese japanese korean indian
    canadian australian irish scottish welsh mexican brazilian greek turkish swiss
    austrian belgian
    christian muslim jewish hindu buddhist catholic
    monday tuesday wednesday thursday friday saturday sunday
    """.split()
)

_APOS = "['\u2019]"  # straight or typographic apostrophe
_I_AM = rf"\b(?:i{_APOS}?m|i\s+am)"  # I'm, I’m, Im, I am
_WORD = r"[^\W\d_](?:[^\W\d_]|['\u2019\-](?=[^\W\d_]))*"  # letters, inner ' or - (O'Brien, Anne-Marie)
_NAME = rf"(?P<name>{_WORD}(?:\s+{_WORD})?)"

# ------------------------------------------------------------------------------ names

# Explicit "this is my name" phrasings: the name may be written in lower case.
_EXPLICIT_NAME = re.compile(
    rf"(?:\bmy\s+name\s+is|\bmy\s+name{_APOS}s|(?:\bthe\s+|^|[.!?;,]\s*)name{_APOS}s|{_I_AM}\s+(?:called|named))"
    rf"\s+{_NAME}",
    re.IGNORECASE,
)
# Implicit phrasings: only a capitalised word counts ("I'm Alex", not "I'm tired"). A name asked
# for politely counts too ("could you call me Kim", "I'd rather you called me Kit", "I'd like to be
# called Ash", "would you mind calling me Teddy"); "I'd prefer Kate" only with "please", "from now on"
# or "instead" after it ("I'd prefer Earl Grey" alone is a tea).
_I_WOULD = rf"\bi(?:{_APOS}d|\s+would)"
_IMPLICIT_NAME = re.compile(
    rf"(?P<neg>\b(?:don{_APOS}?t|do\s+not|never|please\s+don{_APOS}?t)\s+)?"
    rf"(?:{_I_AM}|\b(?:you\s+can\s+|please\s+|just\s+)?call\s+me|\b(?:everyone|everybody|people|friends)\s+calls?\s+me|\b(?:i|to)\s+go\s+by"
    rf"|\b(?:rather|prefer(?:\s+it\s+if)?|like|want|if)\s+you\s+(?:just\s+|to\s+)?call(?:ed)?\s+me|\bmind\s+calling\s+me"
    rf"|\bto\s+be\s+(?:called|addressed\s+as)|{_I_WOULD}\s+(?:prefer|rather|like)\s+(?={_WORD}(?:\s+{_WORD})?"
    rf"\s*,?\s*(?:please|from\s+now\s+on|instead)\b))\s*{_NAME}",
    re.IGNORECASE,
)

# A name offered for use from now on ("just Jo is fine from now on", "Jo will do going forward"): capitalised, as after
# "I'm", and with the words that make it a name to use ("just Coke is fine" is a drink).
_FROM_NOW = r"(?:from\s+now\s+on|going\s+forward)"
_OFFERED_NAME = re.compile(
    rf"(?:^|[.!?;,]\s*)(?:(?:please|ok|okay|so)\s*,?\s+)*(?:just\s+)?{_NAME}\s+(?:is\s+fine|is\s+good|will\s+do|"
    rf"works(?:\s+better)?(?:\s+for\s+me)?),?\s+{_FROM_NOW}", re.IGNORECASE)

# A request to be called something, on its own ("call me bex", "can u call me rebecca now", "please call me jo"): it
# says it is a name, so lower case counts; "call me crazy, but …" and "call me back" do not.
_ASKED_NAME = re.compile(
    rf"(?:^|[.!?;,]\s*)(?:(?:please|pls|just|so|you\s+can|(?:can|could|would|will)\s+(?:you|u)(?:\s+please)?)\s+)?"
    rf"call\s+me\s+{_NAME}(?=\s*(?:$|[.!?;,]|(?:now|please|pls|instead|from\s+now\s+on|going\s+forward)\b))(?!\s*,\s*but\b)",
    re.IGNORECASE,
)


def is_plausible_name(value: Any) -> bool:
    """A name is one or two words of letters (inner ' or - allowed), capitalised, not in the vocabulary."""
    if not isinstance(value, str) or not value or len(value) > 60:
        return False
    if not re.fullmatch(rf"{_WORD}(?: {_WORD})?", value):
        return False
    return value[0].isupper() and not any(word.lower() in NOT_A_NAME for word in value.split())


def _clean_name(raw: str, *, explicit: bool) -> str | None:
    """Trim a captured name to the words that are really part of it."""
    words: list[str] = []
    for word in raw.split():
        if any(part in NOT_A_NAME for part in word.lower().split("-")) or re.search(rf"{_APOS}s$", word, re.IGNORECASE):
            break  # "I'm Alex and ...", "I'm Alex's mum", "call me old-fashioned": stop before the non-name word.
        if words and not word[0].isupper():
            break  # a second word must be capitalised too ("Mary Jane", not "Alex today")
        words.append(word)
    if not words:
        return None
    if not words[0][0].isupper():
        if not explicit:
            return None  # "I'm tired", "call me later"
        words = [w[0].upper() + w[1:] for w in words]  # "my name is alex" -> "Alex"
    name = " ".join(words)
    return name if is_plausible_name(name) else None


def extract_name(text: str) -> str | None:
    """The name the speaker gives for themselves in ``text``, or ``None``.

    Understands "My name is X", "my name's X", "(the) name's X", "I'm called X", "I'm X", "I am X",
    "call me X", "I go by X", and a name asked for politely ("could you call me X", "I'd rather you
    called me X", "I'd prefer X, please", "just X is fine from now on"); after "I'm"/"call me" only a
    capitalised word counts, so "I'm tired" is no name, unless the sentence is itself the request ("call
    me bex", "can u call me rebecca now"). The last statement wins ("I'm Alexandra, call me Alex" -> "Alex").
    """
    found: list[tuple[int, str]] = []
    for match in _EXPLICIT_NAME.finditer(text):
        name = _clean_name(match.group("name"), explicit=True)
        if name:
            found.append((match.start(), name))
    for match in _ASKED_NAME.finditer(text):
        name = _clean_name(match.group("name"), explicit=True)
        if name:
            found.append((match.start("name"), name))
    for match in _IMPLICIT_NAME.finditer(text):
        if match.group("neg"):
            continue  # "Don't call me Bob"
        name = _clean_name(match.group("name"), explicit=False)
        if name:
            found.append((match.start(), name))
    for match in _OFFERED_NAME.finditer(text):
        name = _clean_name(match.group("name"), explicit=False)
        if name:
            found.append((match.start(), name))
    return max(found)[1] if found else None


# ------------------------------------------------------------------------------ ages

_AGE_UNITS = r"(?:\s*-?\s*(?:years?|yrs?)(?:\s*-?\s*old\b|\s+of\s+age\b)|\s*y/?o\b)"
# What may follow a bare "I'm 31": the end, punctuation, or a word that does not make the
# number a quantity of something ("I'm 31 and ..." yes, "I'm 5 minutes late" no).
_AGE_END = r"(?=\s*(?:$|[.,!?;:)\]]|(?:and|but|so|now|today|already|too|btw|by\s+the\s+way)\b))"
_AGE_PATTERNS = (
    re.compile(rf"\bmy\s+age(?:\s+is\s+|{_APOS}s\s+|\s*:\s*)(?P<age>\d{{1,3}})\b(?!\s*(?:%|\.\d))", re.IGNORECASE),
    re.compile(
        rf"\bi\s+(?:just\s+|recently\s+)?turned\s+(?P<age>\d{{1,3}})(?:{_AGE_UNITS})?"
        rf"(?:{_AGE_END}|(?=\s+(?:in|on|last|this|yesterday)\b))",
        re.IGNORECASE,
    ),
    re.compile(rf"{_I_AM}\s+(?:a\s+|an\s+)?(?P<age>\d{{1,3}}){_AGE_UNITS}", re.IGNORECASE),
    re.compile(rf"{_I_AM}\s+(?P<age>\d{{1,3}}){_AGE_END}", re.IGNORECASE),
)


def is_plausible_age(value: Any) -> bool:
    """An age is a whole number of years a person can plausibly be (bools are not ages)."""
    return isinstance(value, int) and not isinstance(value, bool) and MIN_AGE <= value <= MAX_AGE


def extract_age(text: str) -> int | None:
    """The speaker's own age in ``text``, or ``None``.

    Understands "I am 31", "I'm 31 years old", "I'm a 31-year-old ...", "my age is 31",
    "I just turned 31". A number that measures something else ("I'm 5 minutes late",
    "I'm 100% sure", "my son is 5") is not an age. The last statement wins.
    """
    found: list[tuple[int, int]] = []
    for pattern in _AGE_PATTERNS:
        for match in pattern.finditer(text):
            age = int(match.group("age"))
            if is_plausible_age(age):
                found.append((match.start(), age))
    return max(found)[1] if found else None


# ------------------------------------------------------------------------------ "remember …"

#: What starts a request to remember something ("remember that I ship on Fridays").
REMEMBER_PHRASES: tuple[str, ...] = (
    "remember", "note", "make a note", "keep in mind", "don't forget", "do not forget",
    "for the record", "just so you know", "fyi", "for your information", "save", "store",
)
_POLITE_LEAD = r"(?:(?:ok(?:ay)?|hey|also|and|so|please|pls)[,!]?\s+)*"
_REMEMBER = rf"{_POLITE_LEAD}(?:{'|'.join(re.escape(p) for p in REMEMBER_PHRASES)})\b(?:\s+that)?[,:]?\s*"
_REMEMBER_PREFIX = re.compile(rf"^{_REMEMBER}", re.IGNORECASE)
# Anywhere a sentence or clause starts: "Hi! Please remember …", "ok, note that …".
_REMEMBER_REQUEST = re.compile(rf"(?:^|[.!?]\s+|,\s*){_REMEMBER}(?P<what>.*)$", re.IGNORECASE)


def strip_remember_prefix(text: str) -> str:
    """``text`` without a leading request to remember: "Please remember that I'm vegan" -> "I'm vegan"."""
    return _REMEMBER_PREFIX.sub("", text, count=1)


def remember_request(text: str) -> str | None:
    """What ``text`` asks to be remembered ("" when it names nothing), or ``None`` if it asks no such thing."""
    match = _REMEMBER_REQUEST.search(text.replace("\u2019", "'"))
    return match.group("what").strip() if match else None


# ------------------------------------------------------------------------------ "from now on, …"

#: What starts a standing instruction the user gives the assistant ("from now on, answer in French").
INSTRUCTION_PHRASES: tuple[str, ...] = (
    "from now on", "from here on", "going forward", "in future", "in the future", "for the rest of this chat",
    "always", "never",
)
_INSTRUCTION_REQUEST = re.compile(
    rf"(?:^|[.!?]\s+){_POLITE_LEAD}(?P<lead>{'|'.join(re.escape(p) for p in INSTRUCTION_PHRASES)})\b[,:]?\s*"
    r"(?:(?:please|pls)[,]?\s+)?(?P<what>[^.!?]+)",
    re.IGNORECASE,
)
_ADDRESSED_TO_ASSISTANT = re.compile(
    r"(?i)^(?:answer|reply|respond|write|speak|talk|use|keep|call|address|say|be|give|add|start|end|sign|"
    r"format|put|include|avoid|stop|don't|do not)\b"
)


def instruction_request(text: str) -> str | None:
    """The standing instruction ``text`` gives the assistant ("answer in French"), or ``None``.

    Only an explicit request counts: a phrase of :data:`INSTRUCTION_PHRASES` followed by something the
    assistant is told to do ("from now on, answer in French", "always reply in capital letters").
    "I always ship on Fridays" is a fact about the user, and "from now on I live in Porto" is news: neither
    is an instruction. "never" keeps its word: "never use emojis" gives "never use emojis".
    """
    for match in _INSTRUCTION_REQUEST.finditer(text.replace("\u2019", "'")):
        what = match.group("what").strip().rstrip(",;:")
        if not _ADDRESSED_TO_ASSISTANT.match(what):
            continue
        return f"never {what}" if match.group("lead").lower() == "never" else what
    return None


# ------------------------------------------------------------------------------ what a reply states
#
# A "did not know" check on a real model must fail when the model *invents* the fact as well as when it
# states the right one: "My name is Sarah." is no more ignorance of "Ada" than "Your name is Ada." is. These
# read what a reply (any speaker, any person) states as someone's name, home town or age, by the phrasing
# around it, so "Kyoto" in a travel tip is no city of residence and "Qwen" introducing itself is no user.

_CAP = r"[A-Z][^\W\d_]*(?:['\u2019\-][^\W\d_]+)*"
_PLACE = rf"{_CAP}(?:\s+{_CAP}){{0,2}}"
_ADDRESSED = re.compile(  # "Hi Sarah", "Hello, John!", "Nice to meet you, Ada."
    rf"(?:^|[.!?]\s+|\n)\s*(?:hi|hello|hey|dear|welcome(?:\s+back)?|good\s+(?:morning|afternoon|evening)|"
    rf"nice\s+to\s+meet\s+you|greetings)[,!]?\s+(?P<value>{_CAP})\b(?!['\u2019]s)",
    re.IGNORECASE,
)
_NAMED = re.compile(  # "your name is Ada", "the user's name is Ada", "you're Ada", "called Ada"
    rf"(?i:\b(?:your|his|her|their|the\s+user{_APOS}s|user{_APOS}s)\s+name\s+(?:is|was|might\s+be|could\s+be|is\s+probably)"
    rf"|\bname\s*:|\byou\s+are|\byou{_APOS}re|\byou\s+were)\s+(?P<value>{_NAME})"
)
_SELF_INTRODUCTION = re.compile(r"(?i)\b(?:assistant|ai\b|a\.i\.|language\s+model|chatbot|created\s+by|developed\s+by|bot\b)")
_RESIDENCE = re.compile(  # "I live in a small town called Oakville", "you're from Berlin", "Alex lives in Porto"
    rf"\b(?i:lives?|lived|living|resides?|residing|based|located|settled|moved|staying)\b[^.!?\n]{{0,40}}?"
    rf"\b(?i:in|at|to|near|called|named)\s+(?P<place>{_PLACE})"
    rf"|\b(?i:home\s*town|home|city|town)\s+(?i:is|was)\s+(?P<home>{_PLACE})"
    rf"|\b(?i:from)\s+(?P<origin>{_PLACE})"
)
_AGE_STATED = re.compile(
    r"(?i)(?:\b(?:you\s+are|you're|you\s+were|age\s+(?:is|was|of)|age\s*:|aged)\s+(?P<a>\d{1,3})\b(?!\s*(?:%|\.\d|[a-z]))"
    r"|\b(?P<b>\d{1,3})\s*(?:-\s*)?(?:years?|yrs?)(?:\s*-\s*|\s+)old\b)"
)


def _not_a_word_of_the_vocabulary(value: str) -> bool:
    return bool(value) and value.split()[0].lower() not in NOT_A_NAME and value != "I"


def names_stated(text: str) -> list[str]:
    """Every name ``text`` gives a person: "My name is Sarah", "your name is Ada", "Hi John", "you're Ada".

    A speaker introducing itself as an assistant ("I'm Qwen, an AI assistant") names no user.
    """
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text or ""):
        own = extract_name(sentence)
        if own and not _SELF_INTRODUCTION.search(sentence):
            found.append(own)
    for pattern in (_ADDRESSED, _NAMED):
        for match in pattern.finditer(text or ""):
            value = _clean_name(match.group("value"), explicit=False) if pattern is _NAMED else match.group("value")
            if value and _not_a_word_of_the_vocabulary(value) and is_plausible_name(value):
                found.append(value)
    return list(dict.fromkeys(found))


def places_stated(text: str) -> list[str]:
    """Every place ``text`` says someone lives in or comes from ("I live in a town called Oakville")."""
    found = []
    for match in _RESIDENCE.finditer(text or ""):
        value = next(group for group in match.groups() if group)
        if _not_a_word_of_the_vocabulary(value):
            found.append(value)
    return list(dict.fromkeys(found))


def ages_stated(text: str) -> list[int]:
    """Every age ``text`` gives someone: "I am 30 years old", "you're 31", "a 44-year-old", "aged 5"."""
    found = [age] if (age := extract_age(text or "")) is not None else []
    for match in _AGE_STATED.finditer(text or ""):
        value = int(match.group("a") or match.group("b"))
        if is_plausible_age(value):
            found.append(value)
    return list(dict.fromkeys(found))


#: What a reply can state about a person, by kind: the vocabulary of "did not know" checks.
PERSONAL_FACTS: dict[str, Callable[[str], list[Any]]] = {"name": names_stated, "city": places_stated, "age": ages_stated}


#: Words of four letters or more that any two English replies share: no sign that one builds on the other.
COMMON_WORDS: frozenset[str] = frozenset(
    """
    about after again also because been before being both could does doing done each even every from
    have here into just like made make many more most much must only other over said same says some
    such sure than that their them then there these they this those very want well were what when where
    which while will with would your yours here's that's what's there's it's let's don't didn't can't
    couldn't wouldn't shouldn't isn't wasn't aren't won't doesn't haven't i'll i've you're you'll
    okay sorry thanks thank hello please
    """.split()
)


def content_words(text: str) -> set[str]:
    """The lower-case words of four letters or more in ``text``, less :data:`COMMON_WORDS`: its substance."""
    words = {word.lower().replace("\u2019", "'") for word in re.findall(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?", text or "")}
    words = {word[:-2] if word.endswith("'s") and word not in COMMON_WORDS else word for word in words}  # parrot's -> parrot
    return {word for word in words if len(word) >= 4 and word not in COMMON_WORDS}
