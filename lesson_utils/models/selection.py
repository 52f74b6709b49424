"""Which chat client a lesson uses: chosen from the environment and an optional ``.env`` file.

``get_chat_client()`` returns the offline lesson model unless a real model is configured, so every
notebook runs with no key. ``LESSON_MODEL`` forces a choice; otherwise the first configured of
OpenAI, Azure OpenAI, an OpenAI-compatible local server (Ollama, LM Studio, llama.cpp) and
Microsoft Foundry wins. Real models use the Chat Completions API, so the conversation history stays
in the agent session (what lessons 02-05 inspect) rather than being stored by the service.

A configured-but-broken model raises one :class:`ModelConfigurationError` that names the variable
to fix, both when the configuration is read and when a call fails (bad key, unreachable server,
unknown model).
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import weakref
from collections.abc import AsyncIterable, Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_framework import Message

from .offline import OFFLINE_MODEL_NAME, OfflineChatClient

logger = logging.getLogger(__name__)

KINDS = ("offline", "openai", "azure", "local", "foundry")
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
_OFFLINE_HINT = "Or set LESSON_MODEL=offline to use the offline lesson model."


class ModelConfigurationError(RuntimeError):
    """The configured model cannot be used; the message says which variable to fix."""

    def __init__(self, message: str, *, variable: str | None = None, kind: str | None = None) -> None:
        super().__init__(message)
        self.variable = variable
        self.kind = kind

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback: one clear message in a notebook."""
        return [f"ModelConfigurationError: {self}"]


@dataclass(frozen=True)
class ChatClientInfo:
    """Which model a lesson talks to and why it was chosen (shown in notebook 00)."""

    kind: str
    model: str | None
    base_url: str | None
    reason: str
    env_file: str | None = None
    # Names of the variables behind each setting (never their secret values), for error messages.
    settings: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __str__(self) -> str:
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{self.kind} model {self.model or '(unnamed)'}{where} \u2014 {self.reason}"


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


def _get(env: Mapping[str, str], *names: str) -> tuple[str | None, str | None]:
    """The first non-empty value among names, and the name it came from."""
    for name in names:
        value = (env.get(name) or "").strip()
        if value:
            return value, name
    return None, None


def _require(env: Mapping[str, str], kind: str, names: tuple[str, ...], what: str, example: str) -> tuple[str, str]:
    value, name = _get(env, *names)
    if value is None:
        raise ModelConfigurationError(
            f"The {kind} model needs {what}: set {names[0]} (for example {names[0]}={example}) in your "
            f"environment or .env file. {_OFFLINE_HINT}",
            variable=names[0],
            kind=kind,
        )
    return value, name or names[0]


def _url(env: Mapping[str, str], kind: str, names: tuple[str, ...], example: str) -> tuple[str, str]:
    value, name = _require(env, kind, names, "a base URL", example)
    if not value.startswith(("http://", "https://")):
        raise ModelConfigurationError(
            f"{name}={value!r} is not a URL: it must start with http:// or https:// (for example {example}). "
            f"{_OFFLINE_HINT}",
            variable=name,
            kind=kind,
        )
    return value.rstrip("/"), name


