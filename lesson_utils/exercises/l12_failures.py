"""Lesson 12's exercise: count memory failures with ``on_error`` and keep every turn answered.

The learner writes an ``on_error`` callback (a counter) and the agent setup around the Cortadel
provider. The check runs several turns, in one session, against a loopback URL with no server
behind it (a memory server that is down) on the offline lesson model. Each turn costs two failed
Cortadel calls — the recall search and the write — so a right answer answers every turn and counts
exactly two failures per turn, and its callback never raises.

The number of turns and their words are drawn per run (:mod:`._cases`). Then a second counter is made
and the agent built again for a memory server that is up: the new counter must start at 0 (a count on
the class or the module does not) and count nothing (an agent built for a URL of its own does).
"""

from __future__ import annotations

import socket
from typing import Any

from agent_framework import Agent
from cortadel import CortadelError

from ..models.offline import OfflineChatClient
from ._cases import drawn_cases
from ._registry import Hint, call_learner, exercise

SMALL_TALK = ("Hello, how are you?", "What should I read next?", "Any tips for a rainy day?",
              "Can you suggest a quick dinner?", "How do I keep basil alive?", "What is a good stretch?")
FAILURES_PER_TURN = 2  # the recall search before the model call, the write after it


def dead_url() -> str:
    """A loopback URL nobody listens on: every request is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def _count(counter: Any) -> int:
    count = getattr(counter, "count", None)
    if isinstance(count, bool) or not isinstance(count, int):
        raise Hint(f"the counter's `count` should be an int; it is {count!r}")
    return count


@exercise("12.count_failures", title="count failures with on_error while the server is down")
async def check_count_failures(answer: Any) -> None:
    if not (isinstance(answer, tuple) and len(answer) == 2):
        raise Hint("pass both answers as a pair: check(\"12.count_failures\", (FailureCounter, build_agent))")
    with drawn_cases() as rng:
        await _down_then_up(answer, rng)


async def _down_then_up(answer: tuple[Any, Any], rng: Any) -> None:
    from lesson_utils.memory_server import start_memory_server

    counter_class, build_agent = answer
    turns = rng.randrange(2, 6)
    counts = await _turns(counter_class, build_agent, dead_url(), turns, rng)
    expected = [FAILURES_PER_TURN * turn for turn in range(1, turns + 1)]
    counter = counts.pop()
    if counts[-1] == 0:
        # A callback that raises before counting looks the same from here: call it once.
        await call_learner(counter, _refused(), what="your on_error callback")
        raise Hint(
            "the counter saw no failure: build the CortadelContextProvider for memory_url and pass on_error=counter"
        )
    if counts != expected:
        if counts[-1] == counts[0]:
            raise Hint(
                f"the count stayed at {counts[0]} over {turns} turns: count every failure (add one per call), "
                "not just the first"
            )
        raise Hint(
            f"after each of {turns} turns the count was {counts}, expected {expected}: each turn makes two "
            "Cortadel calls (the recall search and the write of the turn), and on_error is called once per failure"
        )

    # The callback on its own: one call, one more failure counted, and it never raises.
    before = _count(counter)
    await call_learner(counter, _refused(), what="your on_error callback")
    if _count(counter) != before + 1:
        raise Hint("calling the counter once with an error should add exactly one to count")

    # A second counter, and a memory server that is up: nothing failed, so nothing is counted.
    with start_memory_server() as server:
        up = await _turns(counter_class, build_agent, server.url, 1, rng, fresh_hint=(
            "a second FailureCounter started at {count}, what the first one counted: keep the count on the "
            "instance (self.count), not on the class or the module, which every counter shares"))
    if up[0] != 0:
        raise Hint(f"with memory_url pointing at a memory server that is up, {up[0]} failure(s) were counted: build "
                   "the provider for the memory_url you were given, not a URL of your own")


async def _turns(counter_class: Any, build_agent: Any, url: str, turns: int, rng: Any,
                 fresh_hint: str = "a new FailureCounter should start at count 0, not {count}") -> list[Any]:
    """Run ``turns`` turns on a new counter and agent for ``url``: the count after each, then the counter."""
    counter = await call_learner(counter_class, what="`FailureCounter()`")
    if _count(counter) != 0:
        raise Hint(fresh_hint.format(count=_count(counter)))
    agent = await call_learner(build_agent, OfflineChatClient(), url, counter, what="`build_agent`")
    if not isinstance(agent, Agent):
        raise Hint(f"build_agent should return an agent_framework Agent, not {type(agent).__name__}")

    session = agent.create_session()
    counts: list[Any] = []  # the counter after each turn
    try:
        for turn in range(1, turns + 1):
            try:
                reply = await agent.run(rng.choice(SMALL_TALK), session=session)
            except CortadelError as error:
                raise Hint(
                    f"turn {turn} failed with CortadelError ({error.code}): a memory outage must not fail the "
                    "turn — leave raise_on_error off and let on_error observe the failure"
                ) from None
            except Exception as error:  # the learner's setup broke the run some other way
                raise Hint(f"turn {turn} raised {type(error).__name__}: {error}") from None
            if not (reply.text or "").strip():
                raise Hint(f"turn {turn} got no answer; every turn should still be answered")
            counts.append(_count(counter))
    finally:
        for provider in getattr(agent, "context_providers", None) or []:
            close = getattr(provider, "aclose", None)
            if close is not None:
                await close()
    return [*counts, counter]


def _refused() -> CortadelError:
    return CortadelError(0, "transport_error", "connection refused")
