"""Lesson 16's check helpers: each holds on the evidence it names and fails on the wrong evidence."""

from __future__ import annotations

from course_kit.lessons.l16_choosing_a_memory_design.checks import (
    cheapest_that_recalled,
    mentions,
    per_turn,
    the_least,
    the_most,
)
from memory_evaluation.designs import DesignRow


def row(name: str, tokens: int, recalled: list[bool], calls: int = 2) -> DesignRow:
    return DesignRow(name, "all", questions=len(recalled), recalled=recalled, turns=10, tokens=tokens, calls=calls)


SUMMARY = {"full history": row("full history", 5000, [True, True], calls=10),
           "Cortadel provider": row("Cortadel provider", 800, [True, False]),
           "vector history": row("vector history", 300, [False, False]),
           "MemoryContextProvider": row("MemoryContextProvider", 1200, [False, True])}


def test_per_turn_divides_a_figure_by_the_turns() -> None:
    assert per_turn(SUMMARY, "tokens")["full history"] == 500.0 and per_turn(SUMMARY, "calls")["full history"] == 1.0


def test_the_most_is_the_one_strictly_above_the_others() -> None:
    assert the_most(per_turn(SUMMARY, "tokens")) == "full history"
    assert the_most({"a": 3.0, "b": 3.0, "c": 1.0}) is None
    assert the_most({}) is None


def test_cheapest_that_recalled_skips_designs_that_recalled_nothing() -> None:
    assert cheapest_that_recalled(SUMMARY) == "Cortadel provider"
    assert cheapest_that_recalled({"vector history": SUMMARY["vector history"]}) is None


def test_mentions_looks_in_every_line() -> None:
    assert mentions(["The boiler was fixed.", "I went Hiking in June."], "hiking")
    assert not mentions(["The boiler was fixed."], "hiking") and not mentions([], "hiking")


def test_the_least_is_the_one_strictly_below_the_others() -> None:
    assert the_least({"a": 0.5, "b": 0.0, "c": None, "d": 1.0}) == "b"
    assert the_least({"a": 0.0, "b": 0.0, "c": 1.0}) is None
