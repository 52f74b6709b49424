"""The offline update decider: same attribute by meaning, then a different value.

The server has already embedded every fact, so deciding "same attribute, new value" costs two small
matrix products and, for a fact whose attribute can matter, one short embedding (and one word, the first
time a possessive's head noun is seen), not a model call:

1. **Attribute** — a fact is compared with a few hundred labelled example facts
   (``data/update_exemplars.txt``, embedded once per embedding model) twice: by its own vector and by its
   masked twin's (``updates.masked``: "The user's partner is X."). The twin is embedded only when the rules
   below leave the attribute open (a fact about the user, current and not negated: most of a long history is
   about other people or the past), and the label is kept per text, so a stored fact reads the same after a
   restart as when it was written. The nearest examples vote in each reading, and the label both readings back
   wins (the product of their shares): a value pulls its own reading towards examples with a similar value
   ("partner is Mariana" towards "name is Marian", "works for Northgate Logistics" towards "the logistics
   team"), the masked one reads the wording alone, and masked wording two labels share ("works at X" and
   "works in X") does not vote. Single-valued families are home, name, surname, age, employer, job, partner,
   car, phone, email, favourite (one per kind: a kind the fact names, "favourite podcast", is its label, one
   word for each kind: "favourite group" is "favourite band") and schedule (one per activity). The other
   labels (likes, pets, languages, trips, where one grew up, a landline …) are there so that near misses land
   on them and fill no slot; the ``everyday`` label (errands, meals, plans, passing news) is the bulk of a
   long history: without it, a fifth of a 590-memory history was read as single-valued and replaced by
   unrelated facts. Half its examples were written by someone who saw no history, from a list of kinds: the
   first half, written looking at dev's haystack, left "plays a bit of guitar" a job and "bonded over pho" a
   partner in histories by other authors. Near misses carry values as facts do (a guest, a show's title, a
   place passed through, a pet's name): a twin with an X is otherwise drawn to the single-valued examples, the
   only ones with an X. An
   example that shares the fact's value ("born outside Cork" for "based in Cork"), or the name the fact opens
   with (a user called Mei, and "got together with Mei"), does not vote in the fact's own reading: it is near by
   that word alone. An e-mail address is the email attribute, whatever the wording
   ("reach them at …").
2. **Value** — the words of a fact that are not its attribute's wording: the words the examples of
   that attribute share are its frame ("lives", "moved", "favourite", "colour"), the rest are the
   value. Proper nouns and numbers count first ("34th" is 34). Two facts of one single-valued
   attribute conflict when each has a value the other lacks; the same value again is ``SAME``; a
   value plus detail ("my flat in Porto has a balcony") is neither, and both stay. A name beside the
   user's old name renames them ("Katherine now goes by Kit": the distiller writes the user by name).
   A work address or number sits beside the personal one. An age is a number ("34", "forty-two", "twenty-ninth"),
   never a day of a month: "Dmitri's birthday is on jan 7th" says no age. An e-mail address or a phone number is
   one value, whatever its case or spacing ("office@…" is no work word).

Rules stay only where a rule is the simplest correct tool:

* **subject** — a fact about someone else ("Alex's brother lives in Oslo", "the user's dog is called
  Rolo", "the user's shop moved to Rye") never supersedes the user's. The possessive chain is read by
  ``subject.py``, as relevance reads it: "the user's partner's mum" is the mum's. A fact about the user's
  partner alone that names them and that the examples read as the partner attribute ("the user's new
  partner, Ana, …", "the user's partner's name is Ana") is the user's; what the partner did ("the user's
  wife got them tickets") is the partner's. A fact that opens with another noun phrase, the user's possessive
  inside it, is that one's ("The sister of the user's husband works as …"). A person no relation word names
  ("the user's chiropodist moved to Sligo") is someone else by meaning (``persons.py``: nearer people's occupations than the things a user has),
  unless the examples put that noun after "the user's" themselves ("employer", "nickname", "favourite");
* **not current** (``timeframe.not_current``: "years ago", "as a child", "back in uni", "they were working as
  … for five years", "would love to", "daydreams about", "if they won") — the distant past or a wish holds no
  current value, so it neither supersedes nor is superseded;
* **departure** — the verbs of leaving (``updates.LEAVING``: "sold", "quit", "left", "moved out of",
  "broke up with" …), of exchange ("traded in", "replaced", "overtaken", "knocked … off", "switched …
  from X to Y"), "X but now Y" and "not X any more, (it's) Y now" (``updates.NEW_VALUE_NOW``, the same reading
  that keeps the new half from being a withdrawal): what was left is replaced whatever its attribute (matched by
  the words' first letters: "carpentry" names "carpenter"), so "sold my Corolla and bought a Tesla" replaces the
  Corolla while two cars said plainly stay;
* **additive words** ("also", "too", "as well", "another", "a second") add: a fact told with them is one of many,
  so it neither replaces a stored fact nor is replaced ("also drives a Mini" stays beside "drives a Polestar");
  an ordinal is no such word ("in their second year of a PhD");
* **a time that comes round again** (``timeframe.RECURRING``: "on Wednesdays", "every other Sunday") makes a
  fact a schedule when the examples read no other single-valued attribute in it: "goes climbing on Wednesdays"
  is a schedule whatever the activity, though its nearest example is "once climbed a volcano";
* **preference words** ("favourite", "prefers", "go-to", "of choice", "likes … best" …) make a fact a
  favourite of one kind, their absence a like of many: "prefers tea" and "likes tea" differ in that word, not
  in topic; the user's liking with no preference word ("loves shakshuka", "is really into fado") is a like,
  however near a name or a job its words sit; a name given to something else ("will call it Biscuit") is not
  the user's;
* **words of naming or of a couple** — a name's and a partner's values are people's names, and any name sits
  near the examples' names: a fact with no naming word ("called", "goes by", "known as") is not the name, one
  with no couple's word ("girlfriend", "dating", "married", "broke up", "is with …") not the partner ("Mei texts
  sometimes", "Leah is shattered today");
* **a place been to or lived in before** ("has been to Valencia twice", "their previous flat in Ghent") is no
  home, however near one its words sit, unless the fact leaves it for another ("moved from their old flat in Bath
  to a house in York");
* **working from a place** ("is working from the library today") says where the user worked, not for whom: it is
  no employer;
* **occupation words** ("works as", "employed as", "for a living", "by trade", "went back to being", "promoted
  to", "title changed to") make a fact the job, whatever the occupation: the examples' embedding reads a rare
  one ("works as a ropemaker") as the nearest employer; and a fact with no word that names a person who does
  something (``persons.py``: "welder", "dispatcher") is no job, however near one it sits ("is on dishes",
  "knee-deep in spreadsheets today");
* **polarity** — "likes tea" and "does not like tea" (or a stored "no longer …") are the same words
  with the sign flipped: the newer wins. The sign is the main clause's (the one naming the user):
  "not teaching any more, the user is a librarian" states a new job;
* **withdrawal** (``updates.withdrawal``) — takes back the stored facts whose words name what it left
  ("no longer plays darts": darts, not "plays the trumpet"; not a remark after it: "…, the pub shut down"), or the
  facts of the attribute it names ("forget my address"); a deed done ("cancelled the class last Tuesday") is no
  state to take back.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .persons import PersonWords
from .subject import MODIFIERS, PARTNER, RELATION, fronted_subject, group_member, possessed
from .timeframe import DATE, RECURRING, TIME_WORDS, not_current
from .updates import (
    CONTACT,
    EMAIL,
    LEAVING,
    NEW_VALUE_NOW,
    Fact,
    Verdict,
    is_withdrawal,
    masked,
    named_subject,
    value_words,
)
from .updates import WORD as _WORD
from .updates import withdrawal as withdrawal_of

__all__ = ["EXEMPLARS", "KIND_SYNONYMS", "MeaningDecider", "PREFERENCE", "SINGLE_VALUED", "labelled_lines", "poll",
           "read"]

EXEMPLARS = Path(__file__).with_name("data") / "update_exemplars.txt"
SINGLE_VALUED = frozenset("home name surname age employer job partner car phone email favourite schedule".split())
#: How many nearest examples vote, how fast a vote fades with distance from the nearest one, and
#: how close the nearest must be for any attribute at all, in the fact's own reading and in its masked
#: twin's (a name as the subject, "Noor's job is …", pulls the first down: the examples all say "the
#: user", as the distiller mostly does; twins, all "X", are closer to everything).
NEIGHBOURS, SHARPNESS, MIN_SIMILARITY = 10, 0.05, (0.35, 0.5)
#: Masked twins of two labels' examples this similar are the same wording: neither votes by wording.
TWIN_CLASH = 0.925
#: How much a label keeps when one reading gives it nothing (the product of the two readings' shares).
AGREEMENT = 0.05
_EXAMPLES: dict[str, tuple[np.ndarray, np.ndarray]] = {}

_STOP = frozenset("""i i'm i've me my we our a an the of in on at to for from with by and or but so as into onto about over after before since
    until while during than then now currently still just really also too very is am are was were be been being has have
    had do does did will would can could should may might must this that these those it its they them their there here
    where which who what when again user user's new old go-to all-time honestly finally actually these days ago last next
    month months week weeks year years starting once past around back some someone all one per every
    move moved moves moving became become becomes turned turn has got get gets took take started start starts
    switched changed pushed rescheduled shifted brought joined signed left quit sold bought now""".split())
_NEGATED = re.compile(r"\b(?:not|never|no longer|any ?more|any longer|stop(?:ped|s)|quits?|ceased to)\b", re.IGNORECASE)
#: Words that add one more of a kind ("also", "another", "a second car"), not an ordinal ("in their second year").
_ADDITIVE = re.compile(r"\b(?:also|too|as well|another|an? (?:second|third)|additionally|one of)\b", re.IGNORECASE)
_DEPARTURE = re.compile(
    rf"\b(?:{LEAVING}|traded in|swapped|replaced|overt(?:ook|aken)|knocked)\s+(?P<what>.+?)(?=\s+(?:and|but|for|with|to|off|as)\b|[,;:\u2014\u2013]|\s-\s|$)"
    r"|\b\w+ed\s+(?:\w+\s+){0,3}?from\s+(?P<source>[^,;]+?)\s+to\s"  # "upgraded from X to Y"
    r"|\bprefer\w*\s.+?\b(?:over|rather than|instead of|to)\s+(?P<rejected>.+?)(?=\s+(?:and|but)\b|[,;:\u2014\u2013]|\s-\s|$)"
    r"|^(?P<before>.+?)\s+but\s+(?:now|these days|nowadays)\b"
    rf"|\b(?:not|no longer)\s+(?P<stopped>[^,;]+?)(?:\s+any ?(?:more|longer))?(?={NEW_VALUE_NOW})", re.IGNORECASE)
_LEAVING = re.compile(rf"\b(?:{LEAVING})\b", re.IGNORECASE)
_RELATION = re.compile(RELATION, re.IGNORECASE)
#: A word before "the user's" that does not hide the possessive ("ngl the user's stepdad …"); a preposition does.
_WORD_BEFORE_POSSESSIVE = re.compile(r"^(?!(?i:from|at|of|in|on|with|to|by|for)\b)[\w-]+\s+(?=(?i:the user's)\s)")
#: Words that end a possessive's noun phrase ("the user's home is …", "the user's flat in Porto …").
_PHRASE_END = frozenset("is are was were has had have called named in at on to of for with by from and".split())
# "Since the spring, the user's home …" — not the main clause of "The user has given up X, …" or "Bram's
# neighbour is called Bram, …" (a lead has no verb of its own)
_LEAD = re.compile(r"^(?![^,;]*\b(?i:the user|they|them|their)\b)(?![^,;]*(?:\b(?i:is|are|was|were|has|have|had)\b|'s\b))"
                   r"[A-Z][^,;]{0,40},\s+(?=\S)")
#: The words that make a fact a favourite (one per kind) rather than a like (many at once), and a question ask for one:
#: "favourite", "go-to", "likes … best", "loves … the most", "most enjoys" (not "most days", "most of the time").
PREFERENCE = re.compile(r"\b(?:(?:favou?rite|prefer\w*|go-to|of choice|all-time|rather|more than any|best of all)\b"
                        r"|(?:like|love|enjoy)s? (?:[\w-]+ ){0,3}"
                        r"(?:best|(?:the )?most(?! (?:days|of|times|weeks|nights)\b))"
                        r"(?=$|[,;.?]|\s+(?:now|these days|of all|by far|at the moment)\b)"
                        r"|most (?:like|love|enjoy)s?\b)", re.IGNORECASE)
#: A partner word followed by the partner's name or what they are called: the partner attribute itself.
_NAMES_PARTNER = re.compile(rf"\b(?i:{PARTNER})(?:'s\s+name\b|[^,.;]{{0,20}}?\b(?:is|was|been|called|named)\b|,?\s+[A-Z])")
#: Who did something with the user, as the distiller tells it ("The user and their girlfriend are binging …"): the
#: relation word says who was there, not what the fact is about (``_TOLD_WITH`` looks past it).
_COMPANION = re.compile(r"^(?:The user|[A-Z][\w-]*) and their [\w-]+")
#: Attributes a fact tells only in some words, whatever examples it sits near. A person's name: a partner's relation
#: word, a couple's verbs ("dating", "married", "seeing", "broke up") or "with" someone ("is with Lotte now"); the
#: user's naming words ("called", "goes by", "known as") or "is" a name alone ("the user is Orla Kavanagh now"). Any
#: name sits near the examples' names: a fact with none of these words ("Mei texts sometimes") names neither. An
#: employer: work's words ("works", "job", "joined", "hired", "at Halden now"); "started Wild Acre on a friend's rec"
#: is a show, "fixing the printer" a chore.
_TOLD_WITH = {
    "employer": re.compile(r"\b(?:work\w*|jobs?|employ\w*|hired|joined|company|firm|position|role|contract|signed|"
                           r"poached|taken on|career|office|boss|colleagues?|salary|pay\w*|"
                           r"(?:started|starting|moved over|jumped ship|now|been|is|am|are|'m|'re|'s) (?:at|with|for|to))\b",
                           re.IGNORECASE),
    "partner": re.compile(rf"\b(?:{PARTNER}|[bg]f|other half|significant other|dat(?:e|es|ed|ing)|marri(?:ed|age)|marry|"
                          r"wed(?:ding)?|engaged|anniversary|seeing|going out|goes out|went out|together|relationship|single|"
                          r"split|broke up|breaking up|ended things|moved in|in love|(?:is|are|am|been|'s|'m)\s+(?:\w+\s+)?with\s+\w+)\b",
                          re.IGNORECASE),
    "name": re.compile(r"\b(?:(?:first |last |full |middle |second |given )?names?d?|call(?:s|ed|ing)?|go(?:es|ing)? by|went by|"
                       r"known as|nickname\w*|address(?:ed)? (?:\w+ )?as)\b|^(?:the user|they) (?:is|are) (?-i:[A-Z])\w*(?: (?-i:[A-Z])\w*)?"
                       r"(?: now)?\W*$", re.IGNORECASE),
}
#: A place been to ("visited Oaxaca", "add Lima to the places they have been") or a former one ("their old school in
#: Osaka", "a previous flat in Leeds"): where the user is not living now, however near a home its words sit.
_NO_HOME = re.compile(r"\b(?:visit(?:s|ed|ing)?|been to|(?:places|countries|cities) (?:\w+ ){0,3}(?:been|visited|seen)|trips? to|"
                      r"travel+ed to|holiday(?:s|ed|ing)? in|(?:old|former|previous) (?:\w+ )?(?:school|uni|university|college|"
                      r"flat|house|home|apartment|place|neighbourhood|street|town|city|village))\b", re.IGNORECASE)
#: Working from a place ("ended up working from the library") says where the user worked, not for whom.
_WORKS_FROM = re.compile(r"\bwork(?:s|ed|ing)? from\b", re.IGNORECASE)
#: What is someone else's in a fact about the user: a thing of their circle's ("drove their dad's Volvo") or the
#: name of someone in it ("ran into their ex, Colm"), but not the partner's name ("their girlfriend Leah").
_SOMEONE_ELSES = re.compile(
    rf"\b(?i:their|his|her|the user's)\s+(?:[a-z]+\s+)?(?!(?i:{PARTNER})\b)(?i:{RELATION})"
    r"(?:(?:'s|s')\s+(?P<thing>[\w'-]+(?:\s+[\w'-]+){0,3}?)|,?\s+(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?))"
    r"(?=\s+(?:to|for|at|in|on|with|from|and|but|while|when|is|was|has)\b|[,;.!]|$)")
#: The user's liking of something ("the user loves shakshuka", "they are really into fado"): a like, one of many.
_LIKING = re.compile(r"(?:\b(?i:the user|they)|^[A-Z][\w\-]*)\s+(?:\w+ly\s+|really\s+|just\s+)?(?:loves|likes|enjoys|adores|hates|"
                     r"dislikes|(?:is|are) (?:really |totally )?into|(?:is|are) (?:a |such a )?(?:big |huge )?(?:fan of|sucker for)|"
                     r"(?:is|are) obsessed with)\b")
#: A name given to someone or something else ("will call it Biscuit", "named her Pip"), not to the user.
_NAMING_ANOTHER = re.compile(r"\b(?i:call(?:s|ed|ing)?|nam(?:e|es|ed|ing))\s+(?:it|him|her)\b")
#: A name that did something to the user ("Björn told them their favourite book is …", "Mei finally texted them"):
#: the distiller writes the user as "them", so the name is someone else's.
_TO_THEM = re.compile(r"^(?!The\b)([A-Z][\w-]*)\s+(?:\w+ly\s+)?"
                      r"(?!(?:for|to|with|of|at|by|on|in|from|about|like)\b)\w+\s+them\b")
#: Words that say a fact is the user's occupation, whatever it is: "works as a glassblower", "does localisation for a
#: living", "title changed to product owner" (the examples cannot know every occupation's name).
_OCCUPATION = re.compile(r"\b(?:works? as|working as|employed as|(?:re-?)?qualified as|retrained as|promoted to|for a living"
                         r"|(?:went|gone|going) back to being|by (?:trade|profession)|earns? (?:a|their) living"
                         r"|(?:job|role) as|(?:new|current) (?:job|role) is|job title is|(?:job )?title(?: \w+)? changed to)\b",
                         re.IGNORECASE)
_FOR_WORK = re.compile(r"\b(?:work|office|business)\b", re.IGNORECASE)
#: What the user is now, in so many words: "is a luthier", "is finally a welder", "has been a court stenographer",
#: "became a paramedic", "works as a courier", "went back to being a nurse", "promoted to head chef", "their job is
#: dispatcher". Group 1 is the noun phrase; the last of its words that names a person (:mod:`.persons`) is the
#: occupation. "was a …" is the past.
_IS_A = re.compile(r"\b(?:(?:is|are|am|has been|became|has become|being|as|now)"
                   r"\s+(?:now\s+|also\s+|still\s+|\w+ly\s+)?(?:an?|the)|promoted to|appointed(?: as)?|"
                   r"(?:title|job|role|position|profession|occupation) is(?: now)?)"
                   r"\s+(?!user\b)((?:[\w-]+\s+){0,3}?[\w-]+)"
                   r"(?=\s+(?:at|in|for|with|on|from|and|but|by|now|these|who|\w+ing)\b|[,;.!\u2014]|$)", re.IGNORECASE)
#: Someone in the user's life who is also a trade: "is a teacher", "was appointed ward manager" name a job.
_TRADE = re.compile(r"boss|manager|teacher|coach|landlord|landlady")
#: What makes a person's noun a pastime, not an occupation: "a keen amateur photographer in their free time".
_PASTIME = re.compile(r"\b(?:amateur|keen|hobby\w*|for fun|on the side|in (?:their|his|her) (?:free|spare) time)\b", re.I)
#: Labels the labeller gives an occupation it does not know ("is a luthier" is near no example of a job).
_MAY_BE_WORK = frozenset(["", "job", "employer", "workplace", "everyday", "education", "business"])
#: What an age is: a number, in digits or words ("34", "forty-two", "twenty-ninth"), not a day of a month.
_AGE = re.compile(r"\d{1,3}|(?:(?:twent|thirt|fort|fift|sixt|sevent|eight|ninet)(?:y|ieth)|eleven(?:th)?|twel(?:ve|fth)|\w+teen(?:th)?)"
                  r"(?:-(?:one|two|three|four|five|six|seven|eight|nine|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth))?")
_KIND = re.compile(r"\bfavou?rite\s+(time of (?:year|day)|[a-z]+)", re.IGNORECASE)
#: One kind in other words: "favourite group" is "favourite band", "favourite time of year" "favourite season".
KIND_SYNONYMS = {"movie": "film", "flick": "film", "color": "colour", "novel": "book", "dish": "food", "meal": "food",
                  "group": "band", "track": "song", "tune": "song", "writer": "author", "novelist": "author",
                  "beverage": "drink", "programme": "show", "series": "show", "time of year": "season"}


def _whose(line: str, links: list[str] | None) -> str | None:
    """Whose fact it is when not the user's, read by ``subject.py`` (relevance reads the subject there too): a
    possessive chain with a relation word among a link's first words ("sister's boyfriend", "partner's mum",
    "choir director") or a person named right after them ("the user's physio Dana"), or a member of the
    user's circle ("Ivy from the user's choir", "the user's rafael from work"), or a noun phrase the fact
    opens with ("The sister of the user's husband …"), or a name that did something to the user ("Björn told
    them …"), or whatever a name is given to ("will call it Biscuit"). ``links`` is the chain :func:`read`
    found; a word before the possessive ("ngl the user's stepdad …", "Yesterday the user's nephew …") does not
    hide it."""
    if _NAMING_ANOTHER.search(line):
        return "it"
    if links is None:
        to_them = _TO_THEM.match(line)
        return group_member(line) or fronted_subject(line) or (to_them[1].casefold() if to_them else None)
    if len(links) > 1 and links[-1].casefold().startswith("name"):  # "the user's partner's name is Ana": the partner
        links = links[:-1]
    heads, someone = [], False
    for link in links:
        words = _WORD.findall(link)[:4]
        size = next((i for i, w in enumerate(words[:3]) if w[:1].isupper() or w.casefold() in _PHRASE_END), len(words[:3]))
        phrase = [w for w in words[:size] if w.casefold() not in MODIFIERS]
        kin = [w for w in phrase if _RELATION.fullmatch(w.removeprefix("ex-"))]
        named = size < min(3, len(words)) and ((words[size][:1].isupper() and words[size].casefold() not in TIME_WORDS)
                                               or words[size].casefold() == "from")
        someone = someone or bool(kin) or bool(phrase and named and re.match(rf"{' '.join(words[:size])}\s+\w", link))
        heads.append(kin[0] if kin else " ".join(phrase))
    return "'s ".join(heads).casefold() if someone else None  # a lone partner word can be the user's partner


def _head(links: list[str] | None) -> tuple[str, ...]:
    """The noun phrase of the last link of the possessive a fact opens with, its words before the verb ("the
    user's old physio moved …" → old, physio; "the user's dentist appointment is …" → dentist, appointment):
    whose the fact is, when no relation word says. A value ("Ana", an address) ends it."""
    if not links:
        return ()
    return tuple(itertools.takewhile(lambda w: re.fullmatch(r"[a-z][a-z-]*", w) and w not in _PHRASE_END
                                     and not re.search(r"(?:ed|[^s]s|ly)$|^(?:now|just|still|also|already|then)$", w),
                                     links[-1].split()[:3]))


def _stem(word: str) -> str:
    """A crude stem, enough to match "rehearsing" / "rehearses" / "rehearsed" / "rehearse"."""
    for suffix in ("ing", "es", "ed", "s", "e"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiousl" else word


def _roots(words: frozenset[str]) -> set[str]:
    """Words by their first letters after stemming: "carpentry" names "carpenter", "smoking" "smokes"."""
    return {_stem(w)[:6] for w in words}


def _contact(text: str) -> str:
    """An address or number as one value: "0412 118 990" is "0412118990", "Mo@Mail.com" is "mo@mail.com"."""
    return re.sub(r"[\s\-]", "", text).casefold()


def _number(word: str) -> str:
    """"34th" → "34" (an age told as a birthday); other words unchanged."""
    hit = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", word)
    return hit.group(1) if hit else word


@dataclass(frozen=True)
class Reading:
    """What the rules read from a fact's words (cached per text)."""

    words: tuple[str, ...]      # the positive sentence's words, original case, subject left out
    relation: str | None        # whose fact, when not the user's ("brother", "ex-wife", "dog")
    head: tuple[str, ...]       # the possessive's noun phrase ("old physio" in "the user's old physio moved …")
    negated: bool
    additive: bool
    departed: frozenset[str]    # lower-case words of what the sentence says was left
    kind: str | None            # the literal kind of a favourite ("colour")
    not_now: bool               # the distant past or a wish (``timeframe.not_current``): no current value
    others: frozenset[str] = frozenset()  # lower-case words that are someone else's ("Volvo" in "their dad's Volvo")
    dates: frozenset[str] = frozenset()   # the numbers of days of a month ("28" in "june 28th"): no age


@lru_cache(maxsize=8192)
def read(text: str) -> Reading:
    line = " ".join(text.replace("\u2019", "'").split()).rstrip(" .!…")
    line = _LEAD.sub("", line)
    links = possessed(_WORD_BEFORE_POSSESSIVE.sub("", line))  # read once: whose fact, and its noun phrase
    whose = _whose(line, links)
    line = re.sub(r"n't\b", " not", line)
    words = _WORD.findall(_NEGATED.sub(" ", line))
    if words and words[0].removesuffix("'s") == named_subject(line):
        words = words[1:]  # "Alex lives in Lyon": the user's name is the subject, not a value
    departed: set[str] = set()
    for hit in _DEPARTURE.finditer(line):
        departed |= {_number(w.casefold()) for w in _WORD.findall(next((g for g in hit.groups() if g), ""))}
    named = _KIND.search(line)
    # the sign is the main clause's: "not teaching any more, the user is a librarian" is positive
    clauses = re.split(r"[,;:]|\s[-–—]\s", line)
    main = next((c for c in clauses if re.search(r"\b(?:the user|they)\b", c, re.IGNORECASE)), clauses[0])
    negated = bool(_NEGATED.search(main)) and not departed
    kind = named.group(1).casefold() if named and named.group(1).casefold() not in _STOP else None
    others = {w.casefold() for hit in _SOMEONE_ELSES.finditer(line) for w in _WORD.findall(hit["thing"] or hit["name"])}
    return Reading(tuple(w.removesuffix("'s") for w in words), whose, _head(links), negated,
                   bool(_ADDITIVE.search(line)), frozenset(departed - _STOP), KIND_SYNONYMS.get(kind or "", kind),
                   not_current(text), frozenset(others),
                   frozenset(day for hit in DATE.finditer(line) for day in hit.groups() if day))


class MeaningDecider:
    """The offline decider (see the module docstring). ``embed`` embeds the labelled examples once;
    without one (a store opened with no embedder) no fact gets an attribute, and only the rules decide."""

    name = "meaning"

    def __init__(self, embed: Callable[[list[str]], Any] | None, *, key: str | None = None) -> None:
        self._embed, self._key = embed, key if key is not None else str(id(embed))
        labels, texts = zip(*labelled_lines(EXEMPLARS), strict=True)
        self.labels: tuple[str, ...] = labels
        self.frames = _frames(labels, texts)
        self._texts = list(texts)
        self._labels_of: dict[str, str | None] = {}  # stored facts' labels, by text
        # any attribute's wording; not the everyday examples' shared words: topics ("coffee"), not a wording
        self._framing = {_stem(w) for label, frame in self.frames.items() if label != "everyday" for w in frame}
        self._favourite = np.array([label.startswith("favourite:") for label in labels])
        self._likes = np.array([label == "likes" for label in labels])
        self._values = [value_words(text) for text in texts]
        self._persons = PersonWords(embed) if embed is not None else None
        # the words the examples put after "the user's" ("employer", "nickname", "favourite"): the user's own
        self._own_words = {word for text in texts for word in read(text).head} - MODIFIERS

    def warm(self) -> None:
        """Embed the examples now (once per embedding model and process), so no request pays for it later."""
        self._examples()

    def _examples(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The examples' vectors and their masked texts' vectors, embedded once per embedding model
        (``key``) and process."""
        if self._embed is None:
            return None
        if self._key not in _EXAMPLES:
            both = np.asarray(self._embed(self._texts + [masked(t) for t in self._texts]), dtype=np.float32)
            full, twins = both[: len(self._texts)], both[len(self._texts):]
            # a masked twin another label also has ("works in X": a city, "works at X": a firm) tells nothing
            labels = np.array(self.labels)
            clash = ((twins @ twins.T > TWIN_CLASH) & (labels[:, None] != labels[None, :])).any(axis=1)
            _EXAMPLES[self._key] = full, np.where(clash[:, None], 0.0, twins).astype(np.float32)
        return _EXAMPLES[self._key]

    def label(self, fact: Fact) -> str | None:
        """The attribute label the nearest examples vote for (single-valued or not), or None."""
        if fact.text in self._labels_of:
            return self._labels_of[fact.text]
        if len(self._labels_of) > 8192:
            self._labels_of.clear()
        self._labels_of[fact.text] = found = self._label(fact)
        return found

    def _label(self, fact: Fact) -> str | None:
        reading = read(fact.text)
        kind = reading.kind
        if kind is not None:  # "favourite podcast" names its kind: no vote needed
            return f"favourite:{kind}"
        if EMAIL.search(fact.text):  # an address is an e-mail address whatever the wording ("reach them at …")
            return "email"
        examples = self._examples()
        if examples is None or examples[0].shape[1] != np.asarray(fact.vector).shape[-1]:
            return None
        # "prefers tea" and "likes tea" differ in one word, not in topic: that word picks favourite or like
        preferred = PREFERENCE.search(fact.text)
        if not preferred and _LIKING.search(fact.text):
            return "likes"  # "loves shakshuka" is one like among many, however near a name or a job it sounds
        family = ~self._likes if preferred else ~self._favourite
        twin = masked(fact.text)
        twin_vector = fact.vector if twin == fact.text else np.asarray(self._embed([twin]))[0]  # type: ignore[misc]
        # an example that shares the fact's value ("born outside Cork" for "based in Cork") or the name it opens with
        # (the user Mei, and "got together with Mei") is near by that word alone: it does not vote in the fact's own reading
        ours = value_words(fact.text) | frozenset(w.casefold() for w in (named_subject(fact.text) or "").split())
        apart = family & np.array([not (ours & theirs) for theirs in self._values])
        polls = []
        for matrix, vector, least, allowed in zip(examples, (fact.vector, twin_vector), MIN_SIMILARITY, (apart, family),
                                                  strict=True):
            found = poll(np.where(allowed, matrix @ np.asarray(vector, dtype=np.float32), -1.0), self.labels, least)
            if found:
                polls.append(found)
        # both readings must agree: a label only the value pulls towards ("logistics") loses to one both back
        votes = {label: float(np.prod([poll.get(label, 0.0) + AGREEMENT for poll in polls]))
                 for label in set().union(*polls)}
        voted = max(votes, key=votes.__getitem__) if votes else None
        if RECURRING.search(fact.text) and (voted or "").split(":")[0] not in SINGLE_VALUED:
            return "schedule"  # "goes climbing on Wednesdays" is a schedule whatever the activity ("climbed a volcano")
        if _OCCUPATION.search(fact.text):
            return "job"  # "works as a glassblower": an occupation the examples do not name
        if voted == "job" and self._persons is not None and not any(
                self._persons.is_person(w) for w in reading.words if w.isalpha() and w.islower() and w not in _STOP):
            return None  # "the user is on dishes": a job is an occupation, and no word here names one who does it
        if voted == "employer" and _WORKS_FROM.search(fact.text):
            return None  # "ended up working from the library": where they worked, not who for
        if voted == "home" and _NO_HOME.search(fact.text) and not reading.departed:
            return None  # "can add Lima to the places they have been": a trip, not a home (but "moved from their
                         # old flat in Leeds to a house in York" tells one)
        if voted in _TOLD_WITH and not _TOLD_WITH[voted].search(_COMPANION.sub("", fact.text)):
            return None  # "Mei texts sometimes": a name, and no word to say it is the user's or their partner's
        return voted

    def attribute(self, fact: Fact) -> str | None:
        reading = read(fact.text)  # the rules first: they are cheap, and most facts stop here
        if reading.negated or reading.not_now or not self._about_user(fact, reading):
            return None
        if self.occupation(fact):
            return "job"  # "is a sommelier at Vireo": the occupation, so that "is a coffee roaster now" finds it
        label = self.label(fact)
        return label if label is not None and label.split(":")[0] in SINGLE_VALUED else None

    def _about_user(self, fact: Fact, reading: Reading) -> bool:
        """The user's, or about the user's partner when it names them ("the user's new partner, Ana, …", "the
        user's wife is called Ana"), not when it tells what they did ("the user's wife got them tickets"), nor a
        person no relation word names ("the user's osteopath moved to Leeds": :mod:`.persons`)."""
        if reading.relation is None:
            noun = reading.head
            return (self._persons is None or not noun or not self._own_words.isdisjoint(noun)
                    or not self._persons.is_person(noun[-1]))
        return (re.fullmatch(PARTNER, reading.relation) is not None and _NAMES_PARTNER.search(fact.text) is not None
                and self.label(fact) == "partner")

    def values(self, reading: Reading, label: str | None) -> tuple[frozenset[str], frozenset[str]]:
        """(all value words, the proper nouns and numbers among them) of a fact read under ``label``."""
        frame = self.frames.get(label or "") or self.frames.get((label or "").split(":")[0], frozenset())
        timely = (label or "").startswith("schedule")
        found, strong = set(), set()
        for word in reading.words:
            low = _number(word.casefold())
            timed = low in TIME_WORDS or low[:1].isdigit()
            if (low in _STOP or low in frame or (timely and not timed) or (not timely and low in TIME_WORDS)
                    or low in reading.others or (label == "age" and (low in reading.dates or not _AGE.fullmatch(low)))):
                continue  # a schedule's value is its day, date or time; elsewhere a time is no value; an age is a number
            found.add(low)
            if word[:1].isupper() or low[:1].isdigit():
                strong.add(low)
        return frozenset(found - reading.departed), frozenset(strong - reading.departed)

    def _activity(self, reading: Reading) -> set[str]:
        frame = self.frames.get("schedule", frozenset())
        return _roots(frozenset(w.casefold() for w in reading.words
                                if w.casefold() not in _STOP | TIME_WORDS | frame and not w[:1].isdigit()))

    def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]:
        if is_withdrawal(new.text):  # see ``retracts``
            return [Verdict.UNRELATED for _ in stored]
        verdicts = self._verdicts(new, stored)
        if withdrawal_of(new.text) is None:
            return verdicts
        # "is a cartographer now, not a surveyor any more": a fact, and it takes back what it names
        return [Verdict.SUPERSEDES if back else verdict for verdict, back in zip(verdicts, self.retracts(new, stored),
                                                                                  strict=True)]

    def _verdicts(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]:
        n = read(new.text)
        if not self._about_user(new, n) or n.not_now:
            return [Verdict.UNRELATED for _ in stored]
        if not (n.departed or n.negated or (self.label(new) or "").split(":")[0] in SINGLE_VALUED or self.occupation(new)):
            # only a stored negation can still flip ("no longer likes tea" → "likes tea"): skip reading the rest
            return [self._decide(new, old) if _NEGATED.search(old.text) or "n't" in old.text else Verdict.UNRELATED
                    for old in stored]
        return [self._decide(new, old) for old in stored]

    def _decide(self, new: Fact, old: Fact) -> Verdict:
        n, o = read(new.text), read(old.text)
        if not self._about_user(old, o) or o.not_now:
            return Verdict.UNRELATED
        if n.departed and not o.negated and _roots(n.departed) & _roots(self.values(o, None)[0]):
            return Verdict.SUPERSEDES  # "sold the Fiesta and bought …" replaces "drives a Fiesta"
        if n.negated != o.negated:  # "likes tea" ⇄ "does not like tea": the newer wins
            same_words = {_stem(w.casefold()) for w in n.words if w.casefold() not in _STOP} == \
                {_stem(w.casefold()) for w in o.words if w.casefold() not in _STOP}
            return Verdict.SUPERSEDES if same_words else Verdict.UNRELATED
        if n.negated or n.additive or o.additive:  # "also has a dog called Pip" is one of many: it fills no slot
            return Verdict.UNRELATED
        jobs = self.occupation(new), self.occupation(old)
        if jobs[0] and jobs[1] and jobs[0] != jobs[1]:  # the labeller does not know every occupation; a person's noun says
            return Verdict.SUPERSEDES                    # it is one ("junior architect" → "project architect": the values)
        label = self.label(new)  # the old one's label only when it can matter: it may embed a twin
        if label is None or label.split(":")[0] not in SINGLE_VALUED or label != self.label(old):
            return Verdict.UNRELATED
        if label == "job" and not jobs[0]:
            return Verdict.UNRELATED  # a job is told by its occupation: "listens to salsa while cooking" names none
        if label == "schedule" and not self._activity(n) & self._activity(o):
            return Verdict.UNRELATED  # another activity's day
        if label in ("email", "phone"):  # the value is the address or number itself, lower case or not
            said, had = ({_contact(c) for c in CONTACT.findall(f.text)} for f in (new, old))
            if bool(_FOR_WORK.search(CONTACT.sub(" ", new.text))) != bool(_FOR_WORK.search(CONTACT.sub(" ", old.text))):
                return Verdict.UNRELATED  # a work address or number sits beside the personal one ("office@" is neither)
            if said and had:
                return Verdict.SAME if said <= had else Verdict.SUPERSEDES if had - said else Verdict.UNRELATED
        (na, ns), (oa, os) = self.values(n, label), self.values(o, label)
        if not ns and any(w[:1].isupper() for w in n.words if w.casefold() in n.others):
            return Verdict.UNRELATED  # the value it names is someone else's: "drove their dad's Volvo"
        if na and na <= oa and not n.departed:
            return Verdict.SAME
        if ns and os:  # the distiller writes the user by their name: "Katherine now goes by Kit" renames
            return Verdict.SUPERSEDES if ns - os and (os - ns or label == "name") else Verdict.UNRELATED
        return Verdict.SUPERSEDES if na - oa and oa - na else Verdict.UNRELATED

    def occupation(self, fact: Fact) -> str | None:
        """The occupation a fact says the user has now ("is a porter at Eastgate" → porter), or None: a person's noun
        after "is a", "became a", "works as a" …, in a fact whose label could be work."""
        said = _IS_A.search(fact.text)
        phrase = list(itertools.takewhile(lambda w: w not in _STOP, said.group(1).casefold().split())) if said else []
        if (not phrase or self._persons is None or _PASTIME.search(fact.text)
                or (self.label(fact) or "").split(":")[0] not in _MAY_BE_WORK):
            return None
        # the last of its words that names a person: "a farrier last spring", "a beekeeper full time" name the farrier
        head = next((word for word in reversed(phrase) if self._persons.is_person(word)), None)
        return None if head is None or (_RELATION.fullmatch(head) and not _TRADE.fullmatch(head)) else head

    def retracts(self, withdrawal: Fact, stored: Sequence[Fact]) -> list[bool]:
        """The closest matches: stored facts sharing the most words of what the withdrawal names (:func:`.withdrawal`:
        "darts" in "no longer plays darts", not the deed "plays" alone, nor "the weeds won" after it) besides any
        attribute's wording (then the fewest extra words), or the facts of the attribute it names whose value it names
        (or all of them when it names none: "forget my address"). A deed done ("sold their old bike") is no state to
        take back."""
        taken = withdrawal_of(withdrawal.text)
        w = read(f"The user {taken.deed} {taken.what}" if taken else _LEAVING.sub(" ", withdrawal.text))
        deed = {_stem(taken.deed.casefold())} if taken and taken.deed else set()
        wanted = {_stem(x.casefold()) for x in w.words} - {_stem(s) for s in _STOP} - {"user"}
        label = self.label(withdrawal)
        costs: list[tuple[int, int] | None] = []
        for old in stored:
            o = read(old.text)
            have = {_stem(x.casefold()) for x in o.words}
            cost: tuple[int, int] | None = None
            if self._about_user(old, o) and not is_withdrawal(old.text):
                if (shared := (wanted & have) - self._framing) - deed:  # "live" alone does not name "lives in Porto"
                    cost = (-len(shared), len(have - wanted))
                elif label is not None and label.split(":")[0] in SINGLE_VALUED and self.label(old) == label:
                    (wa, ws), (oa, os) = self.values(w, label), self.values(o, label)
                    cost = (-len(wanted), 0) if (ws <= os if ws else wa <= oa) else None  # "forget my address", "not in Quito"
            costs.append(cost)
        found = [c for c in costs if c is not None]
        return [c is not None and c == min(found) for c in costs]


def poll(similarities: np.ndarray, labels: Sequence[str], least: float) -> dict[str, float]:
    """Each label's share of the vote of the :data:`NEIGHBOURS` examples most similar to a text (``similarities``,
    one per example, in ``labels`` order); empty when even the nearest is under ``least``. The nearest examples
    decide: a vote fades with its distance from the nearest one, so a big label's many far ones do not outvote them."""
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


def _frames(labels: Sequence[str], texts: Sequence[str]) -> dict[str, frozenset[str]]:
    """Per label, the lower-case words at least two of its examples share (its wording, not values)."""
    counts: dict[str, Counter[str]] = {}
    for label, text in zip(labels, texts, strict=True):
        words = {w.casefold() for w in _WORD.findall(text) if not w[:1].isupper() and not w[:1].isdigit()} - TIME_WORDS
        counts.setdefault(label, Counter()).update(words)
        if ":" in label:
            counts.setdefault(label.split(":")[0], Counter()).update(words)
    frames = {label: frozenset(w for w, c in counter.items() if c >= 2) for label, counter in counts.items()}
    # a favourite of any kind shares the family's wording ("has become my favourite")
    return {label: frames[label] | frames.get(label.split(":")[0], frozenset()) for label in frames}
