"""A conversation turn read into atomic, self-contained facts about the user (the server's offline distiller).

Why: a memory must stand on its own when it is recalled in another session, so "I live in Lyon and I work at
Acme" becomes two facts, "Alex lives in Lyon." and "Alex works at Acme." (or "The user …" while no name is
known). Only the user's own first-person statements count: an assistant's words are never facts about the user,
which also keeps a hallucination or an injected instruction out of memory. With ``is_agent_memory`` it is the
other way round: the assistant's statements about itself, and what the user tells it ("Your name is Max",
"Always answer in French"). "Forget that …" is no fact but a withdrawal (``forget=True``).
Questions, greetings, requests and filler ("I see", "I'm not sure") are not facts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import lemminflect

from .changes import CONTACT, EMAIL, SOMEONE_WORD
from .speaker import extract_name, in_digits, strip_remember_prefix

__all__ = ["Fact", "Turn", "distill", "find_name"]


@dataclass
class Turn:
    role: str
    content: str
    uuid: str | None = None


@dataclass
class Fact:
    text: str
    source_uuids: list[str] = field(default_factory=list)
    #: Set when the fact states the subject's name (lets later turns say "Alex …").
    name: str | None = None
    #: "Forget that …": ``text`` names a stored fact to withdraw, not a fact to store.
    forget: bool = False


#: A sentence ends at ". ", "! " or "? ", not before a lower-case word or after "St." / "Dr." ("st. cloud", "St. Ives").
_SENTENCE = re.compile(r"(?<=[!?])\s+|(?<=\.)(?<![A-Z][a-z]\.)\s+(?![a-z])|\n+")
# "…, and I …", "… but my …": a new clause with its own first-person subject.
_CLAUSE = re.compile(r",?\s+(?:and|but|so|while)\s+(?=(?:(?:right\s+)?(?:now|then|finally|also|recently)\s+)?(?:I|I'm|I've|my|My)\b)"
                     r"|,\s+(?=(?:I|I'm|I've|my|My)\s)|;\s+(?=[^;]*\b(?:I|I'm|I've|me|my|My)\b)")
_NOISE = re.compile(
    r"^(?:(?:hi|hello|hey|yo|good (?:morning|afternoon|evening)|well|oh|so|ok|okay|alright|also|btw|by the way|"
    r"actually|anyway|and|but|yes|yeah|no|sure|thanks|thank you|great|cool|hmm+|um+|lol|(?:big |quick )?(?:update|news))"
    r"\b[\s,!.:;\u2014\u2013-]*)+", re.IGNORECASE)
_QUESTION = re.compile(
    r"^(?:(?:what|when|where|who|why|how|which)\b|(?:do|does|did|can|could|would|will|is|are|am|should|may|have|has)\s+"
    r"(?:you|i|we|it|they|he|she|my|your|there)\b)", re.IGNORECASE)
_REQUEST = re.compile(r"^(?:please|let's|let me|tell|show|give|help|write|explain|list|find|search|make|recommend|"
                      r"suggest|summari[sz]e|translate|check|remind|send|book)\b", re.IGNORECASE)
_FILLER = re.compile(r"^I (?:see|agree|understand|guess|mean|wonder|suppose|think so|hope so|don't know|am not sure|"
                     r"was wondering|have a question|would like to (?:know|ask)|want to (?:know|ask)|need help|am "
                     r"(?:fine|good|ok|okay|well|great|back|here|sure|ready))\b", re.IGNORECASE)
_FORGET = re.compile(r"^(?:please\s+)?(?:forget|disregard|erase|delete|remove|ignore|scratch|never\s+mind)\s+"
                     r"(?:(?:the fact )?that\s+(?:I said\s+)?|what I (?:said|told you) about\s+|(?:that|the) (?:thing|bit|part) "
                     r"about\s+|(?:everything )?about\s+)?(?P<rest>.+)$", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)
_CONTRACTIONS = {"i'm": "I am", "i've": "I have", "i'd": "I would", "i'll": "I will", "im": "I am", "ive": "I have",
                 "i": "I", "don't": "do not", "didn't": "did not", "can't": "cannot", "haven't": "have not"}
_CONTRACTION = re.compile(r"\b(?:i'm|i've|i'd|i'll|im|ive|i|don't|didn't|can't|haven't)(?!\w)", re.IGNORECASE)
#: Adverbs that may sit between "I" and its verb ("I usually ship …").
_ADVERBS = "usually|often|always|never|sometimes|also|really|still|just|now|currently|recently|finally|no longer|mostly"
_SUBJECT_VERB = re.compile(rf"\b(?:I|^[Ww]e)(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[A-Za-z]+)")
_PRONOUNS = {"my": "their", "mine": "theirs", "myself": "themselves", "me": "them", "our": "their",
             "ours": "theirs", "us": "them", "we": "they", "I": "they", "your": "its", "yourself": "itself"}
_PRONOUN = re.compile(r"(?<![.@\w])(?:my|mine|myself|me|our|ours|us|we|I)\b(?![.@]\w)")
_SECOND_PERSON = re.compile(rf"^(?:(?P<rule>always|never)\b|(?P<your>your)\b|you(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[A-Za-z]+))",
                            re.IGNORECASE)
#: Verbs that stay as they are after "they" too: modals and common irregular past forms.
_UNCHANGED = frozenset("""can could will would should may might must had did was left sold quit got made went took
    bought met began found lost won ran came became grew drove wrote put set spent kept gave broke""".split())
_MODALS = frozenset("can could will would should may might must".split())
_SKIPPED = frozenset("just finally officially recently now so also actually".split())
_IRREGULAR = {"am": "is", "have": "has", "do": "does", "go": "goes", "be": "is", "are": "is", "were": "was"}


def _third_person(verb: str) -> str:
    """"ship" → "ships", "am" → "is", "moved" stays."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _UNCHANGED or low.endswith(("ed", "s")) or not low.isalpha():
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb[:-1] + "ies" if low.endswith("y") and low[-2:-1] not in "aeiou" else verb + "s"


