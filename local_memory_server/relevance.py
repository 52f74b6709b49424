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
* ``other_person`` — 1 when the memory is about someone the question does not ask about
  (``reader.about_someone_else``: "The user's colleague Ivan works at …" for "Where do I work?").
  It reads the distiller's own third-person form, not any dataset's words: near misses about other
  people are what a large history is full of, and similarity cannot tell "my horse" from "my
  neighbour's horse". Search ranks them where similarity puts them; here they get a lower
  probability, so a floor drops them.
* ``not_now`` — 1 when the question asks about now and the memory holds no current value
  (``reader.not_current``: the distant past, a wish, a stay with an end: "As a child the user
  visited Oslo…" for "Where do my parents live?", "The user's first car was a Tesla" for "What car do
  I have?"). They are much of what an unanswerable question's top hits are made of, and this feature
  lets a floor drop them. It reads the decider's own test, so relevance and the decider agree on what is not now
  (it read only the distant past until the eleventh round; on dev, replaying the top 5 in-process,
  abstention at the floor that keeps recall@5 near 60% had risen from 70% to 80% with that).

The ``asked`` feature (the hit fills the attribute the question asks about, read by a module since removed, from example
questions) went when search stopped reading English: the constants were refitted without it.

Two of the features read English (``other_person`` and ``not_now``), which search's ranking no longer does
(``search.py``): relevance is computed after the order is fixed and never changes it, so a client that does not
floor on it gets a ranking with no English rule in it. They can be wrong both ways: "The user's line manager is
Priya" reads as someone else's memory for "What's my manager's name?", so its relevance is low though it is
the answer.

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
from collections.abc import Sequence

from offline_reader import about_now, about_someone_else, not_current

__all__ = [
    "BACKGROUND", "COEFFICIENTS", "FEATURES", "FITTED_MODEL", "FITTED_ON", "INTERCEPT", "PRIOR_SIMILARITY",
    "about_someone_else", "background", "hit_features", "probability",
]

FEATURES = ("contrast", "other_person", "not_now")
#: Logistic-regression weights per feature (see the module docstring for how they were fitted).
COEFFICIENTS = {"contrast": 7.994, "other_person": -2.815, "not_now": -1.711}
INTERCEPT = -1.917
#: The embedding model the similarities came from; other models' similarities are not calibrated.
FITTED_MODEL = "all-MiniLM-L6-v2-onnx-int8"
#: What the constants were fitted on (the dev data; never the held-out test split).
FITTED_ON = (
    "dev: the haystack users of the dev split's scorecard file (data/dev_split.json: 12 users, ~590 memories each), "
    "hybrid top 10 per question; L2 1.0; refitted 2026-12-01 after the decider stopped a long history's own facts "
    "replacing one another (everyday examples, the distant past, named others) and the distiller kept subjectless chat; "
    "refitted 2026-12-03 when the time feature became the decider's not-now test and a noun phrase first a person; "
    "refitted 2026-12-03 again for the asked-attribute feature and hybrid's similarity order; "
    "refitted without it when search stopped reading English (no attribute lookup, no subject or time tiers)"
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


def hit_features(similarity: float, background_similarity: float, query: str, content: str) -> tuple[float, ...]:
    """One hit's feature vector, in :data:`FEATURES` order."""
    return (
        similarity - background_similarity,
        float(about_someone_else(query, content)),
        float(about_now(query) and not_current(content)),
    )


def probability(features: Sequence[float]) -> float:
    """The calibrated ``P(evidence)`` of one hit's features, in [0, 1]."""
    z = INTERCEPT + sum(COEFFICIENTS[name] * value for name, value in zip(FEATURES, features, strict=True))
    if z < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
