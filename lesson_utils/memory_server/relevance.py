"""How likely a search hit is evidence for the query: a calibrated probability per hit.

Why: the provider has to decide, per turn, whether anything it found is worth injecting — the
question may be about something the user never said ("What is my brother's name?" when only a
sister was mentioned). Ranks cannot tell: the best of a set of unrelated memories is still rank 1,
and a plain RRF score only says which arms found a hit. This module turns what the server knows
about each hit into one number, ``P(evidence)``, sent in the hit's ``attributes["relevance"]``
(the contract allows arbitrary attributes), so a client's floor is a probability, not a rank rule.

The features, each cheap and known to the server for every hit:

* ``contrast`` — the hit's cosine similarity to the query (all-MiniLM-L6-v2) minus the query's
  *background*: the mean similarity of the user's :data:`BACKGROUND` nearest memories, with missing
  ones (a user with fewer memories) counted at :data:`PRIOR_SIMILARITY`, the typical similarity of a
  question and an unrelated memory. A question about something never said ("What is my brother's
  name?") is about as close to its best hit as to everything else the user said; a question with an
  answer has a hit that stands out. It needs the query's embedding, so text mode leaves the
  attribute out (a text-only hit of the hybrid mode gets its similarity from its stored vector).
* ``other_person`` — 1 when the memory is about someone the question does not ask about: its
  subject is a possessive ("The user's colleague Ivan works at …", "Alex's neighbour has a horse")
  whose head word the question does not contain, or "<Name> from their …". A possessive followed
  by is/are/was/were within three words is an attribute of the user, not a person ("The user's
  favourite food is …"). It reads the distiller's own third-person form, not any dataset's words:
  near misses about other people are what a large history is full of, and similarity cannot tell
  "my horse" from "my neighbour's horse".

It feeds a logistic regression: ``relevance = 1 / (1 + exp(-(INTERCEPT + Σ COEFFICIENTS[f]·f)))``.
The constants below were fitted by ``python bench/fit_relevance.py`` (which refits them and prints
them; ``--check`` compares with these) on the **dev** data only — see :data:`FITTED_ON`. A hit from
an evidence turn of an answerable question is a positive; every hit of an abstention question and
every non-evidence hit is a negative. They are tied to the embedding model: another embedder needs
a refit (the search leaves the attribute out when the embedder is not :data:`FITTED_MODEL`).

Other per-hit features were measured on the dev data and left out because they lowered abstention
at the recall the floor must keep (a hit-level fit spends them on ranking hits within a question,
which the floor does not need): raw similarity, query-word coverage, the gap to the best hit, the
best hit's similarity, and whether the text arm matched.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

__all__ = [
    "BACKGROUND", "COEFFICIENTS", "FEATURES", "FITTED_MODEL", "FITTED_ON", "INTERCEPT", "PRIOR_SIMILARITY",
    "about_someone_else", "background", "hit_features", "probability",
]

FEATURES = ("contrast", "other_person")
#: Logistic-regression weights per feature (see the module docstring for how they were fitted).
COEFFICIENTS = {"contrast": 8.072, "other_person": -2.728}
INTERCEPT = -2.177
#: The embedding model the similarities came from; other models' similarities are not calibrated.
FITTED_MODEL = "all-MiniLM-L6-v2-onnx-int8"
#: What the constants were fitted on (the dev data; never the held-out test split).
FITTED_ON = (
    "dev: the dev split's haystack users (load_cases('dev'): 12 users, ~590 memories each, 206 questions), "
    "hybrid top 10 per question: 2,051 hits, 154 from evidence turns; L2 1.0; wt/scorecard 0bbb064, 2026-12-01"
)
#: How many of the user's nearest memories make a query's background.
BACKGROUND = 30
#: The similarity a missing background memory counts as: the median similarity of a dev question
#: and a memory of its user (0.045, rounded), i.e. what "unrelated" looks like to this model.
PRIOR_SIMILARITY = 0.05


def background(similarities: Sequence[float]) -> float:
    """The mean similarity of the :data:`BACKGROUND` best of ``similarities``, padded with the prior."""
    best = sorted(similarities, reverse=True)[:BACKGROUND]
    return (sum(best) + (BACKGROUND - len(best)) * PRIOR_SIMILARITY) / BACKGROUND


_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_POSSESSIVE = re.compile(r"^\s*(?:the user|[^\W\d_]+)['’]s\s+(.+)$", re.IGNORECASE | re.DOTALL)
_ATTRIBUTE = re.compile(r"^(?:[^\W_]+\s+){0,2}(?:is|are|was|were)\b", re.IGNORECASE)
_GROUP_MEMBER = re.compile(r"^\s*[A-Z][^\W\d_]+ from (?:their|his|her)\b")
#: Words before a possessive's head noun that do not name the person ("old schoolmate", "best friend").
_MODIFIERS = frozenset("old best new late former younger older little big elder".split())


def _words(text: str) -> set[str]:
    """Lower-case words with a trailing plural "s" also stripped ("neighbours" meets "neighbour")."""
    words = set(_TOKEN.findall(text.casefold()))
    return words | {w[:-1] for w in words if len(w) > 3 and w.endswith("s")}


def about_someone_else(query: str, content: str) -> bool:
    """True when ``content`` is a fact about a person ``query`` does not mention (see the module docstring)."""
    possessive = _POSSESSIVE.match(content)
    if possessive is None:
        return bool(_GROUP_MEMBER.match(content))
    phrase = possessive.group(1)
    if _ATTRIBUTE.match(phrase):
        return False
    head = next((w for w in _TOKEN.findall(phrase.casefold()) if w not in _MODIFIERS), "")
    return bool(head) and not (_words(head) & _words(query))


def hit_features(similarity: float, background_similarity: float, query: str, content: str) -> tuple[float, ...]:
    """One hit's feature vector, in :data:`FEATURES` order."""
    return (similarity - background_similarity, float(about_someone_else(query, content)))


def probability(features: Sequence[float]) -> float:
    """The calibrated ``P(evidence)`` of one hit's features, in [0, 1]."""
    z = INTERCEPT + sum(COEFFICIENTS[name] * value for name, value in zip(FEATURES, features, strict=True))
    if z < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
