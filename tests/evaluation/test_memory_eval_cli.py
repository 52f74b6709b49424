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


def test_scores_one_user_of_the_dev_split_with_the_haystack_figures():
    done = run("--split", "dev", "--users", "1", "--modes", "hybrid")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dev split, seed 0 (first 1 users): 1 users")
    assert "| hybrid | knowledge_update |" in done.stdout and "| hybrid | follow_up |" in done.stdout
    assert "false supersessions among keeps" in done.stdout and "History per user: 44 sessions" in done.stdout


def test_an_unknown_split_is_refused_by_the_parser():
    done = run("--split", "nope")
    assert done.returncode == 2 and "invalid choice" in done.stderr
