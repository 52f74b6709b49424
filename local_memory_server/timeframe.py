"""Whether a question asks about now, and whether a memory holds no current value: the distant past, a wish, a stay.

Why: a long history holds the same topic at other times ("As a child the user visited Oslo with
their parents", "The user's first car was a Tesla", "If the user ever moves it'll be to Galway").
They share the question's words and meaning ("Where do my parents live?", "What car do I have?",
"Which city is my home?"), so both search arms rank them with the current facts or above them. A
question about now asks what holds now; a memory that holds nothing now does not answer
it. The relevance model counts it against a hit (``relevance.py``) — only for a question about now: "When
did I visit Oslo?" or "Which happened first…" does not — and search's ranking does not read it (``search.py``).
The update decider reads the same test: such a fact neither supersedes nor is superseded. One test, so
relevance and the decider agree on what is not now.

Both tests read plain grammar words, not any dataset's topics: a question is about now unless a past marker
says otherwise ("was", "did", "ago", "my first car"). It needs no "is" or "do": "Which company employs me?",
"What should you call me?" and "When is my book club?" ask what holds now.
:func:`not_current` is true for a fact framed as the distant past ("ago", "as a child", "at primary
school", "used to", "once", "back then", "in their twenties" when it leads), for the scenes a life
story is told in ("back in uni", "grew up", "their first car was", "when they were", a year of study told in
the past — "shared a flat in first year at university", not "is in their second year" —, a state that
went on in the past: "they were working as a nurse for five years" — not when a change follows: "was
renting in Derby but bought a house in Ripon"), for the moods that hold nothing yet ("if" — not a word
to the listener: "if that's okay", "if that helps", "if you need it" —, "would", "might", "one day",
"dreams of", "daydreams about", "fancies", "considered",
"plans to", "has to", "must"), and for a stay with an end in sight ("renting in Lisbon for a month",
"in Peru until June", "spending September in Kenya", "at their holiday cottage", "moved just for
today"), a hire ("rented a van for the move") and a place just reached ("landed in Quito", "got to
Krakow late"), and for a plan or an event still to come in the main clause ("cycling to Kraków tomorrow", "a
fitting at the tailor's in a couple of weeks"; not a change that starts then, "from next week the class is on
Sundays", nor what comes next after the news, "moved to Hexham and joins Tolland Bank next week"). It
leaves out "last year" ("The user moved to Lima last year" is still where they live), recent past ("The
user turned 51 last week" still says how old they are) and "once a week" (a schedule). A name asked for
("would like to be called Ash"), a preference ("would rather") and a hedge ("would say") are current, so
"would" before them is not a wish. A fact is read clause by clause: one clause that says what holds now
("used to hate olives but now loves them", "grew up in Cork and still lives there") keeps the fact current,
whatever the others say.
"""

from __future__ import annotations

import re

__all__ = ["DATE", "DAY", "MONTH", "RECURRING", "TIME_WORDS", "about_now", "not_current"]

_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_MONTHS = "january february march april may june july august september october november december".split()
#: The week's days and the year's months, as patterns, and every word of time: the one list the server's modules read
#: times by (a time is a schedule's value, and no value of anything else: "ships on Fridays" says no home).
DAY, MONTH = (rf"(?:{'|'.join(words)})" for words in (_WEEKDAYS, _MONTHS))
TIME_WORDS = frozenset([*_WEEKDAYS, *(day + "s" for day in _WEEKDAYS), *_MONTHS, *"""weekday weekdays weekend weekends
    morning mornings afternoon afternoons evening evenings night nights noon midnight am pm today yesterday tomorrow
    lunchtime lunchtimes bedtime teatime dawn dusk""".split()])
_MONTH_OR_SHORT = rf"(?:{MONTH}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?"
#: A day of a month ("june 28th", "the 26th of july", "3 March"): its number, group 1 or 2, is a date, not an age.
DATE = re.compile(rf"\b{_MONTH_OR_SHORT}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_OR_SHORT}\b",
                  re.IGNORECASE)
#: A time that comes round again ("on Wednesdays", "every other Sunday", "weekday mornings"): what a schedule says.
RECURRING = re.compile(rf"\b(?:(?:every|each)\s+(?:other\s+|second\s+)?(?:{DAY}|day|morning|afternoon|evening|night|week|weekend"
                       rf"|fortnight|month)|{DAY}s|weekday|mornings|afternoons|evenings|nights|weekends|weekly|fortnightly)\b",
                       re.IGNORECASE)

