"""15.memory_per_user, 15.learn_only_from_user and 15.providers_for_user: the solutions pass; each wrong answer fails with its hint on
five different draws of cases (users, facts, instructions the lesson never shows)."""

from __future__ import annotations

import pytest
from agent_framework import (ContextProvider, FileMemoryProvider, InMemoryAgentFileStore, MemoryContextProvider,
                             MemoryFileStore)

from course_kit.exercises import check
from course_kit.exercises._cases import SEED_VARIABLE
from lesson_utils.framework_memory import is_users_own_request

SEEDS = [1, 2, 3, 4, 5]


def memory_for(user_id, store):
    return FileMemoryProvider(store, scope=user_id)


def should_learn(message):
    return message.role == "user" and "_attribution" not in (message.additional_properties or {})


@pytest.mark.parametrize("seed", SEEDS)
def test_the_solutions_pass(seed, monkeypatch, capsys):
    monkeypatch.setenv(SEED_VARIABLE, str(seed))
    assert check("15.memory_per_user", memory_for) is True
    assert check("15.learn_only_from_user", should_learn) is True
    assert check("15.learn_only_from_user", is_users_own_request) is True


def memory_stub(user_id, store):
    raise NotImplementedError


def per_session(user_id, store):
    return FileMemoryProvider(store)


def one_scope_for_all(user_id, store):
    return FileMemoryProvider(store, scope="users")


def own_store(user_id, store):
    return FileMemoryProvider(InMemoryAgentFileStore(), scope=user_id)


def not_a_provider(user_id, store):
    return store


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("answer", "hint"),
    [(memory_stub, "fill in `memory_for` first"), (per_session, "per *session* unless you pass scope="),
     (one_scope_for_all, "every user shares one folder"), (own_store, "nothing was written to the store"),
     (not_a_provider, "should return a context provider")],
    ids=["stub", "per-session", "shared-scope", "own-store", "not-a-provider"],
)
def test_wrong_memory_for_gets_its_hint(answer, hint, seed, monkeypatch, fails_with):
    monkeypatch.setenv(SEED_VARIABLE, str(seed))
    out = fails_with("15.memory_per_user", answer, hint)
    assert f"seed {seed}" in out or "fill in" in out or "context provider" in out


def learn_stub(message):
    raise NotImplementedError


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("answer", "hint"),
    [(learn_stub, "fill in your `should_learn` first"),
     (lambda message: True, "from a recalled memory"),
     (lambda message: message.role == "user", "from a recalled memory"),
     (lambda message: "_attribution" not in (message.additional_properties or {}), "from a tool's result"),
     (lambda message: False, "nothing was learned"),
     (lambda message: "user", "return True or False")],
    ids=["stub", "everything", "any-user-role", "unattributed-any-role", "nothing", "not-a-bool"],
)
def test_wrong_guards_get_their_hint(answer, hint, seed, monkeypatch, fails_with):
    monkeypatch.setenv(SEED_VARIABLE, str(seed))
    fails_with("15.learn_only_from_user", answer, hint)


def test_a_failure_names_its_seed_and_a_bad_seed_names_the_fix(monkeypatch, capsys):
    monkeypatch.setenv(SEED_VARIABLE, "42")
    assert check("15.memory_per_user", per_session) is False
    assert "LESSON_EXERCISE_SEED=42 repeats them" in capsys.readouterr().out
    monkeypatch.setenv(SEED_VARIABLE, "forty-two")
    assert check("15.memory_per_user", memory_for) is False
    assert "must be a whole number" in capsys.readouterr().out


# ------------------------------------------------------------------------------ 15.providers_for_user (issue 46)



class Owner(ContextProvider):
    def __init__(self, user_id):
        super().__init__("owner")
        self.user_id = user_id

    async def before_run(self, *, agent, session, context, state):
        session.state["user_id"] = self.user_id


def providers_for(user_id, folder):
    return [Owner(user_id), MemoryContextProvider(store=MemoryFileStore(folder, owner_state_key="user_id"), recent_turns=3)]


def test_the_providers_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("15.providers_for_user", providers_for)


def providers_stub(user_id, folder):
    raise NotImplementedError


@pytest.mark.parametrize(
    ("answer", "hint"),
    [(providers_stub, "fill in `providers_for` first"),
     (lambda user_id, folder: Owner(user_id), "should return a list of context providers"),
     (lambda user_id, folder: [Owner(user_id), FileMemoryProvider(InMemoryAgentFileStore(), scope=user_id)],
      "holds no MemoryContextProvider"),
     (lambda user_id, folder: [MemoryContextProvider(store=MemoryFileStore(folder, owner_state_key="user_id"))],
      "found no user in session.state")],
    ids=["stub", "not-a-list", "no-memory-context-provider", "no-owner"],
)
def test_wrong_providers_get_their_hint(answer, hint, fails_with):
    fails_with("15.providers_for_user", answer, hint)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
