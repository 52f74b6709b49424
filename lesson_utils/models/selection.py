"""Which chat client a lesson uses: chosen from the environment and an optional ``.env`` file.

``get_chat_client()`` returns the offline lesson model unless a real model is configured, so every
notebook runs with no key. ``LESSON_MODEL`` forces a choice; otherwise the first configured of
OpenAI, Azure OpenAI, an OpenAI-compatible local server (Ollama, LM Studio, llama.cpp) and
Microsoft Foundry wins (the registry in ``backends.py`` holds them, in that order). Real models use
the Chat Completions API (or ``store=False``), so the conversation history stays in the agent
session (what lessons 02–06 inspect) rather than being stored by the service.

A configured-but-broken model raises one :class:`ModelConfigurationError` that names the variable
to fix, both when the configuration is read and when a call fails (bad key, unreachable server,
unknown model, a server error, a call past ``LESSON_MODEL_TIMEOUT``): ``errors.py`` words it and
the call guard of ``guard.py`` raises it, on every call.
"""

from __future__ import annotations

import logging
import os
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_framework import Message

from .backends import BACKENDS, DEFAULT_OPENAI_MODEL, Backend, backend
from .configuration import OFFLINE_HINT, ChatClientInfo, ModelConfigurationError
from .errors import explain_model_error
from .policy import read_policy

logger = logging.getLogger(__name__)

KINDS = ("offline", *(entry.kind for entry in BACKENDS if entry.kind != "offline"))

__all__ = [
    "DEFAULT_OPENAI_MODEL",
    "KINDS",
    "ChatClientInfo",
    "ModelConfigurationError",
    "check_chat_client",
    "describe_chat_client",
    "explain_model_error",
    "find_env_file",
    "get_chat_client",
    "info_for",
    "lesson_environment",
    "load_lesson_env",
    "resolve_model",
]


# ------------------------------------------------------------------------------ environment


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


# ------------------------------------------------------------------------------ choosing


def resolve_model(env: Mapping[str, str], *, env_file: str | None = None) -> ChatClientInfo:
    """Decide which model to use from a mapping of variables (pure: nothing is constructed)."""
    forced = (env.get("LESSON_MODEL") or "").strip().lower()
    if forced in ("", "auto"):
        chosen, reason = _auto_choice(env)
    elif forced in KINDS:
        chosen, reason = backend(forced), f"LESSON_MODEL={forced}"
    else:
        raise ModelConfigurationError(
            f"LESSON_MODEL={forced!r} is not one of {', '.join(KINDS)} (or leave it empty to choose automatically).",
            variable="LESSON_MODEL",
        )
    info = chosen.resolve(env, reason, env_file)
    read_policy(env, info.kind)  # a bad timeout or cap is a configuration error too, reported now
    return info


def _auto_choice(env: Mapping[str, str]) -> tuple[Backend, str]:
    for entry in BACKENDS:  # the registry's order; offline always detects, and comes last
        reason = entry.detect(env)
        if reason:
            return entry, reason
    raise AssertionError("the offline backend always applies")


def describe_chat_client(*, start: str | os.PathLike[str] | None = None) -> ChatClientInfo:
    """Which model ``get_chat_client()`` would return, and why."""
    env, env_file = lesson_environment(start)
    return resolve_model(env, env_file=str(env_file) if env_file else None)


# ------------------------------------------------------------------------------ building

_INFO: weakref.WeakKeyDictionary[Any, ChatClientInfo] = weakref.WeakKeyDictionary()


def get_chat_client(*, start: str | os.PathLike[str] | None = None) -> Any:
    """The chat client a lesson should use (the offline lesson model unless one is configured)."""
    env, env_file = lesson_environment(start)
    info = resolve_model(env, env_file=str(env_file) if env_file else None)
    client = backend(info.kind).build(info, env)
    _INFO[client] = info
    logger.info("lesson model: %s", info)
    return client


def info_for(client: Any) -> ChatClientInfo | None:
    """The :class:`ChatClientInfo` a client was built from by :func:`get_chat_client`, if any."""
    try:
        return _INFO.get(client)
    except TypeError:
        return None


async def check_chat_client(client: Any, info: ChatClientInfo | None = None) -> str:
    """Make one tiny call to the model and return its reply; failures become ModelConfigurationError."""
    info = info or info_for(client) or describe_chat_client()
    try:
        response = await client.get_response([Message("user", ["Reply with one word: ready"])])
    except ModelConfigurationError:
        raise
    except Exception as exc:
        explained = explain_model_error(exc, info, extra_rules=backend(info.kind).explain)
        if explained is None:
            explained = ModelConfigurationError(
                f"The {info.kind} model {info.model!r} failed a test call: {exc}. {OFFLINE_HINT}", kind=info.kind
            )
        raise explained from None
    return response.text
