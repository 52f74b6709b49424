"""Lesson 06's check: what lesson 04's ``UserMemoryProvider`` told the model, read back from a request.

``UserMemoryProvider`` turns its slot into instructions ("The user's name is Priya.", "The user is
31 years old."). Reading those sentences back out of a recorded request gives the memory the model
was *sent*, as a dict, so a check cell compares it with the seed in one line, whatever the model did.
"""

from __future__ import annotations

import re
from typing import Any

_NAME = re.compile(r"The user's name is (?P<name>.+?)\.(?:\s|$)")
_AGE = re.compile(r"The user is (?P<age>\d+) years old\.")


def memory_told(request: Any) -> dict[str, Any]:
    """The name and age a ``UserMemoryProvider`` put into ``request``'s instructions (``{}``: none)."""
    told: dict[str, Any] = {}
    if match := _NAME.search(request.instructions):
        told["name"] = match.group("name")
    if match := _AGE.search(request.instructions):
        told["age"] = int(match.group("age"))
    return told
