"""An update decider that asks a real model: an opt-in option of the local server, for comparison.

``start_memory_server(update_decider="model")`` (or ``--update-decider model``) makes the server ask
the OpenAI-compatible model the lessons are configured for (``LOCAL_MODEL_BASE_URL`` and
``LOCAL_MODEL``, or ``OPENAI_API_KEY`` …, read by :mod:`model_config`) for the verdicts of
``updates.UpdateDecider``, with one short JSON prompt per write that has candidates. It lets a
lesson put the offline decider and a model side by side on the same pairs. It is a choice of this
local server, not a description of how Cortadel decides.

It fails safe: an unreachable server, an HTTP error, a timeout, or an answer that is not the
JSON asked for (wrong shape, wrong length, unknown verdict) gets the offline decider's verdicts
instead and one warning line in the log. The attribute a fact is indexed under stays the offline
decider's (a lookup key, not a verdict), so a write costs at most one model call.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from offline_reader.changes import Fact, UpdateDecider, Verdict

__all__ = ["ModelDecider"]

logger = logging.getLogger(__name__)

SYSTEM = (
    "You maintain a user's long-term memory. Compare a NEW fact with each STORED fact about the same user. "
    "Answer with JSON only. For a new fact: {\"verdicts\": [...]} with one of \"same\" (says the same thing), "
    "\"supersedes\" (a new value of something a person has one of at a time: home, name, age, employer, job, "
    "partner, car, a favourite of one kind, the time of one activity; or the new fact says the old stopped), "
    "\"unrelated\" (both can be true: likes, pets, possessions, other people, other attributes) per stored fact. "
    "For a withdrawal: {\"retracts\": [true|false, ...]} per stored fact, true when the withdrawal takes it back."
)
_JSON = re.compile(r"\{.*\}", re.DOTALL)


class ModelDecider:
    """Verdicts from a configured model; the offline ``fallback`` on any failure (see the module docstring)."""

    name = "model"

    def __init__(
        self, *, fallback: UpdateDecider, env: Mapping[str, str] | None = None, timeout: float = 30.0
    ) -> None:
        from model_config import ModelConfigurationError, lesson_environment, resolve_model

        env = dict(env) if env is not None else lesson_environment()[0]
        info = resolve_model(env)
        if info.kind not in ("local", "openai") or not info.model:
            raise ModelConfigurationError(
                f"update_decider='model' needs an OpenAI-compatible model, and the lessons are set to {info.kind}: "
                "set LOCAL_MODEL_BASE_URL and LOCAL_MODEL (or OPENAI_API_KEY), or use update_decider='meaning'.",
                variable="LOCAL_MODEL_BASE_URL")
        self.fallback = fallback
        self.model = info.model
        self.url = (info.base_url or "https://api.openai.com/v1").rstrip("/") + "/chat/completions"
        key_var = info.settings.get("api_key_var")
        key = env.get(key_var, "").strip() if key_var else ""
        self._http = httpx.Client(timeout=timeout, headers={"Authorization": f"Bearer {key}"} if key else {})

    def attribute(self, fact: Fact) -> str | None:
        return self.fallback.attribute(fact)

    def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]:
        if not stored:
            return []
        answer = self._ask(f"NEW fact: {new.text}", stored, "verdicts")
        if answer is not None and all(a in {v.value for v in Verdict} for a in answer):
            return [Verdict(a) for a in answer]
        return self.fallback.decide(new, stored)

    def retracts(self, withdrawal: Fact, stored: Sequence[Fact]) -> list[bool]:
        if not stored:
            return []
        answer = self._ask(f"WITHDRAWAL: {withdrawal.text}", stored, "retracts")
        if answer is not None and all(isinstance(a, bool) for a in answer):
            return list(answer)
        return self.fallback.retracts(withdrawal, stored)

    def _ask(self, said: str, stored: Sequence[Fact], key: str) -> list[Any] | None:
        """The model's list under ``key``, one item per stored fact; None (and one log line) otherwise."""
        listed = "\n".join(f"{i}. {fact.text}" for i, fact in enumerate(stored, 1))
        body = {"model": self.model, "temperature": 0, "max_tokens": 300, "messages": [
            {"role": "system", "content": SYSTEM}, {"role": "user", "content": f"{said}\nSTORED facts:\n{listed}"}]}
        try:
            response = self._http.post(self.url, json=body)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"] or ""
            found = _JSON.search(content)
            answer = json.loads(found.group(0))[key] if found else None
            if isinstance(answer, list) and len(answer) == len(stored):
                return [a.strip().lower() if isinstance(a, str) else a for a in answer]
            problem = f"an answer without a {key} list of {len(stored)}: {content[:80]!r}"
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
            problem = f"{type(exc).__name__}: {str(exc)[:120]}"
        logger.warning("Model update decider (%s) failed, used the offline decider: %s", self.model, problem)
        return None

    def close(self) -> None:
        self._http.close()
