"""Lessons read like lessons: short check cells, one note on real models, a length a learner can follow.

A check cell (one that asserts, states a model claim with ``expect_model`` or grades an exercise with
``check``) proves its claim in at most three visible lines; the machinery lives in named helpers
(``course_kit.checks``). What a real model may or may not show is said once per lesson, in an
*On a real model* note, not as a hedge on every claim. No lesson has more than 35 cells or about 1,500
words of prose; the appendix (90) is exempt from the length.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
LESSONS = [nb for nb in NOTEBOOKS if not nb.name.startswith("9")]
MAX_CELLS, MAX_WORDS, MAX_CHECK_LINES = 35, 1500, 3
CHECKING = re.compile(r"^\s*assert\b|\bexpect_model\(|\bcheck\(", re.M)


def _cells(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return json.load(f)["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _prose_words(cells: list[dict]) -> int:
    prose = "\n".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    return len(re.sub(r"```.*?```", "", prose, flags=re.S).split())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_check_cells_prove_their_claim_in_three_lines(path: Path) -> None:
    long = [
        i
        for i, cell in enumerate(_cells(path))
        if cell["cell_type"] == "code"
        and CHECKING.search(_source(cell))
        and len([line for line in _source(cell).splitlines() if line.strip()]) > MAX_CHECK_LINES
    ]
    assert not long, f"{path.name}: check cells {long} have more than {MAX_CHECK_LINES} lines; move the rest into a named helper"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_model_claims_carry_no_per_cell_hedge(path: Path) -> None:
    hedged = [i for i, cell in enumerate(_cells(path)) if re.search(r"expect_model\([^)]*\bhint=", _source(cell), re.S)]
    assert not hedged, f"{path.name}: cells {hedged} hedge a claim with hint=; say it once in the 'On a real model' note"


@pytest.mark.parametrize("path", [nb for nb in LESSONS if not nb.name.startswith("00")], ids=lambda p: p.stem[:2])
def test_each_lesson_has_one_note_on_real_models(path: Path) -> None:
    notes = [c for c in _cells(path) if c["cell_type"] == "markdown" and re.search(r"^#+ On a real model", _source(c), re.M)]
    assert len(notes) == 1, f"{path.name}: {len(notes)} 'On a real model' notes; a lesson has exactly one"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem[:2])
def test_a_lesson_is_short_enough_to_follow(path: Path) -> None:
    cells = _cells(path)
    assert len(cells) <= MAX_CELLS, f"{path.name}: {len(cells)} cells; at most {MAX_CELLS} (split the lesson or merge cells)"
    assert _prose_words(cells) <= MAX_WORDS, f"{path.name}: {_prose_words(cells)} words of prose; at most {MAX_WORDS}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_no_stray_value_prints_under_a_check(path: Path) -> None:
    bare = [
        i
        for i, cell in enumerate(_cells(path))
        if cell["cell_type"] == "code"
        and re.search(r"^(expect_model|check)\(.*\)\s*$", _source(cell).strip().splitlines()[-1] if _source(cell).strip() else "")
    ]
    assert not bare, f"{path.name}: cells {bare} end in a check that returns a bool; end the line with ';'"
