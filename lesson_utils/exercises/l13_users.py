"""Lesson 13's exercise: two users kept apart — one provider, and one Agent, per user.

The learner writes ``make_agent_for(chat_client, memory_url)`` returning ``agent_for(user)``: the
same ``Agent`` every time for the same user, whose Cortadel provider is bound to that user. The
check runs it on the offline lesson model against a throwaway local memory server: ana and ben
each state when they ship, then each asks in a brand-new session. A right answer recalls each
user's own day and never the other's, and does not build a new Agent per call.
"""

from __future__ import annotations

from typing import Any

from agent_framework import Agent

from ..models.offline import OfflineChatClient
from ._registry import Hint, call_learner, exercise

FACTS = {"ana": ("I ship on Fridays.", "Friday"), "ben": ("I ship on Mondays.", "Monday")}
QUESTION = "When do I usually ship?"


@exercise("13.two_users", title="two users kept apart: one provider and one Agent per user")
async def check_two_users(make_agent_for: Any) -> None:
    from ..memory_server import start_memory_server

    server = start_memory_server()
    agents: list[Agent] = []
    try:
        agent_for = await call_learner(make_agent_for, OfflineChatClient(), server.url, what="`make_agent_for`")
        if not callable(agent_for):
            raise Hint(f"make_agent_for should return a function agent_for(user); it returned {type(agent_for).__name__}")

        async def agent_of(user: str) -> Agent:
            agent = await call_learner(agent_for, user, what="`agent_for`")
            if not isinstance(agent, Agent):
                raise Hint(f"agent_for({user!r}) should return an agent_framework Agent, not {type(agent).__name__}")
            if agent not in agents:
                agents.append(agent)
            return agent

        ana, ben = await agent_of("ana"), await agent_of("ben")
        if ana is ben:
            raise Hint("agent_for returned the same Agent for ana and ben: each user needs their own provider")
        if await agent_of("ana") is not ana:
            raise Hint(
                "agent_for('ana') built a new Agent on the second call: build one per user and reuse it "
                "(keep them in a dict keyed by user)"
            )
        for user, agent in (("ana", ana), ("ben", ben)):
            await agent.run(FACTS[user][0], session=agent.create_session())
        for user, agent in (("ana", ana), ("ben", ben)):
            reply = await agent.run(QUESTION, session=agent.create_session())
            own = FACTS[user][1]
            other = next(day for name, (_, day) in FACTS.items() if name != user)
            if other in reply.text:
                raise Hint(
                    f"{user} was told {other!r}, the other user's day: their memories are mixed — bind each "
                    "CortadelContextProvider to its own user_id, one provider per user"
                )
            if own not in reply.text:
                raise Hint(
                    f"{user} asked {QUESTION!r} in a new session and was not told {own!r}: does the Agent have a "
                    "CortadelContextProvider for memory_url and that user?"
                )
    finally:
        for agent in agents:
            for provider in getattr(agent, "context_providers", None) or []:
                close = getattr(provider, "aclose", None)
                if close is not None:
                    await close()
        server.stop()
