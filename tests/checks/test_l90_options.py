"""The appendix's named checks: each holds on the effect it names and fails without it."""

from __future__ import annotations

import logging
from types import SimpleNamespace as NS

import pytest

from course_kit.lessons.l90_options.checks import (
    app_names_sent,
    came_back_reranked,
    log_records,
    mentions,
    stored_with,
    two_turns,
    whose_facts,
)


def _hits(*similarities: float, rerank: bool = True) -> NS:
    return NS(results=[NS(attributes={"similarity": s, **({"rerank": "cosine"} if rerank else {})}) for s in similarities])


def test_came_back_reranked_needs_the_label_and_the_order() -> None:
    assert came_back_reranked(_hits(0.9, 0.5, 0.1))
    assert not came_back_reranked(_hits(0.5, 0.9))
    assert not came_back_reranked(_hits(0.9, 0.5, rerank=False))
    assert not came_back_reranked(_hits())


def test_two_turns_counts_and_refuses_new_lines_on_turn_two() -> None:
    assert two_turns(["a", "b"], ["a"], ["1"]) == (2, 1, 1)
    with pytest.raises(AssertionError, match="did not"):
        two_turns(["a", "b"], ["c"], [])


def test_mentions_and_stored_with() -> None:
    assert mentions(["Sid lives in Lima."], "Lima") and not mentions(["Sid lives in Cork."], "Lima")
    hit = NS(content="Orla lives in Cork.", tags=["travel"], project_id="trips")
    assert stored_with([hit], "Cork", tags=["travel"], project="trips")
    assert not stored_with([hit], "Cork", tags=["work"], project="trips")
    assert not stored_with([hit], "Cork", tags=["travel"], project=None)


def test_whose_facts_tells_assistant_user_mixed_and_none() -> None:
    def added(*facts: str) -> NS:
        return NS(results=[NS(memory=fact) for fact in facts])

    assert whose_facts(added("The assistant is Orbit.", "The assistant replies briefly.")) == "assistant"
    assert whose_facts(added("The user asked who the assistant is.")) == "user"
    assert whose_facts(added("The assistant is Orbit.", "The user travels.")) == "mixed"
    assert whose_facts(NS(results=None)) == "none"


def test_app_names_sent_and_logged() -> None:
    assert app_names_sent([("search", {"app_name": "bot"}), ("from-conversation", {})]) == [
        ("search", "bot"), ("from-conversation", None)]
    record = logging.LogRecord("my_app.memory", logging.WARNING, __file__, 1, "down", None, None)
    assert log_records([record]) == [("my_app.memory", "WARNING")]
    assert log_records([]) != [("my_app.memory", "WARNING")]
