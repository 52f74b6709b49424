"""The scorecard's definitions, on hand-built results: each metric can fail."""

from __future__ import annotations

from cortadel import SearchHit

from memory_evaluation import Question, QuestionResult, Scorecard, Tracked, TrackedResult, check_floors


def hit(id: str, *turns: str, content: str = "x") -> SearchHit:
    return SearchHit(id=id, content=content, attributes={"source_turn_uuids": list(turns)})


def result(question: Question, *hits: SearchHit, block: str = "") -> QuestionResult:
    return QuestionResult("hybrid", "u", question, list(hits), block, 1.0, True)


def test_recall_at_1_needs_evidence_first_and_recall_at_5_needs_all_evidence():
    q = Question("q", "multi_session", "pets?", "Miso and Rex", evidence=["t1", "t2"])
    both = result(q, hit("a", "t1"), hit("b", "t9"), hit("c", "t2"))
    assert both.recall_at_1 and both.recall_at_5
    one = result(q, hit("a", "t9"), hit("b", "t1"))
    assert not one.recall_at_1 and not one.recall_at_5
    sixth = result(q, hit("a", "t1"), *[hit(f"d{i}", "t9") for i in range(4)], hit("z", "t2"))
    assert not sixth.recall_at_5, "evidence at rank 6 is outside the top 5"


def test_update_accuracy_wants_the_current_value_above_the_superseded_one():
    q = Question("q", "knowledge_update", "home?", "Lisbon", evidence=["new"], superseded=["old"], superseded_answer="Oslo")
    assert result(q, hit("n", "new"), hit("o", "old")).update_correct
    assert result(q, hit("n", "new")).update_correct, "old value not injected at all counts"
    assert not result(q, hit("o", "old"), hit("n", "new")).update_correct
    assert not result(q, hit("o", "old")).update_correct


def test_abstention_means_nothing_injected_and_tokens_count_the_block():
    q = Question("q", "abstention", "brother?", None)
    assert result(q).abstained and result(q).tokens == 0
    assert not result(q, hit("a", "t1"), block="## Memories\n- x").abstained
    assert result(q, hit("a", "t1"), block="x" * 40).tokens == 10


def test_without_source_turns_the_answer_text_decides():
    q = Question("q", "information_extraction", "allergy?", "shellfish", evidence=["t1"])
    plain = SearchHit(id="a", content="Alex is allergic to shellfish.")
    assert result(q, plain).recall_at_1 and result(q, plain).recall_at_5
    assert not result(q, SearchHit(id="b", content="Alex likes tea.")).recall_at_5


def tracked(kind, current, not_current, flags, contents=None, current_text=None, not_current_text=None):
    item = Tracked("i1", kind, current, not_current, current_text, not_current_text)
    contents = contents or {t: ["x"] * len(f) for t, f in flags.items()}
    return TrackedResult("u", item, flags, contents)


def test_an_update_is_right_only_when_the_new_value_is_current_first_and_the_old_one_is_not():
    q = Question("q", "knowledge_update", "home?", "Lisbon", evidence=["new"], superseded=["old"], superseded_answer="Oslo")
    done = tracked("update", ["new"], ["old"], {"new": [True], "old": [False]})
    assert QuestionResult("hybrid", "u", q, [hit("n", "new")], "", 1.0, True, done).update_correct
    both_current = tracked("update", ["new"], ["old"], {"new": [True], "old": [True]})
    assert not QuestionResult("hybrid", "u", q, [hit("n", "new")], "", 1.0, True, both_current).update_correct, \
        "the old value still current is wrong even when the new one ranks first"
    assert not QuestionResult("hybrid", "u", q, [hit("x", "t9"), hit("n", "new")], "", 1.0, True, done).update_correct, \
        "the new value must be ranked first"


def test_a_turn_with_several_facts_is_judged_by_the_memory_that_carries_the_value():
    state = tracked("update", ["new"], ["old"], {"new": [True], "old": [True, False]},
                    {"new": ["lives in Lisbon"], "old": ["works at Contoso", "lives in Oslo"]}, "Lisbon", "Oslo")
    assert state.ok, "the old turn's other fact may stay current"
    state.current["old"] = [False, True]
    assert not state.ok


