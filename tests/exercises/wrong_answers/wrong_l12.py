"""Wrong answers to 12.circuit_breaker, written from the exercise text only.

Each breaker passes calls through while the server is up, opens after some failures and fails fast while
open, and breaks one rule: open after K failures *in a row* (a success resets the count), refuse every call
for open_seconds on ``clock()``, let one trial through after that (a failed trial reopens for another
open_seconds), keep every failed or refused ``add_conversation`` and send the kept writes once each, oldest
first, before the next write once closed, and keep all of that per breaker.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import time


class CircuitOpen(Exception):
    """The circuit is open: the call was refused without reaching the memory server."""


class _Breaker:
    """The shared skeleton each wrong answer below changes in one place."""

    def __init__(self, client, failures_to_open: int, open_seconds: float, clock=time.monotonic) -> None:
        self.client = client
        self.failures_to_open = failures_to_open
        self.open_seconds = open_seconds
        self.clock = clock
        self.failures = 0
        self.opened_at = None
        self.pending = []

    def _now(self):
        return self.clock()

    def _allowed(self) -> bool:
        if self.opened_at is None:
            return True
        return self._now() - self.opened_at >= self.open_seconds

    def _should_open(self) -> bool:
        return self.failures >= self.failures_to_open

    def _on_success(self) -> None:
        self.failures = 0
        self.opened_at = None

    def _on_failure(self) -> None:
        if self.opened_at is not None:  # the half-open trial failed
            self.opened_at = self._now()
            return
        self.failures += 1
        if self._should_open():
            self.opened_at = self._now()

    def _keep(self, messages, options) -> None:
        self.pending.append((list(messages), options))

    def _keep_refused(self, messages, options) -> None:
        self._keep(messages, options)

    async def _flush(self) -> None:
        while self.pending:
            messages, options = self.pending[0]
            await self.client.add_conversation(messages, options)
            self.pending.pop(0)

    async def _call(self, method, *args):
        if not self._allowed():
            raise CircuitOpen("memory server circuit is open")
        try:
            result = await method(*args)
        except Exception:
            self._on_failure()
            raise
        self._on_success()
        return result

    async def search(self, query, options=None):
        return await self._call(self.client.search, query, options)

    async def add(self, text, options=None):
        return await self._call(self.client.add, text, options)

    async def add_conversation(self, messages, options=None):
        if not self._allowed():
            self._keep_refused(messages, options)
            raise CircuitOpen("memory server circuit is open; write kept")
        try:
            await self._flush()
            result = await self.client.add_conversation(messages, options)
        except Exception:
            self._on_failure()
            self._keep(messages, options)
            raise
        self._on_success()
        return result


class TotalFailuresBreaker(_Breaker):
    """A success does not reset the count: K failures spread over many good calls open the circuit."""

    def _on_success(self) -> None:
        self.opened_at = None


class OpensOneLateBreaker(_Breaker):
    """Opens when failures > failures_to_open: it takes K + 1 failures in a row, one too many."""

    def _should_open(self) -> bool:
        return self.failures > self.failures_to_open


class WallClockBreaker(_Breaker):
    """Reads time.monotonic() instead of the clock it was given: the caller's clock never half-opens it."""

    def _now(self):
        return time.monotonic()


class FailedTrialClosesBreaker(_Breaker):
    """A failed half-open trial closes the circuit with one failure counted: K more calls reach the down server."""

    def _on_failure(self) -> None:
        if self.opened_at is not None:
            self.opened_at = None
            self.failures = 1
            return
        super()._on_failure()


class RefusedWritesDroppedBreaker(_Breaker):
    """Keeps writes that failed at the server, but drops the ones refused while the circuit is open."""

    def _keep_refused(self, messages, options) -> None:
        pass


class NewestFirstBreaker(_Breaker):
    """Sends the kept writes newest first once the circuit closes."""

    async def _flush(self) -> None:
        while self.pending:
            messages, options = self.pending[-1]
            await self.client.add_conversation(messages, options)
            self.pending.pop()


class ResendsKeptWritesBreaker(_Breaker):
    """Sends the kept writes but never clears them: every later write sends them all again."""

    async def _flush(self) -> None:
        for messages, options in list(self.pending):
            await self.client.add_conversation(messages, options)


