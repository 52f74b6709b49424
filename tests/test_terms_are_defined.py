"""Lessons 15–17 define a term where a learner first reads it, and say whose each class is.

The learner report on lessons 15–17 ("What a learner met") found "hot path" used three times in 15 and defined in
16, "Letta" never explained, ``owner_state_key`` / ``application_id`` / ``InMemoryStore`` unexplained, a row named
"memory tools only" that is ``FileMemoryProvider``, "calls/turn" never said, and ``design_cases(sessions=6)``
printing seven sessions. Each row below: the first prose cell that names the term also says what it is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = {"15": "15_framework_memory", "16": "16_choosing_a_memory_design", "17": "17_capstone"}

# lesson -> (term, words the first prose cell naming it must hold)
FIRST_USE = [
    ("15", "hot path", "while the user waits"),
    ("15", "Letta", "agent framework"),
    ("15", "owner_state_key", "names that key"),
    ("15", "application_id", "whose records"),
    ("15", "InMemoryStore", "vector store inside this process"),
    ("16", "calls/turn", "model calls"),
    ("16", "sessions=6", "may hold more than six"),
]
# lesson -> the course's classes its code uses, which its "whose is what" line must name as the course's
COURSE_CLASSES = ("CortadelContextProvider", "LearnedInstructionsProvider", "MiniLMEmbeddingClient")


def _prose(lesson: str) -> list[str]:
    with open(NOTEBOOKS / f"{LESSONS[lesson]}.ipynb", encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    return [" ".join("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown"]  # one space apart


def _code(lesson: str) -> str:
    with open(NOTEBOOKS / f"{LESSONS[lesson]}.ipynb", encoding="utf-8") as f:
        return "\n".join("".join(c["source"]) for c in json.load(f)["cells"] if c["cell_type"] == "code")


@pytest.mark.parametrize(("lesson", "term", "meaning"), FIRST_USE, ids=lambda v: str(v))
def test_a_term_is_explained_where_it_is_first_read(lesson: str, term: str, meaning: str) -> None:
    first = next((cell for cell in _prose(lesson) if term in cell), None)
    assert first is not None, f"lesson {lesson} no longer names {term!r}: update this table"
    assert meaning in first, f"lesson {lesson} first names {term!r} without saying what it is ({meaning!r})"


def test_the_memory_tools_only_row_is_named_as_file_memory_provider() -> None:
    assert any("`memory tools only` is `FileMemoryProvider`" in cell for cell in _prose("16"))


@pytest.mark.parametrize("lesson", list(LESSONS))
def test_each_lesson_says_which_classes_are_the_frameworks_and_which_the_courses(lesson: str) -> None:
    lines = [line for cell in _prose(lesson) for line in cell.split(". ") if "Microsoft Agent Framework's" in line]
    assert len(lines) == 1, f"lesson {lesson}: one sentence says whose each class is, found {len(lines)}"
    theirs = lines[0].split("this course's")[0] if "this course's" in lines[0] else ""
    assert theirs, f"lesson {lesson}: the sentence names no class as this course's"
    used = [name for name in COURSE_CLASSES if name in _code(lesson)]
    assert all(f"`{name}`" in theirs.split("Framework's")[-1] for name in used), (lesson, used, lines[0])
