"""Lessons 11 and 16 show stored measurements: the stored files are what today's code measures, offline.

If a full-tier test here fails after a change of the server, the provider, the data or a design, run
`python -m memory_evaluation.stored_runs --write scorecards` (or `--write designs`) and commit the new figures
with the change: the lessons' checks then assert their claims against the new figures.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from memory_evaluation import side_by_side, slice_cases
from memory_evaluation.designs import design_cases, design_summary
from memory_evaluation.stored_runs import (
    DESIGNS,
    SCORECARDS,
    _design_record,
    measure_designs,
    measure_scorecards,
    shown_figures,
    stored_designs,
    stored_scorecards,
)
from model_config.configuration import ChatClientInfo


def _as_stored(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.full
def test_lesson_11s_stored_figures_are_what_the_scorecard_measures_today():
    with open(SCORECARDS, encoding="utf-8") as handle:
        assert _as_stored(asyncio.run(measure_scorecards())) == handle.read()


@pytest.mark.full
def test_lesson_16s_stored_rows_are_what_the_designs_measure_today_on_the_offline_model():
    with open(DESIGNS, encoding="utf-8") as handle:
        assert _as_stored(_design_record(asyncio.run(measure_designs()))) == handle.read()


def test_the_stored_scorecards_read_like_live_ones_without_timings():
    dev, test, points = stored_scorecards()
    assert dev.items()["min_memories_per_user"] >= 500 and test.baseline_tokens >= 10_000
    assert "median_ms" not in dev.rows()[0] and "ingest_seconds_per_user" not in dev.items()
    assert "| recall@5 |" in side_by_side({"dev": dev, "test": test}) and [p.label for p in points][:2] == ["no floor", "rrf floor"]


def test_the_stored_designs_are_six_designs_on_the_slice_without_timings():
    summary = design_summary(stored_designs())
    assert len(summary) == 6 and all(row.questions == 7 and not row.question_ms for row in summary.values())


def test_on_a_real_model_the_designs_line_says_whose_figures_they_are_and_how_to_measure_yours(monkeypatch):
    import chat_models.selection

    real = ChatClientInfo(kind="openai", model="gpt-test", base_url=None, reason="test")
    monkeypatch.setattr(chat_models.selection, "describe_chat_client", lambda: real)
    stored = shown_figures("designs", measured_here=False)
    assert "offline lesson model" in stored and "gpt-test" in stored and "MEASURE_ALL = True" in stored
    assert "gpt-test" in shown_figures("designs", measured_here=True)
    assert "no chat model" in shown_figures("scorecards", measured_here=False)


def test_a_slice_keeps_its_questions_evidence_and_only_the_tracked_items_it_holds_whole():
    whole = slice_cases("dev", users=1)[0]
    cut = slice_cases("dev", users=1, sessions=10, per_ability=2)[0]
    kept = {t.uuid for s in cut.sessions for t in s.turns}
    assert len(cut.sessions) < len(whole.sessions) and cut.tracked and len(cut.tracked) < len(whole.tracked)
    assert all(set(q.evidence) <= kept for q in cut.questions)
    assert all({*item.current, *item.not_current} <= kept for item in cut.tracked)


def test_design_cases_is_a_slice_and_abilities_pick_the_questions():
    two = design_cases("test", users=1, sessions=2, per_ability=1, abilities=("information_extraction", "abstention"))
    assert sorted(q.ability for q in two[0].questions) == ["abstention", "information_extraction"]
    assert len(design_cases("test", users=1, sessions=6, per_ability=1)[0].questions) == 7
