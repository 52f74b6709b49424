"""One call that opens a lesson: the active model, its client, and a recorder of what it is sent.

Every lesson used to open with the same dozen lines: describe the model, print it, decide whether
checks about wording apply, build the client, build a request recorder. None of that is what the
lesson teaches, so it lives here, once. What *does* teach (building the ``Agent``, choosing its
context providers, running it) stays in the notebook's own cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import RequestRecorder, describe_chat_client, get_chat_client
from .models.selection import ChatClientInfo


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


def start_lesson(*, quiet: bool = False) -> Lesson:
    """Pick the model from the environment (and ``.env``), build its client, print which one it is.

    ``lesson.recorder`` is a chat middleware: pass it to ``Agent(..., middleware=[lesson.recorder])``
    and ``lesson.recorder.last_request.render()`` shows exactly what the model was sent, on any model.
    """
    model = describe_chat_client()
    if not quiet:
        print(f"model: {model}")
    return Lesson(model=model, client=get_chat_client(), recorder=RequestRecorder())