#: What puts a question in the past: a past tense ("was", "did", "happened"), "ago", "before", "ever", a first or a
#: last one ("my first car", not a first or last name). "When" asks about now as often ("When is my book club?").
_PAST = re.compile(r"\b(?:was|were|did|had|used to|ago|happened|before|ever|(?:first|last)(?!\s+name))\b",
                   re.IGNORECASE)
_DECADES = r"in (?:their|his|her) (?:early |mid-?|late )?(?:youth|childhood|teens|twenties|thirties|forties|fifties|student days)"
#: School days are a time of life, as childhood is: "at secondary school", "in their elementary school", "in kindergarten".
_SCHOOL_DAYS = (r"(?:in|at|during) (?:(?:the user's|their|his|her) )?(?:(?:primary|elementary|secondary|high|middle|grade|junior|"
                r"infant|prep|boarding|grammar|nursery) school|kindergarten)"
                r"|during (?:uni|university|college)")
#: A home lived in for a while that is over: "lived in Sheffield for three years" ("has lived there for years" holds).
_LIVED = (r"(?<!has )(?<!have )(?<!'ve )lived (?:in|at|on) [^,;.]{0,40}?\bfor (?:a |an |\w+ |a few |a couple of )?"
          r"(?:years?|months?|decades?|while)")
#: "used to" after these is "accustomed to", no past: "is getting used to the new flat".
_ACCUSTOMED = r"(?<!get )(?<!gets )(?<!got )(?<!getting )(?<!be )(?<!is )(?<!are )(?<!am )"
# "once" as "one time" ("once climbed"), not "once a week" nor a leading "Once the diploma came through"
_DISTANT = (rf"ago|as a (?:child|kid|boy|girl|teen|teenager|student)|{_ACCUSTOMED}used to|(?<=\s)once(?! (?:a|every|per)\b)|"
            rf"back then|formerly|years back|{_SCHOOL_DAYS}|{_LIVED}")
#: For the decider a decade sets the scene only when it leads ("In their twenties the user …"); at the
#: end it tells an age ("… so that's them in their thirties").
_SCENES = (r"back (?:in|when)|grew up|childhood|(?:'s|their|his|her) (?:very )?first (?:\w+ ){1,4}(?:was|were)|"
           r"(?:'s|their|his|her) (?:old|former|teenage|childhood|school|uni|college) (?:\w+ ){0,2}(?:was|were)|when (?:the user|they|[A-Z]\w+) (?:was|were)|"
           # a year of study told in the past ("shared a flat in first year at university"), not one under way ("is in their second year")
           r"(?:was|were|\w+ed)\b[^,;.]{0,60}?\bin (?:(?:their|his|her|the) )?(?:first|second|third|fourth|final|last) year (?:of|at) (?:uni|university|college)|"
           # a state that went on in the past ("they were working as a nurse for years"), unless a change follows
           r"(?:was|were|had been) (?:\w+ly |still |just |already )?\w+ing\b(?![^.;]*\b(?:but|until|till|then|now|so|before)\b)")
_WISHES = (r"if(?! (?:that|this)\b| it(?:'s| is)? (?:ok|okay|alright|all right|fine|helps|matters)\b| you (?:don't mind|do not mind|(?:ever )?need (?:it|that|this|to know))\b| possible)|would(?! (?:rather|prefer|like to be (?:called|known|addressed)|say))|might|some ?day|one day|(?:day)?dream(?:s|ed|ing)?"
           r"|fanc(?:ies|ied)|wonders?|wish(?:es)?|in another life|consider(?:s|ed|ing)|thinking (?:about|of)|"
           r"plan(?:s|ned|ning)? to|hop(?:es|ed|ing) to|tempted to|must(?! be)|needs? to|ha(?:s|ve) to(?! be)|should|ought to")
