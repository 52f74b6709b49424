"""Rule-based distillation of a conversation turn into atomic, self-contained facts.

The local server does this offline, with rules that work for plain conversational English (the SDK
and the contract say only that a real Cortadel distils a conversation into atomic facts, not how). What it keeps and how it rewrites:

* Only the user's own statements about themselves become facts (the assistant's words are never
  taken as facts about the user — that is also what keeps an assistant's hallucination or an
  injected instruction from turning into a "memory"). With ``is_agent_memory`` it is the other
  way round: the assistant's statements about itself, and the user's statements about the
  assistant ("Your name is Max", "Always answer in French").
* Questions, greetings, thanks, acknowledgements, requests and filler ("I see", "I'm not sure")
  are not facts, nor is an announcement before the news ("update, new boyfriend: Nikolai" tells the
  boyfriend); a request that gives the user's own address or number ("please use mira@… for me") is.
* Chat news with no subject is the user's own: "live in Tromsø now", "forty now", "new flat in Leith", "home is
  Graz for now", "choir's on Tuesdays now" get their "I" or "my" here; "speak Dutch", "renting a room in Porto",
  "paramedic in Bristol" get theirs from :mod:`.dropped`, which reads which words are verbs. Small talk ("weather's
  grim today", "wedding in June was lovely") and "Marit moved to Oslo" stay out. Chat is read as it is typed: an
  emoji ends a sentence, "livin" is "living", "guess who got the job? me!" says "I got the job", "my home town?
  Kilkenny" says "my home town is Kilkenny", and a tag asks for a nod, not an answer ("I start on Monday,
  right?"). An address or number given with no one else named ("anything urgent goes to 021 667 1185 now") is the
  user's, whatever the wording. A break-up told with two people as the subject is the user's, with the other
  named after the verb ("Marco and I split up" is "I split up with Marco"): split at "and I", the other person was
  lost. (Other verbs keep that split: "… with Dana" at the end of a fact reads as a partner, "is now with Emma", and
  facts about trips with a friend replaced the user's partner.)
* Compound sentences are split into atomic clauses ("I live in Lyon and I work at Acme" → two
  facts), and each is rewritten in the third person with an explicit subject, so it stands on
  its own when recalled later in another session: "I usually ship on Fridays" → "Alex usually
  ships on Fridays" (or "The user …" when the name is not known). An afterthought that only comments on the
  clause before ("…, I think", "… and I'm hooked", "…, I was about ten") is dropped, not made a fact of its own.
* "Forget that …" / "Please forget my …" is not a fact but a withdrawal: the rest of the sentence
  is rewritten the same way and returned with ``forget=True``, so the service can invalidate the
  stored fact it names instead of storing "The user forgets …". ("Don't forget that …" is the
  opposite, a request to remember, and stays a fact.)

What a name is, and what asks to be remembered, is not decided here: :mod:`lesson_utils.language`
is the one vocabulary the lesson provider, the offline model and this distiller share ("my name
is priya" gives Priya everywhere, "I'm tired" nowhere). What stays here is the server's own
policy on top: which clauses are facts, how they are split and rewritten, and "forget that …".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Callable, Sequence
from itertools import cycle

from lesson_utils.language import NOT_A_NAME, extract_name, strip_remember_prefix
from .dropped import told_by_writer
from .fulltext import normalise_text
from .subject import RELATION
from .timeframe import RECURRING
from .updates import BREAK_UP, CONTACT, EMAIL, INDEFINITE


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


_LEADING_NOISE = re.compile(
    r"^(?:(?:hi|hello|hey|hiya|yo|greetings|good (?:morning|afternoon|evening)|well|oh|ah|so|ok|okay|alright|right|"
    r"also|btw|by the way|fyi|actually|honestly|seriously|apparently|basically|anyway|and|but|yes|yeah|yep|no|nope|"
    r"sure|thanks|thank you|great|cool|nice|hmm+|um+|uh+|lol|haha"
    r"|(?:(?:quick|small|big|little|life)\s+)?(?:update|news)(?=\s*[,:;!\u2014\u2013-]))\b[\s,!.:;\u2014\u2013-]*)+",
    re.IGNORECASE,
)
# "Big news: I moved to Porto", "Quick update - I ..." : a short lead-in before the statement.
_LEAD_IN = re.compile(r"^(?!(?:I|my|My)\b)[A-Za-z][\w' ]{0,24}(?::|\s[-\u2013\u2014])\s+(?=(?:I|my|My)\b)")
_FILLER = re.compile(
    r"^(?:i (?:see|agree|understand)\b(?!\s+\w)|i (?:guess|mean|wonder|suppose|think so|hope so|don't think so|"
    r"do not know|don't know|was wondering|have a question|have another question|"
    r"would like to (?:know|ask)|want to (?:know|ask)|need (?:some )?help|can help|could help|"
    r"would be (?:happy|glad)|will be (?:happy|glad)|am (?:happy|glad) to help|am sorry|apologi[sz]e)\b"
    r"|i am (?:fine|good|ok|okay|well|great|alright|back|here|not sure|sure|doing (?:fine|good|well|great)"
    r"|curious|listening|ready)\s*[.!]*$"
    r"|i (?:am|was) (?:just )?(?:wondering|asking|curious)\b"
    r"|i (?:can|could|would|will|'ll) (?:help|assist|try|do that|look into)\b)",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^(?:(?:what|when|where|who|whom|whose|why|how|which)\b(?:\s+\w+)?\s+"
    r"(?:is|are|was|were|do|does|did|can|could|should|would|will|have|has|am|i|you|my)\b"
    r"|(?:do|does|did|can|could|would|will|is|are|am|should|shall|may|have|has|was|were)\s+"
    r"(?:you|i|we|it|they|he|she|my|your|there)\b)",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:please|let's|let (?:us|me)|tell|show|give|help|write|explain|describe|list|find|search|make|create|"
    r"recommend|suggest|summari[sz]e|translate|check|remind|send|book|get|pick|choose|guess|imagine)\b",
    re.IGNORECASE,
)
_FORGET = re.compile(
    r"^(?:please\s+)?(?:forget|disregard|erase|delete|remove|drop|unlearn|ignore|scratch|never mind)\s+"
    r"(?:(?:the fact |the part )?that\s+|what I (?:said|told you) about\s+|I (?:ever )?(?:said|mentioned|told you)"
    r"(?: about)?\s+|(?:everything |all )?about\s+)?"
    r"(?P<rest>.+?)(?:(?:,|;|\s[\u2014\u2013-])\s.*)?$",  # what to forget ends where a remark begins ("…, no")
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)
_AGE = (r"(?i:[1-9]\d{1,2}|(?:thir|four|fif|six|seven|eigh|nine)teen|(?:twen|thir|for|fif|six|seven|eigh|nine)ty(?:-[a-z]+)?)"
        r"(?=\s*(?:$|[,;!]|(?:now|as of|since|today|already|this|last|next|and)\b))")
#: A time the news is told from, before a comma: "Since May, …", "As of last week, …".
_TIME_LEAD = re.compile(r"^(?:since|after|as of|from|last|this|over)\b[^,]{1,30},\s+", re.IGNORECASE)
#: What a clause with no subject lacks, by group name: "I am" before an age, "I" before "no longer" … (the rest, a verb
#: or a person's noun with no subject, is :mod:`.dropped`'s).
_SUBJECTLESS = re.compile(
    rf"^(?P<lead>{_TIME_LEAD.pattern[1:]})?"
    rf"(?:(?P<I_am>(?:(?:officially|just|finally|nearly|almost)\s+)?{_AGE}|not\b(?=.*\bany ?(?:more|longer)\b)"  # "forty now", "not vegan any more", "based in Leeds"
    r"|(?:now|based)(?=\s+(?:in|at|for|as|near|with|a|an)\b))"
    r"|(?P<I>(?:do not|did not|no longer|(?:live|work|drive|study|teach)(?=\s+(?:in|at|for|as|near|a|an|the)\b))\b)"
    r"|(?P<I_have>been\s)|(?P<I_have_a>new\b(?!.*\b(?:is|are|was|were)\b|\s+\w+'s)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:at|in|with|for|from)\b))",
    re.IGNORECASE)
_NOT_NOUN = (r"(?!(?i:the|an?|th[ia]t|these|those|its?|s?he|his|her|they|their|there|here|you|your|all|each|"
             rf"wh(?:at|o|ich|en|ere|y)|no|none|{INDEFINITE})\b)")
_BARE_NOUN = re.compile(rf"^(?!(?i:.*{_FIRST_PERSON.pattern}))(?P<lead>(?i:since|from|after|as of)\b[^,]{{1,40}},\s+)?"
                        rf"(?P<np>{_NOT_NOUN}[A-Za-z][\w-]*(?:\s+{_NOT_NOUN}[a-z][\w-]*){{0,2}}?)"
                        rf"(?:'s(?!(?:\s+[\w-]+){{1,2}}\s+(?:is|are|was|were|has|have)\b)|\s+(?:is|are|was|were|has|have|[a-z]+ed|[a-z]+es)\b)")
#: One word that names a thing of the user's own, so that "home is Graz now" is news, where "weather is grim now" is not.
_OWN_THINGS = frozenset("home job work car phone email address age".split())
#: A value in a clause: a number or an e-mail address ("personal number is 0412 …", "work email is …").
_A_VALUE = re.compile(rf"\d|{EMAIL.pattern}")
_NEWS = re.compile(rf"(?i)\b(?:(?P<weekly>every|each|{RECURRING.pattern})|now|these days|nowadays|any ?more|as of|since|new|moved|switched|changed)\b")
_ITS_NAME = re.compile(r"^(?:his|her|their|its) name(?: is|'s)\s+(?=\S)", re.IGNORECASE)
#: A statement asked as a question: "did I mention I've moved to Graz?", "guess who's 58?".
_TOLD_AS_QUESTION = re.compile(r"^(?:(?P<told>(?:did|have) I (?:mention(?:ed)?|tell you|told you|say|said)(?: that)?)"
                               r"|guess who(?:(?P<got>'s got|\s+has got|\s+has)|'s|\s+is))\s+(?=\S)", re.IGNORECASE)
#: News told as a teaser answered by the user: "guess who got the job? me!" says "I got the job". ("Guess who's 58?",
#: with the user as its subject already, is :data:`_TOLD_AS_QUESTION`'s, so the teaser leaves "is", "'s" and "has" to it.)
_TEASER = re.compile(r"\b(?i:guess who)\s+(?!(?i:I|you|we|he|she|they|it|my|your|his|her|our|their|is|'s|has)\b)"
                     r"([^?]+)\?+\s*(?i:(?:it'?s\s+|that'?d be\s+)?(?:me|moi|yours truly|this (?:guy|girl|one)))\b[!.]*")
#: A run of emoji (and the variation selector after one): in chat it ends a sentence ("sold the van 🚐 got a bike").
_EMOJI = "[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+"
#: A value given as a form field: "New car: Peugeot 208", "Age: 64".
_LABELLED = re.compile(r"^([A-Za-z][\w' ]{1,24}):\s+(\S[^:]*)$")
#: A question asked after a statement in one sentence ("I'm moving to Leeds next month, any tips on areas?", "… we
#: split up, what do I do now?"): the statement before the comma is still told.
_ASKED_AFTER = re.compile(r",\s+(?=(?:any|what|which|how|where|who|when|why|should|could|would|can|do|does|is|are|"
                          r"thoughts|ideas|tips|suggestions|recommendations)\b[^,.!]*\?\s*$)", re.IGNORECASE)
#: A question that asks the assistant to use a name ("Could you call me Kim from now on?").
_POLITE_ASK = re.compile(r"^(?:please\s+)?(?:could|can|would|will)\s+you\b", re.IGNORECASE)
_SECOND_PERSON_START = re.compile(r"^(?:you|your|always|never)\b", re.IGNORECASE)

_CONTRACTIONS = (
    (r"\bI'm\b", "I am"), (r"\bcan't\b", "cannot"), (r"\bwon't\b", "will not"), (r"n't\b", " not"),
    (r"\b(I|you|we)'ve\b", r"\1 have"), (r"\b(I|you)'d\b", r"\1 would"), (r"\bI'll\b", "I will"),
    (r"\byou'll\b", "you will"), (r"\b(you|we)'re\b", r"\1 are"), (r"\bmy name's\b", "my name is"),
)
#: Phone typing, spelled out before anything else reads the text ("im 34", "dont", "fave", "pls").
_CHAT_SPELLINGS = (
    (r"\b(?i:im)\b", "I'm"), (r"\b(?i:ive)\b", "I've"), (r"\b(do|does|did|is|are|was|were|has|have|can|could|would)nt\b", r"\1n't"),
    (r"\bcant\b", "can't"), (r"\bu\b", "you"), (r"\bpl[sz]\b", "please"), (r"\batm\b", "at the moment"),
    (r"\bwk\b", "week"), (r"\b(?i:gf)\b", "girlfriend"), (r"\b(?i:bf)\b", "boyfriend"), (r"(?<=\w )n(?= \w)", "and"),
    (r"\bfave?\b", "favourite"),
    (r"\b((?i:liv|work|stay|rent|study|teach|driv|mov|train|learn|play|start|sell|runn|com|go|do))in'?(?!['\w])", r"\1ing"),
    (r"\b(?i:no\.?)(?= *(?:is\b|:|\+|\d))", "number"),  # "my phone no. is …": not the end of a sentence
)
_ADVERBS = (
    "usually always often never sometimes really also just still rarely generally mostly normally "
    "typically only currently actually definitely absolutely totally seriously honestly mainly "
    "occasionally frequently seldom recently now already even finally eventually once twice briefly barely hardly "
    "nearly almost probably literally basically lately"
).split()
_ADVERB_RE = "|".join([*_ADVERBS, "no longer"])
_SKIPPED = frozenset(_ADVERBS)
#: An afterthought after a comma or "and" that names nothing of its own: a verb with no object or only "myself"
#: ("…, I swear", "… and I'm teaching myself online"), a feeling ("… and I'm hooked"), "I had no idea", an age back then.
_COMMENT = re.compile(rf"^I(?:(?P<verb>(?:\s+(?:{_ADVERB_RE}))*)|'m|\s+(?:am|was))\s+(?:[a-z]+(?(verb)|(?<=ed))|(?:have|had)\s+no\s+[a-z]+|"
                      rf"[a-z]+\s+myself(?:\s+(?:from|with|by|on|online|at|in|for)\b.*)?)[\s.!…]*$|^I\s+was\s+(?:[a-z]+\s+)?{_AGE}", re.I)
_UNCHANGED_VERBS = frozenset(
    """can could will would should must might may shall had did was used cannot ought went got made took
    came saw bought met left began grew ate drank ran wrote said told felt knew thought found gave lost won
    paid quit split sold sent spent built taught caught brought kept slept drove flew rode chose became broke fell
    forgot sang swam wore became heard understood stood sat held led meant""".split()
)
_IRREGULAR = {"am": "is", "have": "has", "do": "does", "go": "goes", "be": "is", "are": "is", "were": "was"}


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _UNCHANGED_VERBS or low.endswith("ed") or not low.isalpha():
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _spelled_out(text: str) -> str:
    """Phone typing spelled out (``_CHAT_SPELLINGS``)."""
    for pattern, replacement in _CHAT_SPELLINGS:
        text = re.sub(pattern, replacement, text)
    return text


#: A question the user answers at once: "my favourite colour? teal, always" says "my favourite colour is teal, always".
_ANSWERED = re.compile(r"(?<![\w,] )\b((?i:my)(?:\s+[\w-]+){1,3})\?+\s+(?!(?i:I|I'\w+)\b)(?=[\w@+])")
#: Someone named in a clause: a possessive name ("Marit's"), a person's word ("my sister"), he, she or they.
_SOMEONE = re.compile(rf"[A-Z][\w-]*'s\b|\b(?i:{RELATION}|he|she|they|him|her|them|his|their)\b")
#: A tag at the end of a statement ("…, ok?", "… right?"): it asks for a nod, not an answer.
_TAG = re.compile(r",?\s+(?:ok|okay|k|right|yeah|yes|alright|no|eh|innit|got it|fair)\s*\?+$", re.IGNORECASE)


#: Two people as the subject, at the start of a clause: "my partner Hollis and I", "Marco and I", "me and sunita".
_SINCE = r"\b(?i:ever since|since|now that|after|when|because|before|until|till)\s+"
_PERSON = r"(?i:my|our)\s+[\w-]+(?:\s+[A-Z][\w-]*)?|[\w-]+(?:\s+[A-Z][\w-]*)?"
_TWO_OF_US = (rf"(?P<pre>^|[,;.!?]\s+|{_SINCE})(?!{_SINCE})"
              rf"(?:(?P<np>{_PERSON})\s+and\s+[Ii]|(?i:me|myself)\s+and\s+(?P<np2>{_PERSON}))")
#: A break-up told by two people: "Marco and I broke up", "me and sunita called it quits". Split at "and I", the
#: other person was lost.
_SPLIT_UP = re.compile(
    rf"{_TWO_OF_US}\s+(?P<verb>(?i:{BREAK_UP}))\b"
    r"(?!\s+(?i:the|an?|our|my|their|his|her|them|some|this|that|these|those)\b)")
#: Anything else two people did ("Tom and I got engaged", "my sister and I went to Rome") is one fact about both, told
#: "I & Tom got engaged": the split into clauses took "Tom" for a clause of its own and lost him.
_TOGETHER = re.compile(rf"{_TWO_OF_US}(?=\s+[a-z])")


def _a_person(np: str) -> bool:
    """Whether the other of two people is a person's word or a name, not a greeting or an ordinary word."""
    first = np.split()[0].casefold()
    return not (_LEADING_NOISE.fullmatch(np + " ") or (first not in ("my", "our") and first in NOT_A_NAME))


