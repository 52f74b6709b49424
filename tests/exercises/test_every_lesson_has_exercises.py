"""Every lesson from 01 on ends with 1–3 exercises whose checks are registered, and has a solution notebook
that proves each of them with ``assert check(...) is True`` (nbmake runs it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from course_kit.exercises import EXERCISES

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = [p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if 1 <= int(p.name[:2]) < 90]
CHECK = re.compile(r"""check\(\s*["'](\d\d\.[a-z0-9_]+)["']""")


def cells(path: Path, kind: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == kind]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_the_lesson_ends_with_registered_exercises(lesson: Path) -> None:
    number = lesson.name[:2]
    assert any(re.search(r"^## Exercises", text, re.M) for text in cells(lesson, "markdown")), (
        f"{lesson.name} needs an '## Exercises' section"
    )
    used = {m.group(1) for text in cells(lesson, "code") for m in CHECK.finditer(text)}
    registered = {e.id for e in EXERCISES.values() if e.lesson == number}
    assert 1 <= len(used) <= 3, f"{lesson.name} checks {sorted(used)}; a lesson has one to three exercises"
    assert used == registered, f"{lesson.name} checks {sorted(used)}, registered for it: {sorted(registered)}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_the_solution_notebook_proves_every_exercise(lesson: Path) -> None:
    solution = NOTEBOOKS / "solutions" / lesson.name
    assert solution.is_file(), f"notebooks/solutions/{lesson.name} is missing"
    code = "\n".join(cells(solution, "code"))
    for exercise_id in {e.id for e in EXERCISES.values() if e.lesson == lesson.name[:2]}:
        assert re.search(rf"""assert check\(\s*["']{re.escape(exercise_id)}["'].*\)\s+is True""", code), (
            f"{solution.name} should `assert check({exercise_id!r}, ...) is True`"
        )
