"""Lesson 16's checks: comparing memory designs row by row, and what a follow-up's search found.

The lesson's claims compare designs ("full history sends the most", "the cheapest design that recalled") and
say which memory a query reached the model with. Each helper computes one of those from the per-design
summary (:func:`~memory_evaluation.designs.design_summary`) or the injected lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["cheapest_that_recalled", "mentions", "per_turn", "the_least", "the_most"]


def per_turn(summary: Mapping[str, Any], figure: str) -> dict[str, float]:
    """Each design's ``figure`` (``"tokens"``, ``"calls"``, ``"writes"``) per turn, by design name."""
    return {name: row.per_turn(getattr(row, figure)) for name, row in summary.items()}


def the_most(values: Mapping[str, float]) -> str | None:
    """The one name whose value is above every other's (``None`` on a tie for the top)."""
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def the_least(values: Mapping[str, float | None]) -> str | None:
    """The one name whose value is below every other's (``None`` on a tie for the bottom; missing values skipped)."""
    return the_most({name: -value for name, value in values.items() if value is not None})


def cheapest_that_recalled(summary: Mapping[str, Any]) -> str | None:
    """The design with the fewest tokens per turn among those that recalled any evidence."""
    tokens = per_turn(summary, "tokens")
    recalled = [name for name, row in summary.items() if row.evidence_recall]
    return min(recalled, key=tokens.__getitem__, default=None)


def mentions(lines: Iterable[str], word: str) -> bool:
    """Some injected line mentions ``word`` (case-insensitive)."""
    return any(word.lower() in line.lower() for line in lines)
