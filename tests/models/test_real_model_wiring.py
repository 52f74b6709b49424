"""get_chat_client() wired to a real OpenAI-compatible server (a stand-in on loopback), without keys."""

from __future__ import annotations

import socket

import pytest
from agent_framework import Agent

from chat_models import ModelConfigurationError, check_chat_client, describe_chat_client, get_chat_client

from .stand_in_server import StandInServer

@pytest.fixture
def server():
    with StandInServer(api_key="test-key") as running:
        yield running


async def test_local_server_runs_through_an_agent_with_history_in_the_session(clean_env, server) -> None:
    clean_env.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
    clean_env.setenv("LOCAL_MODEL", "stand-in-model")
    clean_env.setenv("LOCAL_MODEL_API_KEY", "test-key")
    info = describe_chat_client()
    assert (info.kind, info.model, info.base_url) == ("local", "stand-in-model", server.base_url)
    agent = Agent(client=get_chat_client(), instructions="Be brief.")
    session = agent.create_session()
    first = await agent.run("Hello there", session=session)
    second = await agent.run("Second turn", session=session)
    assert first.text == "Echo: Hello there (2 messages)"
    # Chat Completions: the whole history is sent again from the session (system + 3 turns).
    assert second.text == "Echo: Second turn (4 messages)"
    assert session.service_session_id is None
    assert len(session.state["in_memory"]["messages"]) == 4
    assert all(not r.get("store") for r in server.requests)


async def test_local_server_streams(clean_env, server) -> None:
    clean_env.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
    clean_env.setenv("LOCAL_MODEL", "stand-in-model")
    clean_env.setenv("LOCAL_MODEL_API_KEY", "test-key")
    agent = Agent(client=get_chat_client())
    stream = agent.run("stream me", stream=True)
    pieces = [u.text async for u in stream]
    final = await stream.get_final_response()
    assert len([p for p in pieces if p]) > 1
    assert "".join(pieces) == final.text == "Echo: stream me (1 messages)"
    assert final.usage_details["input_token_count"] == 2  # the words of "stream me"
    assert final.usage_details["output_token_count"] == len(final.text.split())


async def test_openai_kind_with_base_url_uses_the_key(clean_env, server) -> None:
    clean_env.setenv("OPENAI_API_KEY", "test-key")
    clean_env.setenv("OPENAI_BASE_URL", server.base_url)
    clean_env.setenv("OPENAI_MODEL", "stand-in-model")
    client = get_chat_client()
    assert describe_chat_client().kind == "openai"
    assert await check_chat_client(client) == "Echo: Reply with one word: ready (1 messages)"


async def test_wrong_key_gives_one_clear_error_naming_the_variable(clean_env, server) -> None:
    clean_env.setenv("OPENAI_API_KEY", "wrong-key")
    clean_env.setenv("OPENAI_BASE_URL", server.base_url)
    clean_env.setenv("OPENAI_MODEL", "stand-in-model")
    agent = Agent(client=get_chat_client())
    with pytest.raises(ModelConfigurationError) as caught:
        await agent.run("Hello")
    assert "OPENAI_API_KEY" in str(caught.value) and "401" in str(caught.value)
    assert caught.value.variable == "OPENAI_API_KEY"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    with pytest.raises(ModelConfigurationError, match="OPENAI_API_KEY"):
        await check_chat_client(get_chat_client())


async def test_wrong_key_while_streaming_gives_the_same_error(clean_env, server) -> None:
    clean_env.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
    clean_env.setenv("LOCAL_MODEL", "stand-in-model")
    clean_env.setenv("LOCAL_MODEL_API_KEY", "nope")
    agent = Agent(client=get_chat_client())
    with pytest.raises(ModelConfigurationError, match="LOCAL_MODEL_API_KEY"):
        async for _ in agent.run("Hello", stream=True):
            pass


async def test_unknown_model_names_the_model_variable(clean_env, server) -> None:
    clean_env.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
    clean_env.setenv("LOCAL_MODEL", "no-such-model")
    clean_env.setenv("LOCAL_MODEL_API_KEY", "test-key")
    with pytest.raises(ModelConfigurationError) as caught:
        await check_chat_client(get_chat_client())
    assert caught.value.variable == "LOCAL_MODEL" and "no-such-model" in str(caught.value)


async def test_unreachable_server_names_the_url_variable(clean_env) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    clean_env.setenv("LOCAL_MODEL_BASE_URL", f"http://127.0.0.1:{port}/v1")
    clean_env.setenv("LOCAL_MODEL", "stand-in-model")
    with pytest.raises(ModelConfigurationError) as caught:
        await check_chat_client(get_chat_client())
    assert caught.value.variable == "LOCAL_MODEL_BASE_URL"
    assert "LESSON_MODEL=offline" in str(caught.value)


async def test_keyless_local_server_needs_no_key(clean_env) -> None:
    with StandInServer(api_key=None) as keyless:
        clean_env.setenv("LOCAL_MODEL_BASE_URL", keyless.base_url)
        clean_env.setenv("LOCAL_MODEL", "stand-in-model")
        response = await Agent(client=get_chat_client()).run("hi")
    assert response.text == "Echo: hi (1 messages)"
