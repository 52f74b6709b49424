"""Cases a learner has not seen: drawn per run from pools, with the seed named so a failure can be repeated.

An exercise whose check always uses the lesson's own example can be passed by an answer that only
fits that example. Checks that use :func:`draw` pick other names, values and users on every run; a
❌ hint ends with the seed, and ``LESSON_EXERCISE_SEED=<seed>`` replays exactly those cases.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

from ._registry import Hint

__all__ = ["SEED_VARIABLE", "draw", "drawn_cases", "with_seed"]

SEED_VARIABLE = "LESSON_EXERCISE_SEED"


def draw() -> tuple[random.Random, int]:
    """A random generator for this run and its seed (``LESSON_EXERCISE_SEED`` fixes it)."""
    fixed = os.environ.get(SEED_VARIABLE, "").strip()
    if fixed and not fixed.isdigit():
        raise ValueError(f"{SEED_VARIABLE} must be a whole number, not {fixed!r}: unset it or set e.g. {SEED_VARIABLE}=7")
    seed = int(fixed) if fixed else random.SystemRandom().randrange(1_000_000)
    return random.Random(seed), seed


def with_seed(hint: str, seed: int) -> str:
    """``hint`` with the seed that drew its cases, so the learner can replay them."""
    return f"{hint} (cases drawn with seed {seed}: {SEED_VARIABLE}={seed} repeats them)"


@contextmanager
def drawn_cases() -> Iterator[random.Random]:
    """This run's random generator; a :class:`Hint` raised inside names the seed that drew its cases."""
    rng, seed = draw()
    try:
        yield rng
    except Hint as hint:
        raise Hint(with_seed(str(hint), seed)) from None
