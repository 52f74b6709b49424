"""A split becomes users with realistic histories: 40+ dated sessions, 500+ stored memories, near
misses, every item asked once, the same users for a seed and fresh ones for another."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import date

import pytest

from memory_evaluation import assemble, fresh_cases, load_split
from memory_evaluation.haystack import MIN_HISTORY_TOKENS
from lesson_utils.cortadel.gating import estimate_tokens


@pytest.fixture(scope="module")
def split():
    return load_split("dev")


@pytest.fixture(scope="module")
def cases(split):
    return assemble(split)


def said(case, uuid):
    return next(t.content for s in case.sessions for t in s.turns if t.uuid == uuid)


def session_of(uuid):
    return int(uuid.rsplit("-s", 1)[1].split("-")[0])


def test_every_user_has_40_dated_sessions_and_a_long_history(cases):
    assert len(cases) >= 12
    for case in cases:
        assert len(case.sessions) >= 40
        dates = [date.fromisoformat(s.date) for s in case.sessions]
        assert dates == sorted(dates) and len(set(dates)) == len(dates)
        assert sum(estimate_tokens(t.content) for s in case.sessions for t in s.turns) >= MIN_HISTORY_TOKENS
        assert sum(t.role == "user" for s in case.sessions for t in s.turns) >= 500


def test_every_item_is_asked_or_tracked_exactly_once(split, cases):
    asked = Counter(q.question_id.split("-", 3)[-1] for c in cases for q in c.questions)
    tracked = Counter(t.item_id for c in cases for t in c.tracked)
    for kind in ("facts", "multi_session", "temporal", "abstention", "updates", "withdrawals"):
        for item in split[kind]:
            assert asked[item["id"]] == 1, item["id"]
    for item in split["follow_ups"]:
        assert asked[f"{item['id']}-first"] == asked[f"{item['id']}-follow"] == 1
    for item in split["keeps"] + split["updates"] + split["withdrawals"]:
        assert tracked[item["id"]] == 1, item["id"]


def test_an_old_value_comes_sessions_before_the_new_one_and_never_shares_a_user_with_its_attribute(split, cases):
    by_id = {u["id"]: u for u in split["updates"]}
    for case in cases:
        attributes = [by_id[t.item_id]["attribute"] for t in case.tracked if t.kind == "update"]
        assert len(attributes) == len(set(attributes)), case.user_id
        for t in case.tracked:
            if t.kind == "update":
                (new,), (old,) = t.current, t.not_current
                assert session_of(old) < session_of(new)
                assert said(case, old) == by_id[t.item_id]["old"] and said(case, new) == by_id[t.item_id]["new"]


def test_temporal_events_are_told_in_sessions_dated_after_them(cases):
    for case in cases:
        dates = {s.session_id: date.fromisoformat(s.date) for s in case.sessions}
        for q in case.questions:
            if q.ability == "temporal_reasoning":
                for uuid in q.evidence:
                    day, month = said(case, uuid).split(" on ")[1].split()[:2]
                    told = dates[uuid.rsplit("-t", 1)[0]]
                    assert told >= date(told.year, _month(month), int(day)), said(case, uuid)


def _month(name):
    return ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december"].index(name.strip(".").lower()) + 1


def test_near_misses_about_other_people_surround_the_users_own_facts(split, cases):
    for case in cases:
        user_turns = [t.content for s in case.sessions for t in s.turns if t.role == "user"]
        others = [t for t in user_turns if t.startswith(("My cousin", "My neighbour", "My colleague", "My friend"))]
        assert len(others) >= 100, case.user_id
    near = {a["near_miss"] for a in split["abstention"] if a.get("near_miss")}
    told = {t.content for c in cases for s in c.sessions for t in s.turns}
    assert near <= told, "every abstention near miss is said to the user who is asked"


def test_follow_ups_come_right_after_their_first_question_and_are_scored_on_its_evidence(cases):
    for case in cases:
        for n, q in enumerate(case.questions):
            if q.ability == "follow_up":
                first = case.questions[n - 1]
                assert first.question_id == q.question_id.replace("-follow", "-first")
                assert q.evidence == first.evidence and q.question != first.question


@pytest.mark.full  # slow: generates users twice
def test_the_same_seed_gives_the_same_users_and_a_fresh_seed_new_ones(split, cases):
    again = assemble(split)
    assert [[t.content for s in c.sessions for t in s.turns] for c in again] == \
        [[t.content for s in c.sessions for t in s.turns] for c in cases]
    fresh = fresh_cases(split, seed=7)
    assert {c.user_id for c in fresh}.isdisjoint({c.user_id for c in cases})
    assert [t.content for s in fresh[0].sessions for t in s.turns] != [t.content for s in cases[0].sessions for t in s.turns]
    assert sorted(q.question for c in fresh for q in c.questions) == sorted(q.question for c in cases for q in c.questions)
    with pytest.raises(ValueError, match="pick any other seed"):
        fresh_cases(split, seed=0)


@pytest.mark.slow
def test_one_user_stores_at_least_500_memories_on_a_real_local_server(cases):
    from memory_evaluation import run_scorecard

    card = asyncio.run(run_scorecard(cases[:1], modes=("hybrid",)))
    assert card.items()["min_memories_per_user"] >= 500  # the scale: stored memories
    # Current ones are fewer: the meaning decider supersedes part of the filler (test slice: 330 of 564 current),
    # a known over-supersession recorded in floors.json's false-supersession ceiling, not a haystack defect.
    assert 0 < card.items()["min_current_per_user"] <= card.items()["min_memories_per_user"]
    assert card.baseline_tokens >= 10_000


@pytest.mark.parametrize("said", ["I sat my exam on 3 March.", "I sat my exam on the 3rd of March.",
                                  "I sat my exam on March 3rd.", "On march 3 I sat my exam."])
def test_a_dated_event_is_told_in_the_first_session_on_or_after_its_date(said):
    import random

    from memory_evaluation.haystack import _session_after, _User

    person = _User(0, 44, random.Random(0), "u")
    session = _session_after(person, said, used=set())
    assert person.date_of(session) >= date(2024, 3, 3) > person.date_of(session - 1)
