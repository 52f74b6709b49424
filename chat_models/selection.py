"""Which chat client a lesson uses: chosen from the environment and an optional ``.env`` file.

``get_chat_client()`` returns the offline lesson model unless a real model is configured, so every
notebook runs with no key. Which model is configured is decided by :mod:`model_config` (shared with
the memory server); this module builds its chat client with the builder registered in ``backends.py``. Real models use
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
from typing import Any

from agent_framework import Message

from model_config import (
    DEFAULT_OPENAI_MODEL,
    KINDS,
    OFFLINE_HINT,
    ChatClientInfo,
    ModelConfigurationError,
    find_env_file,
    lesson_environment,
    load_lesson_env,
    resolve_model,
)
from .backends import backend
from .errors import explain_model_error

logger = logging.getLogger(__name__)

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
