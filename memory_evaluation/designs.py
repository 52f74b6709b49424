"""Running memory *designs* through the same conversations and questions, and measuring each the same way.

A design is a way to build an agent with memory: the framework's ``MemoryContextProvider``, its
``VectorStoreHistoryProvider``, an agent with memory tools only, the whole history, the Cortadel provider
(:func:`cortadel_designs`: the provider, and the Cortadel memory tools alone, on a memory server you start).
:func:`run_designs` replays each user's past sessions through a design (every user turn is a real
``agent.run``, so background extraction and tool calls happen as they would), then asks each question in a
new session and measures, per design and ability:

- **evidence recall**: every evidence turn of the question is in what the *agent's* model calls were sent
  (most of its content words; a memory may restate "I'm allergic to latex" as "The user is allergic to latex");
  calls a memory provider makes to extract or consolidate do not count;
- **abstention**: on a question with no answer, the reply says it does not know;
- **tokens sent per turn**, **model calls per turn** (the provider's own extraction and consolidation calls
  included), **writes per turn** (calls to a write-like tool plus background extraction calls), all over
  every turn, ingest and questions. A memory *service* extracts on its side: each turn handed to Cortadel
  (``add_conversation``, ``add``) counts as one model call and its text as tokens sent, because a hosted
  Cortadel runs a model for it (the local lesson server distils by rules, so on it that call is free);
- **median ms** of a question turn.

On the offline lesson model, whether a tools-only design searches or writes is its rule-based policy (it
calls tools when asked to remember or recall), not a model's judgement: label figures accordingly.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from agent_framework import (
    Agent,
    AgentSession,
    FileMemoryProvider,
    FileSystemAgentFileStore,
    InMemoryStore,
    MemoryContextProvider,
    MemoryFileStore,
    SlidingWindowStrategy,
    VectorStoreHistoryProvider,
)

from lesson_utils.cortadel import CortadelContextProvider, CortadelMemoryClient, create_memory_tools
from .dataset import Case, Question
from .haystack import slice_cases
from chat_models.memory_prompts import recognise
from chat_models.text import content_stems, token_count
from chat_models.request_reading import record_every_call, tool_calls

__all__ = ["DESIGNS", "Design", "DesignRow", "MeteredService", "cortadel_designs", "design_cases", "design_summary", "design_table", "evidence_in",
           "framework_designs", "run_designs", "says_it_does_not_know", "tokens_sent"]

OWNER_KEY = "user_id"
_WRITE_LIKE = re.compile(r"(?i)write|add|remember|save|store|upsert|insert|replace")
_ABSTAINS = re.compile(r"(?i)\b(?:don't|do not) know\b|\bnot sure\b|\bhaven't told\b|\bno (?:record|memory|information)\b|"
                       r"\bcan't find\b|\bcould not find\b")


def says_it_does_not_know(reply: str) -> bool:
    """Whether ``reply`` abstains ("I don't know", "not sure", "no record of …"): how abstention is scored."""
    return bool(_ABSTAINS.search(reply))


@dataclass(frozen=True)
class Design:
    """How to build one user's agent for a design, and whether the whole history is one conversation."""

    name: str
    make_agent: Callable[[Any, str, Path], Agent]  # (chat client, user id, the user's own folder) -> Agent
    one_conversation: bool = False  # full history: every past session in one AgentSession, each question a copy
    service: MeteredService | None = None  # a memory service the design writes to (its extraction is counted)


@dataclass
class DesignRow:
    """One design × ability: the figures :func:`run_designs` reports."""

    design: str
    ability: str
    questions: int = 0
    recalled: list[bool] = field(default_factory=list)
    abstained: list[bool] = field(default_factory=list)
    question_ms: list[float] = field(default_factory=list)
    turns: int = 0
    tokens: int = 0
    calls: int = 0
    writes: int = 0

    @property
    def evidence_recall(self) -> float | None:
        return sum(self.recalled) / len(self.recalled) if self.recalled else None

    @property
    def abstention(self) -> float | None:
        return sum(self.abstained) / len(self.abstained) if self.abstained else None

    def per_turn(self, total: int) -> float:
        return total / self.turns if self.turns else 0.0

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.question_ms) if self.question_ms else None


