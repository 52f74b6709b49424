"""Wrong answers to 12.count_failures, written from the exercise text only (issue 21, item 1).

Each pair (FailureCounter, build_agent) counts 2, 4, 6 on the lesson's three turns against a dead URL, or
looks as if it would. Each breaks one rule: count the failures handed to *this* counter, report every
failure of the memory for "sam" at `memory_url`, and still answer every turn.
"""

from __future__ import annotations

from agent_framework import Agent

from lesson_utils import CortadelContextProvider

INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."


class FailureCounter:
    """A correct counter, shared by the answers whose mistake is in build_agent."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: Exception) -> None:
        self.count += 1


def build_agent(chat_client, memory_url, counter):
    """A correct build_agent, shared by the answers whose mistake is in the counter."""
    memory = CortadelContextProvider(memory_url, "sam", on_error=counter)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


class ClassLevelCounter:
    """Counts on the class: every counter ever made shares one number."""

    count = 0

    def __call__(self, error: Exception) -> None:
        ClassLevelCounter.count += 1


_FAILURES = 0


class ModuleLevelCounter:
    """Counts in a module-level global and reports it through a property: shared by every counter."""

    @property
    def count(self) -> int:
        return _FAILURES

    def __call__(self, error: Exception) -> None:
        global _FAILURES
        _FAILURES += 1


def ignores_memory_url(chat_client, memory_url, counter):
    """Points the provider at a dead port of its own, ignoring `memory_url` (it is down in the task anyway)."""
    memory = CortadelContextProvider("http://127.0.0.1:9", "sam", on_error=counter)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


def ignores_counter(chat_client, memory_url, counter):
    """Builds its own FailureCounter instead of reporting to the `counter` it is given."""
    memory = CortadelContextProvider(memory_url, "sam", on_error=FailureCounter())
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


def raises_on_error(chat_client, memory_url, counter):
    """Sets raise_on_error=True as well "so nothing is missed": the turn fails instead of answering."""
    memory = CortadelContextProvider(memory_url, "sam", on_error=counter, raise_on_error=True)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


def background_writes(chat_client, memory_url, counter):
    """Takes the write off the turn (await_persist=False): the write's failure is counted late, after the turn."""
    memory = CortadelContextProvider(memory_url, "sam", on_error=counter, await_persist=False)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


class CountsDistinctErrors:
    """Counts distinct error messages: the same failure on every turn is counted once."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    @property
    def count(self) -> int:
        return len(self.seen)

    def __call__(self, error: Exception) -> None:
        self.seen.add(f"{type(error).__name__}: {error}")


WRONG = [
    ("12.count_failures", (ClassLevelCounter, build_agent), "count kept on the class"),
    ("12.count_failures", (ModuleLevelCounter, build_agent), "count kept in a module global"),
    ("12.count_failures", (FailureCounter, ignores_memory_url), "ignores memory_url"),
    ("12.count_failures", (FailureCounter, ignores_counter), "ignores the counter given"),
    ("12.count_failures", (FailureCounter, raises_on_error), "raise_on_error=True: turns fail"),
    ("12.count_failures", (FailureCounter, background_writes), "await_persist=False: write failures counted late"),
    ("12.count_failures", (CountsDistinctErrors, build_agent), "counts distinct error messages"),
]
