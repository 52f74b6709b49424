"""Whether a question asks about now, and whether a memory tells of a time long past.

Why: a long history holds the same topic at other times ("As a child the user visited Oslo with
their parents", "A long time ago the user tried judo once", "Years ago the user spent a summer in
Lima"). They share the question's words and meaning ("Where do my parents live?", "What do I do in
my spare time?", "Which city is my home?"), so both search arms rank them with the current facts
or above them. A question in the present tense asks what holds now; a memory framed as the distant
past does not answer it. Search ranks such memories after the others (``search.py``) — only for a
question about now: "When did I visit Oslo?" or "Which happened first…" keeps them where they are.

Both tests read plain grammar words, not any dataset's topics: the question is about now when it
has a present-tense verb or "now"/"currently"/"these days" and no past-tense marker; the memory is
in the past when it carries a distant-past phrase ("ago", "as a child", "used to", "once", "back
then", "last year", "in their twenties"). Recent past ("last week", "yesterday") is not distant:
"The user turned 51 last week" still says how old they are.
"""

from __future__ import annotations

import re

__all__ = ["about_now", "long_past"]

_PRESENT = re.compile(r"\b(?:am|is|are|do|does|have|has|now|currently|these days|at the moment|nowadays)\b|'s\b|'re\b|'m\b",
                      re.IGNORECASE)
_PAST = re.compile(r"\b(?:was|were|did|had|used to|ago|happened|last|first|before|after|ever|once|when)\b",
                   re.IGNORECASE)
_LONG_PAST = re.compile(
    r"\b(?:ago|as a (?:child|kid|boy|girl|teen|teenager|student)|used to|once|back then|last year|formerly|"
    r"years back|in (?:their|his|her) (?:youth|childhood|teens|twenties|thirties|forties|fifties|student days))\b",
    re.IGNORECASE,
)


def about_now(query: str) -> bool:
    """True when ``query`` asks what holds now (present tense, no past marker)."""
    return bool(_PRESENT.search(query)) and not _PAST.search(query)


def long_past(content: str) -> bool:
    """True when ``content`` tells of a time long past (see the module docstring)."""
    return bool(_LONG_PAST.search(content))
