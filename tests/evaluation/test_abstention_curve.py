"""The abstention trade-off curve: one search per question, the floor replayed per row, read as a table or a plot."""

from __future__ import annotations

import matplotlib
import pytest

from memory_evaluation.abstention import CurvePoint, abstention_curve, choose_floor, curve_row, curve_table, plot_curve
from memory_evaluation.dataset import Case, Question, Session, Turn

matplotlib.use("Agg")

SAID = ["I'm allergic to latex.", "I play the oboe in a band.", "My neighbour has a horse called Ivy.",
        "I bake bread on Saturdays.", "I live in Tunis."]


def tiny_case() -> Case:
    turns = [Turn(f"t{i}", "user", text) for i, text in enumerate(SAID)]
    questions = [
        Question("q-allergy", "information_extraction", "What am I allergic to?", "latex", ["t0"]),
        Question("q-oboe", "information_extraction", "Which instrument do I play?", "oboe", ["t1"]),
        Question("q-horse", "abstention", "What is my horse called?", None),
    ]
    return Case("curve-user", [Session("s0", "2024-01-08", turns)], questions)


def point(label, floor, abstain, recall):
    return CurvePoint(label, floor, abstain, recall, recall, recall, 10.0)


CURVE = [point("no floor", None, 0.0, 0.6), point("rrf floor", None, 0.47, 0.41),
         point("relevance ≥ 0.1", 0.1, 0.6, 0.59), point("relevance ≥ 0.14", 0.14, 0.7, 0.58),
         point("relevance ≥ 0.2", 0.2, 0.87, 0.44)]


async def test_a_curve_has_the_reference_rows_then_one_row_per_floor_and_a_floor_only_drops():
    points = await abstention_curve([tiny_case()], floors=(0.0, 0.99))
    assert [p.label for p in points] == ["no floor", "rrf floor", "relevance ≥ 0", "relevance ≥ 0.99"]
    unfloored, _, zero, everything = points
    assert unfloored.recall_at_5 == 1.0 and unfloored.abstain_acc == 0.0  # the horse question gets near misses
    assert zero.recall_at_5 == unfloored.recall_at_5 and zero.tokens_per_question == unfloored.tokens_per_question
    assert everything.abstain_acc == 1.0 and everything.recall_at_5 == 0.0 and everything.tokens_per_question == 0.0


def test_choose_floor_takes_the_most_abstention_that_keeps_the_recall():
    assert choose_floor(CURVE, min_recall=0.55).floor == 0.14
    assert choose_floor(CURVE, min_recall=0.95, relative=True).floor == 0.14  # 95% of the no-floor 60%
    with pytest.raises(ValueError, match="no floor keeps recall@5 >= 95%"):
        choose_floor(CURVE, min_recall=0.95)


def test_curve_row_finds_a_row_or_names_the_rows():
    assert curve_row(CURVE, "rrf floor").abstain_acc == 0.47
    with pytest.raises(KeyError, match="no floor, rrf floor"):
        curve_row(CURVE, "relevance ≥ 0.5")


def test_the_table_has_one_line_per_row():
    table = curve_table(CURVE).splitlines()
    assert len(table) == 2 + len(CURVE)
    assert table[5] == "| relevance ≥ 0.14 | 70% | 58% | 58% | 58% | 10.0 |"


def test_the_plot_draws_the_curve_the_references_and_the_target():
    ax = plot_curve(CURVE)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["relevance floor", "no floor", "rrf floor", "target (80% / 95%)"]
    xs, ys = ax.lines[0].get_data()
    assert list(xs) == [0.6, 0.7, 0.87] and list(ys) == [0.59, 0.58, 0.44]