def test_a_keep_with_either_statement_superseded_is_a_false_supersession():
    assert tracked("keep", ["a", "b"], [], {"a": [True], "b": [True]}).ok
    assert not tracked("keep", ["a", "b"], [], {"a": [False], "b": [True]}).ok
    assert not tracked("keep", ["a", "b"], [], {"a": [], "b": [True]}).ok, "a statement never stored is not kept"
    card = Scorecard([], [], 0.0, ("hybrid",), tracked=[
        tracked("keep", ["a", "b"], [], {"a": [True], "b": [True]}),
        tracked("keep", ["a", "b"], [], {"a": [True], "b": [False]}),
    ])
    assert card.items()["false_supersessions"] == 1


def test_a_withdrawal_is_honoured_only_when_the_fact_is_not_current_and_not_injected():
    q = Question("q", "withdrawal", "game?", None, superseded=["fact"])
    gone = tracked("withdrawal", [], ["fact"], {"fact": [False]})
    assert QuestionResult("hybrid", "u", q, [], "", 1.0, True, gone).withdrawal_honoured
    assert not QuestionResult("hybrid", "u", q, [hit("f", "fact")], "", 1.0, True, gone).withdrawal_honoured
    still = tracked("withdrawal", [], ["fact"], {"fact": [True]})
    assert not QuestionResult("hybrid", "u", q, [], "", 1.0, True, still).withdrawal_honoured


def test_follow_ups_have_their_own_row_and_stay_out_of_the_all_row():
    first = Question("q1", "information_extraction", "where hiking?", "Alps", evidence=["t1"])
    follow = Question("q2", "follow_up", "and when?", "May", evidence=["t1"])
    card = Scorecard([result(first, hit("a", "t1")), result(follow, hit("b", "t9"))], [], 0.0, ("hybrid",))
    assert card.metric("hybrid", "follow_up", "recall@5") == 0.0
    assert card.metric("hybrid", "all", "recall@5") == 1.0


def test_floors_bound_the_across_mode_figures_too():
    card = Scorecard([], [], 9_000.0, ("hybrid",), meta={"users": 1, "ingest_seconds": 1.0,
                                                         "stored_per_user": {"u": {"stored": 480, "current": 470, "stray": 3}}},
                     tracked=[tracked("keep", ["a", "b"], [], {"a": [False], "b": [True]})])
    problems = check_floors(card, {"items_min": {"min_memories_per_user": 500, "baseline_tokens": 10_000},
                                   "items_max": {"false_supersessions": 0, "stray_per_user": 2}})
    assert problems == ["min_memories_per_user = 480 is below its floor 500",
                        "baseline_tokens = 9000.0 is below its floor 10000",
                        "false_supersessions = 1 is above its ceiling 0",
                        "stray_per_user = 3.0 is above its ceiling 2"]


def test_side_by_side_puts_each_cards_figures_in_its_column():
    from memory_evaluation import side_by_side

    q = Question("q", "information_extraction", "allergy?", "shellfish", evidence=["t1"])
    good = Scorecard([result(q, hit("a", "t1"))], [], 12_000.0, ("hybrid",))
    bad = Scorecard([result(q, hit("a", "t9"))], [], 11_000.0, ("hybrid",))
    table = side_by_side({"dev": good, "test": bad}).splitlines()
    assert table[0] == "| hybrid | dev | test |"
    assert "| recall@1 | 100% | 0% |" in table and "| full-history tokens per question | 12,000 | 11,000 |" in table
    assert "| update acc (end to end) | — | — |" in table, "a figure a card has no questions for is a dash"


def test_a_tracked_turn_is_sent_in_a_call_of_its_own_with_its_reply():
    from cortadel import ChatMessage

    from memory_evaluation.scorecard import _chunks

    said = [ChatMessage("user", "a", uuid="t0"), ChatMessage("assistant", "ok", uuid="t1"),
            ChatMessage("user", "b", uuid="t2"), ChatMessage("assistant", "ok", uuid="t3"),
            ChatMessage("user", "c", uuid="t4")]
    chunks = [([m.uuid for m in run], turn) for run, turn in _chunks(said, {"t2"})]
    assert chunks == [(["t0", "t1"], None), (["t2", "t3"], "t2"), (["t4"], None)]
