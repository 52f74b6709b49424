"""Wrong answers to 06.seed_second_user, written from the exercise text only (issue 21, item 1).

Each gives Ben a session that answers a first question on the lesson's provider; each breaks one rule:
a new session, seeded in `memory`'s own slot with a dict built from `name` and `age`, and Ana's session
coming out exactly as it went in.
"""

from __future__ import annotations

import copy

from agent_framework import AgentSession


def hardcoded_slot(agent, memory, first_user, name, age):
    """Seeds the lesson's slot name, "user_memory", instead of `memory.source_id`."""
    session = agent.create_session()
    session.state["user_memory"] = {"name": name, "age": age}
    return session


def aliases_anas_dict(agent, memory, first_user, name, age):
    """Reuses Ana's slot dict and changes it: Ben gets a seed, and Ana's memory becomes Ben."""
    session = agent.create_session()
    seed = first_user.state.setdefault(memory.source_id, {})
    seed["name"], seed["age"] = name, age
    session.state[memory.source_id] = seed
    return session


def forks_ana(agent, memory, first_user, name, age):
    """Forks Ana's session and overwrites the name and age: Ben inherits Ana's transcript and session id."""
    session = AgentSession.from_dict(copy.deepcopy(first_user.to_dict()))
    session.state[memory.source_id] = {"name": name, "age": age}
    return session


def hardcoded_name(agent, memory, first_user, name, age):
    """Types in the example's second user, "Ben", instead of using `name`."""
    session = agent.create_session()
    session.state[memory.source_id] = {"name": "Ben", "age": age}
    return session


def ignores_age(agent, memory, first_user, name, age):
    """Seeds the name only; Ben's age is dropped."""
    session = agent.create_session()
    session.state[memory.source_id] = {"name": name}
    return session


def age_as_text(agent, memory, first_user, name, age):
    """Seeds the age as the form's text ("27 years"), not as a number."""
    session = agent.create_session()
    session.state[memory.source_id] = {"name": name, "age": f"{age} years"}
    return session


_SEED: dict = {}


def module_level_seed(agent, memory, first_user, name, age):
    """Builds the seed in one module-level dict: every seeded session shares it, so the last signup wins."""
    _SEED.update(name=name, age=age)
    session = agent.create_session()
    session.state[memory.source_id] = _SEED
    return session


WRONG = [
    ("06.seed_second_user", hardcoded_slot, 'hard-codes the slot "user_memory"'),
    ("06.seed_second_user", aliases_anas_dict, "reuses and mutates Ana's slot dict"),
    ("06.seed_second_user", forks_ana, "forks Ana's session (her transcript and id)"),
    ("06.seed_second_user", hardcoded_name, "hard-codes the name Ben"),
    ("06.seed_second_user", ignores_age, "ignores the age"),
    ("06.seed_second_user", age_as_text, "age seeded as text"),
    ("06.seed_second_user", module_level_seed, "one module-level seed dict shared by every session"),
]
