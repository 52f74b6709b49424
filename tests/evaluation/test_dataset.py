"""The shipped dataset is what the issue asks for, is reproducible from its script, and both formats load."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lesson_utils.evaluation import ABILITIES, DatasetError, load_longmemeval, load_synthetic
from lesson_utils.evaluation.dataset import SYNTHETIC_PATH
from lesson_utils.evaluation.make_dataset import build

TINY = Path(__file__).with_name("data") / "tiny_longmemeval.json"


def test_shipped_file_is_exactly_what_the_generator_writes():
    with open(SYNTHETIC_PATH, encoding="utf-8") as handle:
        assert json.load(handle) == build(), "run: python -m lesson_utils.evaluation.make_dataset"


def test_at_least_200_questions_over_40_users_with_every_ability():
    cases = load_synthetic()
    questions = [q for c in cases for q in c.questions]
    assert len(cases) >= 40 and len(questions) >= 200
    counts = Counter(q.ability for q in questions)
    assert set(counts) == set(ABILITIES) and min(counts.values()) >= 40


def test_every_evidence_turn_exists_and_is_a_user_turn():
    for case in load_synthetic():
        turns = {t.uuid: t for s in case.sessions for t in s.turns}
        assert len(turns) == sum(len(s.turns) for s in case.sessions), "turn uuids are unique"
        for q in case.questions:
            assert bool(q.evidence) == (q.ability != "abstention"), q.question_id
            for uuid in q.evidence + q.superseded:
                assert turns[uuid].role == "user"
            if q.ability == "knowledge_update":
                assert q.superseded and q.superseded_answer and q.answer in turns[q.evidence[0]].content
            if q.ability == "multi_session":
                sessions = {uuid.rsplit("-t", 1)[0] for uuid in q.evidence}
                assert len(sessions) == 2, "a multi-session question needs evidence from two sessions"


def test_longmemeval_format_maps_types_evidence_and_abstention():
    cases = load_longmemeval(TINY)
    assert [c.questions[0].ability for c in cases] == ["information_extraction", "knowledge_update", "abstention"]
    first = cases[0]
    assert [s.session_id for s in first.sessions] == ["s-a", "s-b"] and first.sessions[1].date.startswith("2023/05/20")
    assert first.questions[0].evidence == ["tiny-001:s-b:0"]
    assert cases[2].questions[0].evidence == []
    assert len({c.user_id for c in cases}) == 3, "one fresh user per LongMemEval item"
    assert len(load_longmemeval(TINY, limit=1)) == 1


def test_longmemeval_bad_files_get_one_line_errors(tmp_path):
    with pytest.raises(DatasetError, match="No dataset at"):
        load_longmemeval(tmp_path / "missing.json")
    (tmp_path / "obj.json").write_text('{"users": []}', encoding="utf-8")
    with pytest.raises(DatasetError, match="JSON list"):
        load_longmemeval(tmp_path / "obj.json")
    (tmp_path / "odd.json").write_text('[{"question_id": "x"}]', encoding="utf-8")
    with pytest.raises(DatasetError, match="question_type"):
        load_longmemeval(tmp_path / "odd.json")
