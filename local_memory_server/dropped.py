"""Chat drops the subject: a clause with no subject of its own is the writer's.

Why: in chat people leave out "I" and "I'm": "Speak Dutch and a bit of Greek", "Grew up in Iowa", "Paramedic in
Bristol, nights mostly", "Originally from Lagos". The distiller keeps only what users say about themselves, and
it found them by a first-person word, so such news was lost.

A clause is the writer's when nothing in it can be its subject: it does not open with an article, a pronoun or a
name, no finite verb follows its first word ("Trains are late", "Priya moved to Oslo", "Retired postman finds
letters"), and it does not end with its subject ("Delayed again, the morning flight"). What it left out is then

* "I" before a verb the writer did or does: "speak Dutch", "grew up in Iowa", "work nights at a warehouse"; an
  order to the assistant ("translate this", "explain it") is no such verb; a word that is a noun too ("play tennis",
  "walk the dog") is the verb when a weekly time says it is a habit ("… on Sundays", "every morning");
* "I am" before an "-ing" verb ("moving to Singapore") or a place the writer is from ("originally from Lagos");
* "I am" before a noun phrase only when its head names a person, by meaning (:mod:`.persons`): "paramedic in
  Bristol", "mum of three", "night owl" are the writer; "busy day at the market" and "fascinating stuff" are not.

Which words can be verbs, nouns or adjectives comes from lemminflect's English lexicon (in the ``server`` extra);
the lists below hold only small words (articles, pronouns, prepositions, auxiliaries). The lexicon is imported
when first needed, so that the distiller imports without the extra; without it no clause is read as dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType

from .timeframe import RECURRING

__all__ = ["told_by_writer"]

#: Words that open a clause with a subject of its own: articles, demonstratives, pronouns.
_OWN_OPENING = frozenset("""a an the this that these those it its he she they them his her their there here you your
    what which who everyone everybody someone somebody nobody people i my we our me us""".split())
#: What an order to the assistant acts on ("translate this", "explain it"); a writer's deed names its object.
_POINTED = frozenset("it this that these those them him her me us you your ya yourself".split())
#: Small words after which a noun phrase has ended ("paramedic | in Bristol", "mum | of three").
_PREPOSITIONS = frozenset("""in at on for from of to with by since near as about before after until till during over
    under into out up off around across through without within via and or but so""".split())
#: Words that are a verb after a subject whatever else they can be ("Trains are late", "Sam's got a van").
_AUXILIARIES = frozenset("""is are was were 's 're has have had will would can could should may might must does did do
    got gets""".split())
#: Words that start an object: after a word that is a noun or a verb, they make it the verb ("keep two goats").
_COUNTING = frozenset("one two three four five six seven eight nine ten some several my our".split())
#: After a verb in its plain form, an article makes an order or a wish ("write a haiku", "have a good one").
_ARTICLES = frozenset("a an the".split())
#: A verb that cannot open a writer's news: it needs its subject said ("may 13th", "could be worse").
_MODALS = frozenset("may might must can could should would will shall".split())
#: After a verb, the writer as its object: an order or a request ("let me know", "email me at …").
_TO_ME = frozenset("me us".split())
#: Words that join two verbs of one subject ("broke up with Luca and have been dating Sione").
_COORDINATING = frozenset("and or but".split())
#: Where a clause's first part ends: a comma, a semicolon, a colon or a dash.
_CHUNK = re.compile(r"\s*(?:[,;\u2013\u2014]|:(?=\s))\s*|\s+-\s+")
#: "-ing" words that tell why the user writes, not what they do: "asking for a colleague", "wondering if …".
_WHY_WRITING = frozenset("asking wondering being".split())
#: After a past form, what makes it a feeling ("tired of all this rain", "worried about the exam").
_FEELING = frozenset("of about".split())
#: A subject told last, after a comma: "Delayed again, the morning flight", "Bit long, that reply".
_SUBJECT_LAST = re.compile(r",\s*(?i:the|that|this|these|those)\s+[^,]+$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|\d[\d.,:]*")


@lru_cache(maxsize=1)
def _lexicon() -> ModuleType | None:
    """lemminflect, or None when the server extra is not installed."""
    try:
        import lemminflect
    except ImportError:
        return None
    return lemminflect


@lru_cache(maxsize=8192)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """``word``'s lemmas by what it can be ("work": {"NOUN": ("work",), "VERB": ("work",)})."""
    lexicon = _lexicon()
    return dict(lexicon.getAllLemmas(word)) if lexicon is not None else {}