class ClassLevelPendingBreaker(_Breaker):
    """The kept writes live on the class: one user's kept writes are sent through another user's client."""

    pending: list = []  # noqa: RUF012 - the mistake this wrong answer makes

    def __init__(self, client, failures_to_open: int, open_seconds: float, clock=time.monotonic) -> None:
        super().__init__(client, failures_to_open, open_seconds, clock)
        del self.pending  # fall back to the class attribute


WRONG = [
    ("12.circuit_breaker", TotalFailuresBreaker, "counts non-consecutive failures"),
    ("12.circuit_breaker", OpensOneLateBreaker, "opens after K+1 failures (> instead of >=)"),
    ("12.circuit_breaker", WallClockBreaker, "ignores the given clock"),
    ("12.circuit_breaker", FailedTrialClosesBreaker, "failed trial does not reopen"),
    ("12.circuit_breaker", RefusedWritesDroppedBreaker, "writes refused while open are lost"),
    ("12.circuit_breaker", NewestFirstBreaker, "kept writes sent newest first"),
    ("12.circuit_breaker", ResendsKeptWritesBreaker, "kept writes sent more than once"),
    ("12.circuit_breaker", ClassLevelPendingBreaker, "kept writes shared between breakers"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


class StrictlyAfterOpenSecondsBreaker(_Breaker):
    """Half-opens only when more than open_seconds have passed (>), not once they have (>=)."""

    def _allowed(self) -> bool:
        if self.opened_at is None:
            return True
        return self._now() - self.opened_at > self.open_seconds


class OpensOneEarlyBreaker(_Breaker):
    """Opens at failures_to_open - 1 failures in a row (the count is compared before this failure is added)."""

    def _should_open(self) -> bool:
        return self.failures >= self.failures_to_open - 1


class CortadelErrorsOnlyBreaker(_Breaker):
    """Counts only CortadelError (what the lesson's outages raised) as a failure; any other exception passes uncounted."""

    async def _call(self, method, *args):
        from cortadel import CortadelError

        if not self._allowed():
            raise CircuitOpen("memory server circuit is open")
        try:
            result = await method(*args)
        except CortadelError:
            self._on_failure()
            raise
        self._on_success()
        return result

    async def add_conversation(self, messages, options=None):
        from cortadel import CortadelError

        if not self._allowed():
            self._keep_refused(messages, options)
            raise CircuitOpen("memory server circuit is open; write kept")
        try:
            await self._flush()
            result = await self.client.add_conversation(messages, options)
        except CortadelError:
            self._on_failure()
            self._keep(messages, options)
            raise
        self._on_success()
        return result


class ClassLevelCircuitStateBreaker(_Breaker):
    """Keeps the failure count and the opening time in a dict on the class: one user's outage opens every breaker."""

    state = {"failures": 0, "opened_at": None}  # noqa: RUF012 - the mistake: shared by every breaker

    def _allowed(self) -> bool:
        if self.state["opened_at"] is None:
            return True
        return self._now() - self.state["opened_at"] >= self.open_seconds

    def _should_open(self) -> bool:
        return self.state["failures"] >= self.failures_to_open

    def _on_success(self) -> None:
        self.state["failures"] = 0
        self.state["opened_at"] = None

    def _on_failure(self) -> None:
        if self.state["opened_at"] is not None:  # the half-open trial failed
            self.state["opened_at"] = self._now()
            return
        self.state["failures"] += 1
        if self._should_open():
            self.state["opened_at"] = self._now()


NEW_FROM_TEXT = [
    ("12.circuit_breaker", StrictlyAfterOpenSecondsBreaker, "half-opens only after more than open_seconds (> not >=)"),
    ("12.circuit_breaker", OpensOneEarlyBreaker, "opens after failures_to_open - 1 failures (off by one)"),
    ("12.circuit_breaker", CortadelErrorsOnlyBreaker, "only CortadelError counts as a failure (the lesson's errors)"),
    ("12.circuit_breaker", ClassLevelCircuitStateBreaker, "failure count and opened_at in a dict on the class"),
]
WRONG += NEW_FROM_TEXT
