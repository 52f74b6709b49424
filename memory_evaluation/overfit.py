"""Rules fitted to a split's own update phrasings: what tuning on your own questions looks like.

The knowledge-update rules of issue 11 were written by reading the failing questions of the very
dataset that then scored them, and that dataset reported 100% update accuracy. This module does
the same thing on purpose, mechanically, so the effect can be measured in lesson 11:
:func:`fit_phrasings` learns one pattern per update of a split — its new statement, with the new
and old values replaced by wildcards — and :func:`recognised` gives the share of any split's
updates those patterns recognise. On the split they were fitted to they recognise every update,
by construction (and they generalise over *values*: "I live in Oslo now" fits "I live in Riga
now"); on a split written apart they recognise only what happens to share a phrasing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["fit_phrasings", "recognised"]


def _pattern(item: dict[str, Any]) -> re.Pattern[str]:
    text = re.escape(item["new"].strip())
    for value in sorted({str(item["answer"]), str(item["old_answer"])}, key=len, reverse=True):
        text = re.sub(re.escape(re.escape(value)), "(.+?)", text, flags=re.IGNORECASE)
    return re.compile(f"^{text}$", re.IGNORECASE)


def fit_phrasings(updates: Iterable[dict[str, Any]]) -> list[re.Pattern[str]]:
    """One pattern per distinct phrasing among ``updates`` (a split's ``"updates"`` items)."""
    patterns: dict[str, re.Pattern[str]] = {}
    for item in updates:
        pattern = _pattern(item)
        patterns.setdefault(pattern.pattern, pattern)
    return list(patterns.values())


def recognised(patterns: Sequence[re.Pattern[str]], updates: Iterable[dict[str, Any]]) -> float:
    """The share of ``updates`` whose new statement one of ``patterns`` matches."""
    items = list(updates)
    if not items:
        raise ValueError("no updates to recognise")
    hits = sum(any(p.match(item["new"].strip()) for p in patterns) for item in items)
    return hits / len(items)
