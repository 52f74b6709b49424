"""What the *Conversation and Memory with Microsoft Agent Framework* series teaches, as a small library.

The user-memory provider, sessions as JSON and rows, the Cortadel context provider and memory tools,
scaling out, and the pieces around the framework's own memory: each concept in its own module, the
names the notebooks use re-exported here (lazily, so importing one loads no other). Nothing here
imports the course around it: the chat models (``chat_models``), the local server
(``local_memory_server``), the course kit (``course_kit``) and the evaluation (``memory_evaluation``)
are packages of their own. ``docs/maintainers.md`` draws which may import which.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    # The base of the package's own errors (each message names its fix).
    "LessonError": "lesson_utils.errors",
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