def resolve_model(env: Mapping[str, str], *, env_file: str | None = None) -> ChatClientInfo:
    """Decide which model to use from a mapping of variables (pure: nothing is constructed)."""
    forced = (env.get("LESSON_MODEL") or "").strip().lower()
    if forced in ("", "auto"):
        kind, reason = _auto_kind(env)
    elif forced in KINDS:
        kind, reason = forced, f"LESSON_MODEL={forced}"
    else:
        raise ModelConfigurationError(
            f"LESSON_MODEL={forced!r} is not one of {', '.join(KINDS)} (or leave it empty to choose automatically).",
            variable="LESSON_MODEL",
        )
    settings: dict[str, str] = {}
    if kind == "offline":
        return ChatClientInfo("offline", OFFLINE_MODEL_NAME, None, reason, env_file, settings)
    if kind == "openai":
        _, settings["api_key_var"] = _require(env, kind, ("OPENAI_API_KEY",), "an API key", "sk-...")
        model, model_var = _get(env, "OPENAI_MODEL", "OPENAI_CHAT_COMPLETION_MODEL")
        settings["model_var"] = model_var or "OPENAI_MODEL"
        base_url = None
        if _get(env, "OPENAI_BASE_URL")[0]:
            base_url, settings["url_var"] = _url(env, kind, ("OPENAI_BASE_URL",), "https://api.openai.com/v1")
        return ChatClientInfo(kind, model or DEFAULT_OPENAI_MODEL, base_url, reason, env_file, settings)
    if kind == "azure":
        endpoint, settings["url_var"] = _url(
            env, kind, ("AZURE_OPENAI_ENDPOINT",), "https://<resource>.openai.azure.com"
        )
        model, settings["model_var"] = _require(
            env,
            kind,
            ("AZURE_OPENAI_MODEL", "AZURE_OPENAI_CHAT_COMPLETION_MODEL", "AZURE_OPENAI_CHAT_DEPLOYMENT_NAME"),
            "the name of your model deployment",
            "gpt-4o-mini",
        )
        if _get(env, "AZURE_OPENAI_API_KEY")[0]:
            settings["api_key_var"] = "AZURE_OPENAI_API_KEY"
        api_version, _ = _get(env, "AZURE_OPENAI_API_VERSION")
        if api_version:
            settings["api_version"] = api_version
        return ChatClientInfo(kind, model, endpoint, reason, env_file, settings)
    if kind == "local":
        base_url, settings["url_var"] = _url(
            env, kind, ("LOCAL_MODEL_BASE_URL", "OPENAI_BASE_URL"), "http://localhost:11434/v1"
        )
        model, settings["model_var"] = _require(
            env, kind, ("LOCAL_MODEL", "OPENAI_MODEL"), "the name of a model your server serves", "llama3.2"
        )
        settings["api_key_var"] = "LOCAL_MODEL_API_KEY"  # optional: most local servers check no key
        return ChatClientInfo(kind, model, base_url, reason, env_file, settings)
    # foundry
    endpoint, settings["url_var"] = _url(
        env, kind, ("FOUNDRY_PROJECT_ENDPOINT",), "https://<resource>.services.ai.azure.com/api/projects/<project>"
    )
    model, settings["model_var"] = _require(
        env, kind, ("FOUNDRY_MODEL", "FOUNDRY_MODEL_DEPLOYMENT_NAME"), "the name of your model deployment", "gpt-4o-mini"
    )
    return ChatClientInfo(kind, model, endpoint, reason, env_file, settings)


def _auto_kind(env: Mapping[str, str]) -> tuple[str, str]:
    if _get(env, "OPENAI_API_KEY")[0]:
        return "openai", "OPENAI_API_KEY is set"
    if _get(env, "AZURE_OPENAI_ENDPOINT")[0]:
        return "azure", "AZURE_OPENAI_ENDPOINT is set"
    value, name = _get(env, "LOCAL_MODEL_BASE_URL", "OPENAI_BASE_URL")
    if value:
        return "local", f"{name} is set (an OpenAI-compatible server)"
    if _get(env, "FOUNDRY_PROJECT_ENDPOINT")[0]:
        return "foundry", "FOUNDRY_PROJECT_ENDPOINT is set"
    return "offline", (
        "no model is configured (none of OPENAI_API_KEY, AZURE_OPENAI_ENDPOINT, LOCAL_MODEL_BASE_URL, "
        "OPENAI_BASE_URL, FOUNDRY_PROJECT_ENDPOINT is set)"
    )


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
    client = _build(info, env)
    _INFO[client] = info
    logger.info("lesson model: %s", info)
    return client


