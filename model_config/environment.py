"""Where the model's variables come from: the process environment over the nearest ``.env`` file.

Why apart: the lessons, the local memory server and the course's command line all read the same variables,
and each must see what the others see (already-set variables win over the file, as ``python-dotenv`` does).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["find_env_file", "lesson_environment", "load_lesson_env"]


def find_env_file(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The nearest ``.env`` in the start directory (default: the working directory) or above it."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / ".env"
        if candidate.is_file():
            return candidate
    return None


def lesson_environment(start: str | os.PathLike[str] | None = None) -> tuple[dict[str, str], Path | None]:
    """The process environment over the values of the nearest ``.env`` (already-set variables win)."""
    from dotenv import dotenv_values

    env_file = find_env_file(start)
    merged: dict[str, str] = {}
    if env_file is not None:
        merged.update({k: v for k, v in dotenv_values(env_file, encoding="utf-8").items() if v is not None})
    merged.update(os.environ)
    return merged, env_file


def load_lesson_env(start: str | os.PathLike[str] | None = None) -> Path | None:
    """Load the nearest ``.env`` into ``os.environ`` without overriding variables already set."""
    from dotenv import load_dotenv

    env_file = find_env_file(start)
    if env_file is not None:
        load_dotenv(env_file, override=False, encoding="utf-8")
    return env_file
