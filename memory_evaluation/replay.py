"""A model endpoint that answers a request it has seen before from a file: comparing designs on the same answers.

Why: the write path's guard-rails act after the model has answered (``memory_server/understanding.py``), so two
designs that differ only in their guards should be compared on the very same answers. A small model on a CPU takes
seconds per call; replaying the first run's answers makes every further design free and its comparison exact.
Requests are keyed by their JSON (model, messages, schema): any change of prompt is a new request.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from local_memory_server.model_endpoint import ModelAnswerError, ModelEndpoint

from .stored_json import write_json

__all__ = ["ReplayEndpoint"]


class ReplayEndpoint(ModelEndpoint):
    """A :class:`ModelEndpoint` whose answers are kept in ``path`` and reused for the same request."""

    path: Path
    answers: dict[str, Any]
    #: Answer from the file only: a request not in it is a :class:`ModelAnswerError` (the turn falls back to
    #: the offline reader and is counted as a fallback), never a call.
    stored_only: bool = False

    @classmethod
    def around(cls, endpoint: ModelEndpoint, path: str | os.PathLike[str]) -> ReplayEndpoint:
        replay = cls(endpoint.url, endpoint.model, endpoint.api_key, timeout=endpoint.timeout)
        replay.path = Path(path)
        replay.answers = {}
        if replay.path.is_file():
            with open(replay.path, encoding="utf-8") as handle:
                replay.answers = json.load(handle)
        return replay

    @classmethod
    def stored(cls, path: str | os.PathLike[str], model: str) -> ReplayEndpoint:
        """A stored run of ``model`` replayed with no model at hand: what lessons and CI read."""
        replay = cls.around(ModelEndpoint("stored-run://", model), path)
        replay.stored_only = True
        return replay

    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *, name: str,
                      max_tokens: int) -> dict[str, Any]:
        key = hashlib.sha256(json.dumps([self.model, messages, schema], sort_keys=True).encode("utf-8")).hexdigest()
        if key not in self.answers and self.stored_only:
            raise ModelAnswerError(f"this request is not in the stored run {self.path.name}")
        if key not in self.answers:
            self.answers[key] = {"answer": super().complete_json(messages, schema, name=name, max_tokens=max_tokens),
                                 "seconds": self.seconds[-1]}
        else:
            self.seconds.append(self.answers[key]["seconds"])  # the time the answer took when it was asked
        return self.answers[key]["answer"]

    def save(self) -> None:
        write_json(self.path, self.answers, end="")
