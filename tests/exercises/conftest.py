"""What every exercise test asks of ``check``: one line, ✅ for a right answer, ❌ with the hint for a wrong one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lesson_utils.exercises import check


@pytest.fixture
def fails_with(capsys: pytest.CaptureFixture[str]) -> Callable[..., str]:
    """``fails_with(exercise_id, answer, *hints)``: the check fails with one ❌ line holding one of ``hints``."""

    def run(exercise_id: str, answer: Any, *hints: str) -> str:
        assert check(exercise_id, answer) is False
        out = capsys.readouterr().out
        assert out.startswith(f"\u274c {exercise_id}") and out.count("\n") == 1, out
        assert any(hint in out for hint in hints), out
        return out

    return run
