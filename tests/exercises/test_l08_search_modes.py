"""08.text_vs_hybrid: the solution passes; the stub, swapped modes and one mode twice get their hint."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from lesson_utils.cortadel import CortadelContextProvider
from course_kit.exercises import check
from chat_models import RequestRecorder


async def recalled_with(mode, server_url, user_id, question, chat_client):
    recorder = RequestRecorder()
    async with CortadelContextProvider(server_url, user_id, search_mode=mode) as memory:
        agent = Agent(client=chat_client, instructions="You are helpful.", context_providers=[memory], middleware=[recorder])
        await agent.run(question, session=agent.create_session())
    injected = [
        m.text
        for m in recorder.last_request.messages
        if m.additional_properties.get("_attribution", {}).get("source_id") == memory.source_id
    ]
    return [line for text in injected for line in text.splitlines() if line.startswith("- ")]


async def recall_by_mode(server_url, user_id, question, chat_client):
    return {mode: await recalled_with(mode, server_url, user_id, question, chat_client) for mode in ("text", "hybrid")}


async def swapped(server_url, user_id, question, chat_client):
    result = await recall_by_mode(server_url, user_id, question, chat_client)
    return {"text": result["hybrid"], "hybrid": result["text"]}


async def hybrid_twice(server_url, user_id, question, chat_client):
    lines = await recalled_with("hybrid", server_url, user_id, question, chat_client)
    return {"text": lines, "hybrid": lines}


async def text_twice(server_url, user_id, question, chat_client):
    lines = await recalled_with("text", server_url, user_id, question, chat_client)
    return {"text": lines, "hybrid": lines}


async def answers_not_lines(server_url, user_id, question, chat_client):
    return {"text": [], "hybrid": ["I don't know."]}


async def stub(server_url, user_id, question, chat_client):
    raise NotImplementedError


def test_the_solution_passes():
    assert check("08.text_vs_hybrid", recall_by_mode) is True


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in"),
        (swapped, "are the two modes swapped?"),
        (hybrid_twice, "both modes recalled the same lines"),
        (text_twice, "both modes recalled the same lines"),
        (answers_not_lines, "is not a memory"),
        ({"text": [], "hybrid": []}, "pass your function itself"),
    ],
)
def test_wrong_answers_get_their_hint(answer, hint, fails_with):
    fails_with("08.text_vs_hybrid", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("08.text_vs_hybrid", recall_by_mode)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
