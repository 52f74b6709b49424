"""Wrong answers to 11.tuned_floor, written from the exercise text only (issue 21, item 1).

The blind author's answers go here (from /work/spec/exercises/11.tuned_floor.md).
"""

from __future__ import annotations

WRONG: list = []
