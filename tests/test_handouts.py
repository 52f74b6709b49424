"""Handouts: notebooks executed offline as copies, exported to HTML, indexed in order."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from lesson_utils import handouts


def write_notebook(path: Path, *cells: nbformat.NotebookNode) -> None:
    nb = nbformat.v4.new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    with open(path, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)


def test_build_handouts_for_a_small_series(tmp_path: Path) -> None:
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    write_notebook(
        lessons / "00_hello.ipynb",
        nbformat.v4.new_markdown_cell("# Hello handouts\n\nThe claim."),
        nbformat.v4.new_code_cell(
            "import os, lesson_utils\n"
            "assert os.environ['LESSON_MODEL'] == 'offline'\n"
            "print('model is', os.environ['LESSON_MODEL'], 'answer', 6 * 7)"
        ),
    )
    write_notebook(
        lessons / "01_broken.ipynb",
        nbformat.v4.new_markdown_cell("# A broken lesson"),
        nbformat.v4.new_code_cell("raise ValueError('lesson bug')"),
    )
    sources = {p: p.read_bytes() for p in lessons.iterdir()}
    out = tmp_path / "build" / "handouts"

    code = handouts.main(["--notebooks", str(lessons), "--out", str(out)])

    assert code == 1, "a failing notebook makes the command fail"
    assert {p: p.read_bytes() for p in lessons.iterdir()} == sources, "the lessons themselves are never written"
    page = (out / "00_hello.html").read_text(encoding="utf-8")
    assert "model is offline answer 42" in page and "Hello handouts" in page
    assert "lesson bug" in (out / "01_broken.html").read_text(encoding="utf-8")
    executed = json.loads((out / "executed" / "00_hello.ipynb").read_text(encoding="utf-8"))
    assert executed["cells"][1]["outputs"], "the executed copy carries outputs"

    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.index("00_hello.html") < index.index("01_broken.html")
    assert "Hello handouts" in index and "FAILED: ValueError: lesson bug" in index
    assert index.count("FAILED") == 1


def test_no_matching_notebooks_is_a_usage_error(tmp_path: Path) -> None:
    assert handouts.main(["--notebooks", str(tmp_path), "--out", str(tmp_path / "out"), "99"]) == 2
    assert not (tmp_path / "out").exists()


def test_the_default_output_is_under_the_git_ignored_build_folder() -> None:
    root = Path(handouts.__file__).resolve().parents[1]
    assert handouts.DEFAULT_OUT.relative_to(root).parts[0] == "build"
    ignored = (root / ".gitignore").read_text(encoding="utf-8").split()
    assert "build/" in ignored
