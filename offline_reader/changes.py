"""When a new fact replaces a stored one, and when a sentence takes a fact back: the offline update decider.

Why: "I moved to Porto" must make "The user lives in Lyon" not current, while "I also have a cat" must not
replace "The user has a dog". The store asks an :class:`UpdateDecider` and nothing else
(``memory_server/store.py``); the interface is small so that deciders can be swapped and compared::

    attribute(fact) -> str | None          # the single-valued attribute it fills for the user ("home", "job" …)
    decide(new, stored) -> list[Verdict]   # SAME (a duplicate), SUPERSEDES (the stored one ends) or UNRELATED
    retracts(withdrawal, stored) -> list[bool]

The offline decider (:class:`MeaningDecider`) is general, not a list of phrasings:

1. **attribute by meaning** — a fact's vector and its masked twin's ("The user lives in X.", values replaced)
   are compared with labelled example facts (``offline_reader/data/update_exemplars.txt``); the nearest examples
   vote, both readings must agree. The non-single-valued labels are near misses (trips, likes, everyday news)
   that fill no slot. A "favourite <kind>" names its kind; an e-mail address is the email attribute.
2. **value** — the words of a fact that are not its attribute's wording (the words its examples share) are its
   value: two facts of one single-valued attribute with different values conflict, the same value is ``SAME``.
3. a few rules where a rule is simplest: a fact about someone else (a relation word after the user's
   possessive, a named person other than the user) or not about now (the past, a wish) fills no attribute;
   "also"/"another" adds; "likes tea" and "does not like tea" are one fact with the sign flipped (the newer wins);
   a verb of leaving with nothing in its place ("no longer …", "quit …", "sold …") is a withdrawal, and with an
   arrival after it ("left Acme and joined Kestrel") a change that replaces what was left.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .speaker import in_digits, is_plausible_name

__all__ = ["about_now", "about_someone_else", "not_current", "CONTACT", "EMAIL", "EXEMPLARS", "Fact", "MeaningDecider", "SINGLE_VALUED", "UpdateDecider",
           "Verdict", "is_withdrawal", "labelled_lines", "masked", "poll", "withdrawal"]

#: The labelled example facts the decider reads attributes by.
EXEMPLARS = Path(__file__).parent / "data" / "update_exemplars.txt"
#: (A schedule is one per activity: two schedules replace each other only as :func:`_schedule_moved` says.)
SINGLE_VALUED = frozenset("home name surname age employer job partner car phone handset email favourite schedule".split())
#: The attributes told by words of their own ("lives", "based", "flat"; "birthday", "turned"), not by their value alone.
WORDED = frozenset(("home",))
#: The attributes whose value is a name or a number ("lives in Porto", "drives a Zoe", "is 41"): their values are compared
#: by those words alone, and a fact without one names no value of theirs ("is hooked" names no partner).
NAMED_VALUES = frozenset("home name surname age partner car phone handset email".split())
#: How many nearest examples vote, how fast a vote fades with distance, and how near the nearest must be, in the
#: fact's own reading and in its masked twin's.
NEIGHBOURS, SHARPNESS, MIN_SIMILARITY = 10, 0.05, (0.35, 0.5)
#: Two kinds of favourite are one when "my favourite <kind> is X" reads this alike for both ("film", "movie"; "book",
#: "novel"): measured on word pairs, synonyms were at 0.9 or more, related kinds ("book", "author") under 0.85.
SAME_KIND = 0.88
#: How much a label keeps when one reading gives it nothing (the product of the two readings' shares).
AGREEMENT = 0.05
_EXAMPLES: dict[str, tuple[np.ndarray, np.ndarray]] = {}


@dataclass(frozen=True)
class Fact:
    """A fact as the store holds it: its text and its unit-length embedding vector."""

    text: str
    vector: np.ndarray


class Verdict(str, Enum):
    """What a new fact does to one stored fact."""

    SAME = "same"
    SUPERSEDES = "supersedes"
    UNRELATED = "unrelated"


@runtime_checkable
class UpdateDecider(Protocol):
    """Decides knowledge updates for the store (see the module docstring)."""

    name: str

    def attribute(self, fact: Fact) -> str | None: ...

    def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]: ...

    def retracts(self, withdrawal: Fact, stored: Sequence[Fact]) -> list[bool]: ...


_WORD = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A way to reach the user: an e-mail address or a phone-length number.
CONTACT = re.compile(rf"{EMAIL.pattern}|\+?\d[\d\s\-]{{5,}}\d")
#: A value: an address, a number, or capitalised words inside a sentence (not its first word, "The" or "I").
_VALUE = re.compile(rf"{EMAIL.pattern}|\+?\d(?:[\d\s\-:.]*\d)?|(?<=[\w,;] )(?!The\b|I\b)[A-Z][\w'\-]*(?: [A-Z][\w'\-]*)*")
#: Leaving something: with nothing in its place a withdrawal, with an arrival after it a change.
_LEAVING = (r"no (?:longer|more)|(?:not\b|n't)(?:\s+[\w'-]+){0,8}?\s+any ?(?:more|longer)|stopped(?! (?:at|by|in|off|for)\b)|quit|left|sold|"
            r"(?:gave|give|given|giving) up|resigned from|st(?:epped|ood) down from|moved out of|closed(?: down)?|binned|"
            r"retired|pulled out of|packed in|(?:finished|done) with|"
            r"broke up with|splits? (?:up )?(?:with|from)|divorced|cancell?ed|dropped out of|got rid of|withdrawn from"
            r"|c(?:ut|ame|ome) off|cut out|(?:is|are|'s|'re) (?:over|gone|finished|off)")
_CUE_WORDS = frozenset("no not longer any more anymore stopped gave give given giving up resigned stepped stood down out broke split "
                       "closed binned retired pulled packed finished done "
                       "splits divorced cut came come off over gone finished withdrawn".split())
#: A verb of leaving told of a possessive's noun ("the user's router gave up"), or only nearly done, is no one leaving.
_CUE = re.compile(rf"(?<!nearly )(?<!almost )\b(?<!'s )(?:{_LEAVING})\b", re.IGNORECASE)
_POSSESSED = re.compile(r"^(?:The user's|Their|[A-Z]\w+'s)\s+[\w\s-]{1,30}$")
#: After a verb of leaving, what was said in its place: "… and joined Kestrel", "…, now in Leeds", "…; it's X now".
_ARRIVAL = re.compile(r"\b(?:and|but)\s+(?:(?:they|the user)\s+)?(?:now|then|\w+ed|became|bought|got|took|is|are)\b"
                      r"|\b(?:and|but|so)\s+(?:[\w']+\s+){0,3}?(?:they|the user)\s+\w+"
                      r"|;|[,\u2014\u2013]\s*(?:now|it's|it is|they|the user|got|bought|joined|took|became)\b|\bnow$|\binstead\b", re.IGNORECASE)
#: A change told as an exchange ("swapped PureGym for …", "switched from Vodafone to …"): group ``old`` was left.
_SWAP = re.compile(r"\b(?:(?:swapped|switched|traded|exchanged|replaced|changed|upgraded|downgraded)\s+(?:from\s+)?"
                   r"|(?:moved|went)\s+from\s+)(?P<old>[^,;.]+?)\s+(?:for|with|to)\b",
                   re.IGNORECASE)
#: A correction: "an occupational therapist, not a physio" — group ``old`` is what was wrong.
_CORRECTION = re.compile(r",\s*(?:and\s+)?not\s+(?P<old>[^,;.]+?)(?:\s+any\s?more)?$", re.IGNORECASE)
#: A time that comes round again ("every Tuesday night", "on Fridays"): what a schedule says.
_RECURRING = re.compile(r"\b(?:(?:every|each)\s+(?:other\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day"
                        r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:s| (?:mornings|afternoons|evenings|nights))|every\s+(?:morning|evening|night|week|weekend|month))\b",
                        re.IGNORECASE)
_TIMES = frozenset("""monday tuesday wednesday thursday friday saturday sunday morning afternoon
    evening night weekend week month every each other am pm noon january february march april may june july august
    september october november december""".split())  # stemmed where they are compared
_NEGATED = re.compile(r"\b(?:not|never|no longer|any ?more|any longer|n't)\b", re.IGNORECASE)
_ADDITIVE = re.compile(r"\b(?:also|another|an? (?:second|third)|one of)\b|\b(?:too|as well)(?=\s*(?:$|[,.;]))", re.IGNORECASE)
#: Someone else's fact: it opens with a relation word after the user's possessive ("The user's brother lives in Oslo"),
#: a relation's own possessive is in it ("the user's son's birthday"), or it opens with a member of some group ("Mia
#: from their book club …"); group ``who``, ``owner`` or ``member`` names the person.
_RELATION = (r"mum|mom|mother|dad|father|parent|brother|sister|son|daughter|kid|child|children|wife|husband|partner|"
             r"boyfriend|girlfriend|friend|colleague|co-?worker|boss|manager|neighbou?r|\w*mate|cousin|aunt|uncle|niece|nephew|"
             r"grand\w+|\w+-in-law|step-?(?:mum|mom|mother|dad|father|son|daughter|brother|sister)|ex(?:-\w+)?|dog|cat|pet|horse")
#: A relation word anywhere ("cc my colleague at …"): an address or number beside it is that person's.
SOMEONE_WORD = re.compile(rf"\b(?:{_RELATION})s?\b", re.IGNORECASE)
_SOMEONE = re.compile(rf"^(?:(?:The user's|Their|[A-Z]\w+'s|The)\s+(?:[\w]+[\s-])?)?(?P<who>(?i:{_RELATION}))s?\b"
                      r"(?!(?:'s\s+name)?\s+(?:is|was|has been)\s+(?:called|named\b|[A-Z])|(?:(?<=partner)|(?<=husband)|(?<=wife)|(?<=boyfriend)|(?<=girlfriend))(?-i:,?\s+[A-Z]))"
                      rf"|\b(?i:the user's|their)\s+(?P<owner>{_RELATION})(?:'s(?!\s+name\b)|,\s+(?:his|her))\s"
                      r"|^(?P<member>[A-Z]\w+) from (?:their|the user's|[A-Z]\w+'s)\s"
                      r"|^(?:The user's|Their|[A-Z]\w+'s)\s+(?:(?!is\b|was\b|has\b|new\b|partner\b|husband\b|wife\b|boyfriend\b|girlfriend\b)[a-z-]+\s+){1,2}(?P<named>[A-Z]\w+)\b")
#: Not now: the distant past ("as a child", "years ago", "used to", "before they …"), a wish or a condition ("would love
#: to", "dreams of", "if …"), a stay with an end or a time still to come ("for a fortnight", "this week", "next month").
_NOT_NOW = re.compile(r"\b(?:as a (?:child|kid|teen\w*)|ago|years back|back then|(?<=[a-z] )once(?! a\b| or| every)|"
                      r"in (?:their|his|her) (?:youth|childhood)|(?<!getting )(?<!got )used to|back (?:in|when)|growing up|grew up|"
                      r"before (?:the user|they)|would (?:love|like)|wants? to|hopes? to|(?:day)?dream(?:s|ing)? (?:of|about)|wonder\w*|imagin\w*|one day|someday"
                      r"|(?:think|thinks|thinking|thought) (?:about|of)|might|wish(?:es|ed)?|looking at|consider(?:s|ing|ed)?|plan(?:s|ning)? to"
                      r"|ex(?!-)|former(?:ly)?|previous(?:ly)?|(?:is|are|am|'re|'s) staying"
                      r"|for (?:a|the|two|three|a few|a couple of) (?:days?|nights?|weeks?|weekend|fortnight|months?)"
                      r"|this (?:week|weekend)|next (?:week|month|year)|tomorrow|tonight)\b|^if\b"
                      r"|^[^,;\u2013\u2014]*?\b(?:(?:very )?first(?! name)|(?<!it )(?:was|were)(?! \w+ed\b))\b", re.IGNORECASE)  # the main clause
#: A marker of the present or of when a change began ("now", "these days", "As of this week, …", "Since August …"):
#: it says the fact holds now, so it is no part of the attribute or its value and no end to a stay.
_NOW_MARKER = re.compile(r"^(?:as of|since|starting|from|after|once)\s+(?:[^,]{1,40}?\s+(?=the user\b|their\b|they\b)|[^,]{1,30}?(?:,\s*|\s+(?=(?-i:[A-Z]))))"
                         r"|,?\s*\b(?:now|these days|nowadays|currently|at the moment)\b", re.IGNORECASE)
_KIND = re.compile(r"\b(?:favou?rite|fave|fav|more than any other)\s+([a-z]+)", re.IGNORECASE)  # a superlative liking
#: A partner is told by a word of being a couple: someone named in a fact is not the user's partner without one.
_COUPLE = re.compile(r"\b(?:partner|boyfriend|girlfriend|bf|gf|wife|husband|spouse|fianc\w*|dat(?:e|es|ed|ing)|married|marry"
                     r"|engaged|together|seeing|other half|going out|moved in|in a relationship|(?:is|are) with)\b", re.IGNORECASE)
_PREFERENCE = re.compile(r"\b(?:favou?rite|fave|fav|prefer\w*|go-to|of choice)\b", re.IGNORECASE)
_STOP = frozenset("""i me my we our a an the of in on at to for from with by and or but so as into about over after
    before since until than then now currently still just really also too very is am are was were be been being has
    have had do does did will would can could should may might must this that these those it its they them their
    there here which who what when user user's new old these days ago last next month week year years started
    moved became got switched changed joined signed left quit sold bought now again name called named""".split())
#: Words that name nothing that was left: the stop words and the cue's own ("not", "any", "more", "gave", "up" ...).
_NOT_LEFT = _STOP | _CUE_WORDS


@lru_cache(maxsize=8192)
def _present(text: str) -> str:
    """``text`` without its markers of the present (:data:`_NOW_MARKER`): "now lives in Porto" reads as "lives in Porto"."""
    plain = " ".join(_NOW_MARKER.sub(" ", text).split())
    return plain[:1].upper() + plain[1:] if plain else text


@lru_cache(maxsize=8192)
def _named_subject(text: str) -> str | None:
    """The user's name a fact opens with ("Alex lives in Lyon": the distiller writes the user by name)."""
    if "the user" in text.casefold():  # the distiller writes the user by name or as "the user", never both
        return None
    first = text.split(" ", 1)[0].removesuffix("'s")
    return first if first != "The" and is_plausible_name(first) and not first.endswith("ing") else None


