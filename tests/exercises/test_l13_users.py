"""13.two_users: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from lesson_utils import CortadelContextProvider
from lesson_utils.exercises import check

INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."


def solution(chat_client, memory_url):
    agents = {}

    def agent_for(user):
        if user not in agents:
            memory = CortadelContextProvider(memory_url, user)
            agents[user] = Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])
        return agents[user]

    return agent_for


def stub(chat_client, memory_url):
    def agent_for(user):
        raise NotImplementedError

    return agent_for


def shared_provider(chat_client, memory_url):
    memory = CortadelContextProvider(memory_url, "everyone")
    agents = {}

    def agent_for(user):
        if user not in agents:
            agents[user] = Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])
        return agents[user]

    return agent_for


def new_agent_every_call(chat_client, memory_url):
    providers = {}

    def agent_for(user):
        if user not in providers:
            providers[user] = CortadelContextProvider(memory_url, user)
        return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[providers[user]])

    return agent_for


def no_memory(chat_client, memory_url):
    agents = {}

    def agent_for(user):
        return agents.setdefault(user, Agent(client=chat_client, instructions=INSTRUCTIONS))

    return agent_for


def one_agent(chat_client, memory_url):
    agent = Agent(client=chat_client, instructions=INSTRUCTIONS,
                  context_providers=[CortadelContextProvider(memory_url, "ana")])
    return lambda user: agent


def test_the_solution_passes(capsys):
    assert check("13.two_users", solution) is True
    assert "\u2705 13.two_users" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `agent_for` first"),
        (shared_provider, "memories are mixed"),
        (new_agent_every_call, "built a new Agent on the second call"),
        (no_memory, "in a new session and was not told"),
        (one_agent, "each user needs their own provider"),
    ],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("13.two_users", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("13.two_users", solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
