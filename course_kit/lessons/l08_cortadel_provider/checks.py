"""Checks for lesson 08: the production provider's refusals and what it renders.

The provider refuses bad construction with a one-line error that names the fix; a check reads that
line. A search hit is picked by what it says, so a check can follow one memory from the server's answer
to the session's state and back to the message it was distilled from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def error_message(make: Callable[[], Any]) -> str | None:
    """The message of the exception ``make()`` raised, or ``None`` when it raised none."""
    try:
        make()
    except Exception as error:
        return str(error)
    return None


def first_hit(hits: Sequence[Any], word: str) -> Any | None:
    """The first search hit whose content mentions ``word`` (any case), or ``None`` when none does."""
    return next((hit for hit in hits if word.lower() in (hit.content or "").lower()), None)