def tokens_sent(request: Any) -> int:
    """The tokens one recorded model call was sent: every word and punctuation mark of ``request.render()``.

    Instructions, every message (tool calls and results included) and the tools offered all count: it is what the
    model had to read. The one count behind every tokens figure here; ``token_count`` is a stand-in tokenizer.
    """
    return token_count(request.render())


def evidence_in(sent: str, evidence: str, *, share: float = 0.6) -> bool:
    """Whether most content words of ``evidence`` (at least ``share``) are in ``sent``."""
    wanted = content_stems(evidence)
    return bool(wanted) and len(wanted & content_stems(sent)) >= share * len(wanted)


def _session(agent: Agent, user: str) -> AgentSession:
    session = agent.create_session()
    session.state[OWNER_KEY] = user  # MemoryContextProvider's store finds the user here; others ignore it
    return session


def framework_designs() -> list[Design]:
    """Full history and the framework's three memory designs, each on files in the user's folder."""

    def full_history(client: Any, user: str, folder: Path) -> Agent:
        return Agent(client=client, instructions="You are a helpful assistant.")

    def topic_memory(client: Any, user: str, folder: Path) -> Agent:
        provider = MemoryContextProvider(store=MemoryFileStore(folder, owner_state_key=OWNER_KEY), recent_turns=3,
                                         consolidation_min_sessions=5, consolidation_interval=timedelta(0))
        return Agent(client=client, instructions="You are a helpful assistant.", context_providers=[provider])

    def vector_history(client: Any, user: str, folder: Path) -> Agent:
        from local_memory_server.embedding_client import MiniLMEmbeddingClient

        embedder = MiniLMEmbeddingClient()
        provider = VectorStoreHistoryProvider(
            InMemoryStore(), application_id="designs", collection_name="history", embedding_generator=embedder,
            embedding_options={"dimensions": embedder.dimensions}, include_search_tool=True,
            compaction_strategy=SlidingWindowStrategy(keep_last_groups=4))
        return Agent(client=client, instructions="You are a helpful assistant.", context_providers=[provider])

    def memory_tools_only(client: Any, user: str, folder: Path) -> Agent:
        provider = FileMemoryProvider(FileSystemAgentFileStore(folder), scope=user)
        return Agent(client=client, instructions="You are a helpful assistant.", context_providers=[provider])

    return [Design("full history", full_history, one_conversation=True), Design("MemoryContextProvider", topic_memory),
            Design("VectorStoreHistoryProvider", vector_history), Design("memory tools only", memory_tools_only)]


DESIGNS = [design.name for design in framework_designs()]


class _MeteredClient:
    """A user's Cortadel client that counts the calls that make the service extract, and the text they carry."""

    def __init__(self, inner: CortadelMemoryClient) -> None:
        self.inner = inner
        self.extractions = 0  # add_conversation and add: a hosted service runs a model for each
        self.stored_turns = 0  # add_conversation only: the provider's background write (a tool's add is a tool call)
        self.tokens = 0

    async def search(self, query: str, options: Any = None) -> Any:
        return await self.inner.search(query, options)

    async def add_conversation(self, messages: Sequence[Any], options: Any = None) -> Any:
        self.extractions += 1
        self.stored_turns += 1
        self.tokens += sum(token_count(str(getattr(m, "content", "") or "")) for m in messages)
        return await self.inner.add_conversation(messages, options)

    async def add(self, text: str, options: Any = None) -> Any:
        self.extractions += 1
        self.tokens += token_count(text)
        return await self.inner.add(text, options)


class MeteredService:
    """One metered Cortadel client per user on the server at ``base_url``; :meth:`close` ends a user's client.

    Users are filed under ``namespace`` (``"<namespace>-<user>"``), so two designs on one server never
    read each other's memories.
    """

    def __init__(self, base_url: str, namespace: str) -> None:
        self.base_url, self.namespace = base_url, namespace
        self._clients: dict[str, _MeteredClient] = {}

    def client(self, user: str) -> _MeteredClient:
        if user not in self._clients:
            self._clients[user] = _MeteredClient(CortadelMemoryClient(self.base_url, f"{self.namespace}-{user}"))
        return self._clients[user]

    def costs(self, user: str) -> tuple[int, int, int]:
        """(extraction calls, stored turns, tokens handed over) for ``user`` so far."""
        metered = self._clients.get(user)
        return (metered.extractions, metered.stored_turns, metered.tokens) if metered else (0, 0, 0)

    async def close(self, user: str) -> None:
        metered = self._clients.pop(user, None)
        if metered is not None:
            await metered.inner.aclose()


