"""The lesson's model: the offline lesson model, and real models chosen from the environment."""

from __future__ import annotations

from .offline import OFFLINE_MODEL_NAME, ModelRequest, OfflineChatClient
from .backends import BACKENDS, Backend
from .guard import ModelCallGuard
from model_config.policy import CallPolicy, read_policy
from .recording import RequestRecorder
from .selection import (
    ChatClientInfo,
    ModelConfigurationError,
    check_chat_client,
    describe_chat_client,
    explain_model_error,
    find_env_file,
    get_chat_client,
    info_for,
    lesson_environment,
    load_lesson_env,
    resolve_model,
)

__all__ = [
    "BACKENDS",
    "Backend",
    "CallPolicy",
    "ModelCallGuard",
    "read_policy",
    "OFFLINE_MODEL_NAME",
    "ChatClientInfo",
    "ModelConfigurationError",
    "ModelRequest",
    "OfflineChatClient",
    "RequestRecorder",
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
