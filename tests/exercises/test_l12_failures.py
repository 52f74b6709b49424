"""12.count_failures: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from lesson_utils import CortadelContextProvider
from lesson_utils.exercises import check

INSTRUCTIONS = "You are a helpful assistant."


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: Exception) -> None:
        self.count += 1


def solution(chat_client, memory_url, counter):
    memory = CortadelContextProvider(memory_url, "sam", on_error=counter)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


class StubCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: Exception) -> None:
        raise NotImplementedError


def stub_agent(chat_client, memory_url, counter):
    raise NotImplementedError


class CountsOnce:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: Exception) -> None:
        self.count = 1


class Raises:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: Exception) -> None:
        self.count += 1
        raise RuntimeError("stop the world")


class RaisesFirst:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, error: Exception) -> None:
        raise RuntimeError(f"memory down: {error}")


def strict(chat_client, memory_url, counter):
    memory = CortadelContextProvider(memory_url, "sam", on_error=counter, raise_on_error=True)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


def not_wired(chat_client, memory_url, counter):
    memory = CortadelContextProvider(memory_url, "sam")  # failures only logged
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


def read_only(chat_client, memory_url, counter):
    memory = CortadelContextProvider(memory_url, "sam", on_error=counter, store_turns=False)
    return Agent(client=chat_client, instructions=INSTRUCTIONS, context_providers=[memory])


def test_the_solution_passes(capsys):
    assert check("12.count_failures", (Counter, solution)) is True
    assert "\u2705 12.count_failures" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        ((StubCounter, stub_agent), "fill in `build_agent` first"),
        ((StubCounter, solution), "fill in your on_error callback first"),
        ((Counter, strict), "failed with CortadelError"),
        ((CountsOnce, solution), "count every failure"),
        ((Raises, solution), "your on_error callback raised RuntimeError"),
        ((RaisesFirst, solution), "your on_error callback raised RuntimeError"),
        ((Counter, not_wired), "pass on_error=counter"),
        ((Counter, read_only), "each turn makes two Cortadel calls"),
        (solution, "pass both answers as a pair"),
    ],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("12.count_failures", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("12.count_failures", (Counter, solution))


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