def _split_up(hit: re.Match) -> str:
    """"Marco and I broke up" → "I broke up with Marco"; "hollis and i split" → "I split with Hollis"."""
    np = hit["np"] or hit["np2"]
    if not _a_person(np):
        return hit.group(0)
    return f"{hit['pre']}I {hit['verb']} {'from' if hit['verb'].casefold() == 'separated' else 'with'} {_as_object(np)}"


def _together(hit: re.Match) -> str:
    """"Tom and I got engaged" → "I & Tom got engaged"; "me and my sister went" → "I & my sister went"."""
    np = hit["np"] or hit["np2"]
    return f"{hit['pre']}I & {_as_object(np)}" if _a_person(np) else hit.group(0)


def _as_object(np: str) -> str:
    """"My wife" → "my wife", "partner" → "my partner", "hollis" → "Hollis": the other person, after the user."""
    first, lowered = np.split()[0].casefold(), np[0].lower() + np[1:]
    if first in ("my", "our"):
        return lowered
    return "my " + lowered if re.fullmatch(RELATION, first, re.IGNORECASE) else np[0].upper() + np[1:]


def _sentences(text: str) -> list[str]:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = _ANSWERED.sub(r"\1 is ", text)
    text = _TEASER.sub(r"I \1.", _outside_addresses(_spelled_out, text))
    text = _SPLIT_UP.sub(_split_up, text)
    text = _TOGETHER.sub(_together, text)
    parts = re.split(r"(?<=[.!?])(?<!\b[SsDdMm][trs]\.)(?<!\b[A-Z]\.)\s+|\n+|;\s*(?=(?:I|[Mm]y|[Ww]e|[Oo]ur)\b)|\s*" + _EMOJI + r"\s*", text)
    clauses: list[str] = []
    for part in (piece for whole in parts for piece in _ASKED_AFTER.split(whole)):
        # Atomic facts: split "..., and I ..." / "... but my ..." into separate clauses.
        pieces = re.split(rf",?\s+(?:and|but|so|while|plus)\s+(?=(?:(?:now|then|later|these days|today),?\s+)?(?:[Ii]|[Mm]y|[Ii]'m|[Ii]'ve)\b)|,\s+(?=(?:[Ii]|[Ii]'m|[Ii]'ve|[Ww]e|[Ww]e're|[Ww]e've)\s|{_AGE})",
                          part)
        clauses.extend(piece for at, piece in enumerate(pieces) if not (at and _COMMENT.match(piece)))
    return [c.strip() for c in clauses if c and c.strip()]


