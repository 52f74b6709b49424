"""The dev pairs: their format and targets, scored end to end on the local server (evaluation/pairs.py).

The dev split is what the update decider was tuned on; the held-out test split is scored by the
lead, not here. Targets on the first author's pairs: update accuracy of at least 90%, at most one
false supersession among the keeps, and every withdrawal honoured. The second author's pairs
(``dev2_pairs.json``, phrased unlike the first's) are far harder for the offline decider; their
floors are what it reaches today, honestly low, so that a change that loses ground there fails. So are a fourth
author's (``dev4_pairs.json``, typed as people chat).
"""

from __future__ import annotations

import json

import pytest

from memory_evaluation.pairs import DEV_PAIRS, PairsReport, evaluate_pairs, try_update

DEV2_PAIRS = DEV_PAIRS.with_name("dev2_pairs.json")
DEV4_PAIRS = DEV_PAIRS.with_name("dev4_pairs.json")


@pytest.fixture(scope="module")
def embedder():
    from local_memory_server.embeddings import default_embedder

    return default_embedder()


@pytest.fixture(scope="module")
def dev() -> dict:
    with open(DEV_PAIRS, encoding="utf-8") as handle:
        return json.load(handle)


def test_the_dev_split_has_the_pairs_the_format_asks_for(dev):
    assert dev["split"] == "dev" and dev["version"] == 1 and dev["about"]
    assert set(dev) == {"split", "version", "about", "updates", "keeps", "withdrawals"}
    updates, keeps, withdrawals = dev["updates"], dev["keeps"], dev["withdrawals"]
    assert len(updates) >= 60 and len({u["attribute"].split(":")[0] for u in updates}) >= 8
    assert len(keeps) >= 50 and len(withdrawals) >= 10
    for items in (updates, keeps, withdrawals):
        assert len({i["id"] for i in items}) == len(items)
    for u in updates:
        assert u["answer"].casefold() in u["new"].casefold() and u["old_answer"].casefold() in u["old"].casefold(), u
    kinds = " ".join(u["kind"] for u in updates)
    for kind in ("time phrase first", "departure and arrival", "has become", "turned into", "is now", "polite name",
                 "age as birthday", "job change as a story", "our new place", "settled in", "moved out of"):
        assert kind in kinds, kind


@pytest.mark.full  # slow: the dev pairs through a real local server
def test_the_dev_pairs_meet_their_targets_end_to_end(embedder):
    from local_memory_server.server import build_service

    service = build_service(None, embedder=embedder)
    report = evaluate_pairs(DEV_PAIRS, service=service)
    service.store.close()
    assert report.update_accuracy >= 0.9, report.summary() + "\n" + "\n".join(map(str, report.misses))
    assert report.false_supersessions <= 1, report.misses
    assert report.withdrawals_honoured == report.withdrawals, report.misses
    assert report.reading_rate >= 0.95, report.summary()  # 134 of 138 update messages read as their attribute


@pytest.mark.full  # slow: the pairs through a real local server
def test_the_second_authors_pairs_hold_their_floors_end_to_end(embedder):
    from memory_evaluation.splits import DEV_PAIR_FILES
    from local_memory_server.server import build_service

    assert DEV2_PAIRS in DEV_PAIR_FILES
    service = build_service(None, embedder=embedder)
    report = evaluate_pairs(DEV2_PAIRS, service=service)
    service.store.close()
    assert report.updates >= 60 and report.keeps >= 50 and report.withdrawals >= 10
    # measured 38/80 updates, 8/66 false supersessions, 22/30 withdrawals (before this work: 30/80, 12/66, 5/30)
    assert report.update_accuracy >= 0.45, report.summary() + "\n" + "\n".join(map(str, report.misses))
    assert report.false_supersessions <= 8, report.summary()
    assert report.withdrawal_rate >= 0.7, report.summary()


@pytest.mark.full  # slow: the pairs through a real local server
def test_the_fourth_authors_pairs_hold_their_floors_end_to_end(embedder):
    """A fourth author wrote these blind on 2026-12-03, in chat as people type it; they were scored before any change
    was made against them: 46/80 updates, 2/60 false supersessions, 14/20 withdrawals."""
    from local_memory_server.server import build_service

    service = build_service(None, embedder=embedder)
    report = evaluate_pairs(DEV4_PAIRS, service=service)
    service.store.close()
    assert report.updates == 80 and report.keeps == 60 and report.withdrawals == 20
    # measured 53/80 updates, 2/60 false supersessions, 14/20 withdrawals after the changes tuned on them
    assert report.update_accuracy >= 0.62, report.summary() + "\n" + "\n".join(map(str, report.misses))
    assert report.false_supersessions <= 3, report.summary()
    assert report.withdrawal_rate >= 0.65, report.summary()


def test_a_miss_is_reported_with_its_kind(embedder):
    from local_memory_server.server import build_service

    split = {"updates": [{"id": "x1", "attribute": "home", "kind": "never said", "old": "I live in Leeds.",
                          "new": "What a lovely day.", "question": "Where do I live?", "answer": "Graz",
                          "old_answer": "Leeds"}],
             "keeps": [{"id": "x2", "why": "a move", "first": "I live in Leeds.", "second": "I moved to Graz."}],
             "withdrawals": [{"id": "x3", "fact": "I live in Leeds.", "withdrawal": "I love Leeds."}]}
    service = build_service(None, embedder=embedder)
    report = evaluate_pairs(split, service=service)
    service.store.close()
    assert isinstance(report, PairsReport) and report.update_accuracy == 0 and report.false_supersessions == 1
    assert report.withdrawal_rate == 0
    assert [(m["id"], m["kind"]) for m in report.misses] == [("x1", "never said"), ("x2", "a move"), ("x3", "withdrawal")]
    assert (report.messages, report.messages_read) == (2, 1)  # "What a lovely day." holds no value to read


def test_the_reading_counts_a_message_whose_value_got_the_items_attribute(embedder):
    from local_memory_server.server import build_service

    split = {"updates": [{"id": "y1", "attribute": "favourite:tea", "old": "Earl Grey is my favourite tea.",
                          "new": "These days my favourite tea is Assam.", "question": "What's my favourite tea?",
                          "answer": "Assam", "old_answer": "Earl Grey"},
                         {"id": "y2", "attribute": "phone number", "old": "My mobile number is 07700 900345.",
                          "new": "Ignore the weather, it is grim.", "question": "What's my number?",
                          "answer": "07700 900678", "old_answer": "07700 900345"}]}
    service = build_service(None, embedder=embedder)
    report = evaluate_pairs(split, service=service)
    service.store.close()
    assert (report.messages, report.messages_read) == (4, 3), report.summary()  # "phone number" is the phone family
    assert report.reading_rate >= report.update_accuracy


def test_a_trial_shows_each_memory_its_attribute_and_whether_the_old_one_was_replaced():
    moved = try_update("I rent a flat in Ghent.", "We've just bought a house in Bruges.")
    assert moved.replaced and str(moved).splitlines()[0].startswith("outdated  home")
    both = try_update("My dog is called Biscuit.", "My cat is called Pixel.")
    assert not both.replaced and str(both).splitlines()[-1] == "replaced: False"
