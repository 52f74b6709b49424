"""The offline reader: the one small, deliberately limited reader of English the course ships.

Why: understanding English is a model's job (``local_memory_server/understanding.py`` asks one when the lessons have a
model). With no model, the memory server's write path, the offline lesson model and lesson 04's provider need a
stand-in, and they share this one, so "my name is priya" means Priya everywhere. It is a handful of general
patterns, not a rule per phrasing; what it cannot read, it leaves alone (a wrong memory is worse than none).

Reads:

- first-person statements, split at "and"/"but"/"," before a new "I"/"my": "I live in Lyon", "my favourite colour
  is teal", "I usually ship on Fridays" (restated as "The user usually ships on Fridays.", or with the user's name);
  a form-like label and its value, "Employer: Oakridge", "New number: 0770 …"; two people as one subject,
  "Marco and I split up" (as "I split up with Marco");
- chat that drops "I" before a verb (lemminflect's lexicon says which words can be verbs): "live in st. cloud now",
  "livin in reykjavik", "Finally moved to Bristol", "drive a Kia"; and a bare "new …" ("new job at Vellum"), an
  activity told with its day ("choir's been moved to Thursdays"), a bare number of now ("twenty now", "65 as of
  Tuesday") as the writer's;
- the speaker's name and age: "my name is priya", "I'm Alex", "call me Sam", "can you call me Bertie?", "I'm 31",
  "I just turned 40", "would you mind calling me Teddy?", "I go by my middle name, Rosalind";
- "remember that …", "forget that …", and standing instructions: "from now on, answer in French";
- a change of a single-valued attribute (home, name, age, employer, job, partner, car, phone number, handset,
  e-mail, a favourite of one kind) when both facts name their values: "I live in Lyon" → "I moved to Porto", by the
  nearest labelled examples (``changes.py``); a schedule moved, one activity at two times: "yoga on Tuesdays" → "yoga is on Fridays";
- a change told with what was left: "I left Acme and joined Kestrel", "swapped PureGym for the climbing wall",
  "upgraded from the Pixel 6 to a Fairphone 5", "an occupational therapist, not a physio"; markers of the present
  ("now", "these days", "As of this week, …", "Since August …" first) are no part of an attribute or its value;
- a withdrawal by a verb of leaving with nothing in its place: "I no longer play darts", "I quit the choir",
  "I gave it up", "no more gluten-free", chat that drops the "I" ("Not vegan any more", "don't do the crossword
  any more", "Got rid of the desk"); "ignore / scratch / never mind what I said about …";
- "likes X" ⇄ "does not like X" (the newer wins), and "also"/"another" (one more, nothing replaced);
- a question that tells: "did I tell you I swapped the Leaf for a Zoe?";
- whose and when: a relation word after the user's possessive ("my brother …", "my son's birthday", "my ex-husband")
  or opening the fact ("Mum just turned 80"), or a group member ("Mia from my choir"), is someone else ("my partner's
  name is" names the partner); "as a child", "… ago", "years back", "once", "used to", "ex", "former", a first one or a
  past state in the main clause ("the user's first car was …"), a wish, "thinking about", "if …", a
  stay ("is staying at", "for a fortnight", "this week") or a time to come ("next month") is not now.

Does not read (a model does: ``local_memory_server/understanding.py``):

- a statement with no "I" or "my" and no verb first: "paramedic in Bristol", "Single for a bit, then met Ambrose";
- a change told only by its new value, with no wording the examples share ("went vegetarian in January");
- an attribute whose value means something of its own: the fact and its twin with the values masked must agree,
  so "works for Pottersby Foods" (foods) or "is a roaster at the same place" files under no attribute;
- hedges and reported speech ("my sister says I …"), questions that tell without "did I tell you" ("guess who's
  58?");
- lower-case names after "I'm"/"call me" ("call me bex"), a name offered without a verb of naming ("Bram is
  fine", "I'd prefer Jo"), an age in words for lesson 04's provider ("I'm forty-two"), an age told as a birthday ("my 20th was last weekend"), relative dates;
- whose beyond one relation word: possessive chains ("my sister's friend"), kin words that name each other
  ("parents" for "father"), a noun phrase first ("the manager of my gym");
- the past beyond a few markers ("in my teens", "at secondary school"), a fact read clause by clause
  ("used to hate olives but now loves them").
"""

from __future__ import annotations

from .changes import (
    about_now, about_someone_else, not_current, Fact, MeaningDecider, UpdateDecider, Verdict, is_withdrawal, masked, withdrawal,
)
from .kinds import MEMORY_TYPES, categorize, classify_memory_type, coerce_memory_type, gist
from .speaker import (
    COMMON_WORDS, INSTRUCTION_PHRASES, NOT_A_NAME, PERSONAL_FACTS, REMEMBER_PHRASES, ages_stated, content_words,
    extract_age, extract_name, instruction_request, is_plausible_age, is_plausible_name, names_stated, places_stated,
    remember_request, strip_remember_prefix,
)
from .statements import Turn, distill, find_name

LIMITS = __doc__.split("Reads:", 1)[1].strip()  # what a lesson shows: the reader's own list of what it reads and not

__all__ = [
    "about_now", "about_someone_else", "not_current",
    "COMMON_WORDS", "Fact", "INSTRUCTION_PHRASES", "LIMITS", "MEMORY_TYPES", "MeaningDecider", "NOT_A_NAME",
    "PERSONAL_FACTS", "REMEMBER_PHRASES", "Turn", "UpdateDecider", "Verdict", "ages_stated", "categorize",
    "classify_memory_type", "coerce_memory_type", "content_words", "distill", "extract_age", "extract_name",
    "find_name", "gist", "instruction_request", "is_plausible_age", "is_plausible_name", "is_withdrawal",
    "masked", "names_stated", "places_stated", "remember_request", "strip_remember_prefix",
    "withdrawal",
]
