"""The scorecard's definitions, on hand-built results: each metric can fail."""

from __future__ import annotations

from cortadel import SearchHit

from lesson_utils.evaluation import Question, QuestionResult


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
