"""When a new fact replaces a stored one: the one seam where the local server decides knowledge updates.

The contract records what an update did (``is_current``, ``superseded_by``), not how a real Cortadel decides
it. The local server asks an
:class:`UpdateDecider`, and ``store.py`` calls nothing else to decide: it finds the candidates (the
user's current facts in the same attribute, and the nearest vector neighbours), asks the decider,
and applies the verdicts in one transaction. The interface is small on purpose, so a decider can
be swapped and two deciders can be compared on the same pairs (``evaluation/pairs.py``)::

    class UpdateDecider(Protocol):
        name: str
        def attribute(self, fact: Fact) -> str | None: ...
        def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]: ...
        def retracts(self, withdrawal: Fact, stored: Sequence[Fact]) -> list[bool]: ...

* a :class:`Fact` is the stored text ("Alex lives in Lyon.") and its unit embedding vector — the one
  the store computed anyway. The offline decider also reads the :func:`masked` text ("Alex lives in
  X."): a value pulls a fact towards examples with a similar value ("partner is Mariana" towards
  "name is Marian"), its masked twin reads the attribute's wording alone. It embeds that twin itself,
  and only for a fact whose attribute can matter (about the user, current, not negated): most of a
  long history is about other people or the past;
* :meth:`~UpdateDecider.attribute` names the single-valued attribute a fact about the user fills
  (``home``, ``name``, ``surname``, ``age``, ``employer``, ``job``, ``partner``, ``car``, ``phone``,
  ``email``, ``favourite:<kind>``, ``schedule``), or ``None``; the store keeps it as the row's ``slot`` and looks candidates up by it;
* :meth:`~UpdateDecider.decide` gives one :class:`Verdict` per stored candidate: ``SAME`` (the new
  fact says nothing new: a duplicate), ``SUPERSEDES`` (the stored one stops being current) or
  ``UNRELATED`` (both stay);
* :meth:`~UpdateDecider.retracts` says which stored facts a withdrawal ("Alex no longer works at
  Acme", or the rest of "forget that …") takes back; the store invalidates those.

Whether a text *is* a withdrawal is read the same for every decider (:func:`withdrawal`): "no
longer", "not … any more" ending a clause, or a verb of leaving (:data:`LEAVING`: "gave up", "cut
out", "stepped down from" …) with no arrival after it, done by the user to something it names. The
same verbs with an arrival are a change ("quit the mill and joined a brewery", "left the mill, now
with a brewery"), which ``meaning.py`` reads as a departure. Someone else's deed ("rain cancelled the
user's match", "the user's kettle gave up") and a verb with nothing after it ("queued for an hour,
nearly gave up") take nothing back: read as withdrawals, they were not stored, and took back whatever
shared a word with them. Two deciders exist:

* ``"meaning"`` (the default, offline): :class:`~local_memory_server.meaning.MeaningDecider`
  classifies a fact's attribute by its nearest labelled examples in embedding space, then compares
  values — see ``meaning.py``;
* ``"model"`` (opt-in: ``start_memory_server(update_decider="model")``,
  ``--update-decider model``): :class:`~local_memory_server.model_decider.ModelDecider` asks a
  configured OpenAI-compatible model for the same verdicts and falls back to the offline decider
  on any error. It is an option of this local server for comparing deciders, not a description of
  how Cortadel decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from enum import Enum
from typing import Any, Protocol, runtime_checkable

import numpy as np

from lesson_utils.language import is_plausible_name
from .timeframe import DAY, MONTH, TIME_WORDS

__all__ = ["BREAK_UP", "CONTACT", "DECIDERS", "EMAIL", "INDEFINITE", "LEAVING", "NEW_VALUE_NOW", "WORD", "Fact",
           "UpdateDecider", "Verdict", "Withdrawal", "is_withdrawal", "make_decider", "masked", "named_subject",
           "value_words", "verdict", "withdrawal"]

#: The decider names ``start_memory_server(update_decider=...)`` and the CLI accept.
DECIDERS = ("meaning", "model")


@dataclass(frozen=True)
class Fact:
    """A fact as the store holds it: its text and its unit-length embedding vector."""

    text: str
    vector: np.ndarray


#: A word, with its apostrophes and hyphens ("user's", "ex-wife"), not an underscore.
WORD = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")
#: An e-mail address.
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A way to reach the user: an e-mail address or a phone-length number ("0412 118 990").
CONTACT = re.compile(rf"{EMAIL.pattern}|\+?\d[\d\s\-]{{5,}}\d")
#: A word for nobody or nothing in particular ("something", "anyone", "nowhere"): never a thing or deed of the user's.
INDEFINITE = r"(?:every|some|any|no)(?:one|body|thing|where)"
#: A value: an e-mail address, a number ("07700 900412", "6:30"), or capitalised words inside a sentence
#: ("Northgate Logistics", "Dean & Lowe") — not its first word, not "The" or "I", not a day or a month
#: (a time is a schedule's value, but also what tells a schedule from a home: "ships on Fridays").
_VALUE = re.compile(rf"{EMAIL.pattern}|\+?\d(?:[\d\s\-:.]*\d)?"
                    rf"|(?<=[\w,;] )(?!The\b|I\b|(?i:{DAY}s?|{MONTH})\b)[A-Z][\w'\-]*(?:(?: (?:&|and|of|de|la|van|von))* [A-Z][\w'\-]*)*")


_NAME_SUBJECT = re.compile(r"^(?!The\b)([A-Z][\w\-]*)(?:'s)?\s+(?=[a-z])")


def named_subject(text: str) -> str | None:
    """The name a fact opens with as its subject ("Alex lives in Lyon": the distiller writes the user by
    name), not a value that opens it ("Lilac has become the user's favourite colour")."""
    name = _NAME_SUBJECT.match(text)
    if name and (not is_plausible_name(name.group(1)) or name.group(1).endswith("ing")):
        return None  # "Home is Tromsø for them", "Swimming is at 6pm now": a word, not a name
    # "their" is no sign: the distiller writes the named user's "my" as "their" ("Sione left their old job")
    later = name and re.search(r"\b(?:(?i:the user)|[A-Z][\w\-]*'s)\b", text[name.end():])
    return name.group(1) if name and not later else None


def value_words(text: str) -> frozenset[str]:
    """The words of ``text``'s values (what :func:`masked` replaces), lower-cased."""
    return frozenset(w.casefold() for value in _VALUE.findall(text) for w in value.split())


