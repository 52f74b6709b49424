"""Exercises with self-checks: ``from course_kit.exercises import check``.

``check("04.remember_city", MyProvider)`` runs your answer through the framework on the offline
lesson model (and a throwaway local memory server where the exercise needs one), prints one line —
``✅ …`` or ``❌ …`` with a hint — and returns ``True`` or ``False``. It never raises.
``EXERCISES`` lists every exercise id with its lesson and title. Solutions are in
``notebooks/solutions/``.

Each lesson's checkers live in their own module below; importing this package registers them all.
"""

from __future__ import annotations

from ._registry import EXERCISES, Exercise, Hint, StubNotFilled, call_learner, check, exercise, not_a_stub

# One module per lesson (course_kit/lessons/<lesson>/exercises.py); importing it registers that lesson's exercises.
import course_kit.lessons.l01_stateless_runs.exercises
import course_kit.lessons.l02_sessions.exercises
import course_kit.lessons.l03_short_term_memory.exercises
import course_kit.lessons.l04_context_providers.exercises
import course_kit.lessons.l05_persistence.exercises
import course_kit.lessons.l06_seeded_state.exercises
import course_kit.lessons.l07_build_a_memory_provider.exercises
import course_kit.lessons.l08_cortadel_provider.exercises
import course_kit.lessons.l09_memory_tools.exercises
import course_kit.lessons.l10_memory_that_changes.exercises
import course_kit.lessons.l11_measuring_memory.exercises
import course_kit.lessons.l12_production_failures.exercises
import course_kit.lessons.l13_production_users.exercises
import course_kit.lessons.l14_scaling_out.exercises
import course_kit.lessons.l15_framework_memory.exercises
import course_kit.lessons.l16_choosing_a_memory_design.exercises
import course_kit.lessons.l17_capstone.exercises  # noqa: F401

__all__ = ["EXERCISES", "Exercise", "Hint", "StubNotFilled", "call_learner", "check", "exercise", "not_a_stub"]
