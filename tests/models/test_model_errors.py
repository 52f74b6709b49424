"""Every way a real server fails becomes one line naming the cause and the fix, tested against a
loopback stand-in that misbehaves on purpose: slow, a runaway stream, 500 on tool messages, tool
calls written as text, and the plain HTTP statuses."""

from __future__ import annotations

import time

import pytest
from agent_framework import Agent, FunctionTool

from chat_models import ModelConfigurationError, check_chat_client, describe_chat_client, get_chat_client
from model_config.policy import DEFAULT_LOCAL_MAX_TOKENS, read_policy

from .stand_in_server import StandInServer


def use(env: pytest.MonkeyPatch, server: StandInServer, **extra: str) -> None:
    env.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
    env.setenv("LOCAL_MODEL", "stand-in-model")
    env.setenv("LOCAL_MODEL_API_KEY", "test-key")
    for name, value in extra.items():
        env.setenv(name, value)


def lookup_tool() -> FunctionTool:
    async def lookup(query: str) -> str:
        return f"found {query}"

    return FunctionTool(name="lookup", description="Look something up.", func=lookup)


@pytest.mark.full  # slow: waits for a timeout
async def test_a_slow_model_is_stopped_at_the_timeout_once_and_says_so(clean_env) -> None:
    with StandInServer(misbehave="slow", delay=10) as server:
        use(clean_env, server, LESSON_MODEL_TIMEOUT="1")
        started = time.monotonic()
        with pytest.raises(ModelConfigurationError) as caught:
            await Agent(client=get_chat_client()).run("Hello")
        elapsed = time.monotonic() - started
    message = str(caught.value)
    assert "took longer than 1 s" in message and "LESSON_MODEL_TIMEOUT" in message
    assert "is the server running" not in message  # a timeout is not a connection problem
    assert caught.value.variable == "LESSON_MODEL_TIMEOUT"
    assert "\n" not in message
    assert elapsed < 9, f"stopped after {elapsed:.1f} s, not before the model's 10 s answer"  # a loaded machine is slow
    assert len(server.requests) == 1, "a call that timed out must not be sent again"


@pytest.mark.full  # slow: waits for a timeout
async def test_a_runaway_stream_is_stopped_at_the_timeout(clean_env) -> None:
    with StandInServer(misbehave="runaway") as server:
        use(clean_env, server, LESSON_MODEL_TIMEOUT="1")
        started = time.monotonic()
        stream = Agent(client=get_chat_client()).run("Tell me a story", stream=True)
        with pytest.raises(ModelConfigurationError, match="took longer than 1 s") as caught:
            async for _ in stream:
                pass
        elapsed = time.monotonic() - started
        assert server.chunks_sent > 10, "the stand-in really kept streaming"
    assert caught.value.variable == "LESSON_MODEL_TIMEOUT"
    assert "LOCAL_MODEL_MAX_TOKENS" in str(caught.value)  # on a local model, the cap is the other fix
    assert elapsed < 9, f"stopped after {elapsed:.1f} s"  # 1 s timeout; generous for a loaded machine
    assert len(server.requests) == 1


@pytest.mark.full  # slow: waits for a timeout
async def test_a_runaway_model_without_streaming_is_stopped_too(clean_env) -> None:
    with StandInServer(misbehave="runaway") as server:
        use(clean_env, server, LESSON_MODEL_TIMEOUT="1")
        started = time.monotonic()
        with pytest.raises(ModelConfigurationError, match="took longer than 1 s"):
            await check_chat_client(get_chat_client())
        assert time.monotonic() - started < 5
        assert len(server.requests) == 1


async def test_local_calls_carry_the_output_cap_unless_the_caller_sets_one(clean_env) -> None:
    with StandInServer() as server:
        use(clean_env, server)
        agent = Agent(client=get_chat_client())
        await agent.run("Hello")
        await agent.run("Hello", options={"max_tokens": 7})
        use(clean_env, server, LOCAL_MODEL_MAX_TOKENS="64")
        await Agent(client=get_chat_client()).run("Hello")
        use(clean_env, server, LOCAL_MODEL_MAX_TOKENS="0")
        await Agent(client=get_chat_client()).run("Hello")
    first, chosen, configured, uncapped = server.requests
    # Sent under both names: new servers read max_completion_tokens, older ones max_tokens.
    assert first["max_completion_tokens"] == first["max_tokens"] == DEFAULT_LOCAL_MAX_TOKENS
    assert chosen["max_completion_tokens"] == 7
    assert configured["max_completion_tokens"] == configured["max_tokens"] == 64
    assert "max_completion_tokens" not in uncapped and "max_tokens" not in uncapped