def _clean(clause: str) -> str | None:
    """Strip greetings/prefixes; return None for a clause that is not a statement of fact."""
    clause = _LEADING_NOISE.sub("", clause).strip()
    if told := _TOLD_AS_QUESTION.match(clause):  # "did I mention I moved?" tells; "guess who's 58?" says "I am 58"
        said = "" if told.group("told") else "I have " if told.group("got") else "I am "
        clause = (said + clause[told.end():]).rstrip(" ?")
    clause = _LEAD_IN.sub("", clause).strip()
    clause = _TAG.sub("", strip_remember_prefix(clause).strip())
    if not clause or clause.endswith("?") or _QUESTION_START.match(clause):
        return None
    clause = clause.rstrip(" .!…")
    for pattern, replacement in _CONTRACTIONS:
        clause = re.sub(pattern, replacement, clause, flags=re.IGNORECASE)
    clause = re.sub(r"\bi\b", "I", clause)
    return None if _FILLER.match(clause) or len(re.findall(r"\w+", clause)) < 2 else clause


def _own(clause: str, following: str, is_person: Callable[[str], bool] | None = None) -> str:
    """News without a subject, given the words it lacks; a bare noun phrase needs a weekly time, or (2+ words, or one
    of the user's own things: "home is Graz for now") a change or a number or address ("personal number is …"), or to
    be a favourite; a lead ("From this term, …") stays first.
    A thing the next clause names ("got a puppy" + "her name is Mo") is told with its name: "got a puppy called Mo"."""
    labelled, subjectless, bare = (p.match(clause) for p in (_LABELLED, _SUBJECTLESS, _BARE_NOUN))
    if labelled and not _FIRST_PERSON.search(clause):
        clause = f"my {labelled.group(1)[0].lower()}{labelled.group(1)[1:]} is {labelled.group(2)}"
    elif subjectless:  # after a time phrase ("Since May, living in Graz"); an age ends at a comma ("40 now, feeling old")
        lead, rest = clause[:max(subjectless.end("lead"), 0)], clause[max(subjectless.end("lead"), 0):]
        rest = rest.split(",")[0] if subjectless.lastgroup == "I_am" else rest
        clause = f"{lead}{str(subjectless.lastgroup).replace('_', ' ')} {rest[0].lower()}{rest[1:]}"
    elif bare and (any(" " in bare["np"] or (m["weekly"] and m.start() >= bare.end()) or bare["np"].casefold() in _OWN_THINGS
                       for m in _NEWS.finditer(clause))
                   or (" " in bare["np"] and _A_VALUE.search(clause, bare.end()))
                   or re.search(r"(?i)\bfavou?rite\b", bare["np"])):  # "favourite food has always been pierogi"
        lead, rest = clause[:bare.start("np")], clause[bare.start("np"):]
        clause = f"{lead}my {rest[0].lower()}{rest[1:]}"
    elif not (_REQUEST.match(clause) or _FORGET.match(clause)):  # "speak Dutch", "dyed my hair", "paramedic in …"
        since = _TIME_LEAD.match(clause)
        start = since.end() if since else 0
        told = told_by_writer(clause[start:], is_person, _SKIPPED)
        clause = f"{clause[:start]}{told}" if told else clause
    named = _ITS_NAME.match(following)
    return f"{clause} called {following[named.end():]}" if named and re.search(r"\ban?\s+(?:[a-z]+\s+)?[a-z]+$", clause) else clause


