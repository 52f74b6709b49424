"""Word-rule enrichment of a memory: its cognitive type, coarse categories and a one-line gist.

The contract carries these fields; how a real Cortadel fills them is not documented. Offline we use word rules that are right for the plain,
atomic facts the lessons store. ``memory_type`` follows Cortadel's three types:
episodic (something that happened at a time), procedural (how to do something, standing
instructions) and semantic (a stable fact or preference — the default).
"""

from __future__ import annotations

import re

#: Cortadel's cognitive memory types (the store keeps them as a small integer per vector).
MEMORY_TYPES = ("episodic", "semantic", "procedural")

_EPISODIC = re.compile(
    r"\b(yesterday|today|tonight|this (morning|afternoon|evening|week|month|year)|last (night|week|month|year|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|time)|ago|just (got|had|went|finished|moved)|"
    r"recently|on (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d|in (19|20)\d\d|"
    r"went|visited|met|attended|finished|started|bought|moved|happened|was born)\b",
    re.IGNORECASE,
)
_PROCEDURAL = re.compile(
    r"\b(how to|steps? (to|for)|first,? .* then|always (use|run|answer|reply|respond|write|start|check)|"
    r"never (use|run|answer|reply|respond|write|deploy|commit|push)|"
    r"should (always|never)|must (always|never)|to (deploy|install|build|run|release|configure|set up)|"
    r"run `|workflow|procedure|instructions?|by running|use .* to)\b",
    re.IGNORECASE,
)

_CATEGORIES: dict[str, tuple[str, ...]] = {
    "food": ("eat", "food", "drink", "coffee", "tea", "vegan", "vegetarian", "cook", "meal", "pizza", "allergic",
             "restaurant", "breakfast", "lunch", "dinner", "espresso", "latte", "cappuccino", "juice", "wine",
             "beer", "milk", "soda", "smoothie"),
    "work": ("work", "job", "office", "team", "project", "deploy", "ship", "meeting", "manager", "colleague",
             "company", "engineer", "developer", "release", "code", "repo"),
    "travel": ("travel", "trip", "flight", "fly", "visit", "vacation", "holiday", "hotel", "airport"),
    "health": ("health", "doctor", "allergy", "allergic", "sleep", "exercise", "run", "gym", "medication"),
    "family": ("wife", "husband", "partner", "daughter", "son", "kids", "children", "mother", "father", "sister",
               "brother", "family", "parents"),
    "pets": ("dog", "cat", "pet", "puppy", "kitten"),
    "preferences": ("like", "likes", "love", "loves", "prefer", "prefers", "favorite", "favourite", "hate",
                    "hates", "enjoy", "enjoys", "dislike", "dislikes"),
    "personal": ("name", "born", "birthday", "age", "years old", "live", "lives", "from"),
    "hobbies": ("hobby", "play", "plays", "guitar", "piano", "read", "reads", "hike", "hikes", "paint", "chess"),
}


def classify_memory_type(text: str) -> str:
    """episodic | procedural | semantic, by word rules (semantic when nothing else fits)."""
    if _PROCEDURAL.search(text):
        return "procedural"
    if _EPISODIC.search(text):
        return "episodic"
    return "semantic"


def coerce_memory_type(value: object, text: str) -> str:
    """A caller's valid type wins; an invalid or blank one is ignored, as the contract says."""
    if isinstance(value, str) and value.strip().lower() in MEMORY_TYPES:
        return value.strip().lower()
    return classify_memory_type(text)


def categorize(text: str) -> list[str]:
    lowered = text.lower()
    words = set(re.findall(r"[a-z]+", lowered))
    found = []
    for category, keys in _CATEGORIES.items():
        if any((k in words) if " " not in k else (k in lowered) for k in keys):
            found.append(category)
    return found


def gist(text: str, limit: int = 120) -> str:
    """The first sentence, on one line, cut at a word boundary to ``limit`` characters."""
    line = " ".join(text.split())
    first = re.split(r"(?<=[.!?])\s+", line, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"
