"""How long the offline lesson model takes per call, as the history it is sent grows.

    python bench/offline_model_bench.py [--rounds 200] [--history 0 20 200]

Every lesson's turn goes through the offline model, and with a session the whole history is
re-read on every call (it keeps nothing between calls), so its cost grows with the history.
For each history size (messages replayed from a session) the script times, interleaved round by
round so machine noise hits them alike:

* ``client, question``    — ``client.get_response`` answering "When do I ship?" over the history;
* ``agent run, session``  — a whole ``agent.run`` with a session that already holds the history;
* ``agent run, stream``   — the same, streamed and drained with ``get_final_response``;
* ``agent run, tool``     — a question answered via a search tool (two model calls per run).

Prints a Markdown table of median and p95 in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

from agent_framework import Agent, Message, tool

from chat_models import OfflineChatClient


def _history(size: int) -> list[Message]:
    facts = ["I ship on Fridays.", "I'm Alex.", "I live in Oslo.", "Tell me a joke about a pirate."]
    messages: list[Message] = []
    for i in range(size // 2):
        messages.append(Message("user", [facts[i % len(facts)]]))
        messages.append(Message("assistant", ["Got it."]))
    return messages


@tool
def search_memory(query: str) -> str:
    """Search remembered facts about the user."""
    return "- Alex waters the plants on Sundays"


async def bench(rounds: int, sizes: list[int]) -> None:
    print("| history (messages) | case | median ms | p95 ms |")
    print("|---:|---|---:|---:|")
    for size in sizes:
        client = OfflineChatClient()
        agent = Agent(client=client, instructions="You are helpful.")
        tool_agent = Agent(client=client, tools=[search_memory])
        history = _history(size)
        session = agent.create_session()
        session.state["in_memory"] = {"messages": list(history)}

        # Each case binds this size's objects as defaults: the closures are timed in this iteration only.
        async def direct(client=client, history=history) -> None:
            await client.get_response([*history, Message("user", ["When do I ship?"])])

        async def run_session(agent=agent, session=session, history=history) -> None:
            session.state["in_memory"] = {"messages": list(history)}
            await agent.run("When do I ship?", session=session)

        async def run_stream(agent=agent, session=session, history=history) -> None:
            session.state["in_memory"] = {"messages": list(history)}
            await agent.run("When do I ship?", session=session, stream=True).get_final_response()

        async def run_tool(tool_agent=tool_agent) -> None:
            await tool_agent.run("When do I water the plants?")

        cases: dict[str, Callable[[], Awaitable[None]]] = {
            "client, question": direct,
            "agent run, session": run_session,
            "agent run, stream": run_stream,
            "agent run, tool": run_tool,
        }
        timings: dict[str, list[float]] = {name: [] for name in cases}
        for fn in cases.values():  # warm up
            await fn()
        for _ in range(rounds):
            for name, fn in cases.items():
                start = time.perf_counter()
                await fn()
                timings[name].append((time.perf_counter() - start) * 1000)
        for name, values in timings.items():
            values.sort()
            p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
            print(f"| {size} | {name} | {statistics.median(values):.2f} | {p95:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--history", type=int, nargs="+", default=[0, 20, 200])
    args = parser.parse_args()
    asyncio.run(bench(args.rounds, args.history))


if __name__ == "__main__":
    main()
