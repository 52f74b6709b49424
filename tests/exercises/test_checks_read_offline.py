"""A check judges the learner's code the same whatever model ``.env`` configures: every memory server the checks
(and the capstone's grader, and the scorecard they share with lesson 11) start for themselves reads with the
offline reader. With ``understanding="auto"`` a learner's model would read the check's seeded turns, and a check
could pass or fail a right answer by what that model understood."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTERS = sorted((ROOT / "course_kit" / "lessons").glob("l*/exercises.py")) + [
    ROOT / "memory_evaluation" / name for name in ("assistant_trial.py", "scorecard.py", "abstention.py")]


def _starts(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "start_memory_server"]


@pytest.mark.parametrize("path", [p for p in STARTERS if _starts(p)], ids=lambda p: p.name)
def test_a_check_starts_its_memory_server_with_the_offline_reader(path: Path) -> None:
    for call in _starts(path):
        said = {k.arg: k.value for k in call.keywords}
        assert isinstance(said.get("understanding"), ast.Constant) and said["understanding"].value == "offline", (
            f"{path.name}:{call.lineno}: start_memory_server(understanding='offline'), so the learner's model never reads")