def masked(text: str) -> str:
    """``text`` with its values replaced by one placeholder, and a name as its subject by "The user" (as
    the examples say): what the fact says, not which value or whose name."""
    name = named_subject(text)
    return _VALUE.sub("X", "The user" + text[len(name):] if name else text)


class Verdict(str, Enum):
    """What a new fact does to one stored fact."""

    SAME = "same"
    SUPERSEDES = "supersedes"
    UNRELATED = "unrelated"


@runtime_checkable
class UpdateDecider(Protocol):
    """Decides knowledge updates for the store (see the module docstring)."""

    name: str

    def attribute(self, fact: Fact) -> str | None:
        """The single-valued attribute ``fact`` fills for the user, or ``None``."""
        ...

    def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]:
        """One verdict per stored fact, in order."""
        ...

    def retracts(self, withdrawal: Fact, stored: Sequence[Fact]) -> list[bool]:
        """For each stored fact, whether the withdrawal takes it back."""
        ...


#: Verbs two people do to each other when they part: "broke up with Sara"; the distiller reads "Sara and I broke up"
#: as that too.
BREAK_UP = r"split(?: up)?|broke up|separated|divorced|ended (?:things|it)|called it (?:quits|off)|parted(?: ways)?"
#: Verbs of leaving something behind: with nothing said in its place the sentence withdraws it ("gave up
#: the allotment"); with an arrival ("… and joined Kestrel") it is a change (``meaning.py``'s departure).
LEAVING = (r"sold|left|quit|resigned from|g[ai]ve(?:n)? up|cut out|dropped(?: out of)?|cancell?ed|got rid of|ditched|"
           r"stepped down from|withdr[ae]wn? from|pulled out of|c[ao]me off|lost interest in|"
           rf"(?:{BREAK_UP}) (?:with|from)|divorced|moved (?:out of|away from)|walked (?:away from|out of)|"
           r"handed in (?:my|their|his|her) notice at|packed up")