def masked(text: str) -> str:
    """``text`` with its values replaced by "X", and a name as its subject by "The user" (as the examples say)."""
    name = _named_subject(text)
    return _VALUE.sub("X", "The user" + text[len(name):] if name else text)


def _stem(word: str) -> str:
    """A crude stem: "rehearsing", "rehearses", "rehearsed" and "rehearse" share one."""
    word = word.casefold()
    for suffix in ("ing", "es", "ed", "s", "e"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _words(text: str) -> list[str]:
    """The words of ``text``, without its subject (the user's name)."""
    words = _WORD.findall(text.replace("\u2019", "'"))
    return words[1:] if words and words[0].removesuffix("'s") == _named_subject(text) else words


def _about_user_now(text: str) -> bool:
    text = _present(text)  # "As of this week …" starts a stay, it does not end one
    return not (_SOMEONE.search(text) or _NOT_NOW.search(text))


#: A question about the past: a past tense or a marker of it ("Where was I born?", "my first car", "ever").
_PAST_QUESTION = re.compile(r"\b(?:was|were|did|had|used to|ago|before|ever|first|last(?!\s+name))\b", re.IGNORECASE)


def about_now(question: str) -> bool:
    """Whether ``question`` asks what holds now (no past marker in it)."""
    return not _PAST_QUESTION.search(question)


def not_current(text: str) -> bool:
    """Whether a fact is framed as the distant past or a wish (see :data:`_NOT_NOW`): no current value."""
    return bool(_NOT_NOW.search(text))


def about_someone_else(question: str, text: str) -> bool:
    """Whether a fact is about a person (a relation word, a group member) that ``question`` does not name."""
    hit = _SOMEONE.search(text)
    if hit is None:
        return False
    who = (hit["who"] or hit["owner"] or hit["member"] or hit["named"]).casefold()
    return not {_stem(w) for w in _WORD.findall(question.casefold().replace("-", " "))} & {_stem(who), who}


@dataclass(frozen=True)
class Withdrawal:
    """What a withdrawal takes back (the words after its cue); ``besides``: it also tells something new."""

    what: frozenset[str]
    besides: bool = False


@lru_cache(maxsize=8192)
def withdrawal(text: str) -> Withdrawal | None:
    """The :class:`Withdrawal` in ``text`` when it leaves something ("no longer plays darts", "quit the choir"),
    or None; with an arrival after the cue ("left Acme and joined Kestrel") it is a change, not a withdrawal."""
    text = " ".join(text.replace("\u2019", "'").split()).rstrip(" .!")
    hit = _CUE.search(text)
    if hit is None or _SOMEONE.search(text[: hit.start()]) or _POSSESSED.match(text[: hit.start()].strip()):
        return None  # someone else's deed: "the user's brother quit the band"
    if _ARRIVAL.search(text, hit.end()):
        return None
    what = frozenset(_stem(w) for w in _words(text[hit.start():]) if w.casefold() not in _NOT_LEFT)
    ended = hit.group().split()[0].casefold() in ("is", "are", "'s", "'re")  # its subject is what ended, not a name
    before = [w for w in (_WORD.findall if ended else _words)(text[: hit.start()]) if w.casefold() not in _STOP]
    if before and (not what or ended):
        # "the allotment, they gave it up", "five-a-side is over": what was left is named before the verb
        return Withdrawal(frozenset(_stem(w) for w in before))
    return Withdrawal(what, besides=bool(before)) if what else None


def _departed(text: str) -> frozenset[str]:
    """What a change says was left: between the verb of leaving and the arrival ("left Acme and joined …"), what was
    swapped for something ("swapped PureGym for …") or corrected ("…, not a physio")."""
    text = text.rstrip(" .!")
    hit = _CUE.search(text)
    arrival = _ARRIVAL.search(text, hit.end()) if hit else None
    if hit is not None and arrival is not None:
        left = text[hit.start(): arrival.start()]  # "not in Dunedin any more, …": what was left is inside the cue
    elif other := (_SWAP.search(text) or _CORRECTION.search(text)):
        left = other["old"]
    else:
        return frozenset()
    subject = _named_subject(text)  # the fact's own subject: "Yokohama" in "swapped Yokohama for …" is what was left
    return frozenset(_stem(w) for w in _WORD.findall(left.replace("\u2019", "'"))
                     if w.casefold() not in _NOT_LEFT and w != subject)


def _overlap(left: frozenset[str], words: set[str]) -> bool:
    """Whether a word left is a word of ``words``, or a clipped form of one ("physio", "physiotherapist")."""
    return any(w == v or (len(w) >= 5 and v.startswith(w)) for w in left for v in words)


def _schedule_moved(new: str, old: str, labelled: bool = False, frame: frozenset[str] = frozenset()) -> bool:
    """Two times for one activity: both recur ("on Fridays") or both read as schedules (``labelled``), they share a
    word besides their times (the activity), and their times differ ("4 pm on Fridays" → "5 pm")."""
    if not (labelled or (_RECURRING.search(new) and _RECURRING.search(old))):
        return False
    topic, times, when = [], [], {_stem(w) for w in _TIMES}
    for text in (new, old):
        words = [w for w in _words(text) if w.casefold() not in _STOP]
        times.append({_stem(w) for w in words if _stem(w) in when or any(c.isdigit() for c in w)})
        topic.append({_stem(w) for w in words if w.islower() and _stem(w) not in when} - times[-1] - frame)  # not "goes"
    return bool(topic[0] & topic[1]) and bool(times[0]) and bool(times[1]) and times[0] != times[1]


def is_withdrawal(text: str) -> bool:
    """Whether ``text`` withdraws something and says nothing else: no fact to store."""
    taken = withdrawal(text)
    return taken is not None and not taken.besides


def poll(similarities: np.ndarray, labels: Sequence[str], least: float) -> dict[str, float]:
    """Each label's share of the vote of the :data:`NEIGHBOURS` most similar examples; empty when even the
    nearest is under ``least``. A vote fades with its distance from the nearest one."""
    nearest = np.argsort(-similarities)[:NEIGHBOURS]
    if similarities[nearest[0]] < least:
        return {}
    weights = np.exp((similarities[nearest] - similarities[nearest[0]]) / SHARPNESS)
    shares: dict[str, float] = {}
    for i, weight in zip(nearest, weights / weights.sum(), strict=True):
        shares[labels[i]] = shares.get(labels[i], 0.0) + float(weight)
    return shares


def labelled_lines(path: Path) -> list[tuple[str, str]]:
    """The ``(label, text)`` of each "label: text" line of an examples file (``#`` lines are comments)."""
    with open(path, encoding="utf-8") as handle:
        lines = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    return [tuple(line.split(": ", 1)) for line in lines]  # type: ignore[misc]


class MeaningDecider:
    """The offline decider (see the module docstring); without ``embed`` no fact gets an attribute."""

    name = "meaning"

    def __init__(self, embed: Callable[[list[str]], Any] | None, *, key: str | None = None) -> None:
        self._embed, self._key = embed, key if key is not None else str(id(embed))
        labels, texts = zip(*labelled_lines(EXEMPLARS), strict=True)
        self.labels: tuple[str, ...] = labels
        self._texts = list(texts)
        counts: dict[str, Counter[str]] = {}
        for label, text in zip(labels, texts, strict=True):  # an attribute's wording: words two examples share
            counts.setdefault(label.split(":")[0], Counter()).update({_stem(w) for w in _words(text) if w.islower()})
        self.frames = {label: frozenset(w for w, c in counter.items() if c >= 2) for label, counter in counts.items()}
        #: every word an attribute's examples use for it: a fact that shares none is not told in its words
        common = Counter(w for counter in counts.values() for w in counter)  # words of many attributes tell none
        self.wording = {label: frozenset(w for w in counter if common[w] <= 6) for label, counter in counts.items()}
        self._common = frozenset(w for w, c in common.items() if c > 6)
        self._preference = np.array([label.startswith("favourite") for label in labels])
        self._labels_of: dict[str, str | None] = {}
        self._kinds: dict[str, str] = {}  # each kind of favourite seen, as the first kind seen that means the same
        self._alike: dict[tuple[str, str], bool] = {}

    def _examples(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The examples' vectors and their masked twins' vectors, embedded once per embedding model and process."""
        if self._embed is None:
            return None
        if self._key not in _EXAMPLES:
            both = np.asarray(self._embed(self._texts + [masked(t) for t in self._texts]), dtype=np.float32)
            _EXAMPLES[self._key] = both[: len(self._texts)], both[len(self._texts):]
        return _EXAMPLES[self._key]

    def label(self, fact: Fact) -> str | None:
        """The label the nearest examples vote for (single-valued or not), cached per text, or None."""
        if fact.text not in self._labels_of:
            if len(self._labels_of) > 8192:
                self._labels_of.clear()
            self._labels_of[fact.text] = self._label(fact)
        return self._labels_of[fact.text]

    def _label(self, fact: Fact) -> str | None:
        if kind := _KIND.search(fact.text):
            return f"favourite:{kind.group(1).casefold()}"
        if EMAIL.search(fact.text):
            return "email"
        examples = self._examples()
        if examples is None or examples[0].shape[1] != np.asarray(fact.vector).shape[-1]:
            return None
        # "prefers tea" and "likes tea" differ in that word, not in topic: it alone makes a favourite
        allowed = self._preference if _PREFERENCE.search(fact.text) else ~self._preference
        twin = masked(_present(fact.text))  # the fact as said, and its twin without values or markers of the present
        twin_vector = fact.vector if twin == fact.text else np.asarray(self._embed([twin]))[0]  # type: ignore[misc]
        polls = [found for matrix, vector, least in zip(examples, (fact.vector, twin_vector), MIN_SIMILARITY, strict=True)
                 if (found := poll(np.where(allowed, matrix @ np.asarray(vector, dtype=np.float32), -1.0), self.labels, least))]
        votes = {label: float(np.prod([p.get(label, 0.0) + AGREEMENT for p in polls])) for label in set().union(*polls)}
        return max(votes, key=votes.__getitem__) if votes else None

    def attribute(self, fact: Fact) -> str | None:
        if _NEGATED.search(fact.text) or not _about_user_now(fact.text):
            return None
        label = self.label(fact)
        if label in ("email", "phone") and SOMEONE_WORD.search(fact.text.replace("The user's", "")):
            return None  # "cc the user's colleague at p.osei@…" is the colleague's address
        if label == "name" and not fact.text.startswith("The user's name is"):  # the distiller's own form: no pet's name
            return None
        if label == "partner" and not _COUPLE.search(fact.text):  # "ran into Jonas", "signed for Rahul's parcel"
            return None
        family = (label or "").split(":")[0]
        said = {_stem(w) for w in _words(_present(fact.text))} - self._common
        if family in WORDED and said and not self.wording[family] & said:
            return None  # "did a cooking course in Bilbao" says nothing a home is told by
        if label is not None and label.startswith("favourite:"):  # "novel" files under "book" once "book" was seen
            label = next((k for k in self._kinds if self._same_kind(label, k)), None) or self._kinds.setdefault(label, label)
        return label if label is not None and label.split(":")[0] in SINGLE_VALUED else None

    def _values(self, text: str, label: str) -> frozenset[str]:
        """The words of ``text`` that are not its attribute's wording: its value."""
        frame = self.frames.get(label.split(":")[0], frozenset())
        return frozenset(s for w in _words(_present(in_digits(text))) if w.casefold() not in _STOP  # a possessive is its noun
                         and (s := _stem(w.removesuffix("'s"))) not in frame)

    def _same_kind(self, label: str, other: str) -> bool:
        """Two favourites whose kinds mean the same (:data:`SAME_KIND`: "film" and "movie"), embedded once per pair."""
        if label == other or self._embed is None:
            return label == other
        if (label, other) not in self._alike:
            a, b = np.asarray(self._embed([f"my favourite {k.split(':')[1]} is X" for k in (label, other)]), dtype=np.float32)
            self._alike[label, other] = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))) >= SAME_KIND
        return self._alike[label, other]

    def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]:
        if is_withdrawal(new.text):
            return [Verdict.UNRELATED for _ in stored]
        taken = withdrawal(new.text)  # "is a cartographer now, not a surveyor any more": a fact that takes one back
        back = self.retracts(new, stored) if taken else [False] * len(stored)
        return [Verdict.SUPERSEDES if b else self._decide(new, old) for old, b in zip(stored, back, strict=True)]

    def _decide(self, new: Fact, old: Fact) -> Verdict:
        if not (_about_user_now(new.text) and _about_user_now(old.text)):
            return Verdict.UNRELATED
        left = _departed(new.text)  # "sold the Fiesta and bought a Polestar" replaces "drives a Fiesta"
        if _overlap(left, {_stem(w) for w in _words(old.text)}) and not _NEGATED.search(old.text):
            return Verdict.SUPERSEDES
        if bool(_NEGATED.search(new.text)) != bool(_NEGATED.search(old.text)):  # "likes tea" ⇄ "does not like tea"
            plain = [{_stem(w) for w in _words(_NEGATED.sub(" ", f.text)) if w.casefold() not in _STOP} for f in (new, old)]
            return Verdict.SUPERSEDES if plain[1] <= plain[0] else Verdict.UNRELATED  # the new restates the old, negated
        if _NEGATED.search(new.text) or _ADDITIVE.search(new.text) or _ADDITIVE.search(old.text):
            return Verdict.UNRELATED
        if _schedule_moved(new.text, old.text, self.label(new) == self.label(old) == "schedule", self.frames["schedule"]):
            return Verdict.SUPERSEDES
        label = self.attribute(new)
        if label is None or label == "schedule" or label != self.attribute(old):
            return Verdict.UNRELATED
        if label in ("email", "phone"):
            said, had = ({re.sub(r"[\s\-]", "", c).casefold() for c in CONTACT.findall(f.text)} for f in (new, old))
            if said and had:
                return Verdict.SAME if said <= had else Verdict.SUPERSEDES
        values, were = self._values(new.text, label) - _departed(new.text), self._values(old.text, label)
        if label in NAMED_VALUES:  # a name or a number is the value ("is hooked" names no partner), unless both are typed
            named = [v & {_stem(w.removesuffix("'s")) for w in _words(_present(in_digits(f.text))) if w[:1].isupper()  # lower case
                          or w[:1].isdigit()} for v, f in ((values, new), (were, old))]
            if any(named) and not all(named):
                return Verdict.UNRELATED
            values, were = (named[0], named[1]) if all(named) else (values, were)
        if values and values <= were:
            return Verdict.SAME
        return Verdict.SUPERSEDES if values - were and were - values else Verdict.UNRELATED

    def retracts(self, withdrawal_fact: Fact, stored: Sequence[Fact]) -> list[bool]:
        """The stored facts sharing the most words with what the withdrawal names (then the fewest extra words)."""
        taken = withdrawal(withdrawal_fact.text)
        wanted = taken.what if taken else frozenset(_stem(w) for w in _words(withdrawal_fact.text)
                                                    if w.casefold() not in _STOP)
        costs: list[tuple[int, int] | None] = []
        for old in stored:
            have = {_stem(w) for w in _words(old.text) if w.casefold() not in _STOP}
            shared = wanted & have
            costs.append((-len(shared), len(have - wanted)) if shared and _about_user_now(old.text)
                         and not is_withdrawal(old.text) else None)
        found = [c for c in costs if c is not None]
        return [c is not None and c == min(found) for c in costs]
