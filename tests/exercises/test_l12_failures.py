"""12.circuit_breaker: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import time
from typing import ClassVar

import pytest

from course_kit.exercises import check


class CircuitOpen(Exception):
    pass


class Solution:
    def __init__(self, client, failures_to_open, open_seconds, clock=time.monotonic):
        self.client, self.failures_to_open, self.open_seconds, self.clock = client, failures_to_open, open_seconds, clock
        self.failures, self.opened_at, self.kept = 0, None, []

    def _open(self):
        return self.opened_at is not None and self.clock() - self.opened_at < self.open_seconds

    async def _call(self, method, *args):
        if self._open():
            raise CircuitOpen("skipped")
        try:
            result = await method(*args)
        except Exception:
            self.failures += 1
            if self.opened_at is not None or self.failures >= self.failures_to_open:
                self.opened_at = self.clock()
            raise
        self.failures, self.opened_at = 0, None
        return result

    async def search(self, query, options=None):
        return await self._call(self.client.search, query, options)

    async def add(self, text, options=None):
        return await self._call(self.client.add, text, options)

    async def add_conversation(self, messages, options=None):
        self.kept.append((messages, options))
        while self.kept:
            result = await self._call(self.client.add_conversation, *self.kept[0])
            self.kept.pop(0)
        return result


class Stub:
    def __init__(self, client, failures_to_open, open_seconds, clock=time.monotonic):
        self.client = client

    async def search(self, query, options=None):
        raise NotImplementedError

    async def add_conversation(self, messages, options=None):
        raise NotImplementedError

    async def add(self, text, options=None):
        raise NotImplementedError


class NeverOpens(Solution):
    def _open(self):
        return False


class NeverCloses(Solution):
    def _open(self):
        return self.opened_at is not None


class CountsEveryFailure(Solution):
    async def _call(self, method, *args):
        if self._open():
            raise CircuitOpen("skipped")
        try:
            result = await method(*args)
        except Exception:
            self.failures += 1  # never reset by a success
            if self.failures >= self.failures_to_open:
                self.opened_at = self.clock()
            raise
        self.opened_at = None
        return result


class OpensForThirtySeconds(Solution):
    def _open(self):
        return self.opened_at is not None and self.clock() - self.opened_at < 30


class OpensAfterThree(Solution):
    def __init__(self, client, failures_to_open, open_seconds, clock=time.monotonic):
        super().__init__(client, 3, open_seconds, clock)


class SharedKeptWrites(Solution):
    kept: ClassVar[list] = []  # one list for every breaker

    def __init__(self, client, failures_to_open, open_seconds, clock=time.monotonic):
        self.client, self.failures_to_open, self.open_seconds, self.clock = client, failures_to_open, open_seconds, clock
        self.failures, self.opened_at = 0, None


class StateOnTheClass(Solution):
    state: ClassVar[dict] = {"failures": 0, "opened_at": None}  # one state for every breaker

    @property
    def failures(self):
        return self.state["failures"]

    @failures.setter
    def failures(self, value):
        self.state["failures"] = value

    @property
    def opened_at(self):
        return self.state["opened_at"]

    @opened_at.setter
    def opened_at(self, value):
        self.state["opened_at"] = value


class DropsWrites(Solution):
    async def add_conversation(self, messages, options=None):
        return await self._call(self.client.add_conversation, messages, options)


class SwallowsKeptWrites(Solution):
    async def add_conversation(self, messages, options=None):
        try:
            return await super().add_conversation(messages, options)
        except Exception:
            return None


class ResendsKept(Solution):
    async def add_conversation(self, messages, options=None):
        self.kept.append((messages, options))
        for kept in list(self.kept):
            result = await self._call(self.client.add_conversation, *kept)
        return result


class OpenReturnsNothing(Solution):
    async def _call(self, method, *args):
        if self._open():
            return None
        return await super()._call(method, *args)


def test_the_solution_passes(capsys):
    assert check("12.circuit_breaker", Solution) is True
    assert "\u2705 12.circuit_breaker" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (Stub, "fill in `search` first"),
        (NeverOpens, "the circuit should open"),
        (NeverCloses, "let one trial call through"),
        (CountsEveryFailure, "not in a row"),
        (OpensForThirtySeconds, "open_seconds"),
        (OpensAfterThree, "failures_to_open"),
        (SharedKeptWrites, "its own kept writes"),
        (StateOnTheClass, "its own state"),
        (DropsWrites, "never reached the server"),
        (SwallowsKeptWrites, "should still raise"),
        (ResendsKept, "send each kept write once"),
        (OpenReturnsNothing, "should raise at once"),
        (Solution(None, 2, 1), "pass the class itself"),
    ],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("12.circuit_breaker", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("12.circuit_breaker", Solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)


class WithoutAdd:
    """Passes calls through but has no `add`: not a MemoryClient."""

    def __init__(self, client, failures_to_open, open_seconds, clock=time.monotonic):
        self.inner = Solution(client, failures_to_open, open_seconds, clock)

    async def search(self, query, options=None):
        return await self.inner.search(query, options)

    async def add_conversation(self, messages, options=None):
        return await self.inner.add_conversation(messages, options)


def test_a_breaker_that_is_not_a_memory_client_gets_a_hint(fails_with):
    fails_with("12.circuit_breaker", WithoutAdd, "refused it: client must implement MemoryClient")
