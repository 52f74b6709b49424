"""Which model the lessons use, chosen from the variables: one entry per kind of model, in the order of choice.

Why apart from the chat clients: the local memory server asks the same model the lessons talk to (to read
conversations), and it must not import the lessons' chat clients or the offline lesson model to find out which
model that is. This module only reads variables and decides; ``chat_models`` builds the chat client for a
decided :class:`ChatClientInfo` (one builder per kind there, held together with :data:`CHOICES` by a test).

``LESSON_MODEL`` forces a kind; otherwise the first configured of OpenAI, Azure OpenAI, an OpenAI-compatible
local server (Ollama, LM Studio, llama.cpp) and Microsoft Foundry wins, and the offline lesson model when none is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .configuration import ChatClientInfo, ModelConfigurationError, get_value, require, require_url
from .policy import read_policy

__all__ = ["CHOICES", "DEFAULT_OPENAI_MODEL", "KINDS", "OFFLINE_MODEL_NAME", "Choice", "resolve_model"]

DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
#: The offline lesson model's name, as a configuration shows it (the model itself is ``chat_models``).
OFFLINE_MODEL_NAME = "offline-lesson-model"

Env = Mapping[str, str]


@dataclass(frozen=True)
class Choice:
    """One kind of model: how to tell it was configured, and what its variables say."""

    kind: str
    detect: Callable[[Env], str | None]
    """The reason this kind is chosen automatically (``"OPENAI_API_KEY is set"``), or None."""
    resolve: Callable[[Env, str, str | None], ChatClientInfo]
    """``(env, reason, env_file)`` → which model; a missing or bad variable raises, naming it."""


def _openai_resolve(env: Env, reason: str, env_file: str | None) -> ChatClientInfo:
    settings: dict[str, str] = {}
    _, settings["api_key_var"] = require(env, "openai", ("OPENAI_API_KEY",), "an API key", "sk-...")
    model, model_var = get_value(env, "OPENAI_MODEL", "OPENAI_CHAT_COMPLETION_MODEL")
    settings["model_var"] = model_var or "OPENAI_MODEL"
    base_url = None
    if get_value(env, "OPENAI_BASE_URL")[0]:
        base_url, settings["url_var"] = require_url(env, "openai", ("OPENAI_BASE_URL",), "https://api.openai.com/v1")
    return ChatClientInfo("openai", model or DEFAULT_OPENAI_MODEL, base_url, reason, env_file, settings)


def _azure_resolve(env: Env, reason: str, env_file: str | None) -> ChatClientInfo:
    settings: dict[str, str] = {}
    endpoint, settings["url_var"] = require_url(
        env, "azure", ("AZURE_OPENAI_ENDPOINT",), "https://<resource>.openai.azure.com"
    )
    model, settings["model_var"] = require(
        env,
        "azure",
        ("AZURE_OPENAI_MODEL", "AZURE_OPENAI_CHAT_COMPLETION_MODEL", "AZURE_OPENAI_CHAT_DEPLOYMENT_NAME"),
        "the name of your model deployment",
        "gpt-4o-mini",
    )
    if get_value(env, "AZURE_OPENAI_API_KEY")[0]:
        settings["api_key_var"] = "AZURE_OPENAI_API_KEY"
    api_version, _ = get_value(env, "AZURE_OPENAI_API_VERSION")
    if api_version:
        settings["api_version"] = api_version
    return ChatClientInfo("azure", model, endpoint, reason, env_file, settings)


def _local_detect(env: Env) -> str | None:
    value, name = get_value(env, "LOCAL_MODEL_BASE_URL", "OPENAI_BASE_URL")
    return f"{name} is set (an OpenAI-compatible server)" if value else None


def _local_resolve(env: Env, reason: str, env_file: str | None) -> ChatClientInfo:
    settings: dict[str, str] = {}
    base_url, settings["url_var"] = require_url(
        env, "local", ("LOCAL_MODEL_BASE_URL", "OPENAI_BASE_URL"), "http://localhost:11434/v1"
    )
    model, settings["model_var"] = require(
        env, "local", ("LOCAL_MODEL", "OPENAI_MODEL"), "the name of a model your server serves", "qwen2.5:1.5b"
    )
    settings["api_key_var"] = "LOCAL_MODEL_API_KEY"  # optional: most local servers check no key
    return ChatClientInfo("local", model, base_url, reason, env_file, settings)


def _foundry_resolve(env: Env, reason: str, env_file: str | None) -> ChatClientInfo:
    settings: dict[str, str] = {}
    endpoint, settings["url_var"] = require_url(
        env, "foundry", ("FOUNDRY_PROJECT_ENDPOINT",), "https://<resource>.services.ai.azure.com/api/projects/<project>"
    )
    model, settings["model_var"] = require(
        env, "foundry", ("FOUNDRY_MODEL", "FOUNDRY_MODEL_DEPLOYMENT_NAME"), "the name of your model deployment",
        "gpt-4o-mini",
    )
    return ChatClientInfo("foundry", model, endpoint, reason, env_file, settings)



def _offline_resolve(env: Env, reason: str, env_file: str | None) -> ChatClientInfo:
    return ChatClientInfo("offline", OFFLINE_MODEL_NAME, None, reason, env_file, {})


CHOICES: tuple[Choice, ...] = (
    Choice("openai", lambda env: "OPENAI_API_KEY is set" if get_value(env, "OPENAI_API_KEY")[0] else None,
           _openai_resolve),
    Choice("azure", lambda env: "AZURE_OPENAI_ENDPOINT is set" if get_value(env, "AZURE_OPENAI_ENDPOINT")[0] else None,
           _azure_resolve),
    Choice("local", _local_detect, _local_resolve),
    Choice("foundry",
           lambda env: "FOUNDRY_PROJECT_ENDPOINT is set" if get_value(env, "FOUNDRY_PROJECT_ENDPOINT")[0] else None,
           _foundry_resolve),
    Choice("offline", lambda env: (
        "no model is configured (none of OPENAI_API_KEY, AZURE_OPENAI_ENDPOINT, LOCAL_MODEL_BASE_URL, "
        "OPENAI_BASE_URL, FOUNDRY_PROJECT_ENDPOINT is set)"), _offline_resolve),
)
"""Every kind, in the order of automatic choice (offline last: it is chosen when nothing else is)."""

KINDS = ("offline", *(entry.kind for entry in CHOICES if entry.kind != "offline"))


def _choice(kind: str) -> Choice:
    for entry in CHOICES:
        if entry.kind == kind:
            return entry
    raise KeyError(kind)


def resolve_model(env: Env, *, env_file: str | None = None) -> ChatClientInfo:
    """Decide which model to use from a mapping of variables (pure: nothing is constructed)."""
    forced = (env.get("LESSON_MODEL") or "").strip().lower()
    if forced in ("", "auto"):
        chosen, reason = next((entry, why) for entry in CHOICES if (why := entry.detect(env)))
    elif forced in KINDS:
        chosen, reason = _choice(forced), f"LESSON_MODEL={forced}"
    else:
        raise ModelConfigurationError(
            f"LESSON_MODEL={forced!r} is not one of {', '.join(KINDS)} (or leave it empty to choose automatically).",
            variable="LESSON_MODEL",
        )
    info = chosen.resolve(env, reason, env_file)
    read_policy(env, info.kind)  # a bad timeout or cap is a configuration error too, reported now
    return info
