"""Lesson 16's exercise: choosing a memory design from measured rows, under a budget of model calls per turn.

``16.pick_a_design``: the learner writes ``pick(rows, ability, max_calls)`` returning the name of the design with
the highest evidence recall on ``ability`` among those making at most ``max_calls`` model calls per turn (ties go
to fewer tokens sent per turn), or ``None`` when no design fits. The check builds tables the lesson never showed
(design names, figures, abilities and budgets drawn per run), each made so one classic mistake picks wrongly:
ignoring the budget, taking the cheapest, reading another ability's rows, never answering ``None``, breaking a
tie the wrong way.
"""

from __future__ import annotations

import random
from typing import Any

from ..framework_memory.designs import DesignRow
from ._cases import draw, with_seed
from ._registry import Hint, call_learner, exercise

NAMES = ("topic files", "vector history", "profile store", "episodic log", "summary memory", "graph memory",
         "hybrid recall", "tool memory", "window + facts", "journal")
ABILITIES = ("information_extraction", "multi_session", "knowledge_update", "temporal_reasoning")


def _row(name: str, ability: str, recall: float, calls: float, tokens: int) -> DesignRow:
    turns = 10
    hits = round(recall * 20)
    return DesignRow(name, ability, questions=20, recalled=[True] * hits + [False] * (20 - hits), turns=turns,
                     tokens=tokens * turns, calls=round(calls * turns))


def reference(rows: list[DesignRow], ability: str, max_calls: float) -> str | None:
    """The design the check expects (the lesson's rule, written once)."""
    fitting = [r for r in rows if r.ability == ability and r.evidence_recall is not None and r.per_turn(r.calls) <= max_calls]
    if not fitting:
        return None
    best = max(fitting, key=lambda r: (r.evidence_recall or 0.0, -r.per_turn(r.tokens)))
    return best.design


def _table(rng: random.Random, trap: str, tie_first: bool) -> tuple[list[DesignRow], str, float]:
    ability, other = rng.sample(ABILITIES, 2)
    names = rng.sample(NAMES, 5)
    budget = rng.choice((1.5, 2.0, 2.5, 3.0))
    recalls = sorted(rng.sample([0.35, 0.45, 0.55, 0.65, 0.75, 0.85], 3), reverse=True)
    rows = [
        _row(names[0], ability, recalls[0] + 0.1, budget + rng.choice((0.5, 1.0, 2.0)), rng.randint(900, 2000)),  # best, over budget
        _row(names[1], ability, recalls[0], budget - 0.5, rng.randint(400, 800)),  # the right answer
        _row(names[2], ability, recalls[2], 1.0, rng.randint(90, 200)),  # cheapest, lower recall
        _row(names[4], ability, 0.1, 1.0, rng.randint(300, 380)),  # leads on the other ability only
    ]
    if trap == "tie":
        rows.append(_row(names[3], ability, recalls[0], budget, int(rows[1].per_turn(rows[1].tokens)) + rng.randint(50, 300)))
    if trap == "none":
        budget = 0.5
    rows += [_row(r.design, other, 1.0 if r.design == names[4] else 0.2, r.per_turn(r.calls), int(r.per_turn(r.tokens)))
             for r in rows]  # another ability, led by a design that is poor on this one
    rng.shuffle(rows)
    if trap == "tie":  # the tied design with more tokens before the right one in one table, after it in the next
        tied = next(r for r in rows if r.design == names[3] and r.ability == ability)
        right = next(r for r in rows if r.design == names[1] and r.ability == ability)
        rows.remove(tied)
        rows.insert(rows.index(right) + (0 if tie_first else 1), tied)
    return rows, ability, budget


TRAPS = ("budget", "tie", "none")


@exercise("16.pick_a_design", title="pick the design with the best recall within a budget of model calls")
async def check_pick_a_design(pick: Any) -> None:
    rng, seed = draw()
    for round_ in range(4):
        for trap in TRAPS:
            rows, ability, budget = _table(rng, trap, tie_first=round_ % 2 == 0)
            chosen = await call_learner(pick, list(rows), ability, budget, what="your `pick`")
            if chosen is not None and not isinstance(chosen, str):
                raise Hint(with_seed(f"pick returned {type(chosen).__name__}; return a design's name (row.design) or None", seed))
            wanted = reference(rows, ability, budget)
            if chosen == wanted:
                continue
            raise Hint(with_seed(_diagnose(rows, ability, budget, chosen, wanted), seed))


def _diagnose(rows: list[DesignRow], ability: str, budget: float, chosen: str | None, wanted: str | None) -> str:
    mine = [r for r in rows if r.ability == ability]
    picked = next((r for r in mine if r.design == chosen), None)
    if wanted is None:
        return f"no design makes at most {budget} calls per turn, so the answer is None (you picked {chosen!r})"
    if chosen is None:
        return f"{wanted!r} fits the budget of {budget} calls per turn: return None only when nothing fits"
    if picked is None:
        return f"{chosen!r} is not one of the designs measured on {ability}: return a row's .design"
    if picked.per_turn(picked.calls) > budget:
        return (f"{chosen!r} makes {picked.per_turn(picked.calls):.1f} model calls per turn, over the budget of {budget}: "
                "leave out designs over budget before comparing recall")
    best = max(r.evidence_recall or 0.0 for r in mine if r.per_turn(r.calls) <= budget)
    if (picked.evidence_recall or 0.0) < best:
        other = [r for r in rows if r.ability != ability and r.design == chosen]
        if other and (other[0].evidence_recall or 0.0) > (picked.evidence_recall or 0.0):
            return f"{chosen!r} leads on another ability, not on {ability}: compare only the rows of the ability asked"
        return (f"{chosen!r} fits the budget but recalls {picked.evidence_recall:.2f} on {ability}; another design within "
                f"budget recalls {best:.2f}: among those that fit, take the best recall, not the cheapest")
    return (f"{chosen!r} and {wanted!r} recall equally; {wanted!r} sends fewer tokens per turn: break a tie on tokens "
            "(row.per_turn(row.tokens)), the lower the better")
