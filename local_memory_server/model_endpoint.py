"""The model the local server may ask to read a conversation: where it is, and one JSON call to it.

Why a module of its own: the server asks a model for structured answers (facts, decisions), not for chat. It
needs no agent, no tools and no streaming: one POST to an OpenAI-compatible ``/chat/completions`` with a JSON
schema in ``response_format`` (OpenAI and llama.cpp's ``llama-server`` both honour it), a timeout, and an
output cap so a model that runs away is stopped. Which model that is comes from the same variables the lessons
read (``LOCAL_MODEL_BASE_URL`` + ``LOCAL_MODEL``, or ``OPENAI_API_KEY`` …), resolved once by
:func:`model_config.resolve_model`, so the server and the lessons never disagree about the model.

Every way a call can fail — refused, timed out, an HTTP error, a reply cut at the cap, text that is not the
JSON asked for — is one :class:`ModelAnswerError` whose message fits on one log line; the caller falls back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from lesson_utils.errors import LessonError

__all__ = ["ModelAnswerError", "ModelEndpoint", "endpoint_from_environment"]

#: Kinds of configured model the server can call with plain HTTP (Azure and Foundry need their own auth).
CALLABLE_KINDS = ("local", "openai")


class ModelAnswerError(LessonError, RuntimeError):
    """The model gave no usable answer (down, slow, HTTP error, cut off, not the JSON asked for)."""


@dataclass
class ModelEndpoint:
    """An OpenAI-compatible chat-completions endpoint, called for JSON only."""

    url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0
    #: Seconds each successful call took, newest last (for benchmarks and lesson 10's timings).
    seconds: list[float] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self._http = httpx.Client(timeout=self.timeout, headers=headers)

    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *, name: str,
                      max_tokens: int) -> dict[str, Any]:
        """The model's answer to ``messages``, parsed, constrained to ``schema``; :class:`ModelAnswerError` otherwise."""
        body = {
            "model": self.model, "messages": messages, "temperature": 0, "max_tokens": max_tokens,
            "response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}},
        }
        start = time.perf_counter()
        try:
            response = self._http.post(f"{self.url}/chat/completions", json=body)
        except httpx.TimeoutException:
            raise ModelAnswerError(f"no answer within {self.timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise ModelAnswerError(f"{type(exc).__name__}: {str(exc)[:120]}") from None
        if response.status_code != 200:
            raise ModelAnswerError(f"HTTP {response.status_code}: {response.text[:120]!r}")
        try:
            choice = response.json()["choices"][0]
            content = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError):
            raise ModelAnswerError(f"not a chat completion: {response.text[:120]!r}") from None
        if choice.get("finish_reason") == "length":
            raise ModelAnswerError(f"the answer was cut at {max_tokens} tokens: {content[:80]!r}")
        try:
            answer = json.loads(content)
        except ValueError:
            raise ModelAnswerError(f"not JSON: {content[:120]!r}") from None
        if not isinstance(answer, dict):
            raise ModelAnswerError(f"not a JSON object: {content[:120]!r}")
        self.seconds.append(time.perf_counter() - start)
        return answer

    def close(self) -> None:
        self._http.close()

    @property
    def closed(self) -> bool:
        return self._http.is_closed


def endpoint_from_environment(env: Mapping[str, str] | None = None) -> ModelEndpoint | None:
    """The model the lessons are configured with, when the server can call it; None when they are offline.

    A configured model the server cannot call over plain HTTP (Azure, Foundry) is None too: the offline reader
    reads for it. Its timeout is the lessons' ``LESSON_MODEL_TIMEOUT`` (one policy for every model call). A broken
    configuration raises the lessons' one-line ``ModelConfigurationError``."""
    from model_config import lesson_environment, read_policy, resolve_model

    env = dict(env) if env is not None else lesson_environment()[0]
    info = resolve_model(env)
    timeout = read_policy(env, info.kind).timeout
    if info.kind not in CALLABLE_KINDS or not info.model:
        return None
    key_var = info.settings.get("api_key_var")
    key = (env.get(key_var) or "").strip() if key_var else ""
    return ModelEndpoint((info.base_url or "https://api.openai.com/v1").rstrip("/"), info.model, key or None,
                         timeout=timeout)