def _own_contact(clause: str) -> bool:
    """An address or number given with no one else named ("anything urgent goes to 021 667 1185 now") is the user's."""
    return bool(CONTACT.search(clause)) and not _SOMEONE.search(CONTACT.sub(" ", clause))


def find_name(turns: Sequence[Turn]) -> str | None:
    """The user's name if they state it in this conversation, read as :func:`~lesson_utils.language.extract_name`
    reads it ("my name is priya" → "Priya", "I'm tired" → none); a later statement wins."""
    names = [extract_name(turn.content) for turn in turns if turn.role == "user"]
    return next((name for name in reversed(names) if name), None)


#: "I" (or a leading "we") and its verb, with the other of two people after "I & " (``_TOGETHER``) and adverbs between.
_SUBJECT_VERB = re.compile(
    rf"\b(?:I|^[Ww]e)(?:\s+&\s+(?P<other>{_PERSON}))?(?P<adverbs>(?:\s+(?:{_ADVERB_RE}))*)\s+(?P<verb>[A-Za-z]+)")


def _rewrite_first_person(clause: str, subject: str) -> str:
    """"I usually ship on Fridays" → "<subject> usually ships on Fridays"."""
    possessive = subject + "'s" if not subject.endswith("s") else subject + "'"
    first = True

    def subject_verb(match: re.Match) -> str:
        nonlocal first
        other, adverbs, verb = match["other"], match["adverbs"], match["verb"]
        if first:
            first = False
            said = subject if match.start() == 0 or subject != "The user" else "the user"
            if other:  # _TOGETHER's "I & my sister went" → "The user and their sister went"
                return f"{said} and {other}{adverbs} {verb}"
            return f"{said}{adverbs} {_third_person(verb)}"
        verb = {"am": "are", "was": "were"}.get(verb.lower(), verb)
        return f"they{adverbs} {verb}"

    clause = _SUBJECT_VERB.sub(subject_verb, clause)
    if first:  # no "I" subject: the first "my" is the subject's ("Since May my home is in Graz")
        clause = re.sub(r"^(?:my|our)\b", possessive, clause, flags=re.IGNORECASE)
        mid = possessive if subject != "The user" else "the user's"
        clause = re.sub(r"\b(?:my|our)\b", mid, clause, count=1, flags=re.IGNORECASE)
    replacements = {"my": "their", "mine": "theirs", "myself": "themselves", "me": "them",
                    "our": "their", "ours": "theirs", "us": "them", "we": "they", "I": "they"}
    return _outside_addresses(lambda part: re.sub(r"\b(my|mine|myself|me|our|ours|us|we|I)\b",
                                                  lambda m: replacements[m.group(1)], part), clause)


