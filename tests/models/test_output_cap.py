"""A reply cut by the output cap says so in one line naming LOCAL_MODEL_MAX_TOKENS, and a claim made on
it says "cut by the cap" instead of blaming the model (tested on the loopback stand-in, which stops at
``max_tokens`` words with finish reason ``length``, as a capped model does)."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from course_kit import expect_model
from course_kit.environment import check_model
from course_kit.lesson import CappedClient
from chat_models import describe_chat_client, get_chat_client

from .stand_in_server import StandInServer
from .test_model_errors import use

LONG = "Tell me everything about the weather in the mountains this weekend please"


async def test_a_reply_cut_by_the_cap_says_so_in_one_line(clean_env, capsys) -> None:
    with StandInServer() as server:
        use(clean_env, server, LOCAL_MODEL_MAX_TOKENS="5")
        agent = Agent(client=get_chat_client())
        cut = await agent.run(LONG)
        streamed = [u.text async for u in agent.run(LONG, stream=True)]
        whole = await agent.run("Hi")
    captured = capsys.readouterr()
    out = captured.err
    assert "LOCAL_MODEL_MAX_TOKENS" not in captured.out, "stdout stays the reply's (a child process prints its reply there)"
    assert len(cut.text.split()) == 5 and "".join(streamed).split() == cut.text.split()
    notes = [line for line in out.splitlines() if "LOCAL_MODEL_MAX_TOKENS=5" in line]
    assert len(notes) == 2, out  # the plain and the streamed reply, once each; "Hi" was not cut
    assert "length" in notes[0] and whole.text.startswith("Echo: Hi")


async def test_a_cap_the_caller_chose_is_counted_not_announced(clean_env, capsys) -> None:
    with StandInServer() as server:
        use(clean_env, server)
        reply = await Agent(client=get_chat_client()).run(LONG, options={"max_tokens": 3})
        summary = await CappedClient(get_chat_client(), 4).get_response([LONG])
    assert len(reply.text.split()) == 3 and len(summary.text.split()) == 4
    assert server.requests[0]["max_tokens"] == 3, "the caller's cap under both names, not the policy's 512"
    captured = capsys.readouterr()
    assert "LOCAL_MODEL_MAX_TOKENS" not in captured.out + captured.err


async def test_a_claim_on_a_cut_reply_says_cut_by_the_cap(clean_env, capsys, tmp_path) -> None:
    log = tmp_path / "claims.jsonl"
    clean_env.setenv("LESSON_CLAIMS_LOG", str(log))
    with StandInServer() as server:
        use(clean_env, server, LOCAL_MODEL_MAX_TOKENS="4")
        reply = await Agent(client=get_chat_client()).run(LONG)
        expect_model("the answer mentions the weekend", "weekend" in reply.text)
        expect_model("a later claim on no cut reply", False, hint="the model's part")
    out = capsys.readouterr().out
    assert "\u2717 the answer mentions the weekend: not shown, the reply was cut by the cap (LOCAL_MODEL_MAX_TOKENS=4)" in out
    assert "this model did not show it" not in out.split("weekend:")[1].splitlines()[0]
    assert "\u2717 a later claim on no cut reply: this model did not show it \u2014 the model's part" in out
    assert '"cut": true' in log.read_text(encoding="utf-8")


async def test_notebook_00_names_the_listed_ids_when_the_model_name_is_not_served(clean_env) -> None:
    with StandInServer(api_key=None, models=("qwen2.5-coder-1.5b",), answers_any_model=True) as server:
        use(clean_env, server)
        clean_env.setenv("LOCAL_MODEL", "qwen2.5:1.5b")  # answered anyway, as llama-server does
        wrong = await check_model()
        clean_env.setenv("LOCAL_MODEL", "qwen2.5-coder-1.5b")
        right = await check_model()
    assert not wrong.ok and "lists no model 'qwen2.5:1.5b'" in wrong.detail and "qwen2.5-coder-1.5b" in wrong.detail
    assert wrong.fix.startswith("set LOCAL_MODEL to one of: qwen2.5-coder-1.5b")
    assert right.ok, right.detail


async def test_notebook_00_fail_names_the_variables_of_the_backend_that_failed(clean_env) -> None:
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    clean_env.setenv("LOCAL_MODEL_BASE_URL", f"http://127.0.0.1:{port}/v1")
    clean_env.setenv("LOCAL_MODEL", "llama3.2")
    assert describe_chat_client().kind == "local"
    result = await check_model()
    assert not result.ok and "LOCAL_MODEL_BASE_URL" in result.fix and "LOCAL_MODEL" in result.fix
    assert "OPENAI" not in result.fix and "AZURE" not in result.fix


@pytest.mark.parametrize("kind_settings", [{"url_var": "AZURE_OPENAI_ENDPOINT", "model_var": "AZURE_OPENAI_MODEL"}])
async def test_a_cloud_fail_names_its_own_variables(kind_settings) -> None:
    async def refuses() -> None:
        raise ConnectionError("401")

    info = {"kind": "azure", "model": "d", "base_url": "https://a", "reason": "set", "settings": kind_settings}
    result = await check_model(lambda: info, refuses)
    assert "AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_MODEL" in result.fix and "LOCAL_MODEL" not in result.fix