# "any more" ends its clause when it means "no longer" ("… in Lyon any more, sadly"), not in "any more tea";
# "stopped at the bakery" is a visit, not a stop.
_CEASED = re.compile(
    rf"\b(?:no longer|no more(?!\s+than)|"
    rf"(?:not|nobody|never)\s+(?:[\w\-]+\s+){{0,8}}?(?:any ?more|any longer)\s*(?=$|,)|"
    rf"(?:has |have )?(?:stop(?:ped|s)(?!\s+(?:at|by|in|off|for|over|to)\b)|quits?|ceased to)|{LEAVING})\b",
    re.IGNORECASE)
#: A deed of the user's, told in the past: "signed", "bought", "took".
_DEED = r"(?:[a-z]+ed|became|bought|got|took|went|began|found|made|met)"
#: After a break, the value said in place of the old one, last in the sentence: "…, its jb@proton.me now", "…, it's
#: Lanternmail now", "…, Sheffield now". The decider reads what came before it as left (``meaning._DEPARTURE``).
NEW_VALUE_NOW = (rf"(?:,|;|\s[\u2014\u2013-])\s*(?:it'?s\b[^,;]*|it is\b[^,;]*|(?-i:[A-Z])[\w'\-]*(?:\s+(?-i:[A-Z&])[\w'\-]*){{0,3}}"
                 rf"|{CONTACT.pattern})\s+now$")
#: "quit the mill and signed on with a brewery" is a change, not a withdrawal: a clause follows ("…, starting at
#: Fenwick on Monday", "… and they are renting in Bristol" too), or a new value ("moved out of Leeds, Sheffield now",
#: "not on hotmail any more, its jb@proton.me now"). Read as a withdrawal, the new half would be lost; read as a
#: change, the departure still replaces what was left.
_ARRIVAL = re.compile(rf"\b(?:and|but)\s+(?:(?:they|the user)\s+)?(?:now|then|later|{_DEED}|is|are|am)\b"
                      rf"|;|(?:,|\s[\u2014\u2013-])\s*(?:now|it's|it is|the user|they're|they are|they|(?!{INDEFINITE})\w+ing)\b"
                      rf"|{NEW_VALUE_NOW}", re.IGNORECASE)

#: After a verb of leaving, a clause that goes on with another deed of the user's ("left the mill, signed with
#: Fenwick", "broke up with Luca and have been dating Sione"): the departure replaces what was left, and what
#: came in its place is kept.
_WENT_ON = re.compile(rf"(?:,|\s[\u2014\u2013-]|\s+and)\s+(?:then\s+|just\s+)?(?!(?:{LEAVING})\b)(?:{_DEED}|ha(?:ve|s)\s+been)\b")

#: Where a clause ends just before the verb of leaving: "got a new number - the old one's cancelled", "joined Adatum
#: and left their old company". A first clause of three words or more has already said what is new.
_JOINED = re.compile(r"\s[\u2014\u2013-]\s|;|,?\s+and\s+(?:then\s+)?$")