def _kinds(word: str) -> frozenset[str]:
    """What ``word`` can be in English ("work": a noun or a verb); empty for a word the lexicon does not know."""
    return frozenset(_lemmas(word))


@lru_cache(maxsize=8192)
def _is_form(word: str, tag: str) -> bool:
    """Whether ``word`` is its verb's ``tag`` form: ``VBD`` "grew", ``VBN`` "born", ``VBZ`` "finds"."""
    lexicon = _lexicon()
    return lexicon is not None and any(word in lexicon.getInflection(lemma, tag) for lemma in _lemmas(word).get("VERB", ()))


def _finite(word: str, *, strict: bool = False) -> bool:
    """A verb that needs a subject before it: "are", "moved", "finds". ``strict``: only "is", "has" and the like,
    or an "-s" form that cannot be a noun ("covers" in "a covers band" can; "raised" in "born and raised" shares
    the writer as its subject)."""
    if word in _AUXILIARIES:
        return True
    kinds = _kinds(word)
    if strict:
        return "VERB" in kinds and "NOUN" not in kinds and _is_form(word, "VBZ")
    return "VERB" in kinds and (_is_form(word, "VBZ") or _is_form(word, "VBD"))


def _plural(noun: str) -> bool:
    return noun.endswith("s") and noun not in _lemmas(noun).get("NOUN", (noun,))


def _acts(first: str, following: str | None, habit: bool = False) -> bool:
    """Whether a clause opens with a verb the writer did: "speak Dutch", "grew up", "keep bees", "work remotely";
    not "cat person", "spot on", "fascinating stuff", nor "nurses in Scotland" (a verb's "-s" form is someone
    else's). A ``habit`` (the clause has a weekly time) makes a word that can be a noun too the verb: "play tennis
    on Sundays"."""
    kinds, then = _kinds(first), _kinds((following or "").casefold())
    if not kinds & {"VERB", "AUX"} or (_is_form(first, "VBZ") and not _is_form(first, "VBD")):
        return False
    if first.endswith("ing"):  # "moving to …", "learning Italian"; "fascinating stuff" is an adjective before a noun
        return not ("ADJ" in kinds and "NOUN" in then and (following or "").casefold() not in _PREPOSITIONS)
    if not kinds & {"NOUN", "ADJ"} or _is_form(first, "VBD") or _is_form(first, "VBN") or habit:
        return True
    if following is None:  # a word that can be a noun too ("work", "cat", "spot") is a verb before its object: a
        return False  # number or an article, a name, an adverb, or a plural that is only a noun ("keep bees")
    low = following.casefold()
    return (low in _COUNTING or (following[:1].isupper() and not then) or ("NOUN" in then and _plural(low))
            or (then == {"ADV"} and low not in _PREPOSITIONS | {"not"}))  # "brain not working" is no deed


def _until_preposition(words: list[str]) -> list[str]:
    """The words before the first preposition: a noun phrase's ("paramedic | in Bristol")."""
    return next((words[:i] for i, word in enumerate(words) if word in _PREPOSITIONS), words)