def _outside_addresses(edit: Callable[[str], str], text: str) -> str:
    """``edit`` applied to ``text`` around its e-mail addresses, which stay as typed ("jb@proton.me" has no "me",
    "u.ito@mail.jp" no "u")."""
    parts = re.split(f"({EMAIL.pattern})", text)  # addresses at the odd places
    return "".join(part if odd else edit(part) for odd, part in zip(cycle((False, True)), parts))


def _rewrite_second_person(clause: str, subject: str) -> str:
    """"You are terse" / "Always answer in French" → "The assistant is terse" / "... should always answer"."""
    possessive = subject + "'s"
    clause = re.sub(r"^(always|never)\b", lambda m: f"{subject} should {m.group(1).lower()}", clause, flags=re.I)
    clause = re.sub(r"^Your\b", possessive, clause, flags=re.I)
    clause = re.sub(
        rf"^you((?:\s+(?:{_ADVERB_RE}))*)\s+([A-Za-z]+)",
        lambda m: f"{subject}{m.group(1) or ''} {_third_person(m.group(2))}",
        clause,
        flags=re.I,
    )
    clause = re.sub(r"\byour\b", "its", clause)
    clause = re.sub(r"\byourself\b", "itself", clause)
    return clause


def _finish(text: str) -> str:
    text = " ".join(text.split())
    return text[0].upper() + text[1:] + "."


