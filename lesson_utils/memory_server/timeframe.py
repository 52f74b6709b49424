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

The update decider asks :func:`distant_past`, which leaves out "last year": "Years ago the user
spent a summer in Lima" fills no attribute now, but "The user moved to Lima last year" is still
where they live. ("Once a week" is a schedule, not the past.)
"""

from __future__ import annotations

import re

__all__ = ["about_now", "distant_past", "long_past"]

_PRESENT = re.compile(r"\b(?:am|is|are|do|does|have|has|now|currently|these days|at the moment|nowadays)\b|'s\b|'re\b|'m\b",
                      re.IGNORECASE)
_PAST = re.compile(r"\b(?:was|were|did|had|used to|ago|happened|last|first|before|after|ever|once|when)\b",
                   re.IGNORECASE)
_DECADES = r"in (?:their|his|her) (?:youth|childhood|teens|twenties|thirties|forties|fifties|student days)"
# "once" as "one time" ("once climbed"), not "once a week" nor a leading "Once the diploma came through"
_DISTANT = (r"ago|as a (?:child|kid|boy|girl|teen|teenager|student)|used to|(?<=\s)once(?! (?:a|every|per)\b)|"
            r"back then|formerly|years back")
_LONG_PAST = re.compile(rf"\b(?:{_DISTANT}|{_DECADES}|last year)\b", re.IGNORECASE)
#: For the decider a decade sets the scene only when it leads ("In their twenties the user …"); at the
#: end it tells an age ("… so that's them in their thirties").
_DISTANT_PAST = re.compile(rf"\b(?:{_DISTANT})\b|^{_DECADES}\b", re.IGNORECASE)


def about_now(query: str) -> bool:
    """True when ``query`` asks what holds now (present tense, no past marker)."""
    return bool(_PRESENT.search(query)) and not _PAST.search(query)


def long_past(content: str) -> bool:
    """True when ``content`` tells of a time long past (see the module docstring)."""
    return bool(_LONG_PAST.search(content))


def distant_past(content: str) -> bool:
    """True when ``content`` is framed as the distant past ("years ago", "as a child", "used to"), so it
    cannot be the current value of anything; "last year" is not that distant."""
    return bool(_DISTANT_PAST.search(content))
