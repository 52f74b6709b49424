"""Lesson 3: a context provider that learns the user's name and age.

A port of the Go seed's user-memory provider onto the Python seams. ``before_run``
turns what is remembered into instructions; ``after_run`` reads what the user said
in this turn and writes what it learned into its slot of the session,
``session.state[source_id]``. The provider object itself holds no per-user data,
so one agent (and one provider) can serve every conversation: the memory travels
with the session, which makes it serialisable (lesson 4) and seedable (lesson 5).

The additive contract: a provider only *contributes* — instructions, messages,
tools, state — through the ``SessionContext`` and its own state slot. It never
reaches into the agent to overwrite its instructions or options.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from agent_framework import AgentSession, ContextProvider, Message, SessionContext

if TYPE_CHECKING:
    from agent_framework import SupportsAgentRun

__all__ = [
    "ASK_FOR_NAME",
    "UserMemoryProvider",
    "extract_age",
    "extract_name",
    "extract_user_facts",
    "is_plausible_age",
    "is_plausible_name",
]

logger = logging.getLogger(__name__)

ASK_FOR_NAME = "Ask the user for their name before answering."
MIN_AGE, MAX_AGE = 1, 130

# ---------------------------------------------------------------------------------------
# Extraction rules. They are deliberately conservative: a wrong memory is worse than none,
# so "I'm tired", "I'm 5 minutes late" and "my son is 5" must teach the provider nothing.
# ---------------------------------------------------------------------------------------

_APOS = "['\u2019]"  # straight or typographic apostrophe
_I_AM = rf"\b(?:i{_APOS}?m|i\s+am)"  # I'm, I’m, Im, I am
_WORD = r"[^\W\d_](?:[^\W\d_]|['\u2019\-](?=[^\W\d_]))*"  # letters, inner ' or - (O'Brien, Anne-Marie)
_NAME = rf"(?P<name>{_WORD}(?:\s+{_WORD})?)"

# Words that follow "I'm" / "call me" / "my name is" without being a name.
_NOT_A_NAME = frozenset(
    """
    a an the i me my mine you your not no never just only also so very really too quite
    here there back home out in on at from with without of for to into about over off
    fine good great ok okay well sure sorry tired hungry thirsty sick ill busy late early
    ready done happy sad glad bored new old sure afraid excited confused lost stuck
    going trying looking asking wondering thinking working living feeling doing getting
    what who why how when where which whatever this that it anything nothing something
    later tomorrow today tonight maybe anytime now again soon yet still
    and or but if because as than then like
    american british english french german spanish italian portuguese dutch swedish
    norwegian danish finnish polish russian ukrainian chinese japanese korean indian
    canadian australian irish scottish welsh mexican brazilian
    """.split()
)

# Explicit "this is my name" phrasings: the name may be written in lower case.
_EXPLICIT_NAME = re.compile(
    rf"(?:\bmy\s+name\s+is|\bmy\s+name{_APOS}s|\bthe\s+name{_APOS}s|{_I_AM}\s+(?:called|named))\s+{_NAME}",
    re.IGNORECASE,
)
# Implicit phrasings: only a capitalised word counts ("I'm Alex", not "I'm tired").
_IMPLICIT_NAME = re.compile(
    rf"(?P<neg>\b(?:don{_APOS}?t|do\s+not|never|please\s+don{_APOS}?t)\s+)?"
    rf"(?:{_I_AM}|\b(?:you\s+can\s+|please\s+|just\s+)?call\s+me|\bi\s+go\s+by)\s+{_NAME}",
    re.IGNORECASE,
)

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


def is_plausible_name(value: Any) -> bool:
    """A name is one or two words of letters (inner ' or - allowed), capitalised."""
    if not isinstance(value, str) or not value or len(value) > 60:
        return False
    if not re.fullmatch(rf"{_WORD}(?: {_WORD})?", value):
        return False
    return value[0].isupper() and not any(word.lower() in _NOT_A_NAME for word in value.split())


def is_plausible_age(value: Any) -> bool:
    """An age is a whole number of years a person can plausibly be (bools are not ages)."""
    return isinstance(value, int) and not isinstance(value, bool) and MIN_AGE <= value <= MAX_AGE


def _clean_name(raw: str, *, explicit: bool) -> str | None:
    """Trim a captured name to the words that are really part of it."""
    words: list[str] = []
    for word in raw.split():
        if word.lower() in _NOT_A_NAME or re.search(rf"{_APOS}s$", word, re.IGNORECASE):
            break  # "I'm Alex and ...", "I'm Alex's mum": stop before the non-name word.
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

    Understands "My name is X", "my name's X", "the name's X", "I'm called X", "I'm X", "I am X",
    "call me X" and "I go by X"; after "I'm"/"call me" only a capitalised word counts, so "I'm tired" is no name. The last statement wins ("I'm Alexandra, call me Alex" -> "Alex").
    """
    found: list[tuple[int, str]] = []
    for match in _EXPLICIT_NAME.finditer(text):
        name = _clean_name(match.group("name"), explicit=True)
        if name:
            found.append((match.start(), name))
    for match in _IMPLICIT_NAME.finditer(text):
        if match.group("neg"):
            continue  # "Don't call me Bob"
        name = _clean_name(match.group("name"), explicit=False)
        if name:
            found.append((match.start(), name))
    return max(found)[1] if found else None


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


def extract_user_facts(messages: Iterable[Message]) -> dict[str, Any]:
    """Name and age stated by the user across ``messages`` (user-role messages only)."""
    facts: dict[str, Any] = {}
    for message in messages:
        if message.role != "user" or not message.text:
            continue
        if (name := extract_name(message.text)) is not None:
            facts["name"] = name
        if (age := extract_age(message.text)) is not None:
            facts["age"] = age
    return facts


class UserMemoryProvider(ContextProvider):
    """Remembers the user's name and age in the session and tells the model about them.

    State (JSON-native, in ``session.state[source_id]``): ``{"name": str, "age": int}``,
    either key absent until learned. Seed it to make a new session know the user.
    """

    DEFAULT_SOURCE_ID: ClassVar[str] = "user_memory"

    def __init__(self, source_id: str = DEFAULT_SOURCE_ID, *, ask_for_name: bool = True) -> None:
        """Create the provider.

        Args:
            source_id: The key of this provider's slot in ``session.state``.

        Keyword Args:
            ask_for_name: Whether to tell the model to ask for the name while it is unknown.
        """
        super().__init__(source_id)
        self.ask_for_name = ask_for_name

    def remembered(self, state: dict[str, Any]) -> dict[str, Any]:
        """The valid facts in ``state``; malformed values (from a hand-edited file) are ignored."""
        facts: dict[str, Any] = {}
        name, age = state.get("name"), state.get("age")
        if name is not None:
            if is_plausible_name(name):
                facts["name"] = name
            else:
                logger.warning("%s: ignoring remembered name %r: not a plausible name", self.source_id, name)
        if age is not None:
            if is_plausible_age(age):
                facts["age"] = age
            else:
                logger.warning("%s: ignoring remembered age %r: not a whole number of years", self.source_id, age)
        return facts

    def instructions_for(self, state: dict[str, Any]) -> list[str]:
        """The instructions ``before_run`` adds for this state."""
        facts = self.remembered(state)
        lines: list[str] = []
        if "name" in facts:
            lines.append(f"The user's name is {facts['name']}.")
        if "age" in facts:
            lines.append(f"The user is {facts['age']} years old.")
        if "name" not in facts and self.ask_for_name:
            lines.append(ASK_FOR_NAME)
        return lines

    async def before_run(
        self,
        *,
        agent: SupportsAgentRun,
        session: AgentSession,
        context: SessionContext,
        state: dict[str, Any],
    ) -> None:
        """Add what is remembered (or a request for the name) to this run's instructions."""
        lines = self.instructions_for(state)
        if lines:
            context.extend_instructions(self.source_id, "\n".join(lines))

    async def after_run(
        self,
        *,
        agent: SupportsAgentRun,
        session: AgentSession,
        context: SessionContext,
        state: dict[str, Any],
    ) -> None:
        """Learn the name and age the user stated in this turn's input (never from replies)."""
        learned = extract_user_facts(context.input_messages)
        for key, value in learned.items():
            if state.get(key) != value:
                logger.info("%s: learned %s=%r", self.source_id, key, value)
                state[key] = value
