"""05.resume_from_json: the solution passes; a stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import json

import pytest
from agent_framework import Agent, AgentSession

from lesson_utils import UserMemoryProvider
from chat_models import get_chat_client
from course_kit.exercises import check


def save(session, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)


async def resume(path, message):
    agent = Agent(client=get_chat_client(), instructions="Be friendly.", context_providers=[UserMemoryProvider()])
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    response = await agent.run(message, session=session)
    save(session, path)
    return response.text


def save_stub(session, path):
    raise NotImplementedError


async def resume_stub(path, message):
    raise NotImplementedError


_in_memory: dict[str, AgentSession] = {}


def save_and_keep(session, path):
    save(session, path)
    _in_memory[str(path)] = session


async def resume_in_this_process(path, message):
    """Works in the notebook that saved the session; a new process has no such object."""
    session = _in_memory[str(path)]
    agent = Agent(client=get_chat_client(), instructions="Be friendly.", context_providers=[UserMemoryProvider()])
    response = await agent.run(message, session=session)
    save(session, path)
    return response.text


async def resume_returning_the_session(path, message):
    agent = Agent(client=get_chat_client(), instructions="Be friendly.", context_providers=[UserMemoryProvider()])
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    await agent.run(message, session=session)
    save(session, path)
    return session


def save_history_only(session, path):
    data = session.to_dict()
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"type": "session", "session_id": data["session_id"],
                   "state": {"in_memory": data["state"]["in_memory"]}}, f)


def save_repr(session, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write(repr(session.to_dict()))


async def resume_without_saving_back(path, message):
    agent = Agent(client=get_chat_client(), instructions="Be friendly.", context_providers=[UserMemoryProvider()])
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    return (await agent.run(message, session=session)).text


async def resume_a_new_session(path, message):
    agent = Agent(client=get_chat_client(), instructions="Be friendly.", context_providers=[UserMemoryProvider()])
    session = agent.create_session()
    response = await agent.run(message, session=session)
    save(session, path)
    return response.text


async def resume_as_the_lessons_user(path, message):
    agent = Agent(client=get_chat_client(), instructions="Be friendly.", context_providers=[UserMemoryProvider()])
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))
    session.state["user_memory"] = {"name": "Priya", "age": 31}  # the lesson's user, typed in
    response = await agent.run(message, session=session)
    save(session, path)
    return response.text


import threading

_this_kernels_lock = threading.Lock()  # stands for anything of this process that cannot be pickled (a live client)


async def resume_using_this_process_object(path, message):
    with _this_kernels_lock:
        return await resume(path, message)


@pytest.mark.full  # slow: the check resumes in new processes
def test_the_solution_passes(capsys):
    assert check("05.resume_from_json", (save, resume)) is True


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        ((save_stub, resume_stub), "fill in `save` first"),
        ((save, resume_stub), "`resume` failed (it still raises NotImplementedError)"),
        ((save_and_keep, resume_in_this_process), "in a new process, `resume` failed (KeyError"),
        ((save, resume_returning_the_session), "`resume` returned a AgentSession; return the reply's text"),
        ((save_history_only, resume), "the saved file lost the provider's memory"),
        ((save_repr, resume), "is not JSON (str() or repr() of a dict is Python"),
        ((save, resume_without_saving_back), "the file does not hold the new turn"),
        ((save, resume_a_new_session), "the file now holds a different conversation"),
        (resume, "pass both functions"),
        ((save, resume_using_this_process_object), "uses an object of this process that cannot go to a new one"),
        ((save, resume_as_the_lessons_user), "never set or replace a provider's slot yourself"),
    ],
    ids=["stub", "resume-stub", "same-process", "returns-session", "history-only", "repr", "no-save-back",
         "new-session", "one-function", "unpicklable-global", "lessons-user"],
)
@pytest.mark.full  # slow: the check resumes in new processes
def test_wrong_answers_get_their_hint(answer, hint, fails_with):
    fails_with("05.resume_from_json", answer, hint)


# Every draw resumes in a new Python process (about 5 s each on a loaded machine).
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("05.resume_from_json", (save, resume))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
