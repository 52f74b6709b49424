"""Checks for lesson 08: the production provider's refusals and what it renders.

The provider refuses bad construction with a one-line error that names the fix; a check reads that
line. A rendered memory block must keep one memory on one line, whatever the memory's text holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def error_message(make: Callable[[], Any]) -> str | None:
    """The message of the exception ``make()`` raised, or ``None`` when it raised none."""
    try:
        make()
    except Exception as error:
        return str(error)
    return None


def block_lines(block: str | None) -> list[str]:
    """The lines of a rendered memory block (none for no block), as the model reads them."""
    return block.splitlines() if block else []
