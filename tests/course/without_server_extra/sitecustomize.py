"""Pretend the ``server`` extra is not installed: a Python started with this folder on PYTHONPATH.

Python imports ``sitecustomize`` at start-up (the ``site`` module), so this runs before anything
else in that process — and in every process it starts with the same environment, such as a
Jupyter kernel started by nbclient or a learner's function run in a fresh process. It puts a
finder first on ``sys.meta_path`` that refuses the top-level modules named in
``LESSON_BLOCKED_MODULES`` (comma-separated), exactly as if their distributions were absent:
``import fastapi`` raises ``ModuleNotFoundError`` and ``importlib.util.find_spec("fastapi")``
finds nothing. One virtualenv serves both worlds; tests/course/test_server_extra.py uses it.
"""

from __future__ import annotations

import os
import sys

_BLOCKED = frozenset(filter(None, os.environ.get("LESSON_BLOCKED_MODULES", "").split(",")))


class _BlockServerExtra:
    """A meta-path finder that finds the blocked modules nowhere (and says so)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {fullname!r} (blocked: the server extra is not installed)", name=fullname)
        return None  # not ours: the next finder looks


if _BLOCKED:
    sys.meta_path.insert(0, _BlockServerExtra())
