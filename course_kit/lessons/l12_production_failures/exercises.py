"""Lesson 12's exercise: a circuit breaker around the memory client, which loses no write.

Failing open keeps a turn answered, but a down memory server still costs every turn two failed calls.
The learner writes ``CircuitBreakerClient(client, failures_to_open, open_seconds, clock)``, a
``MemoryClient`` that stops calling a server after ``failures_to_open`` failures in a row, lets one trial
call through once ``open_seconds`` have passed on ``clock()`` (half-open), and keeps every write that
failed or was refused, to send it, oldest first and once, when the circuit has closed again.

The check owns the server behind the breaker (:class:`_Server`): down is a real Cortadel client for a URL
nobody listens on; up is a recorder that keeps every write, so it can say which write was lost, sent twice
or filed under the wrong session. The clock is a number the check moves: nothing sleeps. ``K`` and ``N``
are drawn per run, on two breakers with different ones (a hard-coded ``K`` or ``N`` fits at most one), and
two users' breakers run side by side (state on the class or the module leaks from one to the other).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from agent_framework import Agent
from cortadel import ChatMessage, ConversationOptions, ConversationResult, MemoryCreated, SearchOptions, SearchResults

from ...checks.addresses import nobody_listening
from lesson_utils.cortadel import CortadelContextProvider, CortadelMemoryClient
from chat_models.offline import OfflineChatClient
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

QUESTIONS = ("What should I cook tonight?", "Any tips for a rainy day?", "What is a good stretch?",
             "How do I keep basil alive?", "What should I read next?")
STATEMENTS = (
    ("I live in {}.", ("Porto Alegre", "Nairobi", "Kraków", "Osaka", "Valparaíso", "Tromsø", "Hanoi")),
    ("My dog is called {}.", ("Biscuit", "Captain Waffles", "Juno", "Pixel", "Old Tom", "Mochi")),
    ("I play the {}.", ("cello", "bass clarinet", "ukulele", "tabla", "french horn", "banjo")),
    ("My favourite colour is {}.", ("teal", "burnt orange", "lilac", "forest green", "mustard")),
    ("I work as a {}.", ("nurse", "bus driver", "tax adviser", "beekeeper", "sound engineer")),
    ("My sister is called {}.", ("Ingrid", "Mei Ling", "Rosa", "Aoife", "Zanele", "Beatriz")),
    ("I grow {} on my balcony.", ("tomatoes", "chilli peppers", "strawberries", "mint", "sunflowers")),
)


class _Clock:
    """The breaker's clock: seconds that pass only when the check moves them."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class _Server:
    """The memory server behind one breaker: down (connections refused) or up (every write recorded)."""

    def __init__(self, user: str) -> None:
        self.up = False
        self.calls = 0  # calls that reached the server, up or down
        self.writes: list[tuple[list[str], str | None]] = []  # (user texts, session id) of each stored write
        self._down = CortadelMemoryClient(nobody_listening(), user)

    async def _fail(self) -> None:
        """Every other call to a down server hangs until it times out: not every failure is a CortadelError."""
        if self.calls % 2 == 0:
            raise TimeoutError("the memory server did not answer in time")

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        self.calls += 1
        if not self.up:
            await self._fail()
            return await self._down.search(query, options)  # raises CortadelError (connection refused)
        return SearchResults(query=query)

    async def add_conversation(self, messages: Sequence[ChatMessage],
                               options: ConversationOptions | None = None) -> ConversationResult:
        self.calls += 1
        if not self.up:
            await self._fail()
            return await self._down.add_conversation(messages, options)
        said = [m.content for m in messages if m.role == "user"]
        self.writes.append((said, options.session_id if options is not None else None))
        return ConversationResult(results=[])

    async def add(self, text: str, options: Any = None) -> MemoryCreated:
        self.calls += 1
        if not self.up:
            await self._fail()
            return await self._down.add(text, options)
        return MemoryCreated(id=f"m{self.calls}", content=text)

    async def aclose(self) -> None:
        await self._down.aclose()


