"""Recall gating and abstention: when the provider should not search, and what it should not inject.

The seed's provider searches on every turn and injects whatever comes back. That costs one search
on the request path for "thanks!" and puts weak hits in front of the model when the user asks
about something it was never told — the model then answers from a near-miss instead of saying
"I don't know". Four options, all off by default so the seed's behaviour is unchanged:

* ``gate=True`` — skip the search for a turn that cannot need memory. The rule is general, not a
  list of phrases: a turn is *phatic* when every word in it is a greeting, thanks, an
  acknowledgement, a farewell or filler ("hi", "thanks a lot!", "ok cool", "got it 👍"). One
  content word ("thanks, and where do I live?") and the turn is searched.
* ``min_relevance`` — a floor on each hit's ``attributes["relevance"]``: the probability that the
  hit is evidence for the turn, which the local memory server computes and calibrates on dev data
  (``local_memory_server/relevance.py``). It separates "nothing the user said is about
  this" from "the best of nothing" — which ranks cannot. :data:`RELEVANCE_FLOOR` is the default
  chosen from the dev trade-off curve (``python bench/abstention_curve.py --split dev``). A server
  that fills no ``relevance`` (a real Cortadel may not; the local server leaves it out in text
  mode) gets today's rule instead for those hits — the ``min_score`` floor, or
  :data:`BOTH_ARMS_FLOOR` when none is given — and the policy logs that once.
* ``min_score`` — a floor on the fused ``rrf_score``. On the *local* server a hit's score is plain
  reciprocal rank fusion, ``Σ 1/(60 + rank)`` over the arms that found it, so in hybrid mode a
  score above ``1/61`` (:data:`ONE_ARM_MAX`) can only come from *both* arms — the words matched
  *and* the meaning was close. :data:`BOTH_ARMS_FLOOR` is that floor; hits below it are dropped.
  That reading is the local server's: the Cortadel SDK documents a real server's ``rrf_score`` as
  "RRF, sqrt-normalized", so there the same number is not a both-arms test (read ``text_rank`` and
  ``vector_rank`` instead, or measure a floor on your own data). The floor is blunt: on the dev
  scorecard it lifts abstention but drops multi-session evidence only one arm found.
* ``token_budget`` — the contract's ``token_budget``: stop adding hits once their contents would
  exceed the budget (about 4 characters per token, the contract's own estimate). The Python SDK's
  ``SearchOptions`` has no field for it, so the provider applies the same rule to the results.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from typing import Any

from cortadel import SearchHit

__all__ = [
    "BOTH_ARMS_FLOOR", "ONE_ARM_MAX", "RELEVANCE_FLOOR", "RRF_K", "RecallPolicy", "estimate_tokens", "is_phatic",
    "relevance_of", "select_hits",
]

logger = logging.getLogger(__name__)

RRF_K = 60
"""The fusion constant Cortadel (and the local server) use: a rank-r hit scores 1/(RRF_K + r)."""
ONE_ARM_MAX = 1.0 / (RRF_K + 1)
"""The best score a hit found by one arm alone can have (rank 1 in that arm)."""
BOTH_ARMS_FLOOR = ONE_ARM_MAX + 1e-9
"""A floor that keeps only hits both arms found (hybrid mode, the local server's plain RRF). Drops
everything in text or vector mode."""
RELEVANCE_FLOOR = 0.11
"""The default ``min_relevance``, chosen on the dev split's haystacks (~590 memories per user) once search
ranks the user's own current facts first: abstention 67% with recall@5 62% and update accuracy 50% (no floor:
0%, 76%, 61%), better on every column than the earlier ranking's default (63%, 58%, 45%). Re-measured after
the decider stopped a long history's own facts replacing one another (and the relevance refit): abstention
73% with recall@5 52% and update accuracy 56% (no floor: 0%, 66%, 78%); ``bench/abstention_curve.py --split
dev`` prints the whole curve. Re-measured after the decider read more wordings and other people's news (and the
relevance refit): abstention 67% with recall@5 58% and update accuracy 62% (no floor: 0%, 72%, 84%).
On a small store (a lesson's handful of memories) the same floor drops little: it fails open."""

# Words that carry no request for information. Grouped by what they do, so the rule reads as one.
_GREETINGS = "hi hello hey hiya heya yo howdy greetings morning afternoon evening good day gm".split()
_THANKS = "thanks thank thx ty cheers appreciate appreciated grateful ta".split()
_ACKS = (
    "ok okay k kk sure yes yeah yep yup no nope nah right alright fine great cool nice awesome perfect "
    "excellent wonderful lovely neat sweet gotcha got it understood noted makes sense sounds agreed indeed "
    "true exactly absolutely definitely lol haha hah wow oh ah hmm hm um uh mhm"
).split()
_FAREWELLS = "bye goodbye cya later see soon night goodnight take care ttyl".split()
_FILLER = "a an the you u so very much lot lots all and again too that this is it's that's will do there everyone guys folks buddy mate".split()
PHATIC_WORDS = frozenset(_GREETINGS + _THANKS + _ACKS + _FAREWELLS + _FILLER)
"""Every word a phatic turn may be made of (lower case, after splitting on non-letters)."""

_WORDS = re.compile(r"[a-z0-9']+")


def is_phatic(text: str) -> bool:
    """True when ``text`` cannot need memory: empty, or only greeting/thanks/ack/farewell/filler words.

    A question mark alone does not make a turn need memory ("ok?"), but any other word does.
    """
    words = [w.strip("'") for w in _WORDS.findall(text.lower())]
    return all(w in PHATIC_WORDS for w in words if w)


def estimate_tokens(text: str) -> int:
    """The contract's token estimate: about four characters per token (at least 1 for non-empty text)."""
    return max(1, math.ceil(len(text) / 4)) if text else 0


def relevance_of(hit: SearchHit) -> float | None:
    """The hit's ``attributes["relevance"]`` as a number, or None when the server sent none."""
    value = (hit.attributes or {}).get("relevance")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def select_hits(
    hits: Sequence[SearchHit],
    *,
    min_score: float | None,
    token_budget: int | None,
    min_relevance: float | None = None,
) -> list[SearchHit]:
    """Hits that clear the relevance floor, in rank order, until the token budget is spent.

    With ``min_relevance`` a hit is judged by its ``relevance`` attribute; one without it by the
    ``rrf_score`` floor (``min_score``, or :data:`BOTH_ARMS_FLOOR` when that is None)."""
    kept: list[SearchHit] = []
    used = 0
    fallback = min_score if min_score is not None else BOTH_ARMS_FLOOR
    for hit in hits:
        relevance = relevance_of(hit) if min_relevance is not None else None
        if min_relevance is not None and relevance is not None:
            if relevance < min_relevance:
                continue
        elif min_relevance is not None or min_score is not None:
            if hit.rrf_score is None or hit.rrf_score < fallback:
                continue
        if token_budget is not None:
            cost = estimate_tokens(hit.gist or hit.content or "")
            if used + cost > token_budget:
                break
            used += cost
        kept.append(hit)
    return kept


def _probability(name: str, value: Any, what: str) -> float | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1):
        raise ValueError(f"{name} must be None or a number from 0 to 1 ({what}), got {value!r}.")
    return None if value is None else float(value)