def told_by_writer(clause: str, is_person: Callable[[str], bool] | None, skip: frozenset[str]) -> str | None:
    """``clause`` with the "I" or "I am" it left out ("Speak Dutch" → "I speak Dutch", "Paramedic in Bristol" → "I am
    paramedic in Bristol"), or None when it has a subject of its own or tells something else. ``skip`` are the
    adverbs that may come first ("currently studying nursing"); ``is_person`` says whether a noun names a person
    (without it, a clause with no verb is not taken)."""
    if _lexicon() is None:
        return None
    chunks = _CHUNK.split(clause)
    words = _WORD.findall(chunks[0])
    at = next((i for i, w in enumerate(words) if w.casefold() in _PREPOSITIONS
               or (w.casefold() not in skip and _kinds(w.casefold()) != {"ADV"})), len(words))
    if at == len(words) or _opens_with_subject(clause, words[at]):
        return None
    first, phrase = words[at].casefold(), [w.casefold() for w in words[at:]]
    following = phrase[1] if len(phrase) > 1 else None
    said = clause[0].lower() + clause[1:]
    habit = RECURRING.search(clause) is not None  # "play tennis on Sundays": a deed done every week is the writer's
    if _acts(first, following, habit):
        past = _is_form(first, "VBD") or _is_form(first, "VBN")
        if _verb_after(phrase) or following in _TO_ME or first in _MODALS or _compound_subject(first, phrase):
            return None  # "Retired postman finds …", "let me know", "email me at …", "could be worse"
        if first.endswith("ing"):  # "moving to Singapore"; not "asking for a friend", nor a lead: "starting this week, my …"
            # a later clause with a subject and a verb of its own; "working at Kestrel, a small studio" is the place again
            later = [[w.casefold() for w in _WORD.findall(c)] for c in chunks[1:]]
            later_subject = any(ws[:1] and ws[0] in _OWN_OPENING and any(map(_finite, ws[1:])) for ws in later)
            return None if first in _WHY_WRITING or later_subject else f"I am {said}"
        if _is_form(first, "VBN") and ((following is None and not at) or following in _FEELING):
            return None  # "agreed, thanks", "tired of all this rain": a reply or a feeling ("newly retired" is news)
        if not past and (following in _POINTED or (following in _ARTICLES and not habit)):
            return None  # "translate this", "write a haiku", "have a good one": said to the assistant
        return f"I was {said}" if _is_form(first, "VBN") and not _is_form(first, "VBD") else f"I {said}"
    if first == "from":
        return f"I am {said}"  # "originally from Lagos"
    noun = _until_preposition(phrase)
    head = noun[-1] if noun else ""
    if (is_person is not None and len(_WORD.findall(clause)) >= 3 and "NOUN" in _kinds(head) and not _plural(head)
            and head not in _POINTED and not any(_finite(w) for w in phrase) and is_person(head)):
        return f"I am {said}"  # "paramedic in Bristol", "mum of three", "night owl"; not "dentist from Pune wins …"
    return None


def _opens_with_subject(clause: str, first_word: str) -> bool:
    """Whether the clause names its own subject: an opening article, pronoun or name ("The weather …", "that's …",
    "Priya moved …"), an "I" before the first comma ("Last week I …"), a subject told last ("Delayed again, the morning
    flight"); or whether it is a date ("23, from Kraków") or a title ("Paper Lanterns")."""
    first, every, chunks = first_word.casefold(), _WORD.findall(clause), _CHUNK.split(clause)
    opening = _WORD.findall(chunks[0])
    # not "landed a client — Aesop, the brand", nor "sold it, the old Corolla" (what "it" was)
    last = _SUBJECT_LAST.search(clause) if len(chunks) == 2 and _POINTED.isdisjoint(map(str.casefold, opening)) else None
    return (len(every) < 2 or first.split("'")[0] in _OWN_OPENING or first[:1].isdigit() or "I" in opening
            or (first_word[:1].isupper() and not _kinds(first))
            or (not _kinds(first) <= {"VERB", "AUX"} and all(w[:1].isupper() for w in every))
            or (last is not None and not any(_finite(w.casefold(), strict=True) for w in _WORD.findall(last.group()))))


def _compound_subject(first: str, phrase: list[str]) -> bool:
    """Whether a noun-or-verb word and the plural after it are a subject, a verb following them: "ferry services
    cancelled", "interest rates went up" (where "keep bees on …" and "work nights at …" are a verb and its object)."""
    if _kinds(first) <= {"VERB", "AUX"} or len(phrase) < 3 or not ("NOUN" in _kinds(phrase[1]) and _plural(phrase[1])):
        return False
    then = phrase[2]
    return (then.endswith("ing") and "VERB" in _kinds(then)) or _finite(then)


def _verb_after(phrase: list[str]) -> bool:
    """Whether a finite verb after the first word gives the clause a subject of its own ("Electric cars are …",
    "Retired postman finds …"). Not a participle ("got engaged", "a parrot named Biscuit"), nor a verb that shares
    the writer as its subject ("broke up with Luca and have been dating Sione"); past a preposition, only "is",
    "has" and the like count."""
    before = _until_preposition(phrase)
    for at, word in enumerate(phrase[1:], start=1):
        if (at == 1 and word not in _AUXILIARIES) or phrase[at - 1] in _COORDINATING:  # its object or participle
            continue
        if word in _AUXILIARIES or (at < len(before) and _finite(word, strict=False) and not _is_form(word, "VBD")):
            return True
        if at >= len(before) and _finite(word, strict=True):
            return True
    return False