def _clauses(text: str) -> list[str]:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    sentences = (_TOGETHER.sub(lambda m: f"I {m['verb']} with {m['other']}", s.strip()) for s in _SENTENCE.split(text))
    clauses: list[str] = []
    for sentence in sentences:
        pieces, opening = [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()], ""
        for i, piece in enumerate(pieces):  # "Starting this week, my class is …": an opening phrase is no clause
            if i + 1 < len(pieces) and piece.split()[0].lower() in _OPENERS and not _FIRST_PERSON.search(piece):
                opening += piece + ", "
            else:
                clauses.append(opening + piece)
                opening = ""
    return clauses


#: Words that open a phrase of time or place before a clause's subject ("After the course, I …", "Since May, my …").
_OPENERS = frozenset("after since as from starting until by in on at last this next following before during once".split())
#: A form-like label and its value, no verb ("Employer: Oakridge", "New number: 0770 …"): the user's.
_LABEL = re.compile(r"^(?P<label>(?:[A-Za-z]+\s+){0,2}[A-Za-z]+)\s*:\s+(?P<value>\S.*)$")
#: Two people as one subject: "Marco and I split up" is "I split up with Marco".
_TOGETHER = re.compile(r"^(?P<other>[A-Z][\w'-]+) and (?:I|me)\s+(?P<verb>\w+(?:\s+up)?)\b")


#: "… any more": with it, "don't do the crossword any more" tells of the writer, not an order.
_NO_MORE = re.compile(r"\bany ?(?:more|longer)\b", re.IGNORECASE)


