"""Honest checks about what a *model* did, for lessons that run on any model.

A lesson proves two kinds of claim. Claims about what the framework did (what was sent, stored,
injected) hold on every model and are plain ``assert`` cells. Claims about what the model did with
it (it used the name, it called the tool) hold for certain only on the deterministic offline model.
:func:`expect_model` is the one place that decides what happens to those:

- on the offline model it asserts, so the test suite fails if the lesson stops showing its point;
- on a real model it prints one line, ``✓ …`` or ``✗ … — <what to try>``, and never passes silently.

When ``LESSON_CLAIMS_LOG`` names a file, every claim is appended to it as one JSON line; that is how
``python course.py test --live`` builds its per-lesson table of what a real model demonstrated.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .models import describe_chat_client

CLAIMS_LOG_VARIABLE = "LESSON_CLAIMS_LOG"


def expect_model(claim: str, shown: bool, *, hint: str = "") -> bool:
    """Report whether the model showed ``claim``; assert it on the offline lesson model.

    ``hint`` says what a learner on a real model can do when it did not (shown after ``✗``).
    Returns ``shown`` so a cell can branch on it.
    """
    shown = bool(shown)
    model = describe_chat_client()
    _log(claim, shown, model.kind, model.model)
    if model.kind == "offline":
        assert shown, f"the offline lesson model should show: {claim}"
        print(f"\u2713 {claim}")
        return shown
    if shown:
        print(f"\u2713 {claim} (this model showed it)")
    else:
        extra = f" \u2014 {hint}" if hint else ""
        print(f"\u2717 {claim}: this model did not show it{extra}")
    return shown


def _log(claim: str, shown: bool, kind: str, model: str | None) -> None:
    path = os.environ.get(CLAIMS_LOG_VARIABLE)
    if not path:
        return
    record = {"claim": claim, "shown": shown, "kind": kind, "model": model}
    with open(Path(path), "a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")
