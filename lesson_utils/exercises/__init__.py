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
from . import l01_stateless  # noqa: F401 - lesson 01
from . import l02_sessions  # noqa: F401 - lesson 02
from . import l03_short_term_memory  # noqa: F401
from . import l04_context_providers  # noqa: F401 - lesson 04
from . import l05_persistence  # noqa: F401 - lesson 05
from . import l06_seeded_state  # noqa: F401 - lesson 06
from . import l07_memory_provider  # noqa: F401
from . import l08_search_modes  # noqa: F401
from . import l09_memory_tools  # noqa: F401
from . import l10_memory_that_changes  # noqa: F401  (lesson 10)
from . import l11_measuring_memory  # noqa: F401
from . import l12_failures  # noqa: F401
from . import l13_users  # noqa: F401
from . import l14_scaling  # noqa: F401
from . import l15_framework_memory  # noqa: F401
from . import l16_choosing_a_design  # noqa: F401
from . import l17_capstone  # noqa: F401

__all__ = ["EXERCISES", "Exercise", "Hint", "StubNotFilled", "call_learner", "check", "exercise", "not_a_stub"]
