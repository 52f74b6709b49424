"""One call that opens a lesson: the active model, its client, and a recorder of what it is sent.

Every lesson used to open with the same dozen lines: describe the model, print it, decide whether
checks about wording apply, build the client, build a request recorder. None of that is what the
lesson teaches, so it lives here, once. What *does* teach (building the ``Agent``, choosing its
context providers, running it) stays in the notebook's own cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chat_models import RequestRecorder, describe_chat_client, get_chat_client
from chat_models.selection import ChatClientInfo


#: Reply and summary caps a lesson sets on a real model to keep its many calls to minutes on a CPU.
SHORT_REPLY_TOKENS = 48
SUMMARY_TOKENS = 96


@dataclass
class Lesson:
    """What a lesson's cells need about the model: which one, its client, and its request log."""

    model: ChatClientInfo
    client: Any
    recorder: RequestRecorder

    @property
    def offline(self) -> bool:
        """True on the deterministic offline lesson model, where checks on exact wording hold."""
        return self.model.kind == "offline"

    def short_replies(self, max_tokens: int = SHORT_REPLY_TOKENS) -> dict[str, Any]:
        """Chat options for a lesson that makes many calls: on a real model, replies of at most ``max_tokens``.

        A lesson that runs a long conversation six times (lesson 03) makes about seventy calls; at a
        CPU model's pace, uncapped replies make that half an hour. The offline model needs no cap.
        """
        return {} if self.offline else {"max_tokens": max_tokens}

    def summariser(self, max_tokens: int = SUMMARY_TOKENS) -> Any:
        """The lesson's client for a summariser: on a real model each summary is at most ``max_tokens``."""
        return self.client if self.offline else CappedClient(self.client, max_tokens)


class CappedClient:
    """A chat client whose every ``get_response`` asks for at most ``max_tokens`` (a caller's own cap wins).

    For a framework component that calls a client with no options of its own, such as a compaction
    strategy's summariser; the client's middleware (and so the call guard) still runs on every call.
    """

    def __init__(self, client: Any, max_tokens: int) -> None:
        self.client = client
        self.max_tokens = max_tokens

    def get_response(self, messages: Sequence[Any], *, options: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        return self.client.get_response(messages, options={"max_tokens": self.max_tokens, **(options or {})}, **kwargs)


def start_lesson(*, quiet: bool = False) -> Lesson:
    """Pick the model from the environment (and ``.env``), build its client, print which one it is.

    ``lesson.recorder`` is a chat middleware: pass it to ``Agent(..., middleware=[lesson.recorder])``
    and ``lesson.recorder.last_request.render()`` shows exactly what the model was sent, on any model.
    """
    model = describe_chat_client()
    if not quiet:
        print(f"model: {model}")
    return Lesson(model=model, client=get_chat_client(), recorder=RequestRecorder())
