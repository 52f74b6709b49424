"""Wrong answers to 13.provider_cache, written from the exercise text only (issue 21, item 1)."""

from __future__ import annotations

WRONG: list = []
