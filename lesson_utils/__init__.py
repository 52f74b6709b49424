"""Companion package for the *Conversation and Memory with Microsoft Agent Framework* series.

Each concept lives in its own module; this top level re-exports the names the notebooks
use. Imports are lazy so that opening lesson 01 does not load the memory server's
embedding model.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    # Opening a lesson, showing the code it teaches, and honest checks on any model.
    "start_lesson": "lesson_utils.lesson",
    "Lesson": "lesson_utils.lesson",
    "show_source": "lesson_utils.source",
    "expect_model": "lesson_utils.claims",
    "knows_nothing_about": "lesson_utils.claims",
    "builds_on": "lesson_utils.claims",
    # The base of the package's own errors (each message names its fix).
    "LessonError": "lesson_utils.errors",
    # The model: offline lesson model and real clients.
    "get_chat_client": "lesson_utils.models",
    "describe_chat_client": "lesson_utils.models",
    "OfflineChatClient": "lesson_utils.models",
    "ModelConfigurationError": "lesson_utils.models",
    "check_chat_client": "lesson_utils.models",
    "RequestRecorder": "lesson_utils.models",
    # Lesson 04: a context provider that learns the user's name and age.
    "UserMemoryProvider": "lesson_utils.user_memory",
    # Lessons 05–06 (and 14): sessions as JSON, files and database rows.
    "save_session": "lesson_utils.persistence",
    "load_session": "lesson_utils.persistence",
    "session_to_json": "lesson_utils.persistence",
    "session_from_json": "lesson_utils.persistence",
    "SessionFormatError": "lesson_utils.persistence",
    "SessionNotFoundError": "lesson_utils.persistence",
    "SqliteSessionStore": "lesson_utils.persistence",
    # Lessons 07–13: long-term memory with Cortadel.
    "MemoryClient": "lesson_utils.cortadel",
    "CortadelMemoryClient": "lesson_utils.cortadel",
    "CortadelContextProvider": "lesson_utils.cortadel",
    "create_memory_tools": "lesson_utils.cortadel",
    "create_search_memory_tool": "lesson_utils.cortadel",
    "create_add_memories_tool": "lesson_utils.cortadel",
    # The local Cortadel-compatible memory server.
    "start_memory_server": "lesson_utils.memory_server",
    "MemoryServer": "lesson_utils.memory_server",
    "open_memory_server": "lesson_utils.cortadel",
    # JupyterLab widgets.
    "ChatWidget": "lesson_utils.widgets",
    "SessionInspector": "lesson_utils.widgets",
    "MemoryBrowser": "lesson_utils.widgets",
}

__all__ = sorted(_EXPORTS)  # noqa: PLE0605 - built from _EXPORTS, the one list of public names


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lesson_utils' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
