"""Lesson 15's check helpers: each holds on the evidence it names and fails on the wrong evidence."""

from __future__ import annotations

import json
from types import SimpleNamespace

from agent_framework import AgentResponse, Content, Message

from course_kit.lessons.l15_framework_memory.checks import (
    answered_from,
    consolidation_inputs,
    index_links_every_topic,
    learned_by,
    requests_with_prompt,
    rewrote_one_file,
    sent_both_paraphrases,
    sent_turn_without_tools,
    tool_found,
)
from chat_models.offline import ModelRequest


def request(instructions: str = "", *texts: str, tools: list[str] | None = None) -> ModelRequest:
    return ModelRequest(messages=[Message(role="user", contents=[t]) for t in texts], instructions=instructions,
                        tool_names=tools or [])


def wrote(*file_names: str) -> AgentResponse:
    calls = [Content.from_function_call(call_id=f"c{n}", name="file_memory_write",
                                        arguments=json.dumps({"file_name": name, "content": "x"}))
             for n, name in enumerate(file_names)]
    return AgentResponse(messages=[Message(role="assistant", contents=calls)])


def test_requests_with_prompt_picks_the_providers_own_calls() -> None:
    recorder = SimpleNamespace(requests=[request("Extract memories.\n"), request("You are helpful."), request("Extract memories.")])
    assert requests_with_prompt(recorder, "Extract memories.") == [recorder.requests[0], recorder.requests[2]]
    assert requests_with_prompt(recorder, "Consolidate.") == []


def test_sent_turn_without_tools_needs_no_tools_and_the_turns_transcript() -> None:
    assert sent_turn_without_tools(request("p", "USER: Hi, I'm Ana.\nASSISTANT: Hello"), "Hi, I'm Ana.")
    assert not sent_turn_without_tools(request("p", "USER: Hi, I'm Ana.", tools=["write_memory"]), "Hi, I'm Ana.")
    assert not sent_turn_without_tools(request("p", "USER: Something else"), "Hi, I'm Ana.")
    assert not sent_turn_without_tools(request("p"), "Hi, I'm Ana.")


def test_index_links_every_topic_needs_a_link_to_each_topic_file() -> None:
    records = [SimpleNamespace(slug="home"), SimpleNamespace(slug="coffee-order")]
    index = "- [home](topics/home.md)\n- [coffee order](topics/coffee-order.md)"
    assert index_links_every_topic(index, records)
    assert not index_links_every_topic("- [home](topics/home.md)", records)
    assert index_links_every_topic("", [])  # nothing extracted: nothing to link (whether it extracts is the model's part)


def test_sent_both_paraphrases_needs_a_consolidation_of_two_memories() -> None:
    assert sent_both_paraphrases([{"memories": ["a", "b"], "session_ids": ["s1", "s2"]}])
    assert not sent_both_paraphrases([{"memories": ["a"], "session_ids": ["s1"]}])
    assert not sent_both_paraphrases([{"memories": ["a", "b"], "session_ids": []}])
    assert not sent_both_paraphrases([])


def test_consolidation_inputs_reads_the_topic_json_each_request_sent() -> None:
    sent = {"memories": ["a", "b"], "session_ids": ["s1", "s2"]}
    assert consolidation_inputs([request("c", json.dumps(sent))]) == [sent]


def test_rewrote_one_file_needs_one_write_per_reply_to_the_same_file() -> None:
    assert rewrote_one_file(wrote("colour.md"), wrote("colour.md"))
    assert not rewrote_one_file(wrote("colour.md"), wrote("colours.md"))
    assert not rewrote_one_file(wrote("colour.md"), AgentResponse(messages=[]))
    assert not rewrote_one_file(wrote("colour.md", "colour.md"), wrote("colour.md"))


def test_learned_by_reads_the_sessions_learned_instructions() -> None:
    session = SimpleNamespace(state={"learned_instructions": {"instructions": ["answer in French"]}})
    assert learned_by(session) == ["answer in French"]
    assert learned_by(SimpleNamespace(state={})) == []


def searched(result: str) -> AgentResponse:
    call = Content.from_function_call(call_id="s1", name="search_history", arguments=json.dumps({"query": "hotel"}))
    found = Content.from_function_result(call_id="s1", result=result)
    return AgentResponse(messages=[Message(role="assistant", contents=[call]), Message(role="tool", contents=[found])])


def test_tool_found_reads_what_the_named_tool_returned() -> None:
    assert tool_found(searched("[user] I'm staying at the Hotel Miramar."), "search_history", "Hotel Miramar")
    assert not tool_found(searched("[user] Tell me a joke."), "search_history", "Hotel Miramar")
    assert not tool_found(searched("[user] I'm staying at the Hotel Miramar."), "file_memory_read", "Hotel Miramar")
    assert not tool_found(AgentResponse(messages=[Message(role="assistant", contents=["Hotel Miramar"])]),
                          "search_history", "Hotel Miramar")


def test_answered_from_needs_the_text_and_no_i_do_not_know() -> None:
    assert answered_from("You're staying at the Hotel Miramar in Lisbon.", "Miramar")
    assert not answered_from("I don't know \u2014 I checked search_history and it said: \"... Hotel Miramar ...\"", "Miramar")
    assert not answered_from("You're staying in Lisbon.", "Miramar")
