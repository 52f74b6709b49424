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
from ._cases import draw, with_seed
from ._registry import Hint, call_learner, exercise

USERS = ("chidi", "marta", "oskar", "priya", "tomasz", "yuki", "zara", "ines", "kofi", "lena")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
QUESTION = "When do I usually ship?"


@exercise("13.two_users", title="two users kept apart: one provider and one Agent per user")
async def check_two_users(make_agent_for: Any) -> None:
    from ..memory_server import start_memory_server

    rng, seed = draw()
    users = rng.sample(USERS, 2)  # never the lesson's ana and ben
    days = rng.sample(DAYS, 2)
    facts = {user: (f"I ship on {day}s.", day) for user, day in zip(users, days, strict=True)}
    server = start_memory_server()
    agents: list[Agent] = []
    try:
        await _two_users(make_agent_for, server.url, users, facts, agents)
    except Hint as hint:
        raise Hint(with_seed(str(hint), seed)) from None
    finally:
        for agent in agents:
            for provider in getattr(agent, "context_providers", None) or []:
                close = getattr(provider, "aclose", None)
                if close is not None:
                    await close()
        server.stop()


async def _two_users(make_agent_for: Any, url: str, users: list[str], facts: dict[str, tuple[str, str]],
                     agents: list[Agent]) -> None:
    async def app() -> Any:
        agent_for = await call_learner(make_agent_for, OfflineChatClient(), url, what="`make_agent_for`")
        if not callable(agent_for):
            raise Hint(f"make_agent_for should return a function agent_for(user); it returned {type(agent_for).__name__}")

        async def agent_of(user: str) -> Agent:
            agent = await call_learner(agent_for, user, what="`agent_for`")
            if not isinstance(agent, Agent):
                raise Hint(f"agent_for({user!r}) should return an agent_framework Agent, not {type(agent).__name__}")
            if agent not in agents:
                agents.append(agent)
            return agent

        return agent_of

    earlier = await (await app())(users[0])  # a first app: another chat client, its own agents
    agent_of = await app()
    ana, ben = await agent_of(users[0]), await agent_of(users[1])
    if ana is earlier:
        raise Hint(
            f"a second make_agent_for (another app, another chat client) handed back the first one's Agent for "
            f"{users[0]!r}: keep the agents in a dict made inside make_agent_for, not at module level"
        )
    if ana is ben:
        raise Hint(f"agent_for returned the same Agent for {users[0]} and {users[1]}: each user needs their own "
                   "provider")
    if await agent_of(users[0]) is not ana:
        raise Hint(
            f"agent_for({users[0]!r}) built a new Agent on the second call: build one per user and reuse it "
            "(keep them in a dict keyed by user)"
        )
    for user, agent in ((users[0], ana), (users[1], ben)):
        await agent.run(facts[user][0], session=agent.create_session())
    for user, agent in ((users[0], ana), (users[1], ben)):
        reply = await agent.run(QUESTION, session=agent.create_session())
        own = facts[user][1]
        other = next(day for name, (_, day) in facts.items() if name != user)
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
