"""Exercises with self-checks: ``from lesson_utils.exercises import check``.

``check("04.remember_city", MyProvider)`` runs your answer through the framework on the offline
lesson model (and a throwaway local memory server where the exercise needs one), prints one line —
``✅ …`` or ``❌ …`` with a hint — and returns ``True`` or ``False``. It never raises.
``EXERCISES`` lists every exercise id with its lesson and title. Solutions are in
``notebooks/solutions/``.

Each lesson's checkers live in their own module below; importing this package registers them all.
"""

from __future__ import annotations

from ._registry import EXERCISES, Exercise, Hint, StubNotFilled, call_learner, check, exercise, not_a_stub

# One module per lesson; importing it registers that lesson's exercises.
# (Lesson modules are added below, one import line each.)
from . import l10_memory_that_changes  # noqa: E402,F401  (lesson 10)

__all__ = ["EXERCISES", "Exercise", "Hint", "StubNotFilled", "call_learner", "check", "exercise", "not_a_stub"]