class RecallPolicy:
    """The provider's gate, floors and budget in one object (validated once, at construction)."""

    def __init__(
        self,
        *,
        gate: bool = False,
        min_score: float | None = None,
        token_budget: int | None = None,
        min_relevance: float | None = None,
    ) -> None:
        self.min_score = _probability("min_score", min_score, "an RRF score, e.g. BOTH_ARMS_FLOOR")
        self.min_relevance = _probability(
            "min_relevance", min_relevance, "a probability from attributes['relevance'], e.g. RELEVANCE_FLOOR"
        )
        if token_budget is not None and (
            isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 1
        ):
            raise ValueError(f"token_budget must be None or an integer >= 1, got {token_budget!r}.")
        self.gate = bool(gate)
        self.token_budget = token_budget
        #: Turns the gate let through / skipped since this policy was built (the scorecard reads them).
        self.searched = 0
        self.skipped = 0
        #: Searches whose hits came without ``attributes["relevance"]`` (judged by the rrf floor instead).
        self.fell_back = 0

    def should_search(self, query: str) -> bool:
        if self.gate and is_phatic(query):
            self.skipped += 1
            return False
        self.searched += 1
        return True

    def select(self, hits: Sequence[SearchHit]) -> list[SearchHit]:
        if self.min_score is None and self.token_budget is None and self.min_relevance is None:
            return list(hits)
        if self.min_relevance is not None and any(relevance_of(h) is None for h in hits):
            if not self.fell_back:
                floor = self.min_score if self.min_score is not None else BOTH_ARMS_FLOOR
                logger.warning(
                    "The memory server sent search hits without attributes['relevance']; min_relevance "
                    "judges those by the rrf_score floor instead (min_score=%.4f). Logged once per provider.",
                    floor,
                )
            self.fell_back += 1
        return select_hits(
            hits, min_score=self.min_score, token_budget=self.token_budget, min_relevance=self.min_relevance
        )
