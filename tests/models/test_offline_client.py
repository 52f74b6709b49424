"""The offline lesson model as a framework chat client: Agent runs, streaming, usage, tools, last_request."""

from __future__ import annotations

import json

import pytest
from agent_framework import Agent, Content, Message, tool

from chat_models import OfflineChatClient


async def test_constructible_without_arguments_and_answers_through_an_agent() -> None:
    agent = Agent(client=OfflineChatClient(), instructions="You are helpful.")
    response = await agent.run("Tell me a joke about a lighthouse.")
    assert "lighthouse" in response.text.lower()
    assert "?" in response.text


async def test_usage_is_reported_and_grows_with_the_input() -> None:
    client = OfflineChatClient()
    short = await client.get_response([Message("user", ["Hi"])])
    long = await client.get_response([Message("user", ["Hi, I'm Dana and I live in a very small town by the sea."])])
    for response in (short, long):
        usage = response.usage_details
        assert usage["input_token_count"] > 0 and usage["output_token_count"] > 0
        assert usage["total_token_count"] == usage["input_token_count"] + usage["output_token_count"]
    assert long.usage_details["input_token_count"] > short.usage_details["input_token_count"]


@pytest.mark.parametrize(
    "prompt",
    [
        "Tell me a joke about a walrus.",
        "I'm Omar and I'm 27. What's my name and age?",
        "What is my name?",
    ],
)
async def test_streaming_gives_the_same_text_as_non_streaming(prompt: str) -> None:
    agent = Agent(client=OfflineChatClient())
    plain = await agent.run(prompt)
    stream = agent.run(prompt, stream=True)
    pieces = [update.text async for update in stream]
    final = await stream.get_final_response()
    assert len([p for p in pieces if p]) > 1, "the reply arrives in several updates"
    assert "".join(pieces) == plain.text == final.text
    assert final.usage_details["output_token_count"] == plain.usage_details["output_token_count"]


async def test_last_request_shows_the_models_view() -> None:
    client = OfflineChatClient()
    agent = Agent(client=client, instructions="The user's name is Kim.")
    session = agent.create_session()
    await agent.run("Tell me a joke about owls.", session=session)
    await agent.run("What's my name?", session=session)
    view = client.last_request
    assert view is not None
    assert view.instructions.startswith("The user's name is Kim.")
    assert [m.role for m in view.messages if m.role != "system"] == ["user", "assistant", "user"]
    assert view.tool_names == []
    rendered = view.render()
    assert "Kim" in rendered and "owls" in rendered and "What's my name?" in rendered


async def test_is_stateless_two_calls_without_history_share_nothing() -> None:
    client = OfflineChatClient()
    first = await client.get_response([Message("user", ["My name is Ingrid and I live in Bergen."])])
    assert "Ingrid" in first.text
    second = await client.get_response([Message("user", ["What is my name? Where do I live?"])])
    assert "Ingrid" not in second.text and "Bergen" not in second.text
    assert "don't know" in second.text


async def test_deterministic() -> None:
    texts = set()
    for _ in range(3):
        response = await OfflineChatClient().get_response([Message("user", ["Tell me a joke about kayaks"])])
        texts.add(response.text)
    assert len(texts) == 1


# ------------------------------------------------------------------ tools through the real function loop


def _memory_tools() -> tuple[list, list[str], list[str]]:
    stored: list[str] = []
    queries: list[str] = []

    @tool
    def add_memories(text: str) -> str:
        """Remember a fact about the user for later conversations."""
        stored.append(text)
        return "Stored 1 memory."

    @tool
    def search_memory(query: str) -> str:
        """Search what was remembered about the user."""
        queries.append(query)
        return "\n".join(f"- {s}" for s in stored) or "No memories found."

    return [add_memories, search_memory], stored, queries


async def test_remember_request_calls_the_add_tool_with_the_fact_in_third_person() -> None:
    tools, stored, _ = _memory_tools()
    agent = Agent(client=OfflineChatClient(), tools=tools)
    response = await agent.run("Please remember that I water the plants on Sundays.")
    assert stored == ["The user waters the plants on Sundays"]
    assert "Stored 1 memory." in response.text


