"""The chat clients a lesson can use, one registry entry per kind of model: build, explain.

Which kind is configured, and with which variables, is decided by :mod:`model_config` (one
:class:`~model_config.Choice` per kind, shared with the memory server). Adding a kind of model is one
``Choice`` there and one :class:`Backend` here (a test holds the two registries together): how to build its chat
client (``build``), and any wording of its own for a failed call (``explain``, tried before the shared table in
``errors.py``).

Every real client is the framework's own Chat Completions client (or Foundry's), built through
its public constructor with a :class:`~.guard.ModelCallGuard` as client middleware, and an OpenAI
SDK client that never retries, so the policy in ``policy.py`` holds for every call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from model_config import OFFLINE_HINT, CallPolicy, ChatClientInfo, ModelConfigurationError, read_policy
from model_config.configuration import get_value
from .errors import Rule, status_of
from .guard import ModelCallGuard
from .offline import OfflineChatClient

Env = Mapping[str, str]


@dataclass(frozen=True)
class Backend:
    """How to reach one kind of model."""

    kind: str
    build: Callable[[ChatClientInfo, Env], Any]
    """The chat client for a resolved configuration."""
    explain: tuple[Rule, ...] = ()
    """Error wording of this backend's own, tried before the shared rules."""


# ------------------------------------------------------------------------------ shared building


def _policy_and_guard(info: ChatClientInfo, env: Env, *, keep_history_local: bool = False
                      ) -> tuple[CallPolicy, ModelCallGuard]:
    """The call policy for this model and the guard that applies it (with the backend's own wording)."""
    policy = read_policy(env, info.kind, keep_history_local=keep_history_local)
    return policy, ModelCallGuard(info, policy, extra_rules=backend(info.kind).explain)


def _chat_completions(info: ChatClientInfo, async_client: Any, guard: ModelCallGuard) -> Any:
    """The framework's Chat Completions client: history stays in the agent session (lessons 02–06)."""
    from agent_framework.openai import OpenAIChatCompletionClient

    return OpenAIChatCompletionClient(model=info.model, async_client=async_client, middleware=[guard])


def _key(env: Env, info: ChatClientInfo) -> str | None:
    variable = info.settings.get("api_key_var")
    return get_value(env, variable)[0] if variable else None


# ------------------------------------------------------------------------------ offline


OFFLINE = Backend(
    kind="offline",
    build=lambda info, env: OfflineChatClient(),
)

# ------------------------------------------------------------------------------ OpenAI


def _openai_build(info: ChatClientInfo, env: Env) -> Any:
    from openai import AsyncOpenAI

    policy, guard = _policy_and_guard(info, env)
    # max_retries=0: a call that timed out is not sent again (the learner would wait twice as long).
    # The SDK insists on some key; a keyless local server ignores it.
    sdk = AsyncOpenAI(api_key=_key(env, info) or "not-needed", base_url=info.base_url, max_retries=0,
                      timeout=policy.timeout)
    return _chat_completions(info, sdk, guard)


OPENAI = Backend(
    kind="openai",
    build=_openai_build,
)

# ------------------------------------------------------------------------------ Azure OpenAI


AZURE_TOKEN_SCOPE = "https://cognitiveservices.azure.com/.default"
DEFAULT_AZURE_API_VERSION = "2024-10-21"


def _azure_build(info: ChatClientInfo, env: Env) -> Any:
    from openai import AsyncAzureOpenAI

    policy, guard = _policy_and_guard(info, env)
    auth: dict[str, Any] = {}
    key = _key(env, info)
    if key:
        auth["api_key"] = key
    else:
        try:
            from azure.identity import AzureCliCredential, get_bearer_token_provider
        except ImportError:
            raise ModelConfigurationError(
                "The azure model needs a key or a signed-in Azure identity: set AZURE_OPENAI_API_KEY, or "
                f"`pip install azure-identity` and run `az login`. {OFFLINE_HINT}",
                variable="AZURE_OPENAI_API_KEY",
                kind="azure",
            ) from None
        auth["azure_ad_token_provider"] = get_bearer_token_provider(AzureCliCredential(), AZURE_TOKEN_SCOPE)
    assert info.base_url is not None, "_azure_resolve requires AZURE_OPENAI_ENDPOINT"
    sdk = AsyncAzureOpenAI(
        azure_endpoint=info.base_url,
        azure_deployment=info.model,
        api_version=info.settings.get("api_version", DEFAULT_AZURE_API_VERSION),
        max_retries=0,
        timeout=policy.timeout,
        **auth,
    )
    return _chat_completions(info, sdk, guard)


AZURE = Backend(
    kind="azure",
    build=_azure_build,
)

# ------------------------------------------------------------------------------ a local server


def _local_server_error(err: BaseException, info: ChatClientInfo, timeout: float | None) -> ModelConfigurationError | None:
    """Local servers fail on tool messages when their chat template has no tool support."""
    status = status_of(err)
    if status is None or status < 500:
        return None
    return ModelConfigurationError(
        f"The local model at {info.base_url} returned {status} (a server error): check its log; does it support "
        f"tool calling? llama.cpp's llama-server needs --jinja; llama-cpp-python's chatml-function-calling "
        f"fails on tool results. A model with tool support (Qwen2.5-Instruct, Llama 3.1+) in "
        f"{info.settings.get('model_var', 'LOCAL_MODEL')} usually fixes it. {OFFLINE_HINT}",
        variable=info.settings.get("model_var", "LOCAL_MODEL"),
        kind=info.kind,
    )


LOCAL = Backend(
    kind="local",
    build=_openai_build,  # an OpenAI-compatible server: the same client, with the local cap in its policy
    explain=(_local_server_error,),
)

# ------------------------------------------------------------------------------ Microsoft Foundry


def _foundry_build(info: ChatClientInfo, env: Env) -> Any:
    try:
        from agent_framework_foundry import FoundryChatClient
        from azure.identity.aio import AzureCliCredential
    except ImportError:
        raise ModelConfigurationError(
            "FOUNDRY_PROJECT_ENDPOINT is set but the Foundry extra is not installed: "
            f"`pip install -e \".[foundry]\"` (agent-framework-foundry and azure-identity). {OFFLINE_HINT}",
            variable="FOUNDRY_PROJECT_ENDPOINT",
            kind="foundry",
        ) from None
    # The service would keep the conversation itself; store=False in every call's options (the guard
    # adds it) keeps it in the agent session, and the class says so to the Agent, which decides from
    # STORES_BY_DEFAULT whether to keep history locally.
    _policy, guard = _policy_and_guard(info, env, keep_history_local=True)
    local_history = type("LocalHistoryFoundryChatClient", (FoundryChatClient,), {"STORES_BY_DEFAULT": False})
    accepted = inspect.signature(FoundryChatClient).parameters
    candidates = {
        "project_endpoint": info.base_url,
        "model": info.model,
        "model_deployment_name": info.model,
        "credential": AzureCliCredential(),
        "middleware": [guard],
    }
    return local_history(**{k: v for k, v in candidates.items() if k in accepted})


FOUNDRY = Backend(
    kind="foundry",
    build=_foundry_build,
)

# ------------------------------------------------------------------------------ the registry

BACKENDS: tuple[Backend, ...] = (OPENAI, AZURE, LOCAL, FOUNDRY, OFFLINE)
"""Every backend (the order of choice is :data:`model_config.CHOICES`)."""


def backend(kind: str) -> Backend:
    """The backend registered for ``kind``."""
    for entry in BACKENDS:
        if entry.kind == kind:
            return entry
    raise KeyError(kind)
