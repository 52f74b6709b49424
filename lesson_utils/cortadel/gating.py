"""Recall gating and abstention: when the provider should not search, and what it should not inject.

The seed's provider searches on every turn and injects whatever comes back. That costs one search
on the request path for "thanks!" and puts weak hits in front of the model when the user asks
about something it was never told — the model then answers from a near-miss instead of saying
"I don't know". Three options, all off by default so the seed's behaviour is unchanged:

* ``gate=True`` — skip the search for a turn that cannot need memory. The rule is general, not a
  list of phrases: a turn is *phatic* when every word in it is a greeting, thanks, an
  acknowledgement, a farewell or filler ("hi", "thanks a lot!", "ok cool", "got it 👍"). One
  content word ("thanks, and where do I live?") and the turn is searched.
* ``min_score`` — a relevance floor on the fused (RRF) score. With reciprocal rank fusion a hit's
  score is ``Σ 1/(60 + rank)`` over the arms that found it, so in hybrid mode a score above
  ``1/61`` (:data:`ONE_ARM_MAX`) can only come from *both* arms — the words matched *and* the
  meaning was close. :data:`BOTH_ARMS_FLOOR` is that floor; hits below it are dropped.
* ``token_budget`` — the contract's ``token_budget``: stop adding hits once their contents would
  exceed the budget (about 4 characters per token, the contract's own estimate). The Python SDK's
  ``SearchOptions`` has no field for it, so the provider applies the same rule to the results.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from cortadel import SearchHit

__all__ = [
    "BOTH_ARMS_FLOOR", "ONE_ARM_MAX", "RRF_K", "RecallPolicy", "estimate_tokens", "is_phatic", "select_hits",
]

RRF_K = 60
"""The fusion constant Cortadel (and the local server) use: a rank-r hit scores 1/(RRF_K + r)."""
ONE_ARM_MAX = 1.0 / (RRF_K + 1)
"""The best score a hit found by one arm alone can have (rank 1 in that arm)."""
BOTH_ARMS_FLOOR = ONE_ARM_MAX + 1e-9
"""A floor that keeps only hits both arms found (hybrid mode). Drops everything in text or vector mode."""

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


def select_hits(hits: Sequence[SearchHit], *, min_score: float | None, token_budget: int | None) -> list[SearchHit]:
    """Hits that clear the relevance floor, in rank order, until the token budget is spent."""
    kept: list[SearchHit] = []
    used = 0
    for hit in hits:
        if min_score is not None and (hit.rrf_score is None or hit.rrf_score < min_score):
            continue
        if token_budget is not None:
            cost = estimate_tokens(hit.gist or hit.content or "")
            if used + cost > token_budget:
                break
            used += cost
        kept.append(hit)
    return kept


class RecallPolicy:
    """The provider's gate, floor and budget in one object (validated once, at construction)."""

    def __init__(self, *, gate: bool = False, min_score: float | None = None, token_budget: int | None = None) -> None:
        if min_score is not None and (
            isinstance(min_score, bool) or not isinstance(min_score, (int, float)) or not 0 <= min_score <= 1
        ):
            raise ValueError(f"min_score must be None or a number from 0 to 1 (an RRF score), got {min_score!r}.")
        if token_budget is not None and (
            isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 1
        ):
            raise ValueError(f"token_budget must be None or an integer >= 1, got {token_budget!r}.")
        self.gate = bool(gate)
        self.min_score = None if min_score is None else float(min_score)
        self.token_budget = token_budget
        #: Turns the gate let through / skipped since this policy was built (the scorecard reads them).
        self.searched = 0
        self.skipped = 0

    def should_search(self, query: str) -> bool:
        if self.gate and is_phatic(query):
            self.skipped += 1
            return False
        self.searched += 1
        return True

    def select(self, hits: Sequence[SearchHit]) -> list[SearchHit]:
        if self.min_score is None and self.token_budget is None:
            return list(hits)
        return select_hits(hits, min_score=self.min_score, token_budget=self.token_budget)
