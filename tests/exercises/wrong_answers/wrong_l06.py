"""Wrong answers to 06.start_over, written from the exercise text only (issue 21, item 1)."""

from __future__ import annotations

WRONG: list = []
