"""Lint, types and declared dependencies are part of the suite: `python course.py test --full` runs them.

Each tool runs as a subprocess from this venv with the rules in pyproject.toml ([tool.ruff],
[tool.mypy], [tool.deptry]); a finding fails the test with the tool's own output. A tool that is
not installed (the `test` extra was not) skips with the install command instead of passing.
mypy keeps its cache under build/ (git-ignored), so a warm run takes seconds.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("lesson_utils", "model_config", "chat_models", "local_memory_server", "memory_evaluation", "course_kit")

# (tool module, arguments): what `python course.py test --full` checks, and what a contributor runs by hand.
CHECKS = {
    "ruff": ["check", "--no-cache", *PACKAGES, "tests", "bench", "course.py"],
    "mypy": [argument for package in PACKAGES for argument in ("-p", package)],
    "deptry": ["."],
}


@pytest.mark.timeout(900)  # a cold mypy run (no cache yet) analyses the framework too: ~1 min on 2 cores
@pytest.mark.parametrize("tool", list(CHECKS))
def test_tool_is_clean(tool: str) -> None:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed: pip install -e '.[test]'")
    completed = subprocess.run(
        [sys.executable, "-m", tool, *CHECKS[tool]],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=900,
    )
    report = (completed.stdout + completed.stderr).strip()
    assert completed.returncode == 0, f"`{tool} {' '.join(CHECKS[tool])}` found problems:\n{report}"
