"""The rules the provider's hooks apply, one per failure mode of lesson 07 (lesson_utils.cortadel.guards)."""

from __future__ import annotations

import json

from agent_framework import AgentResponse, Content, Message, SessionContext

from lesson_utils.cortadel.guards import INJECTED_IDS_KEY, fresh_hits, ingestible, is_injected, remember_injected, turn_failed


def injected_by(source_id: str, text: str) -> Message:
    context = SessionContext(input_messages=[])
    context.extend_messages(source_id, [Message(role="user", contents=[text])])
    return context.context_messages[source_id][0]


def test_only_messages_a_provider_added_count_as_injected():
    assert is_injected(injected_by("cortadel", "## Memories\n- x"))
    assert is_injected(injected_by("in_memory", "an earlier turn"))
    assert not is_injected(Message(role="user", contents=["I ship on Fridays."]))
    assert not is_injected(Message(role="user", contents=["x"], additional_properties={"_attribution": {}}))
    assert not is_injected(Message(role="user", contents=["x"], additional_properties={"_attribution": "cortadel"}))


def test_ingestible_keeps_own_words_with_ids_and_drops_injected_blank_and_tool_messages():
    messages = [
        injected_by("cortadel", "## Memories\n- Alex ships on Fridays."),
        Message(role="user", contents=["When do I ship?"], message_id="u1"),
        Message(role="assistant", contents=["   "]),
        Message(role="tool", contents=[Content.from_function_result(call_id="c1", result="r")]),
        Message(role="assistant", contents=["On Fridays."]),
    ]
    kept = ingestible(messages)
    assert [(m.role, m.content, m.uuid) for m in kept] == [("user", "When do I ship?", "u1"), ("assistant", "On Fridays.", None)]


def test_a_turn_failed_without_a_response_or_with_error_content():
    assert turn_failed(None)
    assert turn_failed(AgentResponse(messages=[Message("assistant", ["Sorry.", Content.from_error(message="down")])]))
    assert not turn_failed(AgentResponse(messages=[Message("assistant", ["On Fridays."])]))


def test_fresh_hits_skips_ids_already_injected_and_repeats(make_hit):
    state = {INJECTED_IDS_KEY: ["m1"]}
    hits = [make_hit("m1", "old"), make_hit("m2", "new"), make_hit("m2", "again"), make_hit("", "no id")]
    assert [h.content for h in fresh_hits(hits, state)] == ["new", "no id"]
    assert state == {INJECTED_IDS_KEY: ["m1"]}  # reading does not record


def test_remember_injected_keeps_the_newest_ids_as_json(make_hit):
    state: dict = {}
    remember_injected([make_hit("m1", "a"), make_hit("m2", "b")], state, cap=3)
    remember_injected([make_hit("m3", "c"), make_hit("m4", "d")], state, cap=3)
    assert state[INJECTED_IDS_KEY] == ["m2", "m3", "m4"]
    assert json.loads(json.dumps(state)) == state
    remember_injected([make_hit("m5", "e")], state, cap=0)
    assert INJECTED_IDS_KEY not in state


async def test_a_compaction_summary_is_never_stored_although_it_carries_no_source_id(memory):
    """CompactionProvider puts its summary into the request without an ``_attribution`` stamp, so a
    guard that only drops stamped messages would store it as a user turn. The provider starts from
    the turn's own words (input + response) instead; the stamp is only its second guard."""
    from agent_framework import Agent, CompactionProvider, InMemoryHistoryProvider, SummarizationStrategy

    from lesson_utils import CortadelContextProvider

    from ..fakes import FakeChatClient

    summariser = FakeChatClient(reply="SUMMARY: the user talked about trains.")
    chat = FakeChatClient()
    compaction = CompactionProvider(before_strategy=SummarizationStrategy(client=summariser, target_count=2, threshold=1))
    providers = [InMemoryHistoryProvider(), compaction, CortadelContextProvider(client=memory)]  # lesson 03's order
    agent = Agent(client=chat, context_providers=providers)
    session = agent.create_session()
    for n in range(5):
        await agent.run(f"Turn {n}: I like trains.", session=session)
    sent = [m.text for m in chat.requests[-1].messages]
    assert any("SUMMARY" in text for text in sent), "the summariser should have run (the test's premise)"
    unstamped = [m for m in chat.requests[-1].messages if "SUMMARY" in m.text and not is_injected(m)]
    assert unstamped, "the summary should arrive without a source_id (the framework fact this test guards)"
    stored = [m.content for messages, _ in memory.conversations for m in messages]
    assert stored and not any("SUMMARY" in text for text in stored)
