"""Lesson 01's checks: what a streamed run reported besides its text.

Whether a stream reports token usage is up to the server (many local ones report none), so the
lesson states it as a claim about the model, read from the final response with this helper.
"""

from __future__ import annotations

from typing import Any


def usage_reported(response: Any) -> bool:
    """True when ``response`` carries a token count for its output (``usage_details``)."""
    return bool((getattr(response, "usage_details", None) or {}).get("output_token_count"))
