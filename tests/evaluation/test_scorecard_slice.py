"""CI slice: the first users of the TEST split through the real path, held to the floors.

Sessions go in with add_conversation to a fresh local server; questions go through the
provider's before_run in four modes. Fails when any metric drops under data/floors.json, when a
user's history is smaller than the floors say (memories stored, baseline tokens), or when the
test split's file differs from the sha256 recorded beside the floors.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from memory_evaluation import (
    ABILITIES,
    assemble,
    check_floors,
    load_floors,
    load_longmemeval,
    load_split,
    run_scorecard,
)

pytestmark = pytest.mark.slow
TINY = Path(__file__).with_name("data") / "tiny_longmemeval.json"


@pytest.fixture(scope="module")
def card():
    floors = load_floors()
    cases = assemble(load_split(floors["split"]), seed=floors["seed"])[: floors["users"]]
    return asyncio.run(run_scorecard(cases, modes=tuple(floors["modes"])))


def test_slice_holds_every_floor(card):
    assert check_floors(card, load_floors()) == []


def test_every_ability_and_mode_is_scored(card):
    rows = {(r["mode"], r["ability"]) for r in card.rows()}
    for mode in load_floors()["modes"]:
        for ability in (*ABILITIES, "follow_up"):
            assert (mode, ability) in rows
    assert card.baseline_tokens > 20 * card.metric("hybrid", "all", "tokens_per_turn") > 0


def test_updates_keeps_and_withdrawals_are_read_back_from_the_server(card):
    assert {t.item.kind for t in card.tracked} == {"update", "keep", "withdrawal"}
    stored = [bool(flags) for t in card.tracked for flags in t.current.values()]
    assert sum(stored) > 0.8 * len(stored), "most tracked turns map to memories the list call returned"


def test_gating_skips_every_phatic_turn(card):
    summary = {m["mode"]: m for m in card.mode_summary()}
    assert summary["hybrid"]["searched"] == 1.0
    assert summary["hybrid+gating"]["searched"] < 1.0
    assert summary["hybrid+gating"]["phatic_clean"] == 1.0


def test_failures_are_listed_by_kind(card):
    for kind in ("recall", "update", "abstention"):
        for r in card.failures("hybrid", kind):
            assert r.mode == "hybrid"
    assert all(not r.abstained for r in card.failures("hybrid", "abstention"))
    with pytest.raises(ValueError, match="kind must be"):
        card.failures("hybrid", "speed")


def test_a_longmemeval_file_is_scored_by_the_same_harness():
    card = asyncio.run(run_scorecard(load_longmemeval(TINY), modes=("hybrid",)))
    assert card.metric("hybrid", "information_extraction", "recall@1") == 1.0
    assert card.metric("hybrid", "knowledge_update", "recall@5") == 1.0
    assert card.metric("hybrid", "abstention", "abstain_acc") is not None
