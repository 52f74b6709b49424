"""Who a memory is about, and whether the question asks about that person.

Why: a large history is full of facts about other people that read like the user's own ("The
user's colleague Ivan works at Contoso" beside "The user works at Adatum"). To a sentence embedding
and to BM25 they are the same topic, so a question in the first person ("Who is my employer?")
finds ten colleagues' employers before the user's. Who the fact is about is plain in the
distiller's own third-person form, and the question says whom it asks about, so the server can
tell them apart without any model:

* the memory's subject is a possessive chain ("The user's sister's friend Lea …", "Alex's
  neighbour …"): the person is the *last* link's head word ("friend" — the sister's friend is not
  the sister), skipping modifiers like "old" or "best";
* or it is "<Name> from their/his/her/the user's/<Name>'s …" (a member of some group: "Eva from the
  user's choir", as the distiller writes it, or "Rosa from Imran's climbing club");
* or it opens with a noun phrase other than the user, the user's possessive inside it ("The sister
  of the user's husband works as …", "One of the user's flatmates …", "The guy who runs the user's
  café …"): the person is its head word. Not when the user is the subject after a lead ("The other day
  the user moved …"), nor when the noun phrase acted on the user's thing ("The piano teacher moved the
  user's lesson") or is the user's thing ("The Skoda is now the user's car"). The update decider also
  reads a fact with no user in it as not the user's ("The weather is grim"); relevance does not: "The
  boiler was repaired in February" is the user's own news;
* "'s" before a function word is "is" or "has", not a possessive ("The user's home's in Hull");
* a possessive followed by is/are/was/were within three words is an attribute of the user ("The
  user's favourite food is …"), unless a relation word among them names a person ("The user's old
  roommate is 41", "The user's boss Dmitri is …").

The memory is about *someone else* when it has such a person and the question names neither that
word nor a word of the same kin group ("parents" names "mother" and "father", "siblings" names
"sister" and "brother", and back). The relevance model counts it as evidence against a hit
(``relevance.py``); search's ranking does not read it (``search.py`` says why: it did not carry over to
questions written apart from the project).
The update decider reads the same chain (:func:`possessed`) to tell whose fact it is (``meaning.py``).
"""

from __future__ import annotations

import re

__all__ = ["KIN_GROUPS", "MODIFIERS", "PARTNER", "RELATION", "about_someone_else", "fronted_subject", "group_member",
           "person_of", "possessed"]

PARTNER = r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse"
#: People and animals in someone's life (and the user's shop or office), as a pattern to match without case;
#: kin words take step-, half-, great- and god- ("great-aunt", "godmother") and -in-law, any "-mate" is someone
#: the user shares something with ("bandmate", "roommate"), and an ex is someone else too.
RELATION = (rf"(?:(?:{PARTNER}|(?:step-?|half-|great-|god)?(?:brother|sister|mother|father|mum|mom|dad|parents?|son|daughter|"
            r"child|children|kids?|aunt|uncle|niece|nephew|grand\w+|cousin))(?:-in-laws?)?|ex|friends?|pals?|buddy|"
            r"colleagues?|co-?workers?|boss|manager|teacher|coach|landlord|landlady|neighbou?r|\w*mates?|"
            r"dog|cat|puppy|kitten|pet|horse|rabbit|shop|business|office)")

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
#: "'s" before a function word is "is" or "has" ("the user's home's in Hull", "the swim's been moved"), not a possessive.
_FUNCTION_WORD = r"(?:in|at|on|a|an|the|been|got|now|not|no|just|still|from|with|back|also)\b"
_OWNS = rf"['’]s\s+(?!{_FUNCTION_WORD})"
_CONTRACTED = re.compile(rf"['’]s(?=\s+{_FUNCTION_WORD})", re.IGNORECASE)
#: A word of a possessive chain, hyphens and all: "great-aunt's", "Anne-Marie's".
_CHAIN_WORD = r"[^\W\d_]+(?:-[^\W\d_]+)*"
_POSSESSIVE = re.compile(rf"^\s*(?:(?:the user|{_CHAIN_WORD}){_OWNS}|(?:my|their)\s+)(.+)$", re.IGNORECASE | re.DOTALL)
#: One more link of a possessive chain: "sister's friend Lea" -> "friend Lea".
_LINK = re.compile(rf"^((?:{_CHAIN_WORD}\s+)?{_CHAIN_WORD}){_OWNS}(.+)$", re.DOTALL)
#: A relation word among a possessive's first words: a person, not an attribute of the user (a capital is no sign:
#: "the user's Volvo is …").
_PERSON_WORD = re.compile(rf"\b(?i:{RELATION})\b")
_ATTRIBUTE = re.compile(r"^(?:[^\W_]+\s+){0,2}(?:is|are|was|were)\b", re.IGNORECASE)
#: "<Name> from <anyone's> <group>": "Eva from the user's choir", "Rosa from Imran's climbing club", "Tom from Agnes' team".
_GROUP_MEMBER = re.compile(r"^\s*([A-Z][^\W\d_]+) (?:from|at) (?:their|his|her|the user['’]s|[A-Z][^\W\d_]*(?:['’]s|s['’]))\s")
#: A fact that opens with a noun phrase other than the user ("The sister of the user's husband works as …", "One of
#: the user's flatmates started at …", "The guy who runs the user's café is called …"): its head word, group 1, is
#: whose fact it is when the user's possessive is inside that noun phrase (group 2) or nowhere; not when it is what
#: the fronted one acted on ("The piano teacher moved the user's lesson to 5 pm").
_FRONTED = re.compile(r"^(?:the|a|an|one|some|most|both|each|none|any)\s+(?!user\b)(?:of\s+the\s+user's\s+)?([\w'-]+)"
                      r"(?:(?!\b(?:the user's|their)\b).)*?(\b(?:of|who \w+|that \w+)\s+(?:the user's|their)\b|$)", re.I)
