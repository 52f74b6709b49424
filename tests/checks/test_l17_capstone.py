"""Lesson 17's check helpers: each fails where its claim is false."""

from __future__ import annotations

from agent_framework import Content, Message

from course_kit.lessons.l17_capstone.checks import failed_requirements, shown_to_model
from memory_evaluation.assistant_trial import Finding, TrialReport
from chat_models.offline import ModelRequest


def test_shown_to_model_finds_a_text_in_a_message_in_instructions_or_in_a_tool_result() -> None:
    request = ModelRequest(
        messages=[Message(role="user", contents=["Memories:\n- The user lives in Lisbon."]),
                  Message(role="tool", contents=[Content.from_function_result(call_id="1", result="- Ben's dog is Rex")])],
        instructions="Use what you remember.",
    )
    assert shown_to_model(request, "The user lives in Lisbon.")
    assert shown_to_model(request, "ben's dog is Rex!")
    assert shown_to_model(request, "use what you remember")


def test_shown_to_model_is_false_for_a_text_the_request_did_not_hold() -> None:
    request = ModelRequest(messages=[Message(role="user", contents=["The user lives in Lisbon."])])
    assert not shown_to_model(request, "The user lives in Porto.")
    assert not shown_to_model(request, "lives in Lisbon and works in Porto")
    assert not shown_to_model(request, "")


def test_failed_requirements_names_each_requirement_that_failed_for_some_user() -> None:
    report = TrialReport(seed=1, findings=[
        Finding("recall", "ana", True), Finding("recall", "ben", False, "not given"),
        Finding("restart", "ana", False, "lost"), Finding("users apart", "ana", True),
    ])
    assert failed_requirements(report) == {"recall", "restart"}
    assert failed_requirements(TrialReport(seed=1, findings=[Finding("recall", "ana", True)])) == set()
