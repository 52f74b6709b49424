"""Lesson 11's checks: the scale of a scored user's history."""

from __future__ import annotations

from typing import Any

from lesson_utils.cortadel.gating import estimate_tokens

__all__ = ["history_tokens"]


def history_tokens(case: Any) -> int:
    """How many tokens a case's whole history holds (every turn of every session): the full-history baseline."""
    return sum(estimate_tokens(turn.content) for session in case.sessions for turn in session.turns)