def distill(
    turns: Sequence[Turn], *, is_agent_memory: bool = False, known_name: str | None = None,
    is_person: Callable[[str], bool] | None = None,
) -> list[Fact]:
    """Atomic third-person facts from ``turns``, in conversation order, without repeats. ``is_person`` says whether
    a noun names a person, so that "paramedic in Bristol" is the user (the service asks the embedding model:
    :mod:`.persons`); without it only a clause with a verb is read as the user's when it has no subject."""
    facts: list[Fact] = []
    seen: set[str] = set()

    def keep(text: str, turn: Turn, name: str | None = None, forget: bool = False) -> None:
        key = ("forget " if forget else "") + normalise_text(text)
        if key in seen:
            for fact in facts:
                if (("forget " if fact.forget else "") + normalise_text(fact.text) == key and turn.uuid
                        and turn.uuid not in fact.source_uuids):
                    fact.source_uuids.append(turn.uuid)
            return
        seen.add(key)
        facts.append(Fact(text=text, source_uuids=[turn.uuid] if turn.uuid else [], name=name, forget=forget))

    if is_agent_memory:
        subject = "The assistant"
        for turn in turns:
            if turn.role not in ("assistant", "user"):
                continue
            for sentence in _sentences(turn.content):
                clause = _clean(sentence)
                if clause is None:
                    continue
                if turn.role == "assistant":
                    if _REQUEST.match(clause) or not _FIRST_PERSON.search(clause):
                        continue
                    name = extract_name(clause)
                    text = f"{subject}'s name is {name}" if name else _rewrite_first_person(clause, subject)
                else:
                    if not _SECOND_PERSON_START.match(clause):
                        continue
                    text = _rewrite_second_person(clause, subject)
                if len(text.split()) >= 3:
                    keep(_finish(text), turn)
        return facts

    name = find_name(turns) or known_name
    subject = name or "The user"
    for turn in (turn for turn in turns if turn.role == "user"):
        sentences = _sentences(turn.content)
        cleaned = [_clean(sentence) for sentence in sentences]
        for at, (sentence, clause) in enumerate(zip(sentences, cleaned, strict=True)):
            if clause is None:
                polite = _LEADING_NOISE.sub("", sentence)
                asked = extract_name(polite) if _POLITE_ASK.match(polite) else None
                if asked:  # "Could you call me Kim from now on?"
                    keep(f"The user's name is {asked}.", turn, name=asked)
                continue
            clause = _own(clause, next((later for later in cleaned[at + 1:] if later is not None), ""), is_person)
            if withdrawn := _FORGET.match(clause):
                keep(_finish(_rewrite_first_person(withdrawn.group("rest"), subject)), turn, forget=True)
                continue
            if stated := extract_name(clause):
                keep(f"The user's name is {stated}.", turn, name=stated)
                continue
            # a request is no fact, unless it gives the user's own address or number ("please use mira@… for me")
            request = _REQUEST.match(clause) is not None
            if (request and not CONTACT.search(clause)) or not (_FIRST_PERSON.search(clause) or (not request and _own_contact(clause))):
                continue
            text = _rewrite_first_person(clause, subject)
            if len(text.split()) >= 3:
                keep(_finish(text), turn)
    return facts
