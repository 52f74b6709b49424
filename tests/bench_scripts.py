"""The scripts in ``bench/`` are files, not a package: tests load one by path to call its functions."""

from __future__ import annotations

import sys
from importlib import util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench_script(name: str) -> ModuleType:
    """``bench/<name>.py`` as a module, registered under ``name`` (a dataclass in it looks its module up there)."""
    spec = util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
