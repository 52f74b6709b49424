"""Committed notebooks carry no outputs and follow the series' conventions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_lessons_are_numbered_once_each_and_appendices_sort_after_them() -> None:
    numbers = [int(re.match(r"(\d\d)_[a-z0-9_]+\.ipynb$", nb.name).group(1)) for nb in NOTEBOOKS]
    assert len(numbers) == len(set(numbers)), [nb.name for nb in NOTEBOOKS]
    assert numbers[0] == 0, "the series starts with 00_setup"


def test_the_readme_lesson_table_lists_every_notebook() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for nb in NOTEBOOKS:
        assert f"`{nb.stem}`" in readme, f"README's lesson table should list {nb.stem}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_outputs(path: Path) -> None:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    dirty = [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)
    ]
    assert not dirty, f"{path.name}: cells {dirty} carry outputs; strip them before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_imports_lesson_utils_and_checks_its_claim(path: Path) -> None:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "lesson_utils" in code, f"{path.name} should import its implementation from lesson_utils"
    assert re.search(r"^\s*assert\b", code, re.M), f"{path.name} should prove its claim in an assert cell"
    assert "asyncio.run(" not in code, f"{path.name}: use top-level await, not asyncio.run, in notebooks"
