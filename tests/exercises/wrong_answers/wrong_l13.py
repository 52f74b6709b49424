"""Wrong answers to 13.two_users, written from the exercise text only (issue 21, item 1).

Each keeps ana's Fridays and ben's Mondays apart in the lesson's order of calls, or nearly. Each breaks
one rule: each user their own Agent with a CortadelContextProvider bound to that user at `memory_url`,
the same Agent every time for the same user, and nothing shared between two `make_agent_for` calls.
"""

from __future__ import annotations

from agent_framework import Agent

from lesson_utils import CortadelContextProvider

INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."

_AGENTS: dict = {}


def module_level_cache(chat_client, memory_url):
    """Caches agents in a module-level dict keyed by user: a second make_agent_for (another server) gets old agents."""

    def agent_for(user):
        if user not in _AGENTS:
            memory = CortadelContextProvider(memory_url, user)
            _AGENTS[user] = Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])
        return _AGENTS[user]

    return agent_for


def new_agent_every_call(chat_client, memory_url):
    """Builds a new Agent (and provider) on every call: users are apart, but never the same Agent twice."""

    def agent_for(user):
        memory = CortadelContextProvider(memory_url, user)
        return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])

    return agent_for


def first_users_provider(chat_client, memory_url):
    """Caches agents per user but builds the provider once, for whoever asks first: everyone shares that memory."""
    agents: dict = {}
    shared: list = []

    def agent_for(user):
        if not shared:
            shared.append(CortadelContextProvider(memory_url, user))
        if user not in agents:
            agents[user] = Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[shared[0]])
        return agents[user]

    return agent_for


def one_agent_swapped_providers(chat_client, memory_url):
    """One Agent for everybody whose provider is swapped to the caller's: right only while calls never overlap."""
    providers: dict = {}
    agent = Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[])

    def agent_for(user):
        if user not in providers:
            providers[user] = CortadelContextProvider(memory_url, user)
        agent.context_providers[:] = [providers[user]]
        return agent

    return agent_for


def example_users_hardcoded(chat_client, memory_url):
    """Builds agents for the example's users, ana and ben, up front; anyone else gets ben's agent."""
    agents = {
        name: Agent(
            client=chat_client, instructions=INSTRUCTIONS, context_providers=[CortadelContextProvider(memory_url, name)]
        )
        for name in ("ana", "ben")
    }

    def agent_for(user):
        return agents.get(user, agents["ben"])

    return agent_for


WRONG = [
    ("13.two_users", module_level_cache, "agent cache on the module"),
    ("13.two_users", new_agent_every_call, "a new Agent on every call"),
    ("13.two_users", first_users_provider, "one provider, bound to the first user, for all"),
    ("13.two_users", one_agent_swapped_providers, "one Agent, providers swapped per call"),
    ("13.two_users", example_users_hardcoded, "hard-codes the example users ana and ben"),
]
