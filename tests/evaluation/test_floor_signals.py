"""The saved per-hit signals that lesson 11's exercise tunes a floor on: the rule, and that they are current."""

from __future__ import annotations

import pytest

from memory_evaluation import load_cases
from memory_evaluation.floor_signals import FloorHit, FloorQuestion, collect, load_floor_questions, score_floor


def _q(ability, *hits):
    return FloorQuestion("q", "u", ability, tuple(FloorHit(r, e) for r, e in hits))


def test_a_floor_keeps_hits_at_or_above_it():
    qs = [_q("abstention", (0.2, False)), _q("information_extraction", (0.3, True), (0.1, False))]
    assert score_floor(qs, 0.2).abstention == 0.0 and score_floor(qs, 0.21).abstention == 1.0
    assert score_floor(qs, 0.3).recall_at_5 == 1.0 and score_floor(qs, 0.31).recall_at_5 == 0.0


def test_only_the_first_five_hits_count():
    qs = [_q("abstention"), _q("information_extraction", *[(0.9, False)] * 5, (0.9, True))]
    assert score_floor(qs, 0.0).recall_at_5 == 0.0


def test_score_floor_refuses_a_floor_outside_zero_to_one_and_a_split_without_both_kinds():
    with pytest.raises(ValueError, match="probability"):
        score_floor([_q("abstention"), _q("temporal_reasoning")], 1.5)
    with pytest.raises(ValueError, match="whole split"):
        score_floor([_q("temporal_reasoning")], 0.1)


def test_the_saved_signals_hold_both_splits_with_every_kind_of_question():
    for split in ("dev", "test"):
        questions = load_floor_questions(split)
        assert len({q.user_id for q in questions}) == 12
        assert {"abstention", "knowledge_update", "multi_session"} <= {q.ability for q in questions}
        assert "withdrawal" not in {q.ability for q in questions}


def test_an_unknown_split_is_refused_in_one_line():
    with pytest.raises(ValueError, match="no split 'train'"):
        load_floor_questions("train")


@pytest.mark.full  # slow: both splits through a real local server
def test_the_saved_signals_are_what_the_server_gives_today():
    """Searched again for one dev user, the signals equal the saved ones: a change to search or to the
    relevance fit that forgets to rerun ``python -m memory_evaluation.floor_signals`` fails here."""
    assert collect(load_cases("dev", users=1)) == load_floor_questions("dev", users=1)
