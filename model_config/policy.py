"""How long a model call may take and how much it may write: one policy for every lesson's calls.

Small local models on a CPU are slow, and some never stop: with no output cap a 0.5B model wrote
3,800 tokens for a one-line question and ran into the timeout, was retried, and the learner waited
four minutes for a wrong message. So every real model call carries:

- a **timeout** (``LESSON_MODEL_TIMEOUT`` seconds, default 120) that ends the call, never retried;
- for local models, an **output cap** (``LOCAL_MODEL_MAX_TOKENS``, default 512; ``0`` = none),
  sent as ``max_tokens`` unless the caller chose one.

The policy is read from the environment and ``.env`` by ``get_chat_client()``, so a lesson's child
process (the persistence lesson resumes a session in one) gets the same policy as the notebook.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from .configuration import OFFLINE_HINT, ModelConfigurationError

TIMEOUT_VARIABLE = "LESSON_MODEL_TIMEOUT"
MAX_TOKENS_VARIABLE = "LOCAL_MODEL_MAX_TOKENS"
DEFAULT_TIMEOUT_SECONDS = 120.0
DEFAULT_LOCAL_MAX_TOKENS = 512


@dataclass(frozen=True)
class CallPolicy:
    """What every call to one model carries: a timeout, an output cap, where history lives."""

    timeout: float = DEFAULT_TIMEOUT_SECONDS
    max_tokens: int | None = None
    keep_history_local: bool = False  # send store=False: the agent session, not the service, keeps history

    def options(self, chosen: Mapping[str, object] | None = None) -> dict[str, object]:
        """The chat options this policy adds to a call whose caller ``chosen`` options did not set them."""
        added: dict[str, object] = {}
        cap = (chosen or {}).get("max_tokens") or self.max_tokens
        if cap:
            added["max_tokens"] = cap  # sent as max_completion_tokens by the framework
            # Older local servers (llama-cpp-python, some Ollama versions) read only max_tokens: the
            # same cap under both names, the caller's when it chose one.
            added["extra_body"] = {"max_tokens": cap}
        if self.keep_history_local:
            added["store"] = False
        return added


def read_policy(env: Mapping[str, str], kind: str, *, keep_history_local: bool = False) -> CallPolicy:
    """The policy for a model of ``kind`` from the variables in ``env``; bad values name their variable."""
    timeout = _number(env, TIMEOUT_VARIABLE, DEFAULT_TIMEOUT_SECONDS, kind, minimum=1.0)
    max_tokens: int | None = None
    if kind == "local":
        cap = _number(env, MAX_TOKENS_VARIABLE, DEFAULT_LOCAL_MAX_TOKENS, kind, minimum=0.0, whole=True)
        max_tokens = int(cap) or None
    return CallPolicy(timeout=timeout, max_tokens=max_tokens, keep_history_local=keep_history_local)


def _number(env: Mapping[str, str], name: str, default: float, kind: str, *, minimum: float, whole: bool = False) -> float:
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        value = math.nan
    if not (value >= minimum and math.isfinite(value)):
        what = "a whole number" if whole else "a number of seconds"
        raise ModelConfigurationError(
            f"{name}={raw!r} is not {what} of at least {minimum:g} (for example {name}={default:g}). {OFFLINE_HINT}",
            variable=name,
            kind=kind,
        )
    return value