def _with_subject(clause: str) -> str:
    """Chat drops "I": a clause with no subject of its own that opens with a verb ("Finally moved to Bristol", "Got
    promoted", "live in st. cloud now", "moving to Leeds"), a bare "new …" or "favourite …", an activity and its day
    ("choir's been moved to Thursdays") or a number of now ("twenty now") is the writer's."""
    if (label := _LABEL.match(clause)) and not _FIRST_PERSON.search(label["label"]):
        value = label["value"]  # "Good news: I got the job" is the news, "Employer: Oakridge" the user's employer
        return value if _FIRST_PERSON.search(value) else f"My {label['label'].lower()} is {value}"
    words = clause.split()
    at = next((i for i, w in enumerate(words) if w.lower() not in _SKIPPED), len(words))
    first = words[at].lower() if at < len(words) else ""
    following = words[at + 1].lower().rstrip(",.!") if at + 1 < len(words) else ""
    lower = clause[0].lower() + clause[1:]
    weekday = bool(_WEEKDAY.search(clause))  # an activity and its day, even with a short first word ("Gym has moved …")
    if first == "not" or (clause.lower().startswith("do not ") and _NO_MORE.search(clause)):
        return ("I am " if first == "not" else "I ") + lower  # "Not vegan any more"
    if at == len(words) or _FIRST_PERSON.fullmatch(first) or first in _OPENERS or (
            len(first) < 4 and first not in _SHORT_BUT_THE_WRITERS and not in_digits(first).isdigit() and not weekday):
        return clause
    if first.endswith("ed") or first in _PAST_FORMS:
        return "I " + lower
    if first in _OWN and following not in _FINITE:  # "new job at Vellum", "fave food is now khachapuri"
        return "My " + lower
    if in_digits(first).isdigit() and following in _NOW | {""}:  # "20 now", "65 as of last Tuesday"
        return "I am " + lower
    if first.endswith("ing") and following in _FINITE:  # an activity as the subject: "climbing is now on Wednesdays"
        return "My " + lower
    if _SUBJECT_VERB.search(clause) or _FORGET.match(clause):
        return clause  # an "I" of its own later on ("forget that I …")
    kinds = lemminflect.getAllLemmas(first.removesuffix("'s"))
    if weekday and first not in _NOT_THE_WRITERS and kinds:  # an activity and its day (a habit, not
        # an order: "help out at the food bank on Saturdays")
        # a verb when no finite verb follows ("play five-a-side on Sundays"), else its subject ("book club has moved")
        verb = "VERB" in kinds and not _FINITE.intersection(w.lower() for w in words[at + 1:])
        return ("I " if verb else "My ") + lower
    if not _REQUEST.match(clause) and _acts(first.removesuffix("in") + "ing" if first.endswith("in") else first, following):
        return "I " + ("am " if first.endswith(("ing", "in")) else "") + lower
    return clause


#: A day of the week: an activity told bare with its day is the writer's ("Therapy's now on Wednesday mornings").
_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)
#: Words that open a clause with a subject of its own.
_NOT_THE_WRITERS = frozenset("a an the this that these those it its he she they his her their there you your we".split())
#: Words that open a bare noun phrase of the writer's own: "new job at Vellum", "favourite colour's teal now".
_OWN = frozenset("new favourite favorite fave fav".split())
#: Short first words that still open a clause of the writer's: a verb that keeps its form after any subject (a
#: modal or a past form: "can", "got", "met") or a word of _OWN.
_SHORT_BUT_THE_WRITERS = _UNCHANGED | _OWN
#: First words that tell the past of the writer's own doing ("left", "sold"): _UNCHANGED without its modals.
_PAST_FORMS = _UNCHANGED - _MODALS
#: Words that say a bare number is news of now ("20 now", "65 as of last Tuesday", "62 today").
_NOW = frozenset("now as today since and".split())
#: Words after which a clause's first word was its subject: "swimming is at 6pm now", "moving house was hard".
_FINITE = frozenset("is was has had 's are were".split())
#: Small words that begin what a verb acts on or where: "live | in Leeds", "drive | a Zoe", "play | five-a-side".
_AFTER_A_VERB = frozenset("a an the in at on for from with to as near by my our some".split())


