"""Lesson 03's check helpers: each holds on a request that shows its claim and fails on one that does not."""

from __future__ import annotations

from agent_framework import EXCLUDED_KEY, GROUP_ANNOTATION_KEY, SUMMARY_OF_MESSAGE_IDS_KEY, AgentSession, Message

from course_kit.lessons.l03_short_term_memory.checks import (
    cut_only_when_over,
    grew_every_turn,
    histories_within,
    is_summary,
    sent_stored_summary_instead,
    sent_whole_history,
    stored_but_excluded,
    summarised_ids,
    sent_verbatim,
    summary_replaced_older_turns,
    turns_sent,
)
from lesson_utils.context_budget import message_tokens

TURNS = ["Hi, I'm Priya.", "Best season for Kyoto?", "I travel with Ravi.", "What's my name?"]


class _Request:
    def __init__(self, messages: list[Message]) -> None:
        self.messages = list(messages)


def _user(text: str, message_id: str | None = None) -> Message:
    return Message(role="user", contents=[text], message_id=message_id)


def _reply(text: str, message_id: str | None = None) -> Message:
    return Message(role="assistant", contents=[text], message_id=message_id)


def _summary(text: str, of: list[str], message_id: str = "summary_1") -> Message:
    return Message(role="assistant", contents=[text], message_id=message_id,
                   additional_properties={GROUP_ANNOTATION_KEY: {SUMMARY_OF_MESSAGE_IDS_KEY: of}})


def _history(count: int) -> list[Message]:
    """Turns 1..count, each a question and a reply, with ids u1, a1, u2, a2, …"""
    return [m for n in range(1, count + 1)
            for m in (_user(TURNS[n - 1], f"u{n}"), _reply(f"Answer {n}, " + "words " * 20, f"a{n}"))]


def _session(messages: list[Message]) -> AgentSession:
    session = AgentSession()
    session.state["in_memory"] = {"messages": messages}
    return session


def _whole_requests(count: int) -> list[_Request]:
    stored = _history(count)
    return [_Request([*stored[: 2 * i], _user(TURNS[i])]) for i in range(count)]


def test_turns_sent_numbers_the_turns_a_request_carried() -> None:
    assert turns_sent(_Request([_user(TURNS[2]), _reply("ok"), _user(TURNS[3])]), TURNS) == [3, 4]
    assert turns_sent(_Request([_user("something else")]), TURNS) == []


def test_sent_whole_history_fails_when_a_turn_left_something_out() -> None:
    requests = _whole_requests(4)
    assert sent_whole_history(requests, TURNS)
    windowed = [*requests[:3], _Request(requests[3].messages[2:])]  # turn 4 lost turn 1
    assert not sent_whole_history(windowed, TURNS)


def test_grew_every_turn() -> None:
    assert grew_every_turn([10, 25, 40])
    assert not grew_every_turn([10, 25, 25])
    assert not grew_every_turn([10, 40, 25])


def test_histories_within_allows_only_what_truncation_never_drops() -> None:
    history = _history(3)
    big = message_tokens(history)
    fits = _Request([*history, _user(TURNS[3])])
    assert histories_within([fits], big)
    assert not histories_within([fits], big - 1)
    lone_long_reply = _Request([history[-1], _user(TURNS[3])])
    assert histories_within([lone_long_reply], 1)  # the newest reply alone is sent whatever its size
    anchored = _Request([history[0], history[-1], _user(TURNS[3])])
    assert not histories_within([anchored], 1)
    assert histories_within([anchored], 1, kept=2)


def test_cut_only_when_over_fails_on_a_cut_too_early_or_a_missing_cut() -> None:
    stored = _history(4)
    session = _session(stored)
    budget = message_tokens(stored[:4])  # turns 1-2 fit; turns 1-3 do not
    truncating = [_Request([*stored[: 2 * i], _user(TURNS[i])]) for i in range(3)]
    truncating.append(_Request([*stored[4:6], _user(TURNS[3])]))  # over budget: turn 1 left out
    assert cut_only_when_over(truncating, session, budget)
    never_cut = _whole_requests(4)
    assert not cut_only_when_over(never_cut, session, budget)
    cut_early = [*truncating[:2], _Request([*stored[2:4], _user(TURNS[2])]), truncating[3]]
    assert not cut_only_when_over(cut_early, session, budget)


def test_summaries_are_told_apart_by_their_annotation() -> None:
    summary = _summary("Priya travels with Ravi.", ["u1", "a1"])
    assert is_summary(summary) and summarised_ids(summary) == ["u1", "a1"]
    assert not is_summary(_reply("Priya travels with Ravi.")) and summarised_ids(_reply("x")) == []


def test_summary_replaced_older_turns() -> None:
    stored = _history(4)
    session = _session(stored)
    summary = _summary("Priya travels with Ravi.", ["u1", "a1", "u2", "a2"])
    request = _Request([summary, *stored[4:6], _user(TURNS[3])])
    assert summary_replaced_older_turns(request, session, most_verbatim=2)
    assert not summary_replaced_older_turns(request, session, most_verbatim=1)  # more sent verbatim than allowed
    short = _Request([_summary("Priya.", ["u1", "a1"]), *stored[4:6], _user(TURNS[3])])
    assert not summary_replaced_older_turns(short, session, most_verbatim=2)  # turn 2 vanished unsummarised
    no_summary = _Request([*stored[2:6], _user(TURNS[3])])
    assert not summary_replaced_older_turns(no_summary, session, most_verbatim=4)


def test_how_many_turns_a_summary_replaced_is_left_to_the_model() -> None:
    """Long replies fill the summariser's input budget sooner: fewer turns summarised, more sent verbatim."""
    stored = _history(4)
    session = _session(stored)
    fewer = _Request([_summary("Priya.", ["u1", "a1"]), *stored[2:6], _user(TURNS[3])])
    assert summary_replaced_older_turns(fewer, session) and not summary_replaced_older_turns(fewer, session, most_verbatim=2)
    assert sent_verbatim(fewer) == 4 and sent_verbatim(_Request([*stored[2:6], _user(TURNS[3])])) == 4


def test_stored_but_excluded() -> None:
    stored = _history(2)
    stored[0].additional_properties[EXCLUDED_KEY] = True
    session = _session(stored)
    assert stored_but_excluded(session, TURNS[0])
    assert not stored_but_excluded(session, TURNS[1])  # stored, not excluded
    assert not stored_but_excluded(session, "never said")


def test_sent_stored_summary_instead() -> None:
    stored = _history(3)
    summary = _summary("Priya travels with Ravi.", ["u1", "a1"])
    session = _session([summary, *stored])
    assert sent_stored_summary_instead(_Request([summary, *stored[2:], _user("next")]), session)
    assert not sent_stored_summary_instead(_Request([summary, *stored, _user("next")]), session)  # and turn 1 too
    unstored = _summary("Priya.", ["u1", "a1"], message_id="summary_9")
    assert not sent_stored_summary_instead(_Request([unstored, *stored[2:], _user("next")]), session)
    assert not sent_stored_summary_instead(_Request([*stored[2:], _user("next")]), session)