def info_for(client: Any) -> ChatClientInfo | None:
    """The :class:`ChatClientInfo` a client was built from by :func:`get_chat_client`, if any."""
    try:
        return _INFO.get(client)
    except TypeError:
        return None


def _build(info: ChatClientInfo, env: Mapping[str, str]) -> Any:
    if info.kind == "offline":
        return OfflineChatClient()
    if info.kind == "foundry":
        return _build_foundry(info)
    LessonChatCompletionClient = _lesson_client_class()
    s = info.settings
    api_key = _get(env, s.get("api_key_var", ""))[0] if s.get("api_key_var") else None
    if info.kind == "azure":
        kwargs: dict[str, Any] = {"model": info.model, "azure_endpoint": info.base_url}
        if api_key:
            kwargs["api_key"] = api_key
        else:
            kwargs["credential"] = _azure_credential(info)
        if "api_version" in s:
            kwargs["api_version"] = s["api_version"]
        return LessonChatCompletionClient(**kwargs)
    from openai import AsyncOpenAI

    # The OpenAI SDK insists on some key; a keyless local server ignores it.
    async_client = AsyncOpenAI(api_key=api_key or "not-needed", base_url=info.base_url, max_retries=1, timeout=120.0)
    return LessonChatCompletionClient(model=info.model, async_client=async_client)


@functools.cache
def _lesson_client_class() -> type:
    """A Chat Completions client whose failed calls raise one ModelConfigurationError.

    Built on first use so the offline lessons never import the OpenAI stack.
    """
    from agent_framework.openai import OpenAIChatCompletionClient

    class LessonChatCompletionClient(OpenAIChatCompletionClient):  # type: ignore[misc, valid-type]
        def _inner_get_response(self, *, messages: Any, options: Any, stream: bool = False, **kwargs: Any) -> Any:
            result = super()._inner_get_response(messages=messages, options=options, stream=stream, **kwargs)
            info = info_for(self)
            return result if stream or info is None else _guard_awaitable(result, info)

        def _build_response_stream(self, stream: Any, *, response_format: Any | None = None) -> Any:
            info = info_for(self)
            guarded = stream if info is None else _guard_stream(stream, info)
            return super()._build_response_stream(guarded, response_format=response_format)

    return LessonChatCompletionClient


def _azure_credential(info: ChatClientInfo) -> Any:
    try:
        from azure.identity import AzureCliCredential
    except ImportError:
        raise ModelConfigurationError(
            "The azure model needs a key or a signed-in Azure identity: set AZURE_OPENAI_API_KEY, or "
            f"`pip install azure-identity` and run `az login`. {_OFFLINE_HINT}",
            variable="AZURE_OPENAI_API_KEY",
            kind="azure",
        ) from None
    return AzureCliCredential()


def _build_foundry(info: ChatClientInfo) -> Any:
    try:
        from agent_framework_foundry import FoundryChatClient
        from azure.identity.aio import AzureCliCredential
    except ImportError:
        raise ModelConfigurationError(
            "FOUNDRY_PROJECT_ENDPOINT is set but the Foundry extra is not installed: "
            f"`pip install -e \".[foundry]\"` (agent-framework-foundry and azure-identity). {_OFFLINE_HINT}",
            variable="FOUNDRY_PROJECT_ENDPOINT",
            kind="foundry",
        ) from None
    accepted = inspect.signature(FoundryChatClient).parameters
    candidates = {
        "project_endpoint": info.base_url,
        "model": info.model,
        "model_deployment_name": info.model,
        "credential": AzureCliCredential(),
    }
    client = FoundryChatClient(**{k: v for k, v in candidates.items() if k in accepted})
    return _keep_history_local(client)