@exercise("12.circuit_breaker", title="a circuit breaker that stops calling a down memory server, and loses no write")
async def check_circuit_breaker(breaker_class: Any) -> None:
    if not isinstance(breaker_class, type):
        raise Hint("pass the class itself: check(\"12.circuit_breaker\", CircuitBreakerClient)")
    servers: list[_Server] = []
    try:
        with drawn_cases() as rng:
            clock = _Clock(float(rng.randrange(1_000, 1_000_000)))
            # Two breakers made before either is used, with different K and N: a hard-coded K or N fits one at most.
            # N in halves of a second and whole-second clock readings, so "exactly N seconds later" is exact.
            drawn = [(rng.randint(2, 3), rng.randrange(4, 60) / 2), (rng.randint(4, 6), rng.randrange(240, 1800) / 2)]
            pairs = []
            for user, (k, n) in zip(("first", "second"), drawn, strict=True):
                servers.append(_Server(user))
                pairs.append((await _build(breaker_class, servers[-1], k, n, clock), servers[-1], k, n))
            for breaker, server, k, n in pairs:
                await _states(breaker, server, k, n, clock)
            await _turns(breaker_class, rng, clock, servers)
    finally:
        for server in servers:
            await server.aclose()


async def _build(breaker_class: type, server: _Server, k: int, n: float, clock: _Clock) -> Any:
    return await call_learner(breaker_class, server, failures_to_open=k, open_seconds=n, clock=clock,
                              what="`CircuitBreakerClient(client, failures_to_open, open_seconds, clock)`")


async def _search(breaker: Any, server: _Server) -> tuple[bool, bool]:
    """One search through the breaker: (did it reach the server, did it raise)."""
    before = server.calls
    try:
        await breaker.search("anything new?", SearchOptions(top_k=5))
        raised = False
    except NotImplementedError:
        await call_learner(breaker.search, "anything new?", what="`search`")  # says: fill in the stub
        raised = True
    except Exception:  # the server's error, or the open circuit's own
        raised = True
    return server.calls > before, raised


async def _states(breaker: Any, server: _Server, k: int, n: float, clock: _Clock) -> None:
    """Closed → open after K failures in a row → half-open after N seconds → open again or closed."""
    where = f"(failures_to_open={k}, open_seconds={n:g})"
    clock.now = float(math.floor(clock.now) + 1)  # a whole second: opened_at + open_seconds is exact
    server.up = False
    for failure in range(1, k):
        reached, raised = await _search(breaker, server)
        if not reached:
            raise Hint(f"the circuit opened after {failure - 1} failure(s) {where}: it opens after failures_to_open "
                       "failures in a row — read the number you were given, or keep its count on the instance")
        if not raised:
            raise Hint("a call that failed on the server returned normally: let the server's error reach the caller")
    server.up = True
    reached, raised = await _search(breaker, server)
    if not reached or raised:
        raise Hint(f"after {k - 1} failure(s) {where} a call did not reach a server that is up: the circuit opens "
                   f"only after {k} failures in a row")
    server.up = False
    for _ in range(k - 1):
        reached, _raised = await _search(breaker, server)
        if not reached:
            raise Hint(f"the circuit opened on failures that were not in a row {where}: a call that succeeds resets "
                       "the count to 0")
    await _search(breaker, server)  # the K-th failure in a row
    opened = clock.now
    reached, raised = await _search(breaker, server)
    if reached:
        raise Hint(f"after {k} failures in a row {where} the next call still reached the server: the circuit should "
                   "open after failures_to_open failures in a row — and every exception counts (a refused connection, "
                   "a timeout), not only CortadelError")
    if not raised:
        raise Hint("while the circuit is open a call should raise at once (so the provider fails open), not return")
    clock.now = opened + 0.97 * n
    if (await _search(breaker, server))[0]:
        raise Hint(f"the circuit let a call through {0.97 * n:.1f} s after it opened {where}: it stays open for "
                   "open_seconds, read from clock()")
    clock.now = opened + n  # exactly open_seconds later: they have passed
    if not (await _search(breaker, server))[0]:
        clock.now = opened + 1.02 * n + 0.01
        if (await _search(breaker, server))[0]:
            raise Hint(f"exactly open_seconds ({n:g} s) after the circuit opened no call reached the server, though "
                       "one did later: once open_seconds have passed includes exactly then — compare with >=, not >")
        raise Hint(f"{1.02 * n:.1f} s after the circuit opened {where} no call reached the server: once open_seconds "
                   "have passed on clock(), let one trial call through (half-open)")
    if (await _search(breaker, server))[0]:
        raise Hint("the trial call failed, yet the next call reached the server: a failed trial opens the circuit again "
                   "for another open_seconds")
    server.up = True
    clock.now += 1.02 * n + 0.01
    if not (await _search(breaker, server))[0] or not (await _search(breaker, server))[0]:
        raise Hint(f"the server was back and {1.02 * n:.1f} s had passed {where}, yet calls did not reach it: a trial "
                   "that succeeds closes the circuit again")
    server.up = False
    for _ in range(k - 1):
        if not (await _search(breaker, server))[0]:
            raise Hint("the circuit opened again too soon after it closed: closing resets the failure count to 0")
    server.up = True
    await _search(breaker, server)  # leave it closed, count reset


