"""What a speaker says of themselves in so many words: a name, an age, "remember …", "from now on, …".

Why here: lesson 04's provider, the offline lesson model and the memory server's offline path must read
"my name is priya" (Priya) and "I'm tired" (no name) the same way, so the vocabulary lives once, in plain
Python with no framework import. It is conservative on purpose: a wrong memory is worse than none, so
"I'm tired", "I'm 5 minutes late" and "my son is 5" teach nothing.

- After "my name is", "my name's", "I'm called" the name may be lower case ("my name is priya" gives Priya);
  after "I'm", "call me", "I go by" only a capitalised word that is not in :data:`NOT_A_NAME` counts. A
  negated phrase is no name ("don't call me Bob"); the last statement in a text wins.
- An age is a whole number after "I'm", "my age is" or "I (just) turned", not a quantity of something else.
- A request to remember starts with one of :data:`REMEMBER_PHRASES`; a standing instruction with one of
  :data:`INSTRUCTION_PHRASES` followed by something the assistant is told to do.
- :data:`PERSONAL_FACTS` reads what a *reply* states as someone's name, home or age (the "did not know" checks
  of lessons run on real models).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["in_digits", 
    "COMMON_WORDS", "INSTRUCTION_PHRASES", "MAX_AGE", "MIN_AGE", "NOT_A_NAME", "PERSONAL_FACTS", "REMEMBER_PHRASES",
    "ages_stated", "content_words", "extract_age", "extract_name", "instruction_request", "is_plausible_age",
    "is_plausible_name", "names_stated", "places_stated", "remember_request", "strip_remember_prefix",
]

MIN_AGE, MAX_AGE = 1, 130

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

_APOS = "['\u2019]"
_I_AM = rf"\b(?:i{_APOS}?m|i\s+am)"
WORD = r"[^\W\d_](?:[^\W\d_]|['\u2019\-](?=[^\W\d_]))*"  # letters, inner ' or - (O'Brien, Anne-Marie)
_NAME = rf"(?P<name>{WORD}(?:\s+{WORD})?)"

# "this is my name": the name may be lower case; "I'm X", "call me X": only a capitalised word.
_EXPLICIT_NAME = re.compile(rf"(?:(?:\bmy\s+|^\s*)name(?:\s+is|{_APOS}s)|\bthe\s+name{_APOS}s|{_I_AM}\s+(?:called|named))\s+{_NAME}",
                            re.IGNORECASE)
_IMPLICIT_NAME = re.compile(
    rf"(?P<neg>\b(?:don{_APOS}?t|do\s+not|never)\s+)?(?:{_I_AM}|\b(?:call(?:ing)?|you\s+called)\s+me|\b(?:everyone|people|friends)\s+calls?\s+me"
    rf"|\bgo(?:es|ing)?\s+by(?:\s+my\s+(?:\w+\s+)?name,?)?|\bto\s+be\s+called)\s+{_NAME}", re.IGNORECASE)


def is_plausible_name(value: Any) -> bool:
    """A name is one or two words of letters (inner ' or - allowed), capitalised, not in the vocabulary."""
    if not isinstance(value, str) or not value or len(value) > 60 or not re.fullmatch(rf"{WORD}(?: {WORD})?", value):
        return False
    return value[0].isupper() and not any(word.lower() in NOT_A_NAME for word in value.split())


def _clean_name(raw: str, *, explicit: bool) -> str | None:
    """Trim a captured name to the words that are really part of it ("I'm Alex and …" gives Alex)."""
    words: list[str] = []
    for word in raw.split():
        if any(part in NOT_A_NAME for part in word.lower().split("-")) or word.lower().endswith(("'s", "\u2019s")):
            break
        if words and not word[0].isupper():
            break  # a second word must be capitalised too ("Mary Jane", not "Alex today")
        words.append(word)
    if not words or (not words[0][0].isupper() and not explicit):
        return None  # "I'm tired", "call me later"
    name = " ".join(w[0].upper() + w[1:] for w in words)
    return name if is_plausible_name(name) else None


def extract_name(text: str) -> str | None:
    """The name the speaker gives for themselves in ``text``, or ``None`` (see the module docstring)."""
    found: list[tuple[int, str]] = []
    for pattern, explicit in ((_EXPLICIT_NAME, True), (_IMPLICIT_NAME, False)):
        at = 0  # overlapping: "I'm going by …" holds "going by …" after a failed "I'm X"
        while match := pattern.search(text, at):
            negated = not explicit and match.group("neg")
            at = match.end() if negated else match.start() + 1
            if negated:
                continue  # "Don't call me Bob"
            if name := _clean_name(match.group("name"), explicit=explicit):
                found.append((match.start(), name))
    return max(found)[1] if found else None


# An age: "my age is 31", "I just turned 31", "I'm 31 years old", "I'm a 31-year-old …", and a bare "I'm 31" that
# ends its clause ("I'm 31 and …" yes, "I'm 5 minutes late" no).
_AGE = re.compile(
    rf"(?:\bmy\s+age(?:\s+is|{_APOS}s|\s*:)|\bi\s+(?:just\s+|recently\s+)?turned|{_I_AM}(?:\s+an?)?)\s+(?P<age>\d{{1,3}})"
    rf"(?=\s*-?\s*(?:years?|yrs?)\b(?!\s+(?:older|younger))|\s*y/?o\b|\s*(?:$|[.,!?;:)]|(?:and|but|so|now|today|already|in|on|last|this)\b))",
    re.IGNORECASE)


def is_plausible_age(value: Any) -> bool:
    """An age is a whole number of years a person can plausibly be (bools are not ages)."""
    return isinstance(value, int) and not isinstance(value, bool) and MIN_AGE <= value <= MAX_AGE


_TEENS = "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ONES = "one two three four five six seven eight nine".split()
#: A number from 13 to 99 in words: "nineteen", "forty", "sixty-five", "Twenty one".
_NUMBER_WORDS = re.compile(rf"\b(?:(?P<tens>{'|'.join(_TENS)})(?:[- ](?P<ones>{'|'.join(_ONES)}))?|(?P<teen>{'|'.join(_TEENS)}))\b(?!-)",
                           re.IGNORECASE)


def in_digits(text: str) -> str:
    """``text`` with its numbers from 13 to 99 in digits ("sixty-five as of Tuesday" → "65 as of Tuesday")."""
    def number(match: re.Match[str]) -> str:
        if match["teen"]:
            return str(13 + _TEENS.index(match["teen"].lower()))
        ones = _ONES.index(match["ones"].lower()) + 1 if match["ones"] else 0
        return str(20 + 10 * _TENS.index(match["tens"].lower()) + ones)

    return _NUMBER_WORDS.sub(number, text)


def extract_age(text: str) -> int | None:
    """The speaker's own age in ``text``, or ``None``; the last statement wins."""
    ages = [int(m.group("age")) for m in _AGE.finditer(text)]
    return next((age for age in reversed(ages) if is_plausible_age(age)), None)


#: What starts a request to remember something ("remember that I ship on Fridays").
REMEMBER_PHRASES: tuple[str, ...] = (
    "remember", "note", "make a note", "keep in mind", "don't forget", "do not forget",
    "for the record", "just so you know", "fyi", "for your information", "save", "store",
)
_POLITE = r"(?:(?:ok(?:ay)?|hey|also|and|so|please|pls)[,!]?\s+)*"
_REMEMBER = rf"{_POLITE}(?:{'|'.join(re.escape(p) for p in REMEMBER_PHRASES)})\b(?:\s+that)?[,:]?\s*"
_REMEMBER_REQUEST = re.compile(rf"(?P<start>^|[.!?]\s+|,\s*){_REMEMBER}(?P<what>.*)$", re.IGNORECASE)


def strip_remember_prefix(text: str) -> str:
    """``text`` without a leading request to remember: "Please remember that I'm vegan" -> "I'm vegan"."""
    match = _REMEMBER_REQUEST.match(text)
    return match.group("what") if match and not match.group("start") else text


def remember_request(text: str) -> str | None:
    """What ``text`` asks to be remembered ("" when it names nothing), or ``None`` if it asks no such thing."""
    match = _REMEMBER_REQUEST.search(text.replace("\u2019", "'"))
    return match.group("what").strip() if match else None


#: What starts a standing instruction the user gives the assistant ("from now on, answer in French").
INSTRUCTION_PHRASES: tuple[str, ...] = (
    "from now on", "from here on", "going forward", "in future", "in the future", "for the rest of this chat",
    "always", "never",
)
_INSTRUCTION = re.compile(
    rf"(?:^|[.!?]\s+){_POLITE}(?P<lead>{'|'.join(re.escape(p) for p in INSTRUCTION_PHRASES)})\b[,:]?\s*"
    r"(?:(?:please|pls),?\s+)?(?P<what>(?:answer|reply|respond|write|speak|talk|use|keep|call|address|say|be|give|add|"
    r"start|end|sign|format|put|include|avoid|stop|don't|do not)\b[^.!?]*)", re.IGNORECASE)


def instruction_request(text: str) -> str | None:
    """The standing instruction ``text`` gives the assistant ("answer in French"), or ``None``: "I always ship on
    Fridays" and "from now on I live in Porto" are facts, not instructions. "never" keeps its word."""
    match = _INSTRUCTION.search(text.replace("\u2019", "'"))
    if match is None:
        return None
    what = match.group("what").strip().rstrip(",;:")
    return f"never {what}" if match.group("lead").lower() == "never" else what


# What a reply (any speaker) states as someone's name, home or age, by the phrasing around it, so that a check on a
# real model fails when it invents the fact as well as when it knows it.
_CAP = r"[A-Z][^\W\d_]*(?:['\u2019\-][^\W\d_]+)*"
_PLACE = rf"{_CAP}(?:\s+{_CAP}){{0,2}}"
_NAMED = re.compile(
    rf"(?:^|[.!?]\s+|\n)\s*(?i:hi|hello|hey|dear|welcome(?:\s+back)?|nice\s+to\s+meet\s+you)[,!]?\s+(?P<greeted>{_CAP})\b(?!['\u2019]s)"
    rf"|(?i:\b(?:your|his|her|their|the\s+user{_APOS}s)\s+name\s+(?:is|was|might\s+be)|\bname\s*:|\byou\s+are|\byou{_APOS}re)"
    rf"\s+(?P<value>{_NAME})")
_SELF_INTRODUCTION = re.compile(r"(?i)\b(?:assistant|ai\b|language\s+model|chatbot|created\s+by|bot\b)")
_RESIDENCE = re.compile(
    rf"\b(?i:lives?|lived|living|resides?|based|located|settled|moved)\b[^.!?\n]{{0,40}}?\b(?i:in|to|near|called)\s+(?P<place>{_PLACE})"
    rf"|\b(?i:home\s*town|home|city)\s+(?i:is|was)\s+(?P<home>{_PLACE})|\b(?i:from)\s+(?P<origin>{_PLACE})")
_AGE_STATED = re.compile(r"(?i)\b(?:you\s+are|you're|age\s+(?:is|of)|aged)\s+(?P<a>\d{1,3})\b(?!\s*(?:%|\.\d|[a-z]))"
                         r"|\b(?P<b>\d{1,3})\s*-?\s*(?:years?|yrs?)(?:\s*-\s*|\s+)old\b")


def _a_word_not_a_name(value: str) -> bool:
    return not value or value.split()[0].lower() in NOT_A_NAME or value == "I"


def names_stated(text: str) -> list[str]:
    """Every name ``text`` gives a person: "My name is Sarah", "your name is Ada", "Hi John"; an assistant
    introducing itself ("I'm Qwen, an AI assistant") names no user."""
    text = text or ""
    found = [own for line in text.splitlines() if (own := extract_name(line)) and not _SELF_INTRODUCTION.search(line)]
    for match in _NAMED.finditer(text):
        value = match.group("greeted") or _clean_name(match.group("value"), explicit=False) or ""
        if not _a_word_not_a_name(value) and is_plausible_name(value):
            found.append(value)
    return list(dict.fromkeys(found))


def places_stated(text: str) -> list[str]:
    """Every place ``text`` says someone lives in or comes from ("I live in a town called Oakville")."""
    values = (next(g for g in m.groups() if g) for m in _RESIDENCE.finditer(text or ""))
    return list(dict.fromkeys(v for v in values if not _a_word_not_a_name(v)))


def ages_stated(text: str) -> list[int]:
    """Every age ``text`` gives someone: "I am 30 years old", "you're 31", "a 44-year-old", "aged 5"."""
    found = [age] if (age := extract_age(text or "")) is not None else []
    found += [int(m.group("a") or m.group("b")) for m in _AGE_STATED.finditer(text or "")]
    return list(dict.fromkeys(a for a in found if is_plausible_age(a)))


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
    words = {w.lower().replace("\u2019", "'") for w in re.findall(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?", text or "")}
    words = {w[:-2] if w.endswith("'s") and w not in COMMON_WORDS else w for w in words}  # parrot's -> parrot
    return {w for w in words if len(w) >= 4 and w not in COMMON_WORDS}