def _keep_history_local(client: Any) -> Any:
    """Ask a service that would store the conversation not to (``store=False``): the session keeps it."""
    original = client.get_response

    def get_response(messages: Any, *, options: Any = None, **kwargs: Any) -> Any:
        merged = dict(options or {})
        merged.setdefault("store", False)
        return original(messages, options=merged, **kwargs)

    client.get_response = get_response
    client.STORES_BY_DEFAULT = False
    return client


# ------------------------------------------------------------------------------ failures


def explain_model_error(exc: BaseException, info: ChatClientInfo) -> ModelConfigurationError | None:
    """Turn a failed model call into one clear message naming the variable to fix (None if unrelated)."""
    import openai

    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and seen not in chain:
        chain.append(seen)
        seen = getattr(seen, "inner_exception", None) or seen.__cause__ or seen.__context__
    s = info.settings
    key_var = s.get("api_key_var", "the API key variable")
    url_var = s.get("url_var", "the base URL variable")
    model_var = s.get("model_var", "the model variable")
    where = f" at {info.base_url}" if info.base_url else ""
    for err in chain:
        if isinstance(err, openai.AuthenticationError):
            return ModelConfigurationError(
                f"The {info.kind} model{where} rejected the API key (401 Unauthorized): check {key_var}. {_OFFLINE_HINT}",
                variable=key_var,
                kind=info.kind,
            )
        if isinstance(err, openai.PermissionDeniedError):
            return ModelConfigurationError(
                f"The {info.kind} model{where} refused access (403): the key in {key_var} may lack access to "
                f"model {info.model!r}. {_OFFLINE_HINT}",
                variable=key_var,
                kind=info.kind,
            )
        if isinstance(err, openai.NotFoundError):
            return ModelConfigurationError(
                f"The {info.kind} model{where} does not know model {info.model!r} (404 Not Found): check {model_var}"
                f" (and {url_var} if the address is wrong). {_OFFLINE_HINT}",
                variable=model_var,
                kind=info.kind,
            )
        if isinstance(err, openai.RateLimitError):
            return ModelConfigurationError(
                f"The {info.kind} model{where} refused the call for rate limit or quota (429): check the plan "
                f"behind {key_var}, or wait and retry. {_OFFLINE_HINT}",
                variable=key_var,
                kind=info.kind,
            )
        if isinstance(err, (openai.APIConnectionError, openai.APITimeoutError)):
            return ModelConfigurationError(
                f"Could not reach the {info.kind} model{where}: is the server running and is {url_var} right? "
                f"{_OFFLINE_HINT}",
                variable=url_var,
                kind=info.kind,
            )
    return None


def _convert(exc: BaseException, info: ChatClientInfo) -> BaseException:
    explained = explain_model_error(exc, info)
    return explained if explained is not None else exc


async def _guard_awaitable(awaitable: Awaitable[Any], info: ChatClientInfo) -> Any:
    try:
        return await awaitable
    except ModelConfigurationError:
        raise
    except Exception as exc:
        converted = _convert(exc, info)
        if converted is exc:
            raise
        raise converted from None


async def _guard_stream(stream: Any, info: ChatClientInfo) -> AsyncIterable[Any]:
    try:
        source = await stream if inspect.isawaitable(stream) else stream
        async for update in source:
            yield update
    except ModelConfigurationError:
        raise
    except Exception as exc:
        converted = _convert(exc, info)
        if converted is exc:
            raise
        raise converted from None


async def check_chat_client(client: Any, info: ChatClientInfo | None = None) -> str:
    """Make one tiny call to the model and return its reply; failures become ModelConfigurationError."""
    info = info or info_for(client) or describe_chat_client()
    try:
        response = await client.get_response([Message("user", ["Reply with one word: ready"])])
    except ModelConfigurationError:
        raise
    except Exception as exc:
        explained = explain_model_error(exc, info)
        if explained is None:
            explained = ModelConfigurationError(
                f"The {info.kind} model {info.model!r} failed a test call: {exc}. {_OFFLINE_HINT}", kind=info.kind
            )
        raise explained from None
    return response.text