@lru_cache(maxsize=4096)
def _acts(word: str, following: str) -> bool:
    """Whether a clause with no subject opens with a verb the writer does: "live in st. cloud now", "drive a Kia",
    "livin in reykjavik"; not "book club's been moved" (a noun there) nor "cooks on Sundays" (someone else's
    "-s"). Which words can be verbs or nouns comes from lemminflect's English lexicon (no rules per word)."""
    kinds = lemminflect.getAllLemmas(word)
    third_person = word not in kinds.get("VERB", ()) and any(
        word in lemminflect.getInflection(lemma, "VBZ") for lemma in kinds.get("VERB", ()))  # "cooks": someone's
    if "VERB" not in kinds or following in _FINITE or word in _MODALS or third_person:
        return False
    return (word.endswith("ing") or not ({"NOUN", "ADJ"} & set(kinds)) or following in _AFTER_A_VERB
            or following[:1].isdigit())


#: "'s" after a noun that is "is" or "has": "My home's in Bendigo", "Therapy's now on Wednesdays", "swim's been moved".
_IS = re.compile(r"(?<=[a-z])'s(?=\s)")
_IS_FOLLOWS = frozenset("in at on now a an the every still back over off moved been got".split())


def _spelled(clause: str) -> str:
    """``clause`` with its "'s" that stand for "is"/"has" spelled out (a possessive "'s" before a noun stays)."""
    def verb(match: re.Match[str]) -> str:
        after = clause[match.end():].split(maxsplit=1)
        word = after[0].lower() if after else ""
        return match.group() if word not in _IS_FOLLOWS else " has" if word in ("been", "got") else " is"

    return _IS.sub(verb, clause)


#: A question that tells: "did I tell you I swapped the Leaf for a Zoe?" states what follows it.
_TELLING = re.compile(r"^(?:did|have)\s+I\s+(?:tell|told|mention(?:ed)?)(?:\s+you)?(?:\s+that)?\s+(?=(?:I|we|my)\b)", re.IGNORECASE)


def _clean(clause: str) -> str | None:
    """The clause as a statement with its contractions spelled out, or None when it is no statement of fact."""
    clause = strip_remember_prefix(_NOISE.sub("", clause).strip()).strip()
    if told := _TELLING.match(clause):
        clause = clause[told.end():].rstrip("?! ")
    if not clause or clause.endswith("?") or _QUESTION.match(clause):
        return None
    clause = _with_subject(_spelled(_CONTRACTION.sub(lambda m: _CONTRACTIONS[m.group().lower()], clause.rstrip(" .!…"))))
    return None if _FILLER.match(clause) or len(clause.split()) < 2 else clause


def _first_to_third(clause: str, subject: str) -> str:
    """"I usually ship on Fridays" → "<subject> usually ships on Fridays"; other first-person words → their."""
    said = [False]

    def subject_verb(match: re.Match[str]) -> str:
        if said[0]:
            return f"they{match['adverbs']} { {'am': 'are', 'was': 'were'}.get(match['verb'].lower(), match['verb'])}"
        said[0] = True
        who = subject if match.start() == 0 or subject != "The user" else "the user"
        return f"{who}{match['adverbs']} {_third_person(match['verb'])}"

    clause = _SUBJECT_VERB.sub(subject_verb, clause)
    if not said[0]:  # no "I": the first "my" is the subject's ("My favourite colour is teal")
        owner = (subject if said[0] or subject != "The user" else "the user") + "'s"
        clause = re.sub(r"\b(?:my|our)\b", owner, clause, count=1, flags=re.IGNORECASE)
    return _PRONOUN.sub(lambda m: _PRONOUNS[m.group()], clause)


