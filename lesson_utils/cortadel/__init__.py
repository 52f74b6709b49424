"""Long-term memory with Cortadel: the context provider, the memory tools and the client seam.

A Python port of Cortadel.AgentFramework on Agent Framework's own seams (``ContextProvider``,
``FunctionTool``), talking to Cortadel through the official ``cortadel`` SDK.
"""

from __future__ import annotations

from .client import APP_NAME, CortadelMemoryClient, MemoryClient
from .errors import FailureReporter
from .provider import CortadelContextProvider
from .server_choice import MemoryServerChoice
from .rendering import DEFAULT_CONTEXT_PROMPT, render_memories
from .user_keys import UserKeyMissing, api_key_for, user_keys
from .tools import (
    ADD_UNAVAILABLE,
    ALREADY_REMEMBERED,
    SEARCH_UNAVAILABLE,
    create_add_memories_tool,
    create_memory_tools,
    create_search_memory_tool,
)

__all__ = [
    "APP_NAME",
    "ADD_UNAVAILABLE",
    "ALREADY_REMEMBERED",
    "DEFAULT_CONTEXT_PROMPT",
    "SEARCH_UNAVAILABLE",
    "UserKeyMissing",
    "api_key_for",
    "user_keys",
    "CortadelContextProvider",
    "CortadelMemoryClient",
    "FailureReporter",
    "MemoryClient",
    "MemoryServerChoice",
    "create_add_memories_tool",
    "create_memory_tools",
    "create_search_memory_tool",
    "render_memories",
]
