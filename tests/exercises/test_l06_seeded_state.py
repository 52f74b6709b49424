"""06.seed_second_user: the solution passes; a stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest
from agent_framework import AgentSession

from lesson_utils.exercises import check


def seed_second_user(agent, memory, first_user, name, age):
    session = agent.create_session()
    session.state[memory.source_id] = {"name": name, "age": age}
    return session


def stub(agent, memory, first_user, name, age):
    raise NotImplementedError


def under_the_default_id(agent, memory, first_user, name, age):
    session = agent.create_session()
    session.state["user_memory"] = {"name": name, "age": age}
    return session


def edit_the_first_user(agent, memory, first_user, name, age):
    first_user.state[memory.source_id] = {"name": name, "age": age}
    return first_user


def share_the_first_users_state(agent, memory, first_user, name, age):
    session = agent.create_session()
    session.state = first_user.state
    session.state[memory.source_id] = {"name": name, "age": age}
    return session


def fork_the_first_user(agent, memory, first_user, name, age):
    data = first_user.to_dict()
    data["session_id"] = "ben"
    session = AgentSession.from_dict(data)
    session.state[memory.source_id] = {"name": name, "age": age}
    return session


def wrong_shape(agent, memory, first_user, name, age):
    session = agent.create_session()
    session.state[memory.source_id] = {"user": name, "years": age}
    return session


def test_the_solution_passes():
    assert check("06.seed_second_user", seed_second_user) is True


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `seed_second_user` first"),
        (under_the_default_id, "(found 'user_memory'): use session.state[memory.source_id]"),
        (edit_the_first_user, "that is the first user's conversation, not a new one"),
        (share_the_first_users_state, "the first user's session changed"),
        (fork_the_first_user, "the new session carries 2 message(s) of the first user's chat"),
        (wrong_shape, "the provider reads {'name': str, 'age': int}"),
    ],
    ids=["stub", "wrong-source-id", "edits-first-user", "shares-state", "fork", "wrong-shape"],
)
def test_wrong_answers_get_their_hint(answer, hint, fails_with):
    fails_with("06.seed_second_user", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("06.seed_second_user", seed_second_user)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
