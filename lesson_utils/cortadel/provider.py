"""``CortadelContextProvider``: long-term memory on the framework's own context-provider seam.

``before_run`` searches Cortadel with the turn's input and injects what it recalls (a user-role
context message, or instructions); ``after_run`` hands the finished turn to Cortadel's
``add_conversation`` pipeline, which distils durable facts out of it. Per-session state (the ids
already injected) lives in ``session.state[source_id]``, so one provider serves many sessions
and the state survives ``AgentSession.to_dict()`` / ``from_dict()``.

A provider is bound to one user — its client is — so build one per end user and never share it.
Every Cortadel failure fails open through the shared :class:`FailureReporter`.

The two hooks are written to be read on one screen (lesson 08 shows them); the rules they apply
live beside them in :mod:`.guards`, each named for the failure it prevents (lesson 07 builds a
minimal provider and watches each failure happen before fixing it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Literal

from agent_framework import AgentSession, ContextProvider, FunctionTool, Message, SessionContext
from cortadel import ChatMessage, ConversationOptions, SearchHit, SearchOptions

from .client import APP_NAME, DEFAULT_TIMEOUT, CortadelMemoryClient, MemoryClient
from .errors import ErrorCallback, FailureReporter
from .gating import RecallPolicy
from .guards import INJECTED_IDS_KEY, fresh_hits, ingestible, is_injected, remember_injected, turn_failed
from .limits import MAX_QUERY_CHARS, batch_messages, build_query, fit_messages
from .query_rewriting import QueryRewriter, follow_up_query, recent_turns, remember_turn, rewrite
from .rendering import DEFAULT_CONTEXT_PROMPT, render_memories
from .tools import MAX_TOP_K, MIN_TOP_K, build_memory_tools

__all__ = ["CortadelContextProvider", "DEFAULT_SOURCE_ID", "INJECTED_IDS_KEY", "MAX_QUERY_CHARS"]

DEFAULT_SOURCE_ID = "cortadel"
_SEARCH_MODES = ("hybrid", "text", "vector")
_RERANKERS = ("cross_encoder",)
_MEMORY_TYPES = ("episodic", "semantic", "procedural")


def cortadel_session_id(session: AgentSession) -> str:
    """The id turns are filed under: the service's conversation id when the service keeps the
    history, otherwise the framework's own ``session.session_id``."""
    service_id = session.service_session_id
    if isinstance(service_id, str) and service_id.strip():
        return service_id
    return session.session_id


