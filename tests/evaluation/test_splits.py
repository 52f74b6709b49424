"""Splits load merged and validated; anything wrong is one line naming it, a changed test file too."""

from __future__ import annotations

import copy
import json

import pytest

from memory_evaluation import DatasetError, load_split
from memory_evaluation.make_dataset import build
from memory_evaluation.dataset import DATA_DIR
from memory_evaluation.splits import MINIMUMS, file_sha256, with_haystack


def write(tmp_path, data, name="split.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def refused(tmp_path, data, match, **kwargs):
    with pytest.raises(DatasetError, match=match) as caught:
        load_split(write(tmp_path, data), floors_path=tmp_path / "none.json", **kwargs)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_the_dev_split_meets_every_minimum():
    split = load_split("dev")
    assert split.name == "dev"
    for kind, count in split.counts().items():
        assert count >= MINIMUMS[kind], kind
    assert len({u["attribute"] for u in split["updates"]}) >= 8


def test_a_missing_field_a_duplicate_id_and_a_misplaced_answer_are_named(tmp_path):
    data = build()
    del data["facts"][3]["answer"]
    assert "f04" in refused(tmp_path, data, "has no answer")
    data = build()
    data["keeps"][1]["id"] = data["keeps"][0]["id"]
    refused(tmp_path, data, "used twice in keeps")
    data = build()
    data["updates"][0]["answer"] = "Atlantis"
    refused(tmp_path, data, "'Atlantis' does not appear in 'new'")


def test_too_few_items_an_unknown_slot_and_bad_json_are_named(tmp_path):
    data = build()
    data["withdrawals"] = data["withdrawals"][:3]
    refused(tmp_path, data, "3 withdrawals; it needs at least 10")
    data = build()
    data["haystack"]["templates"][0] = "My {pony} is grey."
    refused(tmp_path, data, "names pony, not in vocab")
    (tmp_path / "bad.json").write_text("{nope", encoding="utf-8")
    with pytest.raises(DatasetError, match="not valid JSON"):
        load_split(tmp_path / "bad.json")
    with pytest.raises(DatasetError, match="No split file"):
        load_split(tmp_path / "absent.json")


def test_files_are_merged_so_a_pairs_file_adds_items(tmp_path):
    base = build()
    extra = {"split": "dev", "updates": [dict(base["updates"][0], id="p01")], "keeps": [dict(base["keeps"][0], id="p02")]}
    split = load_split([write(tmp_path, base), write(tmp_path, extra, "pairs.json")],
                       floors_path=tmp_path / "none.json")
    assert split.counts()["updates"] == len(base["updates"]) + 1
    assert split.counts()["keeps"] == len(base["keeps"]) + 1
    # Two authors may both number their items u01 …: a merged file keeps its own id space ...
    same_id = copy.deepcopy(extra)
    same_id["updates"][0]["id"] = base["updates"][0]["id"]
    merged = load_split([write(tmp_path, base), write(tmp_path, same_id, "pairs.json")], floors_path=tmp_path / "none.json")
    assert {base["updates"][0]["id"], "pairs:" + base["updates"][0]["id"]} <= {u["id"] for u in merged["updates"]}
    # ... but one file that uses an id twice is refused.
    twice = copy.deepcopy(extra)
    twice["updates"].append(dict(twice["updates"][0]))
    with pytest.raises(DatasetError, match="used twice in updates"):
        load_split([write(tmp_path, base), write(tmp_path, twice, "pairs.json")], floors_path=tmp_path / "none.json")


def test_a_split_whose_hash_differs_from_the_recorded_one_is_refused_in_one_line(tmp_path):
    path = write(tmp_path, build(), "test_split.json")
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"splits": {"test": {"file": "test_split.json", "sha256": file_sha256(path)}}}),
                      encoding="utf-8")
    assert load_split(path, floors_path=floors).counts()["updates"] == len(build()["updates"])
    path.write_text(path.read_text(encoding="utf-8").replace("Oslo", "Bergen"), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"test_split\.json has sha256 \S+ but floors\.json records") as caught:
        load_split(path, floors_path=floors)
    assert "\n" not in str(caught.value) and "restore it" in str(caught.value)


def test_a_hash_not_yet_recorded_is_not_checked(tmp_path):
    path = write(tmp_path, build(), "test_split.json")
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"splits": {"test": {"file": "test_split.json", "sha256": None}}}), encoding="utf-8")
    assert load_split(path, floors_path=floors).name == "dev"



def test_a_second_authors_haystack_replaces_the_filler_and_keeps_the_items(tmp_path):
    dev = load_split("dev")
    other = with_haystack(dev, DATA_DIR / "dev_haystack2.json")
    assert other.items == dev.items and other.haystack["templates"] != dev.haystack["templates"]
    thin = tmp_path / "thin.json"
    thin.write_text(json.dumps({"haystack": {"small_talk": ["hi"], "assistant_replies": [], "templates": [], "vocab": {}}}),
                    encoding="utf-8")
    with pytest.raises(DatasetError, match="small_talk"):
        with_haystack(dev, thin)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"split": "dev"}), encoding="utf-8")
    with pytest.raises(DatasetError, match="haystack"):
        with_haystack(dev, bare)
