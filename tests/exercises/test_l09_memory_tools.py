"""09.server_down_message: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

from agent_framework import Agent

from lesson_utils import CortadelMemoryClient, create_memory_tools
from course_kit.exercises import EXERCISES, check

ID = "09.server_down_message"


def run(answer) -> tuple[bool, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        ok = check(ID, answer)
    return ok, out.getvalue()


def tool_results(response) -> list:
    return [c.result for m in response.messages for c in m.contents if c.type == "function_result"]


async def solution(client, dead_url: str) -> str:
    memory = CortadelMemoryClient(dead_url, "exercise-user", timeout=2)
    agent = Agent(client=client, tools=create_memory_tools(memory))
    response = await agent.run("When do I usually ship?")
    await memory.aclose()
    return tool_results(response)[0]


def test_registered_under_lesson_09() -> None:
    assert EXERCISES[ID].lesson == "09"


def test_the_solution_passes() -> None:
    ok, out = run(solution)
    assert ok, out
    assert out.startswith("\u2705")


def test_the_untouched_stub_gets_a_hint() -> None:
    async def what_the_model_is_told(client, dead_url):
        raise NotImplementedError

    ok, out = run(what_the_model_is_told)
    assert not ok and "fill in" in out


def test_returning_the_exception_instead_of_the_tool_result_fails() -> None:
    async def returns_the_exception(client, dead_url):
        memory = CortadelMemoryClient(dead_url, "exercise-user", timeout=2)
        try:
            await memory.search("When do I usually ship?")
        except Exception as error:  # what the *client* raised, not what the model was told
            return str(error)
        finally:
            await memory.aclose()
        return "no error"

    ok, out = run(returns_the_exception)
    assert not ok and "never received a tool result" in out


def test_returning_the_exception_after_running_the_agent_fails() -> None:
    async def agent_then_exception(client, dead_url):
        memory = CortadelMemoryClient(dead_url, "exercise-user", timeout=2)
        await Agent(client=client, tools=create_memory_tools(memory)).run("When do I usually ship?")
        try:
            await memory.search("ship")
        except Exception as error:
            return f"{type(error).__name__}: {error}"
        finally:
            await memory.aclose()

    ok, out = run(agent_then_exception)
    assert not ok and "not the error the memory client raised" in out


def test_using_a_live_server_fails() -> None:
    from local_memory_server import start_memory_server

    async def uses_a_live_server(client, dead_url):
        live = start_memory_server()
        try:
            memory = CortadelMemoryClient(live.url, "exercise-user")
            response = await Agent(client=client, tools=create_memory_tools(memory)).run("When do I usually ship?")
            await memory.aclose()
            return tool_results(response)[0]
        finally:
            live.stop()

    ok, out = run(uses_a_live_server)
    assert not ok and "working* memory server" in out


def test_calling_the_tool_directly_fails() -> None:
    async def calls_the_tool_itself(client, dead_url):
        memory = CortadelMemoryClient(dead_url, "exercise-user", timeout=2)
        search, _add = create_memory_tools(memory)
        contents = await search.invoke(arguments={"query": "When do I usually ship?"})
        await memory.aclose()
        return contents[0].text

    ok, out = run(calls_the_tool_itself)
    assert not ok and "run an Agent" in out


def test_returning_the_whole_response_fails() -> None:
    async def returns_the_response(client, dead_url):
        memory = CortadelMemoryClient(dead_url, "exercise-user", timeout=2)
        response = await Agent(client=client, tools=create_memory_tools(memory)).run("When do I usually ship?")
        await memory.aclose()
        return response

    ok, out = run(returns_the_response)
    assert not ok and "(a str)" in out


def test_the_sentence_cut_out_of_the_answer_fails() -> None:
    """The offline model quotes the tool result; the check also runs a model that answers in its own words."""

    async def quoted_from_the_answer(client, dead_url):
        memory = CortadelMemoryClient(dead_url, "exercise-user", timeout=2)
        response = await Agent(client=client, tools=create_memory_tools(memory)).run("When do I usually ship?")
        await memory.aclose()
        return response.text.split('"')[1] if '"' in response.text else response.text

    ok, out = run(quoted_from_the_answer)
    assert not ok and "what the model *said*" in out


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("09.server_down_message", solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
