"""When a new fact replaces an old one: the local server's rules for knowledge updates.

Cortadel asks a model whether a new fact contradicts a stored one. Offline, one small rule set
decides, over the plain atomic facts the server stores ("Alex lives in Lyon.", "The user
prefers tea."). Everything that decides *whether* two facts conflict lives here; the store
(``store.py``) only applies the verdict atomically, and the service picks the event name.

How a fact is read (:func:`read`):

* **subject** — the user: "I", "the user", or a bare name followed by a verb ("Alex ships …",
  not "Numbered memory …"); a possessive subject ("Alex's sister …") is about someone else and
  fills no slot of the user's. Facts not about the user are never superseded by these rules;
* **ceased** — "no longer", "not … any more/anymore", "stopped", "quit": the fact is being
  *withdrawn*, not stated; **negated** — a plain "does not / is not / never";
* **slot** — the single-valued things a person has one of at a time, each recognised by a
  general pattern over the predicate, with its **value**:

  ========================  ==========================================================
  ``home``                  lives / is based / moved / relocated *in|to* X; my home/city/address is X
  ``name``                  my name is X; is called / goes by X
  ``employer``              works *at|for* X (*as a* … dropped); is employed *by|at* X; joined X;
                            started/got/took a (new) job *at|with* X; my employer is X
  ``job``                   works *as* X; my job/role/profession is X; is a X (X a job noun)
  ``preference:<topic>``    prefers X; favourite <topic> is X — the topic is "drink" for
                            drinks (tea and coffee), else X's category ("food"), else X's head noun
  ========================  ==========================================================

Verdicts:

* :func:`supersedes` — same slot and a different value (or the same value with the opposite
  polarity); or a **near-duplicate with a changed value**: the same sentence frame with one
  value swapped ("ships on Fridays" → "on Thursdays", "is 41 years old" → "42 years old"), when the swapped
  words look like a value (a number, a day, a month, a time of day, a proper name) and the verb
  is not one that can hold for many values at once (likes, has, speaks, plays, visits, …).
* a **rescheduling** ("moved cycling to Fridays", "rescheduled my dentist appointment to 3 May")
  supersedes a fact about the same activity at another day, date or time ("goes cycling on Tuesdays").
* a **compound** statement ("sold my Toyota and now drives a Renault", "lived in Oslo but now lives
  in Lima") is also read clause by clause — a clause after "and/but now|then|…" keeps the subject —
  and supersedes what any of its clauses supersedes.
* :func:`same_fact` — same slot, same value, same polarity ("now lives in Lyon" repeats
  "lives in Lyon"): a duplicate, not an update.
* :func:`retracts` — a withdrawal ("I no longer …", "Forget that …") matches a stored fact in
  the same slot (and value, when one is named), or whose topic words include all of its own.

"I like tea" and "I like coffee" fill no slot and are not near-duplicates (lower-case nouns,
a many-valued verb), so both are kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .classify import categorize

#: Adverbs that do not change what a fact says ("now lives in Porto" = "lives in Porto").
ADVERBS = frozenset(
    """now currently actually still usually also just really recently presently mostly generally normally
    typically today nowadays again too""".split()
)
# "any more" ends the clause when it means "no longer" ("… in Lyon any more"), not in "any more tea".
_CEASED = re.compile(
    r"\b(?:no longer|not\s+(?:[\w,]+\s+){0,8}?(?:any ?more|any longer)\s*$|"
    r"(?:has |have )?(?:stopped|quit|ceased to))\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:does not|do not|did not|is not|am not|are not|was not|never|doesn't|don't|isn't)\b",
                       re.IGNORECASE)
_STRIP_NEGATION = re.compile(
    r"\b(?:no longer|any ?more|any longer|ceased to|(?:has |have )?(?:stopped|quit)|does not|do not|did not|"
    r"doesn't|don't|never)\b\s*|\b(?<=is )not\b\s*|\b(?<=am )not\b\s*|\b(?<=are )not\b\s*",
    re.IGNORECASE,
)
_USER_SUBJECT = re.compile(
    r"^(?:I|[Tt]he user|(?P<name>(?!The\b)[A-Z][\w\-]+(?: [A-Z][\w\-]+)?))\b(?!')\s+(?=(?P<next>[a-z]+))")
#: After a bare name, the next word must look like a verb ("Alex ships", not "Numbered memory").
_VERB_LIKE = re.compile(r"^(?:\w+[^s]s|\w+ed|is|was|has|had|can|could|will|would|should|must|may|might|did|does|"
                        r"went|got|made|took|came|left|grew|goes|became|knew|ran|met|moved|sold|bought|began|"
                        r"drove|flew|gave|lost|won|paid|kept|built|spent|sent|found|wrote|swam|ate|drank|saw)$")
_USER_POSSESSIVE = re.compile(r"^(?:[Mm]y|[Tt]he user's|(?!The\b)[A-Z][\w\-]+(?: [A-Z][\w\-]+)?'s?)\s+(?=[a-z])")
_VALUE = r"(.+?)"
_END = r"(?:\s+(?:to|over|rather than|instead of|than)\s+.*)?$"
#: "works at Wingtip as a pharmacist": the employer is Wingtip (the role is another slot).
_AS_ROLE = r"(?:\s+as\s+(?:an?\s+)?[a-z].*)?"

# (slot, pattern over the predicate after a user subject)
_PREDICATE_RULES: tuple[tuple[str, re.Pattern], ...] = (
    ("home", re.compile(r"^(?:lives?|living|resides?|(?:is|am|are) (?:living|based|settled)|based|"
                        r"(?:has |have )?(?:moved|relocated)|(?:is|am) (?:moving|relocating)|moves?)"
                        r"\s+(?:in|to|at)\s+" + _VALUE + r"$")),
    ("name", re.compile(r"^(?:is|am) (?:called|named)\s+" + _VALUE + r"$|^goe?s? by\s+" + _VALUE + r"$")),
    ("employer", re.compile(r"^(?:works?|working|(?:is|am) working|(?:started|began) working)\s+(?:at|for)\s+"
                            + _VALUE + _AS_ROLE + r"$|"
                            r"^(?:is|am) employed (?:at|by)\s+" + _VALUE + _AS_ROLE + r"$|"
                            r"^(?:has |have )?(?:started|began|got|took|accepted|landed)\s+(?:a |an |my |the )?"
                            r"(?:new )?(?:job|position|role)\s+(?:at|with)\s+" + _VALUE + _AS_ROLE + r"$|"
                            r"^(?:has |have )?joined\s+" + _VALUE + _AS_ROLE + r"$")),
    ("job", re.compile(r"^(?:works?|working|(?:is|am) working)\s+as\s+(?:an? )?" + _VALUE + r"$")),
    ("preference", re.compile(r"^(?:prefers?|(?:would|'d) rather have)\s+" + _VALUE + _END)),
)
_POSSESSIVE_RULES: tuple[tuple[str, re.Pattern], ...] = (
    ("home", re.compile(r"^(?:home|home town|city|address|place)\s+is\s+(?:in\s+)?" + _VALUE + r"$")),
    ("name", re.compile(r"^(?:name|first name|full name)\s+is\s+" + _VALUE + r"$")),
    ("employer", re.compile(r"^(?:employer|company|workplace)\s+is\s+" + _VALUE + r"$")),
    ("job", re.compile(r"^(?:job|role|profession|occupation|job title)\s+is\s+(?:an? )?" + _VALUE + r"$")),
    ("favourite", re.compile(r"^(?:favou?rite|preferred)\s+(?P<topic>[a-z]+(?: [a-z]+)?)\s+is\s+" + _VALUE + r"$")),
)
#: "moved cycling to Fridays", "rescheduled my dentist appointment to 3 May" (the target must be a
#: day, date or time: "moved my books to Berlin" is not a rescheduling).
_RESCHEDULE = re.compile(
    r"^(?:has |have )?(?:moved|rescheduled|shifted|switched|changed|pushed|brought)\s+"
    r"(?:(?:my|the|our|their|his|her)\s+)?(?P<what>[a-z][a-z\- ]*?)\s+(?:forward |back )?(?:to|until|till)\s+"
    r"(?P<when>.+)$")
#: A second clause that keeps the subject: "sold my Toyota and now drives a Renault".
_CLAUSE = re.compile(r",?\s+(?:and|but)\s+(?=(?:now|then|currently|instead|today|these days)\b)")
_IS_A = re.compile(r"^(?:is|am)\s+an?\s+(?P<value>[a-z][a-z\- ]*[a-z])$")
_JOB_SUFFIX = re.compile(r"(?:er|or|ist|eer|ian|ant|ent|man|woman|smith|wright)$")
_JOB_WORDS = frozenset("nurse chef cook pilot clerk coach intern surgeon dentist architect barista vet medic".split())
_NOT_JOBS = frozenset(
    """member mother father brother sister daughter grandmother grandfather partner beginner fan lover user
    customer owner vegetarian christian runner gamer reader listener speaker sleeper eater drinker smoker
    dreamer learner believer supporter follower leader other number letter character patient parent resident
    citizen adult teenager""".split()
)

#: Verbs that can hold for many values at once: two facts that differ only in their object both stand.
MANY_VALUED = frozenset(
    """like likes liked love loves loved enjoy enjoys enjoyed has have had own owns owned speak speaks spoke
    play plays played visit visits visited went go goes know knows knew read reads watch watches collect
    collects eat eats drink drinks cook cooks use uses need needs want wants keep keeps grow grows met meet
    meets follow follows support supports study studies learn learns""".split()
)
_DAYS = "monday tuesday wednesday thursday friday saturday sunday weekday weekend".split()
_MONTHS = "january february march april may june july august september october november december".split()
_TIMES = frozenset("morning mornings afternoon afternoons evening evenings night nights noon midnight am pm".split())
_WORD = re.compile(r"[^\W_]+(?:'[a-z]+)?", re.UNICODE)
_FILLER = frozenset("a an the in on at to of for and or with by from is am are be".split())

#: Words of a retraction that point at a slot ("Forget my address" → the ``home`` slot).
SLOT_WORDS = {
    "home": {"address", "live", "lives", "living", "home", "city", "based"},
    "name": {"name", "called"},
    "employer": {"employer", "company", "workplace"},
    "job": {"job", "role", "profession", "occupation"},
}


@dataclass(frozen=True)
class Statement:
    """What a fact says, as far as the update rules care."""

    text: str
    slot: str | None = None
    value: str | None = None
    negated: bool = False
    ceased: bool = False
    about_user: bool = False
    #: The sentence with the subject replaced by "USER", adverbs and negation removed, lower-case
    #: and crudely singular ("ships" → "ship"); ``cased`` keeps the original words (proper names).
    frame: tuple[str, ...] = ()
    cased: tuple[str, ...] = ()
    #: A rescheduling: the activity's words (stemmed) and the new day/date/time words.
    rescheduled: tuple[str, ...] = ()
    when: frozenset[str] = frozenset()
    #: The clauses of a compound statement (each read on its own, subject kept); empty otherwise.
    clauses: tuple[Statement, ...] = ()


def _norm_value(value: str) -> str:
    words = [w for w in _WORD.findall(value.casefold()) if w not in ("the", "a", "an")]
    return " ".join(words)


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


#: Drinks are their own preference topic: "prefers coffee over tea" says nothing about a favourite
#: dish, although the memory categories file both under "food".
_DRINKS = frozenset(
    """drink drinks beverage beverages coffee tea espresso latte cappuccino juice wine beer milk soda smoothie
    cocoa lemonade water cider""".split()
)


def _topic(value: str) -> str:
    if any(w in _DRINKS for w in _WORD.findall(value.casefold())):
        return "drink"
    categories = categorize(value)
    if categories:
        return categories[0]
    words = [w for w in _WORD.findall(value.casefold()) if w not in _FILLER]
    return _singular(words[-1]) if words else value.casefold()


def _is_job(value: str) -> bool:
    head = value.split()[-1]
    if head in _NOT_JOBS:
        return False
    return head in _JOB_WORDS or (len(head) > 4 and bool(_JOB_SUFFIX.search(head)))


#: Every slot rule needs one of these words; a text with none of them fills no slot.
_SLOT_HINT = re.compile(
    r"\b(?:liv|resid|based|settled|mov|relocat|home|city|address|place|call|named|name|go(?:es)? by|work|employ|"
    r"joined|company|workplace|job|role|profession|occupation|prefer|rather|favou?rite|(?:is|am|['\u2019]m) an?)",
    re.IGNORECASE,
)


def slot_of(text: str) -> str | None:
    """The slot ``text`` fills, if any (``read(text).slot``, with a fast exit for the many texts
    that cannot fill one — bulk imports of 100k memories call this once per row)."""
    if not _SLOT_HINT.search(text):
        return None
    return read(text).slot


@lru_cache(maxsize=8192)
def read(text: str) -> Statement:
    """Read a fact (first person or third person, as stored) for the update rules.

    Cached: a write reads the new fact and each candidate it is checked against, and the same
    stored facts are candidates again and again (a ``Statement`` is immutable)."""
    line = " ".join(text.replace("\u2019", "'").split()).rstrip(" .!…")
    line = re.sub(r"\b(?:I'm|I am)\b", "I am", line)
    line = re.sub(r"\bdoesn't\b", "does not", line)
    line = re.sub(r"\bdon't\b", "do not", line)
    line = re.sub(r"\bisn't\b", "is not", line)
    line = re.sub(r"\bI've\b", "I have", line)
    ceased = bool(_CEASED.search(line))
    negated = not ceased and bool(_NEGATION.search(line))
    positive = _STRIP_NEGATION.sub("", line) if (ceased or negated) else line
    positive = re.sub(r"\b(?:[Tt]hese days|[Aa]t the moment|[Rr]ight now),?\s*", "", positive)
    positive = " ".join(w for w in positive.split() if w.casefold().strip(",") not in ADVERBS)

    slot = value = None
    about_user = False
    rest = None
    m = _USER_POSSESSIVE.match(positive)
    if m:
        rest = positive[m.end():]
        for name, rule in _POSSESSIVE_RULES:
            hit = rule.match(rest)
            if hit:
                about_user = True
                value = [g for g in hit.groups() if g][-1]
                slot = f"preference:{_topic(hit.group('topic'))}" if name == "favourite" else name
                break
    if slot is None:
        m = _user_subject(positive, lenient=ceased or negated)
        if m:
            about_user = True
            rest = positive[m.end():]
            rest = re.sub(r"^(?:does|do|did)\s+", "", rest)
            for name, rule in _PREDICATE_RULES:
                hit = rule.match(rest)
                if hit:
                    value = next(g for g in hit.groups() if g)
                    slot = f"preference:{_topic(value)}" if name == "preference" else name
                    break
            else:
                hit = _IS_A.match(rest)
                if hit and _is_job(hit.group("value")):
                    slot, value = "job", hit.group("value")
    rescheduled: tuple[str, ...] = ()
    when: frozenset[str] = frozenset()
    if about_user and slot is None and not (ceased or negated) and rest is not None:
        hit = _RESCHEDULE.match(rest)
        if hit and _when_words(hit.group("when")):
            rescheduled = tuple(sorted({_stem(w) for w in _WORD.findall(hit.group("what")) if w not in _FILLER}))
            when = _when_words(hit.group("when"))
    clauses: tuple[Statement, ...] = ()
    parts = _CLAUSE.split(line)
    if about_user and len(parts) > 1:
        clauses = (read(parts[0]), *(_clause(part) for part in parts[1:]))
        # The slot a clause fills is the statement's (so the store looks it up), not one read
        # across the clauses ("lives in Lyon and now works at X" is not a home "Lyon and … X").
        filled = next((c for c in clauses if c.slot is not None), None)
        slot, value = (filled.slot, filled.value) if filled is not None else (None, None)
    frame, cased = _frame(positive)
    return Statement(
        text=text, slot=slot, value=_norm_value(value) if value else None, negated=negated, ceased=ceased,
        about_user=about_user, frame=frame, cased=cased, rescheduled=rescheduled, when=when, clauses=clauses,
    )


def _clause(part: str) -> Statement:
    """A later clause: with its own subject ("… but now I live in Perth") or the sentence's
    ("… and now drives a Renault", read as "I now drives a Renault")."""
    own = read(part)
    return own if own.about_user else read("I " + part)


def _when_words(text: str) -> frozenset[str]:
    """The day, month, time-of-day and number words of ``text`` (singular, lower case)."""
    found = set()
    for w in _WORD.findall(text.casefold()):
        w = _singular(w)
        if w in _DAYS or w in _MONTHS or w in _TIMES or any(ch.isdigit() for ch in w):
            found.add(w)
    return frozenset(found)


def _user_subject(text: str, *, lenient: bool = False) -> re.Match | None:
    m = _USER_SUBJECT.match(text)
    if m and m.group("name") and not lenient and not _VERB_LIKE.match(m.group("next")):
        return None
    return m


def _frame(positive: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    subject = _user_subject(positive, lenient=True) or _USER_POSSESSIVE.match(positive)
    body = positive[subject.end():] if subject else positive
    words = _WORD.findall(body)
    cased = ("USER", *tuple(words)) if subject else tuple(words)
    return tuple(w if w == "USER" else _singular(w.casefold()) for w in cased), cased


def _value_like(words: list[str]) -> bool:
    for w in words:
        low = w.casefold()
        if any(ch.isdigit() for ch in low) or _singular(low) in _DAYS or low in _MONTHS or low in _TIMES:
            return True
        if w[:1].isupper() and low not in ("i",):
            return True
    return False


def _near_duplicate(new: Statement, old: Statement) -> bool:
    """The same sentence frame with one value swapped (see the module docstring).

    The frames must agree word for word except for one stretch of one to three words on each
    side: strip the common beginning and the common end, and what is left is the swap."""
    a, b = old.frame, new.frame
    if not (new.about_user and old.about_user) or not a or not b or a == b or abs(len(a) - len(b)) > 2:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    i2, j2 = len(a) - end, len(b) - end
    if not (1 <= i2 - start <= 3 and 1 <= j2 - start <= 3) or start + end < 2:
        return False
    shared = [w for w in a[:start] + a[i2:] if w != "USER"]
    if any(w in MANY_VALUED or w + "s" in MANY_VALUED for w in shared) or not any(w not in _FILLER for w in shared):
        return False
    return _value_like(list(old.cased[start:i2])) and _value_like(list(new.cased[start:j2]))


def same_fact(new: Statement, old: Statement) -> bool:
    """Both say the same thing about the same slot: the new one is a duplicate (a compound
    statement never is: it says more than one fact)."""
    return (not new.clauses and new.slot is not None and new.slot == old.slot and new.value == old.value
            and (new.negated or new.ceased) == (old.negated or old.ceased) and new.about_user and old.about_user)


def supersedes(new: Statement, old: Statement) -> bool:
    """True when storing ``new`` makes ``old`` no longer current (a compound statement: when any
    clause of ``new`` supersedes ``old`` or one of its clauses)."""
    news, olds = (new, *new.clauses), (old, *old.clauses)
    return any(_supersedes(n, o) for n in news for o in olds)


def _reschedules(new: Statement, old: Statement) -> bool:
    """``new`` moves an activity ``old`` mentions to another day, date or time."""
    if not new.rescheduled or not old.about_user or old.negated or old.ceased:
        return False
    stored = {_stem(w) for w in old.frame if w != "USER"}
    said_when = _when_words(" ".join(old.cased))
    return set(new.rescheduled) <= stored and bool(said_when) and said_when != new.when


def _supersedes(new: Statement, old: Statement) -> bool:
    if new.ceased:  # a withdrawal replaces nothing; it invalidates (see ``retracts``)
        return False
    old_negated = old.negated or old.ceased  # a stored "no longer lives in Paris" reads as a negation
    if new.slot is not None and new.slot == old.slot and new.about_user and old.about_user:
        if new.negated == old_negated:
            return new.value != old.value and not new.negated
        return new.value == old.value  # "lives in Lyon" ⇄ "does not live in Lyon"
    if old.ceased:
        return False
    if new.negated != old.negated:
        # "likes tea" ⇄ "does not like tea"
        return new.about_user and old.about_user and bool(new.frame) and new.frame == old.frame
    return not new.negated and (_near_duplicate(new, old) or _reschedules(new, old))


def _stem(word: str) -> str:
    """A crude stem, enough to match "rehearsing" / "rehearses" / "rehearsed" / "rehearse"."""
    for suffix in ("ing", "es", "ed", "s", "e"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiousl":
        word = word[:-1]  # "shipp(ing)" → "ship"
    return word


def _topic_words(statement: Statement) -> set[str]:
    return {_stem(w) for w in statement.frame if w != "USER" and w not in _FILLER and w not in _STOP_TOPIC}


_STOP_TOPIC = frozenset("that this it what where who about my their they them does do did has have".split())


def retraction_slot(statement: Statement) -> str | None:
    """The slot a withdrawal names, read from its words when no value is given ("forget my address")."""
    if statement.slot is not None:
        return statement.slot
    words = set(statement.frame)
    for slot, keys in SLOT_WORDS.items():
        if words & keys:
            return slot
    return None


def retracts(withdrawal: Statement, old: Statement) -> int | None:
    """How well ``withdrawal`` ("no longer …", "forget that …") names ``old``: None for no match,
    else a cost (lower is a closer match: the number of words ``old`` says beyond it)."""
    if old.negated and not withdrawal.negated and withdrawal.slot is None:
        return None
    slot = retraction_slot(withdrawal)
    if slot is not None and old.slot == slot and old.about_user:
        if withdrawal.value is None or withdrawal.value == old.value:
            return 0
        return None
    wanted, stored = _topic_words(withdrawal), _topic_words(old)
    if not wanted or not wanted <= stored:
        return None
    return len(stored - wanted)


__all__ = ["Statement", "read", "slot_of", "supersedes", "same_fact", "retracts", "retraction_slot", "MANY_VALUED"]