#: Who stops or leaves something in a withdrawal: the user, as the distiller writes them ("the user", "they", the name a
#: fact opens with) or as they say it ("I"), alone or with someone (``with``: "the user and Marco are no longer
#: together"), then only auxiliaries and adverbs ("the user has finally given up", "Kofi is no longer …"); or nobody,
#: when the clause opens with the verb ("…, quit after two sessions"). Not "the user's doorbell gave up", "rain
#: cancelled the game" or "but the teacher cancelled": someone else's deed takes nothing back.
_BY_USER = re.compile(r"(?:^|[,;:(]|\s[\u2014\u2013-]|\b(?:and|but|so|then)"
                      r"|\b(?:the user|they|i|we)(?:\s+and\s+(?P<with>(?:\w+\s+)?[\w-]+))?(?:'s|'ve|'re|'m|'d)?)"
                      r"(?:\s+(?:has|have|had|is|are|am|was|were|do|does|did|just|finally|also|already|then|now|"
                      r"recently|officially|eventually|decided to|had to|\w+ly))*\s*$", re.IGNORECASE)
#: Where the clause a withdrawal is told in ends ("… gave up the plot, the weeds won").
_CLAUSE_END = re.compile(r"[,;:.!?()]|\s[\u2014\u2013-]\s")
#: The words of a withdrawal that say it is one, and those that name nothing ("gave up this morning", "nearly gave up").
_CUE = re.compile(rf"\b(?:no longer|no more|not|nobody|never|any ?more|any longer|has|have|stop(?:ped|s)|quits?|"
                  rf"ceased to|{LEAVING})\b", re.IGNORECASE)
_HOLLOW = frozenset("""a an the my our their his her its it them this that these those there here to of in on at for
    with from by up out off over again all any some so as is are was were be been being do does did just
    even""".split()) | TIME_WORDS
#: After a verb of leaving, where what was left ends ("quit their job at Acme": the job; Acme is a value, kept apart).
_PLACE_OR_REASON = re.compile(r"\s(?:at|in|on|for|with|from|to|after|because|since|when|as|and|but)\b", re.IGNORECASE)
#: A verb's ending: "plays" in "no longer plays darts" is the deed, not what it names.
_VERB_END = re.compile(r"\w+(?:s|ing|ed)$")


@dataclass(frozen=True)
class Withdrawal:
    """What a withdrawal takes back: the words of ``what`` it names ("darts", "the allotment", "their job Acme") and,
    after "no longer" or "stopped", the ``deed`` before them ("plays" in "no longer plays darts"): a deed alone names
    no stored fact ("plays the trumpet" is not "plays darts"). ``besides``: the sentence says something else too
    ("is a cartographer now, not a surveyor any more"), so it is a fact to keep as well as a withdrawal."""

    deed: str
    what: str
    besides: bool = False


