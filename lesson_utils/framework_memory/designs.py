"""Running memory *designs* through the same conversations and questions, and measuring each the same way.

A design is a way to build an agent with memory: the framework's ``MemoryContextProvider``, its
``VectorStoreHistoryProvider``, an agent with memory tools only, the whole history, the Cortadel provider.
:func:`run_designs` replays each user's past sessions through a design (every user turn is a real
``agent.run``, so background extraction and tool calls happen as they would), then asks each question in a
new session and measures, per design and ability:

- **evidence recall**: every evidence turn of the question is in what the *agent's* model calls were sent
  (most of its content words; a memory may restate "I'm allergic to latex" as "The user is allergic to latex");
  calls a memory provider makes to extract or consolidate do not count;
- **abstention**: on a question with no answer, the reply says it does not know;
- **tokens sent per turn**, **model calls per turn** (the provider's own extraction and consolidation calls
  included), **writes per turn** (calls to a write-like tool plus background extraction calls), all over
  every turn, ingest and questions;
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

from ..evaluation.dataset import Case, Question
from ..models.memory_prompts import recognise
from ..models.text import content_stems, token_count
from .reading import record_every_call, tool_calls

__all__ = ["DESIGNS", "Design", "DesignRow", "evidence_in", "framework_designs", "run_designs"]

OWNER_KEY = "user_id"
_WRITE_LIKE = re.compile(r"(?i)write|add|remember|save|store|upsert|insert|replace")
_ABSTAINS = re.compile(r"(?i)\b(?:don't|do not) know\b|\bnot sure\b|\bhaven't told\b|\bno (?:record|memory|information)\b|"
                       r"\bcan't find\b|\bcould not find\b")


@dataclass(frozen=True)
class Design:
    """How to build one user's agent for a design, and whether the whole history is one conversation."""

    name: str
    make_agent: Callable[[Any, str, Path], Agent]  # (chat client, user id, the user's own folder) -> Agent
    one_conversation: bool = False  # full history: every past session in one AgentSession, each question a copy


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
        from .embedding_client import MiniLMEmbeddingClient

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
            ingest = _Counter()
            for past in case.sessions:
                session = conversation or _session(agent, case.user_id)
                for turn in past.turns:
                    if turn.role == "user":
                        mark = len(recorder.requests)
                        reply = await agent.run(turn.content, session=session)
                        ingest.add(recorder.requests[mark:], reply)
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
                _score(row, question, asked, reply.text or "", turns_by_id)
                row.questions += 1
                row.turns += 1 + ingest_share.turns
                row.tokens += asked.tokens + ingest_share.tokens
                row.calls += asked.calls + ingest_share.calls
                row.writes += asked.writes + ingest_share.writes
    return list(rows.values())


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
            self.tokens += token_count(request.render())
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
        row.abstained.append(bool(_ABSTAINS.search(reply)))
        return
    sent = "\n".join(asked.sent).replace(question.question, " ")
    evidence = [turns_by_id[uuid] for uuid in question.evidence if uuid in turns_by_id]
    if evidence:
        row.recalled.append(all(evidence_in(sent, text) for text in evidence))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