#: A stay with an end in sight is not where the user lives ("in Lisbon for a month", "in Peru until June", "the
#: holiday cottage"), a hire is not what they own ("rented a van for the move"), and a place just reached is a trip
#: ("just landed in Quito").
_STAYS = (rf"(?:until|till|til) (?:the end of |next |this |mid-?|early |late )?\w+|through (?:the end of )?{MONTH}"
          r"|(?:rented|hired|borrowed) [^,;.]{0,40}?\bfor the|(?:just )?for (?:today|tonight|the day)"
          r"|(?:landed|touched down|arrived) (?:in|at)|got (?:in)?to (?-i:[A-Z])\w*"
          rf"|(?:spending|spends|spent) (?:the |a |this |next |two |three |a few )?(?:\w+ )?(?:{MONTH}|summer|winter|spring|autumn|weekend|week|month)s?"
          r"|(?:staying|stays|renting|rents|stopping|sub-?letting|house-?sitting)\b[^,;.]{0,50}?\bfor (?:the next |another )?"
          rf"(?:(?:a|an|one|two|three|four|five|six|few|couple of|\d+) (?:night|day|week|month)s?|{MONTH})"
          r"|for the (?:next )?(?:summer|winter|weekend|holidays?|week|fortnight|month)"
          r"|holiday (?:home|cottage|flat|house|let)|airbnb")
_NOT_CURRENT = re.compile(rf"\b(?:{_DISTANT}|{_SCENES}|{_WISHES}|{_STAYS})\b|^{_DECADES}\b", re.IGNORECASE)
#: A time still to come in the main clause: what happens then is a plan or an event, not what holds now ("driving to
#: Split tomorrow", "a haircut next Wednesday"), unless the change starts then ("from next week the class is on
#: Sundays"); in a later clause it is only what comes next ("moved to Leeds and starts at Arup next week").
_COMING = re.compile(rf"\b(?<!from )(?<!starting )(?<!as of )(?:tomorrow|tonight|next (?:week|month|year|weekend|{DAY})"
                     r"|later this (?:week|month|year)|in a (?:couple|few)(?: of)? (?:days|weeks|months))\b", re.IGNORECASE)
#: Where one clause ends and the next begins: a comma, a semicolon, a dash, or "but", "and", "so", "though".
_CLAUSES = re.compile(r"[,;:]|\s[\u2014\u2013-]\s|\s(?:but|and|so|though|although|yet)\s", re.IGNORECASE)
#: A clause that says something holds now: "… but now loves them", "… and still lives there", "…, these days it's Leeds"
#: (not that something does not: "used to watch Dune every night, cannot watch it now"; nor a count so far: "has been
#: there twice now").
_NOW = re.compile(r"^(?!.*(?:\b(?:not|never|cannot|no longer)\b|n't\b)).*\b(?:(?<!twice )(?<!times )now|still|these days|nowadays"
                  r"|currently|at the moment|at present)\b", re.IGNORECASE)


def about_now(query: str) -> bool:
    """True when ``query`` asks what holds now: whatever it asks, unless a past marker says otherwise ("Which company
    employs me?", "What should you call me?", "my email?" — not "Where was I born?")."""
    return not _PAST.search(query)


#: An "if" that ends a statement, with no would, will, could, might or may on either side, sets a condition on acting
#: on the fact, not on the fact ("Reach them on 0161 … if anything comes up"): what-ifs are read in the statement
#: alone.
_MODAL = re.compile(r"\b(?:if|would|will|could|might|(?-i:may))\b|'d\b|'ll\b", re.IGNORECASE)
_IF_AFTER = re.compile(r",?\s+if\b(?P<condition>.*)$", re.IGNORECASE | re.DOTALL)


def _without_condition(content: str) -> str:
    """``content`` without an "if" clause that ends it after a statement, when neither side has a modal."""
    hit = _IF_AFTER.search(content)
    if hit and not _MODAL.search(content, 0, hit.start()) and not _MODAL.search(hit["condition"]):
        return content[:hit.start()]
    return content


def not_current(content: str) -> bool:
    """True when ``content`` is framed as the distant past ("years ago", "as a child", "back in uni"), as
    a wish or what-if ("would love to", "if they won") or as a stay with an end ("for a month"), so it
    cannot be the current value of anything — unless another of its clauses says what holds now ("used to hate olives
    but now loves them", "grew up in Cork and still lives there")."""
    content = _without_condition(content)
    clauses = _CLAUSES.split(content)
    if not (_NOT_CURRENT.search(content) or _COMING.search(clauses[0])):
        return False
    return not any(_NOW.search(clause) and not _NOT_CURRENT.search(clause) for clause in clauses)
