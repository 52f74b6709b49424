"""Writing a stored result: the whole file or the old one, never half of one.

The evaluation keeps its runs as JSON in the repository (stored model answers, the readers compared, the lessons'
stored measurements). A run that dies while writing must not leave a truncated file that a lesson or a test then
reads, so each is written beside its target and moved over it in one step.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["write_json"]


def write_json(path: Path, data: Any, *, end: str = "\n", **dump_options: Any) -> None:
    """``json.dump(data, **dump_options)`` then ``end`` into ``path``, replacing it atomically."""
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, **dump_options)
        handle.write(end)
    os.replace(tmp, path)
