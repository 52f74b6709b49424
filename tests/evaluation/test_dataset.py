"""The shipped dev split is reproducible from its script, and the LongMemEval format loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_evaluation import DatasetError, load_longmemeval, load_synthetic
from memory_evaluation.make_dataset import OUT, build

TINY = Path(__file__).with_name("data") / "tiny_longmemeval.json"


def test_shipped_dev_file_is_exactly_what_the_generator_writes():
    with open(OUT, encoding="utf-8") as handle:
        assert json.load(handle) == build(), "run: python -m memory_evaluation.make_dataset"


@pytest.mark.full  # slow: generates the dev users
def test_the_old_name_gives_dev_users_and_refuses_a_file():
    assert [c.user_id for c in load_synthetic(users=2)] == ["dev-s0-u00", "dev-s0-u01"]
    with pytest.raises(DatasetError, match="load_cases"):
        load_synthetic("synthetic_memory_eval.json")


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