class CortadelContextProvider(ContextProvider):
    """Recall before every model call, persist after every successful turn.

    Either pass ``client`` (any :class:`MemoryClient`; you own its lifetime) or ``base_url`` +
    ``user_id`` (the provider builds a :class:`CortadelMemoryClient` and closes it in
    :meth:`aclose`). Use ``async with`` or call :meth:`aclose` — the framework never disposes a
    provider, and closing is what drains background writes (``await_persist=False``).

    Options mirror Cortadel.AgentFramework's (``ThrowOnError`` → ``raise_on_error``,
    ``StateKeyPrefix`` → ``source_id``), with the same defaults:

    Args:
        base_url, user_id, api_key, app_name: build (and own) an SDK client for one user;
            ``app_name`` labels searches in Cortadel's access log.
        timeout: seconds each Cortadel request may take when the provider builds the client
            (default 30, well under the SDK's 100: recall sits on every turn's request path). A
            request that times out fails open like any other failure. Not allowed with ``client=``
            — set it on the client you build.
        client: a ready :class:`MemoryClient` instead; you own its lifetime.
        source_id: key in ``session.state`` and on injected messages; distinct per provider.
        top_k: memories recalled per turn, 1–50 (default 5: this runs on every turn).
        search_mode: ``"hybrid"``, ``"text"`` or ``"vector"``.
        rerank: ``"cross_encoder"`` to rerank server-side, or ``None``.
        memory_type: restrict recall to ``"episodic"``, ``"semantic"`` or ``"procedural"``.
        context_prompt: header above the recalled lines.
        inject_as: ``"message"`` (a user-role context message) or ``"instructions"``.
        scope_recall_to_session: recall only what was stored under this session.
        deduplicate_across_turns: skip memories already injected in this session.
        max_remembered_ids: cap on remembered ids per session; 0 remembers none.
        store_turns: persist each completed turn (``False`` for a read-only agent). A turn over
            Cortadel's limits is still stored whole: a message over 50,000 characters goes as
            consecutive pieces (same role and uuid), more than 500 messages as several calls.
        await_persist: await the write inside the turn; ``False`` writes in the background
            and :meth:`aclose` drains it.
        is_agent_memory, tags, project: forwarded with every stored turn.
        include_memory_tools: also hand ``search_memory`` / ``add_memories`` to each run.
        raise_on_error, on_error, logger: failure handling, shared with the tools.
        gate, min_relevance, min_score, token_budget: recall gating and abstention (off by
            default; see :mod:`~lesson_utils.cortadel.gating`): skip the search for phatic turns,
            drop hits whose ``attributes["relevance"]`` is under a probability floor (e.g.
            ``RELEVANCE_FLOOR``; hits without it are judged by the fused-score floor, logged once),
            drop hits under a fused-score floor, cap the recalled tokens.
        rewrite_query: build the search query from this session's recent user turns, not this
            turn's words alone (off by default, as in the seed). ``True`` uses the offline rule
            (:func:`~lesson_utils.cortadel.query_rewriting.follow_up_query`: a turn that refers
            back is searched with the turn it leans on); or pass a function ``(recent_turns,
            turn) -> query``, sync or async (a model call, say). A rewriter that fails is
            reported and the turn's own words are searched.
    """

    def __init__(
        self,
        base_url: str | None = None,
        user_id: str | None = None,
        *,
        api_key: str | None = None,
        app_name: str = APP_NAME,
        timeout: float | None = None,
        client: MemoryClient | None = None,
        source_id: str = DEFAULT_SOURCE_ID,
        top_k: int = 5,
        search_mode: str = "hybrid",
        rerank: str | None = None,
        memory_type: str | None = None,
        context_prompt: str = DEFAULT_CONTEXT_PROMPT,
        inject_as: Literal["message", "instructions"] = "message",
        scope_recall_to_session: bool = False,
        deduplicate_across_turns: bool = True,
        max_remembered_ids: int = 256,
        store_turns: bool = True,
        await_persist: bool = True,
        is_agent_memory: bool = False,
        tags: Sequence[str] | None = None,
        project: str | None = None,
        include_memory_tools: bool = False,
        raise_on_error: bool = False,
        on_error: ErrorCallback | None = None,
        logger: logging.Logger | None = None,
        gate: bool = False,
        min_score: float | None = None,
        token_budget: int | None = None,
        min_relevance: float | None = None,
        rewrite_query: bool | QueryRewriter = False,
    ) -> None:
        if not isinstance(source_id, str) or not source_id.strip():
            raise ValueError("source_id must be a non-blank string.")
        super().__init__(source_id)
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not MIN_TOP_K <= top_k <= MAX_TOP_K:
            raise ValueError(f"top_k must be an integer from {MIN_TOP_K} to {MAX_TOP_K} (Cortadel's range), got {top_k!r}.")
        if isinstance(max_remembered_ids, bool) or not isinstance(max_remembered_ids, int) or max_remembered_ids < 0:
            raise ValueError(f"max_remembered_ids must be an integer >= 0, got {max_remembered_ids!r}.")
        if search_mode not in _SEARCH_MODES:
            raise ValueError(f"search_mode must be one of {', '.join(_SEARCH_MODES)}; got {search_mode!r}.")
        if rerank is not None and rerank not in _RERANKERS:
            raise ValueError(f"rerank must be None or 'cross_encoder' (the only reranker Cortadel accepts); got {rerank!r}.")
        if memory_type is not None and memory_type not in _MEMORY_TYPES:
            raise ValueError(f"memory_type must be None or one of {', '.join(_MEMORY_TYPES)}; got {memory_type!r}.")
        if inject_as not in ("message", "instructions"):
            raise ValueError(f"inject_as must be 'message' or 'instructions'; got {inject_as!r}.")
        if not isinstance(context_prompt, str):
            raise TypeError("context_prompt must be a string.")
        if tags is not None and (isinstance(tags, str) or not all(isinstance(t, str) for t in tags)):
            raise ValueError("tags must be a sequence of strings (e.g. ['work']), not a single string.")
        if not isinstance(rewrite_query, bool) and not callable(rewrite_query):
            raise ValueError(f"rewrite_query must be True, False or a function (recent_turns, turn) -> query; got {rewrite_query!r}.")
        recall_policy = RecallPolicy(  # validates
            gate=gate, min_score=min_score, token_budget=token_budget, min_relevance=min_relevance
        )

        if client is not None:
            if base_url is not None or user_id is not None or api_key is not None or timeout is not None:
                raise ValueError("Pass either client= or base_url + user_id (+ api_key, timeout), not both.")
            if not isinstance(client, MemoryClient):
                raise ValueError(
                    f"client must implement MemoryClient (async search / add_conversation / add), got {type(client).__name__}."
                )
            self._client: MemoryClient = client
            self._owned_client: CortadelMemoryClient | None = None
        else:
            if not base_url or not base_url.strip() or not user_id or not user_id.strip():
                raise ValueError(
                    "CortadelContextProvider needs either client= or both base_url and user_id "
                    "(a provider reads and writes exactly one user's memories)."
                )
            self._owned_client = CortadelMemoryClient(
                base_url, user_id, api_key=api_key, app_name=app_name,
                timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
            )
            self._client = self._owned_client

        self.user_id = user_id
        self.top_k = top_k
        self.search_mode = search_mode
        self.rerank = rerank
        self.memory_type = memory_type
        self.context_prompt = context_prompt
        self.inject_as = inject_as
        self.scope_recall_to_session = bool(scope_recall_to_session)
        self.deduplicate_across_turns = bool(deduplicate_across_turns)
        self.max_remembered_ids = max_remembered_ids
        self.store_turns = bool(store_turns)
        self.await_persist = bool(await_persist)
        self.is_agent_memory = bool(is_agent_memory)
        self.tags = list(tags) if tags is not None else None
        self.project = project
        self.recall_policy = recall_policy
        self.rewrite_query: QueryRewriter | None = follow_up_query if rewrite_query is True else (rewrite_query or None)
        self._reporter = FailureReporter(raise_on_error=raise_on_error, on_error=on_error, logger=logger)
        # Built once: a FunctionTool is stateless, and the provider forwards only its error
        # handling to the tools — the rest keep the tools' own defaults.
        self._tools: list[FunctionTool] = (
            build_memory_tools(self._client, reporter=self._reporter) if include_memory_tools else []
        )
        self._pending: set[asyncio.Task[None]] = set()
        self._closed = False

    # ── public surface ────────────────────────────────────────────────────────────────────

    @property
    def client(self) -> MemoryClient:
        """The memory client this provider talks through."""
        return self._client

    @property
    def tools(self) -> list[FunctionTool]:
        """The memory tools handed to each run (empty unless ``include_memory_tools=True``)."""
        return list(self._tools)

    @property
    def raise_on_error(self) -> bool:
        return self._reporter.raise_on_error

    @property
    def pending_writes(self) -> int:
        """Background writes still in flight (``await_persist=False``)."""
        return len(self._pending)

    async def aclose(self) -> None:
        """Drain background writes, then close the client — only if this provider built it."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)
        if self._owned_client is not None and not self._closed:
            self._closed = True
            await self._owned_client.aclose()

    async def __aenter__(self) -> CortadelContextProvider:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # ── the two hooks: read these first ───────────────────────────────────────────────────
    # Each failure mode of lesson 07 is one named call: recall fails open (``_recall``), recall is
    # deduplicated by id (``fresh_hits`` / ``remember_injected``), a failed turn is not stored
    # (``turn_failed``), and injected context is never stored back (``ingestible``).

    async def before_run(
        self, *, agent: Any, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        """Recall: search with the turn's own input, inject what this session has not seen yet."""
        self._check_unique_source_id(agent)
        if self._tools:
            context.extend_tools(self.source_id, self._tools)
        query = self._query(context.input_messages)
        if not query or not self.recall_policy.should_search(query):
            return
        if self.rewrite_query is not None:  # off by default: the seed searches with this turn's words only
            query = await self._rewritten(self.rewrite_query, query, state)
        hits = await self._recall(query, session)  # fail open: [] when Cortadel fails
        if self.deduplicate_across_turns:
            hits = fresh_hits(hits, state)  # not the same memories every turn
        block = render_memories(hits, self.context_prompt)
        if block is None:
            return
        self._inject(context, block)
        if self.deduplicate_across_turns:
            remember_injected(hits, state, cap=self.max_remembered_ids)  # ids in session.state, capped

    async def after_run(
        self, *, agent: Any, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        """Persist: hand the finished turn's own words to Cortadel's ``add_conversation``."""
        response = context.response
        if not self.store_turns or response is None or turn_failed(response):  # a failed turn is not stored
            return
        turn = fit_messages(ingestible([*context.input_messages, *response.messages]))  # no feedback loop
        if not turn:
            return
        options = ConversationOptions(
            is_agent_memory=self.is_agent_memory,
            tags=list(self.tags) if self.tags else None,
            project=self.project,
            session_id=cortadel_session_id(session),
        )
        if self.await_persist:
            await self._persist(turn, options, can_raise=True)  # fail open, unless raise_on_error
        else:
            self._persist_in_background(turn, options)

    # ── recall, in detail ───────────────────────────────────────────────────────────────────

    async def _recall(self, query: str, session: AgentSession) -> list[SearchHit]:
        """Search Cortadel; any failure is reported and recalls nothing (fail open)."""
        options = SearchOptions(
            top_k=self.top_k,
            mode=self.search_mode,
            session_id=cortadel_session_id(session) if self.scope_recall_to_session else None,
            rerank=self.rerank,
            memory_type=self.memory_type,
        )
        try:
            results = await self._client.search(query, options)
            return self.recall_policy.select(results.results or [])  # a client that returns garbage fails here, open
        except Exception as error:
            self._reporter.report(error, "search")
            return []

    async def _rewritten(self, rewriter: QueryRewriter, turn: str, state: dict[str, Any]) -> str:
        """The query built from this session's recent turns and this one (which it then remembers);
        a rewriter that fails is reported, and the turn's own words are searched."""
        try:
            query = await rewrite(rewriter, recent_turns(state), turn)
        except Exception as error:
            self._reporter.report(error, "rewrite_query")
            query = turn
        remember_turn(state, turn)
        return query

    def _inject(self, context: SessionContext, block: str) -> None:
        if self.inject_as == "instructions":
            context.extend_instructions(self.source_id, block)
        else:
            context.extend_messages(self, [Message(role="user", contents=[block])])

    def _check_unique_source_id(self, agent: Any) -> None:
        providers = getattr(agent, "context_providers", None) or []
        clashing = [p for p in providers if getattr(p, "source_id", None) == self.source_id]
        if len(clashing) > 1:
            names = ", ".join(type(p).__name__ for p in clashing)
            raise ValueError(
                f"{len(clashing)} context providers on this agent share source_id {self.source_id!r} ({names}); "
                "they would silently share one session.state slot. Give each CortadelContextProvider its own "
                "source_id=..."
            )

    @staticmethod
    def _query(messages: Sequence[Message]) -> str:
        """The caller's own user text for this turn, within Cortadel's 5,000-character query limit.

        All of it when it fits; otherwise the newest user messages that fit whole, or the start of
        the newest one when it alone is too long (:func:`~lesson_utils.cortadel.limits.build_query`).
        Only recall is shortened: the turn is still stored in full.
        """
        return build_query([m.text for m in messages if m.role == "user" and not is_injected(m) and m.text])

    # ── persist, in detail ──────────────────────────────────────────────────────────────────

    def _persist_in_background(self, turn: list[ChatMessage], options: ConversationOptions) -> None:
        """``await_persist=False``: write off the turn's path; :meth:`aclose` drains it."""
        task = asyncio.create_task(self._persist(turn, options, can_raise=False), name=f"{self.source_id}-persist")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _persist(self, turn: list[ChatMessage], options: ConversationOptions, *, can_raise: bool) -> None:
        """Send the turn in calls of at most 500 messages, in order.

        Every batch is attempted even when an earlier one fails, so one bad batch loses only
        itself. Each failure is reported; with ``raise_on_error`` the last one is raised once all
        batches have been tried.
        """
        failures: list[Exception] = []
        for batch in batch_messages(turn):
            try:
                await self._client.add_conversation(batch, options)
            except Exception as error:
                failures.append(error)
        for i, failure in enumerate(failures):
            last = i == len(failures) - 1
            self._reporter.report(failure, "add_conversation", can_raise=can_raise and last)