#: The user as the subject after a lead ("The other day the user moved …"), or the user's thing as what a fronted
#: noun phrase is ("The Tesla is now the user's car"): the fact is the user's after all.
_USER_AFTER_ALL = re.compile(r"(?<!\bof )(?<!\bwith )(?<!\bto )(?<!\bfor )\b(?:the user|they)\b(?!'s)"
                             r"|\b(?:is|are|has become|became)\s+(?:now\s+|also\s+)?(?:the user's|their)\b", re.I)
#: Words before a possessive's head noun that do not name the person ("old schoolmate", "best friend").
MODIFIERS = frozenset("old best new late former younger older little big elder".split())
#: Relation words that name each other: a question about one may be answered by a memory about another.
KIN_GROUPS: tuple[frozenset[str], ...] = (
    frozenset("parent parents mother father mum mom dad mam".split()),
    frozenset("sibling siblings sister brother".split()),
    frozenset("child children kid kids son daughter".split()),
    frozenset("grandparent grandparents grandmother grandfather grandma grandpa granny".split()),
    frozenset("grandchild grandchildren grandson granddaughter".split()),
    frozenset("partner spouse wife husband".split()),
)


def _words(text: str) -> set[str]:
    """Lower-case words with a trailing plural "s" also stripped ("neighbours" meets "neighbour")."""
    words = set(_TOKEN.findall(text.casefold()))
    return words | {w[:-1] for w in words if len(w) > 3 and w.endswith("s")}


def _named(word: str) -> set[str]:
    """``word`` and the kin words that name the same people."""
    names = _words(word)
    for group in KIN_GROUPS:
        if names & group:
            names |= group
    return names


def group_member(content: str) -> str | None:
    """The name of a group member a memory is about ("Eva" in "Eva from the user's choir sings"), or None."""
    member = _GROUP_MEMBER.match(content)
    return member.group(1) if member else None


def fronted_subject(content: str, *, in_the_users_life: bool = False) -> str | None:
    """The head word of a noun phrase other than the user that a memory opens with ("sister" in "The sister of the
    user's husband works as …"), or None. With ``in_the_users_life`` (as relevance reads it: who a memory is about),
    only when the user's possessive is inside that noun phrase: "The boiler was repaired in February" is the user's
    own news, not someone else's."""
    fronted = _FRONTED.match(content)
    if fronted is None or _USER_AFTER_ALL.search(content):
        return None
    if in_the_users_life and not re.search(r"\b(?:the user's|their)\b", fronted[0], re.IGNORECASE):
        return None
    return fronted[1].casefold()


def possessed(content: str) -> list[str] | None:
    """The links of a memory's possessive chain, the last with the rest of the sentence ("The user's partner's
    mum is a nurse" → ["partner", "mum is a nurse"]), or None when it does not open with a possessive. The
    update decider reads whose fact it is here too."""
    possessive = _POSSESSIVE.match(content)
    if possessive is None:
        return None
    links, phrase = [], possessive.group(1)
    while (link := _LINK.match(phrase)) is not None:  # follow the chain to its last link
        links.append(link.group(1))
        phrase = link.group(2)
    # "the user's car's a Fiat": the car is a Fiat; "the swim's been moved": has been
    return [*links, _CONTRACTED.sub(lambda hit: " has" if re.match(r"\s+(?:been|got)\b", phrase[hit.end():]) else " is",
                                    phrase, count=1)]


def person_of(content: str) -> str | None:
    """The word naming the person a memory is about ("friend", "Mia"), or None when it is the user's own fact."""
    links = possessed(content)
    if links is None:
        member = group_member(content)
        return member.casefold() if member else fronted_subject(content, in_the_users_life=True)
    phrase = links[-1]
    attribute = _ATTRIBUTE.match(phrase)
    # "the user's favourite food is …": the user's, but "… sister's favourite food" the sister's, and "the user's old
    # roommate is 41", "the user's boss Dmitri is …" the roommate's and Dmitri's
    if attribute and not _PERSON_WORD.search(attribute.group(0)):
        if len(links) == 1:
            return None
        phrase = links[-2]
    return next((w for w in _TOKEN.findall(phrase.casefold()) if w not in MODIFIERS), None)


def about_someone_else(query: str, content: str) -> bool:
    """True when ``content`` is a fact about a person ``query`` does not name (see the module docstring)."""
    person = person_of(content)
    return person is not None and not (_named(person) & _words(query))
