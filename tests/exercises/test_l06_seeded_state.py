"""06.start_over: the solutions pass on every draw; a stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import copy

import pytest
from agent_framework import AgentSession, HistoryProvider

from course_kit.exercises import check


def start_over(agent, session):
    """The worked solution: every non-history provider's slot, deep-copied, into a new session."""
    new = agent.create_session()
    for provider in agent.context_providers:
        if not isinstance(provider, HistoryProvider) and provider.source_id in session.state:
            new.state[provider.source_id] = copy.deepcopy(session.state[provider.source_id])
    return new


def start_over_through_json(agent, session):
    """Another right answer: a fork through to_dict/from_dict, without the history slots, under a new id."""
    data = session.to_dict()
    data["session_id"] = agent.create_session().session_id
    for provider in agent.context_providers:
        if isinstance(provider, HistoryProvider):
            data["state"].pop(provider.source_id, None)
    return AgentSession.from_dict(data)


async def start_over_async(agent, session):
    return start_over(agent, session)


def stub(agent, session):
    raise NotImplementedError


def fork(agent, session):
    data = session.to_dict()
    data["session_id"] = "new"
    return AgentSession.from_dict(data)


def drops_in_memory(agent, session):
    new = agent.create_session()
    new.state = {k: copy.deepcopy(v) for k, v in session.state.items() if k != "in_memory"}
    return new


def clears_the_old_session(agent, session):
    for provider in agent.context_providers:
        if isinstance(provider, HistoryProvider):
            session.state.pop(provider.source_id, None)
    return session


def same_id(agent, session):
    new = start_over(agent, session)
    return AgentSession.from_dict({**new.to_dict(), "session_id": session.session_id})


def only_user_memory(agent, session):
    from lesson_utils import UserMemoryProvider

    new = agent.create_session()
    for provider in agent.context_providers:
        if isinstance(provider, UserMemoryProvider):
            new.state[provider.source_id] = copy.deepcopy(session.state[provider.source_id])
    return new


def shallow_copy(agent, session):
    new = agent.create_session()
    for provider in agent.context_providers:
        if not isinstance(provider, HistoryProvider) and provider.source_id in session.state:
            new.state[provider.source_id] = dict(session.state[provider.source_id])
    return new


def shares_the_slot(agent, session):
    new = agent.create_session()
    for provider in agent.context_providers:
        if not isinstance(provider, HistoryProvider) and provider.source_id in session.state:
            new.state[provider.source_id] = session.state[provider.source_id]
    return new


_TEMPLATE: dict = {}


def module_template(agent, session):
    for provider in agent.context_providers:
        if not isinstance(provider, HistoryProvider):
            _TEMPLATE.setdefault(provider.source_id, {}).update(copy.deepcopy(session.state.get(provider.source_id, {})))
    new = agent.create_session()
    new.state = copy.deepcopy(_TEMPLATE)
    return new


def test_the_solution_passes():
    assert check("06.start_over", start_over) is True


@pytest.mark.parametrize("answer", [start_over, start_over_through_json, start_over_async],
                         ids=["deepcopy", "through-json", "async"])
def test_right_answers_pass_on_every_draw(answer, passes_on_every_seed):
    passes_on_every_seed("06.start_over", answer)


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `start_over` first"),
        (fork, "still carries the old transcript"),
        (drops_in_memory, "still carries the old transcript"),
        (clears_the_old_session, "the old session changed"),
        (same_id, "under its old session_id"),
        (only_user_memory, "the new session lost what the provider"),
        (shallow_copy, "a shallow copy"),
        (shares_the_slot, "they share state"),
        (module_template, "never learned"),
    ],
    ids=["stub", "fork", "drops-in-memory", "clears-old", "same-id", "one-provider", "shallow", "shared-slot",
         "template"],
)
def test_wrong_answers_get_their_hint(answer, hint, fails_with, monkeypatch):
    monkeypatch.setenv("LESSON_EXERCISE_SEED", "7")
    _TEMPLATE.clear()
    fails_with("06.start_over", answer, hint)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
