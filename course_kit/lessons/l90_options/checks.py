"""Named checks for the appendix (90): each option's visible effect, read from what went out and came back.

The appendix proves one option per section. What a section compares — two turns' injected lines, the
labels a stored hit came back with, the ``app_name`` each request carried, the records a logger got — is
read here, so each check cell states the option's effect in a line or two.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any


def came_back_reranked(results: Any) -> bool:
    """Every hit says it was reranked, and the hits are in order of falling similarity."""
    hits = list(results.results)
    similarities = [hit.attributes["similarity"] for hit in hits]
    return bool(hits) and all(hit.attributes.get("rerank") for hit in hits) and similarities == sorted(similarities, reverse=True)


def two_turns(first: Sequence[str], second: Sequence[str], kept: Sequence[str]) -> tuple[int, int, int]:
    """(lines injected on turn 1, lines injected on turn 2, ids remembered); turn 2 must only repeat turn 1."""
    if not set(second) <= set(first):
        raise AssertionError(f"turn 2 injected lines turn 1 did not: {sorted(set(second) - set(first))}")
    return len(first), len(second), len(kept)


def mentions(lines: Iterable[str], word: str) -> bool:
    """Whether any of the recalled ``lines`` names ``word``."""
    return any(word in line for line in lines)


def stored_with(hits: Iterable[Any], word: str, *, tags: list[str], project: str) -> bool:
    """A stored memory naming ``word`` came back with exactly these ``tags`` and this ``project``."""
    return any(word in hit.content and hit.tags == tags and hit.project_id == project for hit in hits)


def whose_facts(added: Any) -> str:
    """``"assistant"`` when every fact extracted from an exchange is about the assistant, ``"user"`` when none
    is, ``"mixed"`` when some are, ``"none"`` when nothing was extracted."""
    facts = [item.memory or "" for item in (added.results or [])]
    about_assistant = [fact.startswith("The assistant") for fact in facts]
    if not facts:
        return "none"
    return "assistant" if all(about_assistant) else "user" if not any(about_assistant) else "mixed"


def app_names_sent(wire: Iterable[tuple[str, dict]]) -> list[tuple[str, str | None]]:
    """(endpoint, ``app_name`` in its body) for each request a turn sent, in order."""
    return [(path, body.get("app_name")) for path, body in wire]


def log_records(records: Iterable[logging.LogRecord]) -> list[tuple[str, str]]:
    """(logger name, level) of each record a handler collected."""
    return [(record.name, record.levelname) for record in records]
