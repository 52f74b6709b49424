"""``search_memory`` and ``add_memories``: memory the model can choose to use.

The provider gives an agent memory it never has to ask for; these tools let the model recall on
demand or deliberately commit something worth keeping. They are framework ``FunctionTool``s bound
to one ``MemoryClient`` — so to one user — when built: the model cannot reach another user's
memories by asking for them. Failures go through the same reporter as the provider's, and the
model gets a graceful note instead of an exception.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Annotated

from agent_framework import FunctionTool
from cortadel import AddOptions, SearchOptions
from pydantic import Field

from .client import APP_NAME, MemoryClient
from .errors import ErrorCallback, FailureReporter
from .limits import MAX_MESSAGE_CHARS, MAX_QUERY_CHARS, build_query, utf16_len
from .rendering import render_memory_line

__all__ = [
    "SEARCH_UNAVAILABLE",
    "ADD_UNAVAILABLE",
    "ALREADY_REMEMBERED",
    "MIN_TOP_K",
    "MAX_TOP_K",
    "create_memory_tools",
    "create_search_memory_tool",
    "create_add_memories_tool",
]

SEARCH_UNAVAILABLE = "Memory is temporarily unavailable; answer without it."
ADD_UNAVAILABLE = "Memory is temporarily unavailable; the fact was not saved."
ALREADY_REMEMBERED = "Already remembered; nothing new was stored."
NO_MEMORIES = "No matching memories found."
SEARCH_UNAVAILABLE_NOW: ContextVar[str] = ContextVar("search_unavailable", default=SEARCH_UNAVAILABLE)
"""The sentence ``search_memory`` hands the model when memory is down, in this context: ``SEARCH_UNAVAILABLE``
unless set (lesson 09's check sets its own wording, so an answer must read what the tool actually returned)."""
MIN_TOP_K, MAX_TOP_K = 1, 50
"""The range Cortadel accepts for ``top_k``."""


def too_long_to_remember(length: int) -> str:
    """What ``add_memories`` tells the model when a fact exceeds Cortadel's 50,000-character limit."""
    return (
        f"Not saved: that is {length:,} characters and one memory holds at most {MAX_MESSAGE_CHARS:,}. "
        "Save it as several shorter facts."
    )


def _check_client(client: object) -> None:
    if not isinstance(client, MemoryClient):
        raise TypeError(
            f"client must implement MemoryClient (async search / add_conversation / add), got {type(client).__name__}."
        )


def _check_name(name: str, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{what} must be a non-blank tool name.")
    return name.strip()


def _check_top_k(top_k: int) -> int:
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not MIN_TOP_K <= top_k <= MAX_TOP_K:
        raise ValueError(f"top_k must be an integer from {MIN_TOP_K} to {MAX_TOP_K}, got {top_k!r}.")
    return top_k


def clamp_top_k(requested: int | None, default: int) -> int:
    """The model's ``top_k``: ``default`` when absent or below 1, otherwise capped at 50."""
    if requested is None or requested < MIN_TOP_K:
        return default
    return min(requested, MAX_TOP_K)


def _build_search_tool(
    client: MemoryClient, *, name: str, top_k: int, rerank: str | None, reporter: FailureReporter
) -> FunctionTool:
    default_top_k = top_k  # the model-facing parameter below shadows the name

    async def search_memory(
        query: Annotated[str, Field(description="What to look for in long-term memory, in plain words.")],
        # Defaults to 0 ("use the tool's default"), not None: Python 3.10's get_type_hints wraps an
        # Annotated parameter that defaults to None in Optional[...], burying its description.
        top_k: Annotated[
            int | None,
            Field(description=f"How many memories to return ({MIN_TOP_K}-{MAX_TOP_K}); omit for the default."),
        ] = 0,
    ) -> str:
        # Cortadel takes at most 5,000 characters: a longer query is searched by its start.
        text = build_query([query or ""], MAX_QUERY_CHARS)
        if not text:
            return "Nothing to search for: the query was empty."
        options = SearchOptions(top_k=clamp_top_k(top_k, default_top_k), rerank=rerank)
        try:
            results = await client.search(text, options)
            hits = list(results.results or [])  # a client that returns garbage fails here, open
        except Exception as error:  # fail open; CancelledError is not an Exception
            reporter.report(error, "search_memory")
            return SEARCH_UNAVAILABLE_NOW.get()
        lines = [line for line in (render_memory_line(hit) for hit in hits) if line]
        return "\n".join(lines) if lines else NO_MEMORIES

    return FunctionTool(
        name=name,
        description=(
            "Search the user's long-term memory (facts and preferences from earlier conversations). "
            "Use it when the answer may depend on something the user told you before."
        ),
        func=search_memory,
    )


def _build_add_tool(
    client: MemoryClient,
    *,
    name: str,
    infer: bool | None,
    memory_type: str | None,
    reporter: FailureReporter,
) -> FunctionTool:
    async def add_memories(
        text: Annotated[
            str,
            # No example value: small models copy examples, and a copied example is a false memory
            # about the user (a 0.5B model stored the old example sentence as the user's fact).
            Field(description="The fact worth remembering, in the user's own terms, as one complete sentence.")
        ],
    ) -> str:
        fact = (text or "").strip()
        if not fact:
            return "Nothing to remember: the text was empty."
        if utf16_len(fact) > MAX_MESSAGE_CHARS:
            # Not a server failure: tell the model how to succeed instead of losing the fact.
            return too_long_to_remember(utf16_len(fact))
        try:
            created = await client.add(fact, AddOptions(app=APP_NAME, infer=infer, memory_type=memory_type))
            event = (created.event or "ADD").upper()  # a client that returns garbage fails here, open
            stored = created.content or fact
        except Exception as error:  # fail open; CancelledError is not an Exception
            reporter.report(error, "add_memories")
            return ADD_UNAVAILABLE
        if event == "SKIP_DUPLICATE":
            return ALREADY_REMEMBERED
        if event in ("UPDATE", "SUPERSEDE"):
            return f"Updated an existing memory: {stored}"
        if event == "ERROR":
            return ADD_UNAVAILABLE
        return f"Remembered: {stored}"

    return FunctionTool(
        name=name,
        description=(
            "Save a durable fact about the user to long-term memory so it can be recalled in later "
            "conversations. Use it when the user asks you to remember something."
        ),
        func=add_memories,
    )


def create_search_memory_tool(
    client: MemoryClient,
    *,
    name: str = "search_memory",
    top_k: int = 10,
    rerank: str | None = None,
    raise_on_error: bool = False,
    on_error: ErrorCallback | None = None,
    logger: logging.Logger | None = None,
) -> FunctionTool:
    """The ``search_memory`` tool alone. ``top_k`` is the default when the model gives none."""
    _check_client(client)
    reporter = FailureReporter(raise_on_error=raise_on_error, on_error=on_error, logger=logger)
    return _build_search_tool(
        client, name=_check_name(name, "name"), top_k=_check_top_k(top_k), rerank=rerank, reporter=reporter
    )


def create_add_memories_tool(
    client: MemoryClient,
    *,
    name: str = "add_memories",
    infer: bool | None = None,
    memory_type: str | None = None,
    raise_on_error: bool = False,
    on_error: ErrorCallback | None = None,
    logger: logging.Logger | None = None,
) -> FunctionTool:
    """The ``add_memories`` tool alone. ``infer=False`` stores the text verbatim."""
    _check_client(client)
    reporter = FailureReporter(raise_on_error=raise_on_error, on_error=on_error, logger=logger)
    return _build_add_tool(
        client, name=_check_name(name, "name"), infer=infer, memory_type=memory_type, reporter=reporter
    )


def create_memory_tools(
    client: MemoryClient,
    *,
    search_tool_name: str = "search_memory",
    add_tool_name: str = "add_memories",
    top_k: int = 10,
    rerank: str | None = None,
    infer: bool | None = None,
    memory_type: str | None = None,
    raise_on_error: bool = False,
    on_error: ErrorCallback | None = None,
    logger: logging.Logger | None = None,
) -> list[FunctionTool]:
    """Both tools, ``[search_memory, add_memories]``, sharing one failure reporter."""
    reporter = FailureReporter(raise_on_error=raise_on_error, on_error=on_error, logger=logger)
    return build_memory_tools(
        client,
        search_tool_name=search_tool_name,
        add_tool_name=add_tool_name,
        top_k=top_k,
        rerank=rerank,
        infer=infer,
        memory_type=memory_type,
        reporter=reporter,
    )


def build_memory_tools(
    client: MemoryClient,
    *,
    reporter: FailureReporter,
    search_tool_name: str = "search_memory",
    add_tool_name: str = "add_memories",
    top_k: int = 10,
    rerank: str | None = None,
    infer: bool | None = None,
    memory_type: str | None = None,
) -> list[FunctionTool]:
    """Both tools over an existing reporter — how the provider shares its own with them."""
    _check_client(client)
    search_name = _check_name(search_tool_name, "search_tool_name")
    add_name = _check_name(add_tool_name, "add_tool_name")
    if search_name == add_name:
        raise ValueError(f"search_tool_name and add_tool_name must differ, both are {search_name!r}.")
    return [
        _build_search_tool(client, name=search_name, top_k=_check_top_k(top_k), rerank=rerank, reporter=reporter),
        _build_add_tool(client, name=add_name, infer=infer, memory_type=memory_type, reporter=reporter),
    ]