def test_cloud_models_get_the_timeout_but_no_cap() -> None:
    policy = read_policy({"LESSON_MODEL_TIMEOUT": "30"}, "openai")
    assert (policy.timeout, policy.max_tokens) == (30.0, None)
    assert read_policy({}, "local").max_tokens == DEFAULT_LOCAL_MAX_TOKENS


@pytest.mark.parametrize(
    ("variable", "value"),
    [("LESSON_MODEL_TIMEOUT", "soon"), ("LESSON_MODEL_TIMEOUT", "0"), ("LESSON_MODEL_TIMEOUT", "nan"),
     ("LOCAL_MODEL_MAX_TOKENS", "lots"), ("LOCAL_MODEL_MAX_TOKENS", "-5"), ("LOCAL_MODEL_MAX_TOKENS", "1.5")],
)
def test_a_bad_timeout_or_cap_is_a_configuration_error_naming_it(clean_env, variable: str, value: str) -> None:
    clean_env.setenv("LOCAL_MODEL_BASE_URL", "http://127.0.0.1:9/v1")
    clean_env.setenv("LOCAL_MODEL", "m")
    clean_env.setenv(variable, value)
    with pytest.raises(ModelConfigurationError) as caught:
        describe_chat_client()
    assert caught.value.variable == variable and variable in str(caught.value)


async def test_a_500_on_tool_messages_names_tool_support_and_the_server_log(clean_env) -> None:
    with StandInServer(misbehave="tool_500") as server:
        use(clean_env, server)
        agent = Agent(client=get_chat_client(), tools=[lookup_tool()])
        with pytest.raises(ModelConfigurationError) as caught:
            await agent.run("Look up the weather")
    message = str(caught.value)
    assert "returned 500" in message and "check its log" in message and "tool calling" in message
    assert "--jinja" in message  # the local backend's own advice
    assert caught.value.variable == "LOCAL_MODEL"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert len(server.requests) == 2, "the first call asked for the tool; the second, with its result, failed"


@pytest.mark.parametrize(
    ("status", "says", "variable"),
    [
        (403, "refused access (403)", "LOCAL_MODEL_API_KEY"),
        (429, "rate limit or quota (429)", "LOCAL_MODEL_API_KEY"),
        (400, "rejected the request (400)", "LOCAL_MODEL"),
        (500, "returned 500", "LOCAL_MODEL"),
        (503, "returned 503", "LOCAL_MODEL"),
    ],
)
async def test_each_http_status_is_one_line_naming_the_fix(clean_env, status: int, says: str, variable: str) -> None:
    with StandInServer(misbehave=f"status:{status}") as server:
        use(clean_env, server)
        with pytest.raises(ModelConfigurationError) as caught:
            await Agent(client=get_chat_client()).run("Hello")
        streamed = Agent(client=get_chat_client()).run("Hello", stream=True)
        with pytest.raises(ModelConfigurationError) as caught_streaming:
            async for _ in streamed:
                pass
    for error in (caught.value, caught_streaming.value):
        assert says in str(error) and error.variable == variable
        assert "\n" not in str(error) and "LESSON_MODEL=offline" in str(error)
    assert len(server.requests) == 2, "no automatic retry, streaming or not"


async def test_a_tool_call_written_as_text_reaches_the_learner_as_text(clean_env) -> None:
    """Not an HTTP error: the call 'succeeds'. The lesson's detector (test_text_tool_calls) names it."""
    from chat_models.text_tool_calls import find_text_tool_calls

    with StandInServer(misbehave="tool_as_text") as server:
        use(clean_env, server)
        tool = lookup_tool()
        response = await Agent(client=get_chat_client(), tools=[tool]).run("Look up the weather")
    assert not [c for m in response.messages for c in m.contents if c.type == "function_call"]
    assert [call.name for call in find_text_tool_calls(response.text, [tool])] == ["lookup"]


def test_errors_that_are_not_about_the_model_call_are_left_alone() -> None:
    from model_config.configuration import ChatClientInfo
    from chat_models.errors import ModelCallTimedOut, explain_model_error

    info = ChatClientInfo("local", "m", "http://127.0.0.1:9/v1", "test", settings={"url_var": "LOCAL_MODEL_BASE_URL"})
    assert explain_model_error(ValueError("a bug in a lesson cell"), info) is None
    already = ModelConfigurationError("already explained", variable="X")
    try:
        raise RuntimeError("wrapper") from already
    except RuntimeError as wrapped:
        assert explain_model_error(wrapped, info) is already
    timed_out = explain_model_error(ModelCallTimedOut(7), info)
    assert timed_out is not None and "longer than 7 s" in str(timed_out)
    refused = explain_model_error(ConnectionRefusedError(111, "Connection refused"), info)
    assert refused is not None and refused.variable == "LOCAL_MODEL_BASE_URL" and "is the server running" in str(refused)
