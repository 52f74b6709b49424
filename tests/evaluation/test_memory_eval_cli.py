"""bench/memory_eval.py: scores a LongMemEval file from the command line; a bad path is one clear line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = Path(__file__).with_name("data") / "tiny_longmemeval.json"
pytestmark = pytest.mark.slow


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "memory_eval.py"), *args],
        capture_output=True, text=True, timeout=240, cwd=ROOT, encoding="utf-8",
    )


def test_scores_a_longmemeval_file():
    done = run("--longmemeval", str(TINY), "--modes", "hybrid", "text")
    assert done.returncode == 0, done.stderr
    assert "LongMemEval file" in done.stdout and "3 users, 3 questions" in done.stdout
    assert "| hybrid | information_extraction | 1 | 100% | 100% |" in done.stdout
    assert "Full-history baseline" in done.stdout


def test_a_missing_file_is_one_line_naming_the_fix(tmp_path):
    done = run("--longmemeval", str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: No dataset at") and len(done.stderr.strip().splitlines()) == 1
