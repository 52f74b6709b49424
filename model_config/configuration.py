"""What a configured model is, and the one error a broken configuration raises.

Every backend (``backends.py``), the call policy (``policy.py``) and the error translation
(``errors.py``) speak in these terms, so they live apart from all of them: a
:class:`ChatClientInfo` says which model and why, and a :class:`ModelConfigurationError` says which
variable to change. The small readers below are how every backend reads its variables, so a
missing or malformed value is reported the same way whichever backend asked for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lesson_utils.errors import LessonError

OFFLINE_HINT = "Or set LESSON_MODEL=offline to use the offline lesson model."


class ModelConfigurationError(LessonError, RuntimeError):
    """The configured model cannot be used; the message says which variable to fix."""

    def __init__(self, message: str, *, variable: str | None = None, kind: str | None = None) -> None:
        super().__init__(message)
        self.variable = variable
        self.kind = kind


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


def get_value(env: Mapping[str, str], *names: str) -> tuple[str | None, str | None]:
    """The first non-empty value among ``names``, and the name it came from."""
    for name in names:
        value = (env.get(name) or "").strip()
        if value:
            return value, name
    return None, None


def require(env: Mapping[str, str], kind: str, names: tuple[str, ...], what: str, example: str) -> tuple[str, str]:
    """The first value among ``names``; missing, it is an error naming ``names[0]`` and an example."""
    value, name = get_value(env, *names)
    if value is None:
        raise ModelConfigurationError(
            f"The {kind} model needs {what}: set {names[0]} (for example {names[0]}={example}) in your "
            f"environment or .env file. {OFFLINE_HINT}",
            variable=names[0],
            kind=kind,
        )
    return value, name or names[0]


def require_url(env: Mapping[str, str], kind: str, names: tuple[str, ...], example: str) -> tuple[str, str]:
    """Like :func:`require`, and the value must be an http(s) URL (returned without a trailing slash)."""
    value, name = require(env, kind, names, "a base URL", example)
    if not value.startswith(("http://", "https://")):
        raise ModelConfigurationError(
            f"{name}={value!r} is not a URL: it must start with http:// or https:// (for example {example}). "
            f"{OFFLINE_HINT}",
            variable=name,
            kind=kind,
        )
    return value.rstrip("/"), name
