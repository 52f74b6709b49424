"""The two readers the lesson's checks use: tool calls of a response, files a store wrote."""

from __future__ import annotations

import pytest
from agent_framework import AgentResponse, Content, Message

from chat_models.request_reading import loaded_topics, memory_files, tool_calls


def test_tool_calls_lists_name_and_arguments_in_order() -> None:
    response = AgentResponse(messages=[
        Message("assistant", [Content.from_function_call("c1", "file_memory_write", arguments='{"file_name": "a.md"}')]),
        Message("tool", [Content.from_function_result("c1", result="ok")]),
        Message("assistant", [Content.from_function_call("c2", "search_history", arguments={"query": "q"})]),
        Message("assistant", ["done"]),
    ])
    assert tool_calls(response) == [("file_memory_write", {"file_name": "a.md"}), ("search_history", {"query": "q"})]
    assert tool_calls(AgentResponse(messages=[Message("assistant", ["no tools"])])) == []


def test_memory_files_reads_every_markdown_file_by_relative_path(tmp_path) -> None:
    (tmp_path / "topics").mkdir()
    (tmp_path / "MEMORY.md").write_text("# MEMORY\n", encoding="utf-8")
    (tmp_path / "topics" / "home.md").write_text("# home\n", encoding="utf-8")
    (tmp_path / "state.json").write_text("{}", encoding="utf-8")
    assert memory_files(tmp_path) == {"MEMORY.md": "# MEMORY\n", "topics/home.md": "# home\n"}


def test_memory_files_of_a_missing_folder_names_the_fix(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="pass the folder the memory store was given"):
        memory_files(tmp_path / "nowhere")


def test_loaded_topics_reads_the_auto_loaded_blocks_only() -> None:
    from chat_models.offline import ModelRequest

    text = ("## Memory\n\n### MEMORY.md\n# MEMORY\n\n- [home](topics/home.md): Lives in Lyon.\n\n"
            "### Auto-loaded topic files\n### topics/coffee-order.md\n# coffee order")
    request = ModelRequest(messages=[Message("user", [text]), Message("user", ["### topics/nope.md is mentioned"])])
    assert loaded_topics(request) == ["coffee-order"]
    assert loaded_topics(ModelRequest()) == []


async def test_record_every_call_sees_calls_made_outside_an_agent_run() -> None:
    from chat_models.request_reading import record_every_call
    from chat_models import OfflineChatClient

    client = OfflineChatClient()
    recorder = record_every_call(client)
    await client.get_response([Message("system", ["Reply with JSON."]), Message("user", ["hi"])])
    assert [r.instructions for r in recorder.requests] == ["Reply with JSON."]
    with pytest.raises(TypeError, match="use a client from get_chat_client"):
        record_every_call(object())
