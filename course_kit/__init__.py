"""The course around the library: opening a lesson, showing its code, honest claims, checks and widgets.

What a notebook calls for the course itself lives here, not in ``lesson_utils`` (the taught library):
``start_lesson`` (the lesson's chat client and seed), ``show_source``, ``expect_model`` and the reply
claims, ``open_memory_server`` (a configured Cortadel server or a local one), the JupyterLab widgets,
and below them the exercises (``course_kit.exercises.check``), each lesson's named checks
(``course_kit.lessons.<lesson>``), handouts, live mode and the environment check. Imports are lazy so
that opening lesson 01 loads no widget and no server.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "start_lesson": "course_kit.lesson",
    "Lesson": "course_kit.lesson",
    "show_source": "course_kit.source",
    "expect_model": "course_kit.claims",
    "knows_nothing_about": "course_kit.claims",
    "builds_on": "course_kit.claims",
    "open_memory_server": "course_kit.memory_servers",
    "ChatWidget": "course_kit.widgets",
    "SessionInspector": "course_kit.widgets",
    "MemoryBrowser": "course_kit.widgets",
}

__all__ = sorted(_EXPORTS)  # noqa: PLE0605 - built from _EXPORTS, the one list of public names


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'course_kit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
