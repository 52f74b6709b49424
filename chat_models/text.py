"""Small text helpers the offline lesson model's rules share: sentences, words, stems, person.

They are deliberately simple and general: the offline model must work for any name, fact or
phrasing a learner types, so nothing here knows the lessons' wording.
"""

from __future__ import annotations

import re

# A letter in any script ("\w" minus digits and "_"): names and words such as Tomás, Łukasz, Zürich.
LETTER = r"[^\W\d_]"
# A name: letters with inner hyphens or apostrophes (Mary-Jane, O'Brien), never a trailing possessive "'s".
NAME_WORD = rf"{LETTER}(?:{LETTER}|-(?={LETTER})|'(?!s\b)(?={LETTER}))+"

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(rf"[^\W_]+(?:'{LETTER}+)?")

# Words that carry no meaning for matching a question to a fact.
STOPWORDS = frozenset(
    """
    a an the and or but if then so of to in on at by for with from about as into than
    i i'm im me my mine myself you your yours yourself we our us he she it its they them their
    is am are was were be been being do does did done have has had having
    what what's whats when where which who whom whose why how
    can could would should will shall may might must please tell know remember recall say said
    usually often always typically generally normally sometimes also really just again now still
    that this these those there here any some anything something all
    """.split()
)

# British/American spellings are folded so "color" finds "colour".
_SPELLING = {"favorite": "favourite", "color": "colour", "colors": "colours", "favorites": "favourites"}

_PERSON_SWAP = {
    "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
    "am": "are", "i'm": "you're", "im": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll",
    "was": "were",
}


def sentences(text: str) -> list[str]:
    """Split text into sentences and lines, trimmed, without empties."""
    return [part.strip() for part in _SENTENCE_END.split(text or "") if part and part.strip()]


def words(text: str) -> list[str]:
    """Lower-case word tokens (apostrophes kept inside words, curly quotes folded)."""
    return [w.lower() for w in _WORD.findall(normalize_quotes(text))]


def normalize_quotes(text: str) -> str:
    return (text or "").replace("\u2019", "'").replace("\u2018", "'")


def stem(word: str) -> str:
    """A light stemmer: ship/ships/shipping/shipped -> ship, live/lives/living -> liv."""
    w = _SPELLING.get(word.lower(), word.lower())
    if w.endswith("'s"):
        w = w[:-2]
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith("ss")):
            w = w[: -len(suffix)] + repl
            break
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # shipp -> ship
    if len(w) >= 4 and w.endswith("e"):
        w = w[:-1]  # live -> liv
    return w


def content_stems(text: str) -> set[str]:
    """Stems of the meaningful words of a text (stop words dropped)."""
    return {stem(w) for w in words(text) if w not in STOPWORDS} - {""}


def to_second_person(text: str) -> str:
    """Restate a first-person clause for the listener: "I ship on Fridays" -> "you ship on Fridays"."""

    def swap(match: re.Match[str]) -> str:
        token = match.group(0)
        repl = _PERSON_SWAP.get(token.lower())
        return repl if repl is not None else token

    return re.sub(rf"{LETTER}+(?:'{LETTER}+)?", swap, normalize_quotes(text))


_IRREGULAR_BASE = {"is": "are", "has": "have", "does": "do", "was": "were", "goes": "go", "isn't": "aren't",
                   "doesn't": "don't", "wasn't": "weren't", "hasn't": "haven't"}
_IRREGULAR_THIRD = {v: k for k, v in _IRREGULAR_BASE.items()}
_IRREGULAR_THIRD["am"] = "is"


def verb_to_base(verb: str) -> str:
    """Third person singular -> the form used with "you": ships -> ship, has -> have, is -> are."""
    low = verb.lower()
    if low in _IRREGULAR_BASE:
        return _IRREGULAR_BASE[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return verb[:-1]
    return verb


def verb_to_third(verb: str) -> str:
    """The form used with "you"/"I" -> third person singular: ship -> ships, have -> has."""
    low = verb.lower()
    if low in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[low]
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


_MODALS = frozenset("can could will would should shall may might must can't cannot couldn't won't wouldn't shouldn't".split())
_PAST_IRREGULAR = frozenset("went grew got had did made met came left took gave began saw knew wrote".split())
_CONTRACTED_SUBJECT = {"you're": "is", "you've": "has", "you'd": "would", "you'll": "will"}
_OBJECT_PRONOUNS = {"your": "their", "yours": "theirs", "yourself": "themselves", "you": "them"}
_ADVERB_WORDS = frozenset("usually often always never sometimes also really typically generally normally mostly".split())


def to_third_person(text: str, subject: str = "The user") -> str:
    """Restate a fact said to the user about someone else's user: "you ship on Fridays" -> "The user ships on Fridays".

    The inverse of how facts are kept (second person, for the listener), so a summary can carry them
    and be read back. Text that is not about "you"/"your" comes back unchanged (capitalised).
    """
    text = normalize_quotes(text).strip()
    words_ = text.split()
    if not words_:
        return text
    head, rest = words_[0].lower(), words_[1:]

    def objects(tokens: list[str]) -> str:
        return " ".join(_OBJECT_PRONOUNS.get(t.lower(), t) for t in tokens)

    if head == "your":
        return f"{subject}'s {objects(rest)}".strip()
    if head in _CONTRACTED_SUBJECT:
        return f"{subject} {_CONTRACTED_SUBJECT[head]} {objects(rest)}".strip()
    if head != "you" or not rest:
        return capitalize_first(text)
    adverb = ""
    if rest[0].lower() in _ADVERB_WORDS and len(rest) > 1:
        adverb, rest = rest[0] + " ", rest[1:]
    verb = rest[0]
    low = verb.lower()
    if low in _MODALS or low in _PAST_IRREGULAR or (low.endswith("ed") and len(low) > 3):
        third = verb
    else:
        third = verb_to_third(verb)
    return f"{subject} {adverb}{third} {objects(rest[1:])}".strip()


def token_count(text: str) -> int:
    """A rough, deterministic token count (words and punctuation marks)."""
    return len(re.findall(r"\w+|[^\w\s]", text or ""))


def looks_like_name(word: str) -> bool:
    """A capitalised word in any script: "Tomás" and "Łukasz" yes, "tired" no."""
    return bool(word) and word[0].isupper()


def capitalize_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def ensure_period(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."