async def test_unknown_question_calls_the_search_tool_then_answers_from_its_result() -> None:
    tools, stored, queries = _memory_tools()
    stored.append("The user waters the plants on Sundays")
    client = OfflineChatClient()
    agent = Agent(client=client, tools=tools)
    response = await agent.run("When do I water the plants?")
    assert queries == ["When do I water the plants?"]
    assert response.text == "You water the plants on Sundays."
    kinds = [c.type for m in client.last_request.messages for c in m.contents]
    assert kinds == ["text", "function_call", "function_result"]
    call = next(c for m in client.last_request.messages for c in m.contents if c.type == "function_call")
    assert call.call_id and call.name == "search_memory"


async def test_tool_message_is_quoted_when_the_result_does_not_answer() -> None:
    @tool
    def search_memory(query: str) -> str:
        """Search memory."""
        return "Memory is temporarily unavailable; answering without it."

    response = await Agent(client=OfflineChatClient(), tools=[search_memory]).run("Where do I live?")
    assert "don't know" in response.text
    assert "Memory is temporarily unavailable" in response.text


async def test_streaming_run_with_tools_works() -> None:
    tools, stored, _ = _memory_tools()
    stored.append("Noor prefers tea over coffee")
    agent = Agent(client=OfflineChatClient(), tools=tools, instructions="The user's name is Noor.")
    stream = agent.run("What do I prefer to drink, tea or coffee?", stream=True)
    final = await stream.get_final_response()
    assert "tea" in final.text.lower()


async def test_no_tool_call_when_the_answer_is_in_view() -> None:
    tools, _, queries = _memory_tools()
    agent = Agent(client=OfflineChatClient(), tools=tools)
    response = await agent.run("I'm Lena. What's my name?")
    assert queries == []
    assert "Lena" in response.text


async def test_answers_from_a_json_tool_result() -> None:
    @tool
    def recall(query: str) -> str:
        """Recall memories."""
        return json.dumps({"results": [{"memory": "User's favourite colour is teal", "score": 0.9}]})

    response = await Agent(client=OfflineChatClient(), tools=[recall]).run("What is my favorite color?")
    assert response.text == "Your favourite colour is teal."


async def test_tool_choice_none_means_no_tool_is_called() -> None:
    tools, _, queries = _memory_tools()
    client = OfflineChatClient()
    response = await client.get_response(
        [Message("user", ["Where do I live?"])], options={"tools": tools, "tool_choice": "none"}
    )
    assert queries == [] and "don't know" in response.text
    assert not any(c.type == "function_call" for m in response.messages for c in m.contents)


async def test_function_result_sent_directly_is_answered_from() -> None:
    messages = [
        Message("user", ["Where do I work?"]),
        Message("assistant", [Content.from_function_call("c1", "search_memory", arguments='{"query": "x"}')]),
        Message("tool", [Content.from_function_result("c1", result="- Alex works at Fabrikam\n- Alex likes jazz")]),
    ]
    response = await OfflineChatClient().get_response(messages)
    assert response.text == "You work at Fabrikam."


async def test_request_recorder_sees_what_the_model_saw() -> None:
    from chat_models import RequestRecorder

    recorder = RequestRecorder()
    client = OfflineChatClient()
    agent = Agent(client=client, instructions="Be kind.", middleware=[recorder])
    session = agent.create_session()
    await agent.run("I'm Uma.", session=session)
    await agent.run("What's my name?", session=session, stream=True).get_final_response()
    assert len(recorder.requests) == 2
    assert [m.role for m in recorder.last_request.messages] == ["user", "assistant", "user"]
    assert recorder.last_request.instructions == client.last_request.instructions == "Be kind."
    assert recorder.last_request.render() == client.last_request.render()


@pytest.mark.parametrize(
    "messages",
    [
        [],
        [Message("assistant", ["Hello!"])],
        [Message("user", [""])],
        [Message("user", ["   "])],
        [Message("user", ["?"])],
        [Message("user", ["I'm 999 years old. How old am I?"])],
        [Message("user", ["\u2764\ufe0f\U0001f99c \u00e6\u00f8\u00e5 \u4f60\u597d"])],
        [Message("user", ["Remember that"])],
        [Message("user", ["My"]), Message("user", ["I"])],
        [Message("system", ["Only a system message."])],
        [Message("user", ["- \n- \n-"])],
        [Message("user", ["Tell me a joke about"])],
        [Message("tool", [Content.from_function_result("nope", result=None)])],
    ],
)
async def test_odd_input_never_raises_and_always_answers(messages: list[Message]) -> None:
    response = await OfflineChatClient().get_response(messages)
    assert response.text.strip()