def cortadel_designs(base_url: str) -> list[Design]:
    """The Cortadel provider (recall before each turn, the turn stored after it) and the Cortadel memory tools alone.

    With tools only, the model decides when to search and what to add. On the offline lesson model that is
    its rule-based policy (it uses the tools when asked to remember or recall), not a judgement: say so.
    """
    recalling, tooled = MeteredService(base_url, "provider"), MeteredService(base_url, "tools")

    def provider(client: Any, user: str, folder: Path) -> Agent:
        memory = CortadelContextProvider(client=recalling.client(user))
        return Agent(client=client, instructions="You are a helpful assistant.", context_providers=[memory])

    def tools_only(client: Any, user: str, folder: Path) -> Agent:
        return Agent(client=client, instructions="You are a helpful assistant.", tools=create_memory_tools(tooled.client(user)))

    return [Design("Cortadel provider", provider, service=recalling),
            Design("Cortadel memory tools only", tools_only, service=tooled)]


def design_cases(split: str = "test", *, users: int = 1, sessions: int | None = None,
                 per_ability: int | None = None, abilities: Sequence[str] | None = None) -> list[Case]:
    """The scorecard's first ``users`` users of ``split``, cut so every design can replay them (:func:`~.haystack.slice_cases`).

    Every design replays every user turn through the model, so a cut keeps a notebook or CI run short; kept
    questions and their evidence are unchanged.
    """
    return slice_cases(split, users=users, sessions=sessions, per_ability=per_ability, abilities=abilities)


def _copy(session: AgentSession) -> AgentSession:
    return AgentSession.from_dict(session.to_dict())


async def run_designs(
    cases: Sequence[Case], designs: Sequence[Design], *, client_factory: Callable[[], Any], folder: str | Path
) -> list[DesignRow]:
    """Replay every case through every design and measure it; one row per design and ability (in order seen)."""
    root = Path(folder)
    rows: dict[tuple[str, str], DesignRow] = {}
    for design in designs:
        for case in cases:
            client = client_factory()
            recorder = record_every_call(client)
            agent = design.make_agent(client, case.user_id, root / _slug(design.name) / _slug(case.user_id))
            turns_by_id = {turn.uuid: turn.content for session in case.sessions for turn in session.turns}
            conversation = _session(agent, case.user_id) if design.one_conversation else None
            service = _ServiceMeter(design.service, case.user_id)
            ingest = _Counter()
            for past in case.sessions:
                session = conversation or _session(agent, case.user_id)
                for turn in past.turns:
                    if turn.role == "user":
                        mark = len(recorder.requests)
                        reply = await agent.run(turn.content, session=session)
                        ingest.add(recorder.requests[mark:], reply)
                        service.charge(ingest)
            ingest_share = ingest.spread(len(case.questions))
            for question in case.questions:
                row = rows.setdefault((design.name, question.ability), DesignRow(design.name, question.ability))
                session = _copy(conversation) if conversation is not None else _session(agent, case.user_id)
                mark = len(recorder.requests)
                started = time.perf_counter()
                reply = await agent.run(question.question, session=session)
                row.question_ms.append((time.perf_counter() - started) * 1000)
                asked = _Counter()
                asked.add(recorder.requests[mark:], reply)
                service.charge(asked)
                _score(row, question, asked, reply.text or "", turns_by_id)
                row.questions += 1
                row.turns += 1 + ingest_share.turns
                row.tokens += asked.tokens + ingest_share.tokens
                row.calls += asked.calls + ingest_share.calls
                row.writes += asked.writes + ingest_share.writes
            if design.service is not None:
                await design.service.close(case.user_id)
    return list(rows.values())


