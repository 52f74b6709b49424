"""``bench/memory_eval.py --designs`` runs every design on a slice of the test split and prints one table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_designs_bench_prints_a_row_per_design_and_ability_on_one_user():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "memory_eval.py"), "--designs", "--users", "1", "--sessions", "4", "--per-ability", "1"],
                          capture_output=True, text=True, timeout=400, cwd=ROOT, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    rows = [line.split("  ")[0] for line in done.stdout.splitlines()[3:] if line and not line.startswith("ran in")]
    assert {"full history", "MemoryContextProvider", "VectorStoreHistoryProvider", "memory tools only", "Cortadel provider",
            "Cortadel memory tools only"} <= set(rows)
    assert "rule-based policy" in done.stdout.splitlines()[0]