def _second_to_third(clause: str, subject: str) -> str:
    """"You are terse" / "Always answer in French" / "Your name is Max" about the assistant."""
    match = _SECOND_PERSON.match(clause)
    if match is None:
        return clause
    if match["rule"]:
        head = f"{subject} should {match['rule'].lower()}"
    elif match["your"]:
        head = f"{subject}'s"
    else:
        head = f"{subject}{match['adverbs']} {_third_person(match['verb'])}"
    return head + re.sub(r"\byour(self)?\b", lambda m: _PRONOUNS[m.group().lower()], clause[match.end():])


def _finish(text: str) -> str:
    text = " ".join(text.split())
    return text[0].upper() + text[1:] + "."


def find_name(turns: Sequence[Turn]) -> str | None:
    """The user's name if they state it in this conversation (:func:`~.speaker.extract_name`); a later one wins."""
    names = [extract_name(turn.content) for turn in turns if turn.role == "user"]
    return next((name for name in reversed(names) if name), None)


def distill(turns: Sequence[Turn], *, is_agent_memory: bool = False, known_name: str | None = None,
            is_person: Callable[[str], bool] | None = None) -> list[Fact]:
    """Atomic third-person facts from ``turns``, in conversation order, without repeats (``is_person`` is accepted
    for callers of the former distiller and not used: a clause with no subject is not read)."""
    facts: list[Fact] = []

    def keep(text: str, turn: Turn, name: str | None = None, forget: bool = False) -> None:
        for fact in facts:
            if fact.forget == forget and fact.text.casefold() == text.casefold():
                if turn.uuid and turn.uuid not in fact.source_uuids:
                    fact.source_uuids.append(turn.uuid)
                return
        facts.append(Fact(text=text, source_uuids=[turn.uuid] if turn.uuid else [], name=name, forget=forget))

    subject = "The assistant" if is_agent_memory else (find_name(turns) or known_name or "The user")
    for turn in turns:
        if turn.role not in ("user", "assistant") or (turn.role == "assistant" and not is_agent_memory):
            continue
        for raw in _clauses(turn.content):
            clause = _clean(raw)
            if clause is None and not is_agent_memory and turn.role == "user" and (asked := extract_name(raw)):
                keep(f"The user's name is {asked}.", turn, name=asked)  # "can you call me Bertie from now on?"
            if clause is None and not (CONTACT.search(raw) and not is_agent_memory and turn.role == "user"):
                continue
            clause = clause or raw
            if is_agent_memory:
                if turn.role == "user" and _SECOND_PERSON.match(clause):
                    text = _second_to_third(clause, subject)
                elif turn.role == "assistant" and _FIRST_PERSON.search(clause) and not _REQUEST.match(clause):
                    name = extract_name(clause)
                    text = f"{subject}'s name is {name}" if name else _first_to_third(clause, subject)
                else:
                    continue
                if len(text.split()) >= 3:
                    keep(_finish(text), turn)
            elif ((contact := CONTACT.search(raw)) and _FIRST_PERSON.search(raw) and not SOMEONE_WORD.search(raw)
                  and not _FORGET.match(raw) and (_REQUEST.match(clause) or not _FIRST_PERSON.search(clause))):
                # an address or number the writer asks to be used for them: "please use o.g@x.org for me from now on"
                what = "email" if EMAIL.fullmatch(contact.group()) else "phone number"
                keep(f"{subject}'s {what} is {contact.group()}.", turn)
            elif withdrawn := _FORGET.match(clause):
                keep(_finish(_first_to_third(withdrawn.group("rest"), subject)), turn, forget=True)
            elif stated := extract_name(clause):
                keep(f"The user's name is {stated}.", turn, name=stated)
            elif _FIRST_PERSON.search(clause) and not _REQUEST.match(clause):
                text = _first_to_third(clause, subject)
                if len(text.split()) >= 3:
                    keep(_finish(text), turn)
    return facts
