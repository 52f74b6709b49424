"""``bench/extraction_probe.py``: how many facts a user states the model's extraction keeps, and its two data sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench_scripts import load_bench_script
from tests.models.stand_in_server import StandInServer

ROOT = Path(__file__).parents[2]
SETS = [ROOT / "memory_evaluation" / "data" / name for name in ("blind_extraction_dev.json", "blind_extraction.json")]


@pytest.fixture(scope="module")
def probe():
    return load_bench_script("extraction_probe")


def _cases(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_every_key_and_every_word_not_to_store_is_in_its_chat(probe, path):
    cases = _cases(path)
    assert len(cases) == 30 and sum(len(c["facts"]) for c in cases) > 60
    for case in cases:
        chat = case["chat"].casefold()
        assert all(k.casefold() in chat for fact in case["facts"] for k in fact["key"]), case["chat"][:80]
        assert all(n.casefold() in chat for n in case["not_facts"]), case["chat"][:80]
        assert {t.role for t in probe.turns_of(case["chat"])} <= {"user", "assistant"}


def test_the_two_sets_share_no_chat():
    chats = [{c["chat"] for c in _cases(path)} for path in SETS]
    assert not chats[0] & chats[1]


CASE = {"chat": "user: my cat Miso, a Maine Coon, hates the vet. tips?\nassistant: Try a Feliway spray and a towel wrap.",
        "facts": [{"fact": "The user has a Maine Coon called Miso.", "key": ["maine coon"]},
                  {"fact": "The user's cat is called Miso.", "key": ["miso"]}],
        "not_facts": ["feliway"]}


def test_a_fact_counts_as_kept_when_one_written_fact_holds_all_its_keys(probe):
    assert probe.score(CASE, ["The user has a cat called Miso.", "The user uses Feliway spray."]) == (1, 2, 1)
    assert probe.score(CASE, ["The user's Maine Coon Miso hates the vet."]) == (2, 2, 0)


def test_the_probe_runs_the_servers_extraction_on_a_model_and_prints_the_table(probe, tmp_path, capsys):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([CASE]), encoding="utf-8")
    written = {"facts": [{"fact": "The user has a Maine Coon called Miso.", "whose": "user", "topic": "pet",
                          "single": False, "when": "now"}]}
    with StandInServer(reply=lambda request: json.dumps(written), api_key=None, answers_any_model=True) as server:
        assert probe.main(["--cases", str(cases), "--url", server.base_url, "--model", "stand-in"]) == 0
    assert "| 2/2 (100%) | 0/1 | 1.0 | 0 |" in capsys.readouterr().out