class _ServiceMeter:
    """Charges what a memory service did since the last charge (its extraction calls, writes, tokens) to a counter."""

    def __init__(self, service: MeteredService | None, user: str) -> None:
        self.service, self.user = service, user
        self.seen = (0, 0, 0)

    def charge(self, counter: _Counter) -> None:
        if self.service is None:
            return
        now = self.service.costs(self.user)
        calls, writes, tokens = (a - b for a, b in zip(now, self.seen, strict=True))
        counter.calls, counter.writes, counter.tokens = counter.calls + calls, counter.writes + writes, counter.tokens + tokens
        self.seen = now


@dataclass
class _Counter:
    turns: int = 0
    tokens: int = 0
    calls: int = 0
    writes: int = 0
    sent: list[str] = field(default_factory=list)  # what the agent's own calls were sent

    def add(self, requests: Sequence[Any], reply: Any) -> None:
        self.turns += 1
        for request in requests:
            self.tokens += tokens_sent(request)
            self.calls += 1
            prompt = recognise(request.instructions)
            if prompt is not None:
                self.writes += prompt.kind == "extract"
            else:
                self.sent.append(_context_of(request))
        self.writes += sum(1 for name, _ in tool_calls(reply) if _WRITE_LIKE.search(name))

    def spread(self, over: int) -> _Counter:
        """This ingest's totals shared out over ``over`` questions (so each row carries its users' ingest cost)."""
        n = max(over, 1)
        return _Counter(self.turns // n, self.tokens // n, self.calls // n, self.writes // n)


def _context_of(request: Any) -> str:
    """What a call put in front of the model: instructions, message texts, tool results; not the model's own calls."""
    parts = [request.instructions]
    for message in request.messages:
        for content in message.contents:
            if content.type == "text":
                parts.append(content.text or "")
            elif content.type == "function_result":
                parts.append(str(content.result))
    return "\n".join(parts)


def _score(row: DesignRow, question: Question, asked: _Counter, reply: str, turns_by_id: dict[str, str]) -> None:
    if question.answer is None:
        row.abstained.append(says_it_does_not_know(reply))
        return
    sent = "\n".join(asked.sent).replace(question.question, " ")
    evidence = [turns_by_id[uuid] for uuid in question.evidence if uuid in turns_by_id]
    if evidence:
        row.recalled.append(all(evidence_in(sent, text) for text in evidence))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def design_summary(rows: Sequence[DesignRow]) -> dict[str, DesignRow]:
    """One row per design over all its abilities (``ability="all"``): questions, turns and costs pooled."""
    pooled: dict[str, DesignRow] = {}
    for row in rows:
        total = pooled.setdefault(row.design, DesignRow(row.design, "all"))
        total.questions += row.questions
        total.recalled += row.recalled
        total.abstained += row.abstained
        total.question_ms += row.question_ms
        total.turns += row.turns
        total.tokens += row.tokens
        total.calls += row.calls
        total.writes += row.writes
    return pooled


_COLUMNS = ("design", "ability", "n", "recall (n)", "abstain (n)", "tokens/turn", "calls/turn", "writes/turn",
            "median ms")


def design_table(rows: Sequence[DesignRow]) -> str:
    """The rows as a fixed-width text table, one line per design and ability (``-`` where a figure does not apply).

    ``n`` counts a row's questions; recall and abstention each say how many questions they are a share of
    (recall: the questions with an answer; abstention: those without), since one question is a 0 or a 1.
    """

    def share(value: float | None, out_of: int) -> str:
        return "-" if value is None else f"{value:.2f} (n={out_of})"

    lines = [[row.design, row.ability, str(row.questions), share(row.evidence_recall, len(row.recalled)),
              share(row.abstention, len(row.abstained)),
              f"{row.per_turn(row.tokens):.0f}", f"{row.per_turn(row.calls):.2f}", f"{row.per_turn(row.writes):.2f}",
              "-" if row.median_ms is None else f"{row.median_ms:.0f}"] for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(_COLUMNS, *lines, strict=True)]
    render = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
              for line in [list(_COLUMNS), *lines]]
    return "\n".join([render[0], "-" * len(render[0]), *render[1:]])