@lru_cache(maxsize=8192)
def withdrawal(text: str) -> Withdrawal | None:
    """The :class:`Withdrawal` in ``text`` when it is one: "no longer …", "not … any more", "stopped …", "gave
    up …" (:data:`LEAVING`), by the user, naming something, with nothing said in its place; else None. Cached per
    text, as ``meaning.read`` is: a write asks once in the service and again in the decider."""
    text = re.sub(r"n't\b", " not", " ".join(text.replace("\u2019", "'").split()).rstrip(" .!…"))
    hit = _CEASED.search(text)
    if hit is None:
        return None
    joined = _JOINED.search(text, 0, hit.start())
    said = joined and len(text[: joined.start()].split()) >= 3
    leaving = re.fullmatch(LEAVING, hit.group(), re.IGNORECASE) is not None
    went_on = leaving and _WENT_ON.search(text, hit.end())
    if _ARRIVAL.search(text, hit.end()) or said or went_on:
        return None
    name = named_subject(text)
    before = "the user" + text[len(name): hit.start()] if name else text[: hit.start()]
    end = _CLAUSE_END.search(text, hit.end())
    clause = text[hit.start(): end.start() if end else len(text)]
    by_user = _BY_USER.search(before)
    if by_user is None:
        return None  # someone else's deed: "the user's doorbell gave up", "the teacher cancelled"
    also = _content(by_user["with"] or "")  # "the user and Marco are no longer together": Marco too
    rest = text[end.end():] if end else ""
    besides = any(_says_of_user(part, name) for part in (text[: by_user.start()], rest))
    if leaving:  # what was left, then any value said with it ("quit their job at Acme")
        after = clause[hit.end() - hit.start():]
        cut = _PLACE_OR_REASON.search(after)
        words = _content(after[: cut.start()] if cut else after)
        words += [w for w in _content(after[cut.start():] if cut else "") if w[:1].isupper() or w[:1].isdigit()]
        return Withdrawal("", " ".join(words + also), besides) if words else None
    # "closed the candle shop, not doing that any more": "that" is the rest of it ("… for them": the user)
    if re.search(r"\b(?:that|it|this|those|(?<!for )(?<!to )(?<!with )them)\b", clause, re.IGNORECASE):
        return Withdrawal("", " ".join(_content(_CUE.sub(" ", text))))
    words = _content(_CUE.sub(" ", clause))
    if len(words) > 1 and _VERB_END.fullmatch(words[0]):
        return Withdrawal(words[0], " ".join(words[1:] + also), besides)
    # "nearly gave up", "gave up this morning": nothing named
    return Withdrawal("", " ".join(words + also), besides) if words else None


#: The user, as a clause outside a withdrawal's names them: what it says of them is a fact to keep as well.
_OF_USER = re.compile(r"\b(?:the user|they|their|them|i|my|me)\b", re.IGNORECASE)


def _says_of_user(part: str, name: str | None) -> bool:
    """Whether ``part`` of a withdrawal's sentence tells something of the user ("the user's 20th was last weekend"
    before "…, not a teen any more"; "their new place is in Valladolid" after "moved out of Ponferrada, …"), not only
    when ("since the spring, …") or a remark ("…, the weeds won")."""
    own = ("user", *(name or "").casefold().split())
    named = bool(_OF_USER.search(part)) or (name is not None and name in part)
    return named and any(w.casefold().removesuffix("'s") not in own for w in _content(part))


def _content(text: str) -> list[str]:
    """The words of ``text`` that name something: not an article, a pronoun, a preposition or a time of day."""
    return [w for w in WORD.findall(text) if w.casefold() not in _HOLLOW]


def is_withdrawal(text: str) -> bool:
    """Whether ``text`` withdraws something and says nothing else (see :func:`withdrawal`): no fact to store."""
    taken = withdrawal(text)
    return taken is not None and not taken.besides


def make_decider(
    name: str | UpdateDecider, embed: Callable[[list[str]], Any] | None, *, key: str | None = None
) -> UpdateDecider:
    """The decider called ``name`` ("meaning" or "model"), embedding its examples with ``embed`` (once
    per process for each embedding model ``key``)."""
    if not isinstance(name, str):
        return name
    from .meaning import MeaningDecider

    if name == "meaning":
        return MeaningDecider(embed, key=key)
    if name == "model":
        from .model_decider import ModelDecider

        return ModelDecider(fallback=MeaningDecider(embed, key=key))
    raise ValueError(f"update_decider={name!r} is not one of {', '.join(DECIDERS)}: pass one of those names.")


def verdict(old: str, new: str, *, decider: UpdateDecider | None = None) -> Verdict:
    """What storing ``new`` does to a stored ``old`` (both embedded with the default embedder), as
    ``decider`` (default: the offline meaning decider) sees it — the one-pair view a lesson shows."""
    from .embeddings import default_embedder

    embedder = default_embedder()
    decider = decider if decider is not None else make_decider("meaning", embedder.embed, key=embedder.model)
    old_vector, new_vector = embedder.embed([old, new])
    return decider.decide(Fact(new, new_vector), [Fact(old, old_vector)])[0]