async def _turns(breaker_class: Any, rng: Any, clock: _Clock, servers: list[_Server]) -> None:
    """Two users through the provider: one server down, then back; the other up all along."""
    k, n = rng.randint(2, 6), round(rng.uniform(5, 600), 1)
    down, up = _Server("down-user"), _Server("up-user")
    servers += [down, up]
    up.up = True
    seen: list[Exception] = []
    agent_down = await _agent(await _build(breaker_class, down, k, n, clock), seen)
    agent_up = await _agent(await _build(breaker_class, up, k, n, clock), [])
    templates = rng.sample(STATEMENTS, len(STATEMENTS))
    said = [template.format(rng.choice(values)) for template, values in templates]
    outage_turns = math.ceil(k / 2) + 2  # each turn is a search and a write: the circuit opens part-way
    session = agent_down.create_session()
    for turn in range(outage_turns):
        await _answered(agent_down, said[turn], session)
    await _answered(agent_up, said[-1], agent_up.create_session())  # the other user, meanwhile
    if up.calls != 2 or [texts for texts, _ in up.writes] != [[said[-1]]]:
        raise Hint(f"the other user's breaker, whose server was up, made {up.calls} call(s) and wrote "
                   f"{[texts for texts, _ in up.writes]}: each breaker has its own state and its own kept writes — "
                   "keep them on the instance, not on the class or the module")
    if down.calls > k:
        raise Hint(f"{down.calls} calls reached the down server over {outage_turns} turns (failures_to_open={k}): "
                   "once the circuit is open, a turn should cost the server no call")
    if len(seen) != 2 * outage_turns:
        raise Hint(f"on_error saw {len(seen)} failures over {outage_turns} turns, not {2 * outage_turns}: a call the "
                   "circuit refuses, and a write it keeps, should still raise so the provider reports it")

    down.up = True
    clock.now += 1.02 * n + 0.01
    back = agent_down.create_session()
    await _answered(agent_down, said[outage_turns], back)
    expected = [([text], session.session_id) for text in said[:outage_turns]] + [([said[outage_turns]], back.session_id)]
    _same_writes(down.writes, expected)
    await _answered(agent_down, rng.choice(QUESTIONS), back)
    if len(down.writes) != len(expected) + 1 or said[0] in down.writes[-1][0]:
        raise Hint("the turn after the server came back wrote the kept turns again: send each kept write once, then "
                   "forget it")


def _same_writes(got: list[tuple[list[str], str | None]], expected: list[tuple[list[str], str]]) -> None:
    texts = [text for texts, _ in got for text in texts]
    for (wanted, _), index in zip(expected, range(len(expected)), strict=True):
        if wanted[0] not in texts:
            raise Hint(f"turn {index + 1}'s words ({wanted[0]!r}) never reached the server once it was back: keep a "
                       "write that failed or was refused, and send it when the circuit has closed again")
    if len(texts) != len(set(texts)):
        raise Hint("a kept write reached the server twice: send each kept write once, then forget it")
    if texts != [text for texts, _ in expected for text in texts]:
        raise Hint("the kept writes reached the server out of order: send them oldest first, then the new one")
    if got != expected:
        raise Hint("a kept write was sent with other options than its own (its session_id): keep each write's "
                   "messages and options together, and send them as they were")


async def _agent(breaker: Any, seen: list[Exception]) -> Agent:
    try:
        memory = CortadelContextProvider(client=breaker, on_error=seen.append)
    except ValueError as error:  # not a MemoryClient: a call is missing
        raise Hint(f"CortadelContextProvider(client=your breaker) refused it: {error}") from None
    return Agent(client=OfflineChatClient(), instructions="You are a helpful assistant.", context_providers=[memory])


async def _answered(agent: Agent, text: str, session: Any) -> None:
    try:
        reply = await agent.run(text, session=session)
    except NotImplementedError:
        raise Hint("fill in `add_conversation` first: it still raises NotImplementedError") from None
    except Exception as error:  # the breaker broke the turn
        raise Hint(f"a turn raised {type(error).__name__}: {error} — a memory outage must not fail the turn") from None
    if not (reply.text or "").strip():
        raise Hint("a turn got no answer; every turn should still be answered")
