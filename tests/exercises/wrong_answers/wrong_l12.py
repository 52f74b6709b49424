"""Wrong answers to 12.circuit_breaker, written from the exercise text only (issue 21, item 1)."""

from __future__ import annotations

WRONG: list = []
