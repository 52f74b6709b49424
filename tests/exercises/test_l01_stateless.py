"""01.send_history: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest
from agent_framework import Message

from course_kit.exercises import check


def _user(text: str) -> Message:
    return Message(role="user", contents=[text])


async def solution(agent, first, second):
    turn1 = await agent.run(first)
    return await agent.run([_user(first), *turn1.messages, _user(second)])


async def stub(agent, first, second):
    raise NotImplementedError


async def only_the_new_message(agent, first, second):
    await agent.run(first)
    return await agent.run(second)


async def history_sent_twice(agent, first, second):
    history = [_user(first)]
    turn1 = await agent.run(history)
    history += [_user(first), *turn1.messages]  # the question was already in the list
    return await agent.run([*history, _user(second)])


async def question_without_the_answer(agent, first, second):
    await agent.run(first)
    return await agent.run([_user(first), _user(second)])


async def with_a_session(agent, first, second):
    session = agent.create_session()
    await agent.run(first, session=session)
    return await agent.run(second, session=session)


async def returns_turn_1(agent, first, second):
    turn1 = await agent.run(first)
    await agent.run([_user(first), *turn1.messages, _user(second)])
    return turn1


def test_the_solution_passes(capsys):
    assert check("01.send_history", solution) is True
    assert "\u2705 01.send_history" in capsys.readouterr().out


def test_returning_the_text_instead_of_the_response_also_passes():
    async def returns_text(agent, first, second):
        return (await solution(agent, first, second)).text

    assert check("01.send_history", returns_text) is True


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `stub` first"),
        (only_the_new_message, "turn 2 was sent only its new message"),
        (history_sent_twice, "part of the history was sent twice"),
        (question_without_the_answer, "but not the model's answer"),
        (with_a_session, "you used a session"),
        (returns_turn_1, "return turn 2's response"),
    ],
    ids=lambda v: getattr(v, "__name__", "hint"),
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("01.send_history", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("01.send_history", solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
