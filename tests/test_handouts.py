"""Handouts: notebooks executed offline as copies, exported to HTML that needs no network, in two packs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from course_kit import diagrams, handouts

DIAGRAM = "sequenceDiagram\n    participant A as learner\n    A->>A: reads offline\n"
REMOTE = re.compile(
    r"""<script[^>]+src=["']?(?:https?:)?//|<link[^>]+href=["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:url\()?["']?(?:https?:)?//""",
    re.I,
)


def write_notebook(path: Path, *cells: nbformat.NotebookNode) -> None:
    nb = nbformat.v4.new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)


@pytest.fixture
def series(tmp_path: Path, monkeypatch) -> Path:
    """Two lessons (one with a diagram and a widget, one broken) and one solution notebook."""
    lessons = tmp_path / "notebooks"
    write_notebook(
        lessons / "00_hello.ipynb",
        nbformat.v4.new_markdown_cell(f"# Hello handouts\n\nThe claim.\n\n```mermaid\n{DIAGRAM}```\n"),
        nbformat.v4.new_code_cell(
            "import os, lesson_utils\n"
            "assert os.environ['LESSON_MODEL'] == 'offline'\n"
            "print('model is', os.environ['LESSON_MODEL'], 'answer', 6 * 7)"
        ),
        nbformat.v4.new_code_cell(
            "import ipywidgets as w\n"
            "w.VBox([w.HTML('<b>You:</b> hello transcript'), w.Text(placeholder='Say something'), w.Button(description='Send'),"
            " w.SelectMultiple(options=['Alex ships on Fridays', 'likes teal'])])"
        ),
    )
    write_notebook(
        lessons / "01_broken.ipynb",
        nbformat.v4.new_markdown_cell("# A broken lesson"),
        nbformat.v4.new_code_cell("raise ValueError('lesson bug')"),
    )
    write_notebook(
        lessons / "solutions" / "00_hello.ipynb",
        nbformat.v4.new_markdown_cell("# Hello, solved"),
        nbformat.v4.new_code_cell("print('the solution', 6 * 7)"),
    )
    folder = tmp_path / "diagrams"
    folder.mkdir()
    # A stand-in SVG: rendering real ones needs Chromium, which tests/browser covers.
    diagrams.svg_path(DIAGRAM, folder).write_text("<svg xmlns='http://www.w3.org/2000/svg'><text>learner</text></svg>", encoding="utf-8")
    monkeypatch.setattr(handouts, "DIAGRAMS", folder)
    return lessons


@pytest.mark.full  # slow: executes and exports notebooks
def test_two_packs_executed_offline_and_indexed_in_order(series: Path, tmp_path: Path) -> None:
    sources = {p: p.read_bytes() for p in series.rglob("*.ipynb")}
    out = tmp_path / "build" / "handouts"

    code = handouts.main(["--notebooks", str(series), "--out", str(out)])

    assert code == 1, "a failing notebook makes the command fail"
    assert {p: p.read_bytes() for p in series.rglob("*.ipynb")} == sources, "the lessons themselves are never written"
    lessons, solutions = out / "lessons", out / "solutions"
    page = (lessons / "00_hello.html").read_text(encoding="utf-8")
    assert "model is offline answer 42" in page and "Hello handouts" in page
    assert "lesson bug" in (lessons / "01_broken.html").read_text(encoding="utf-8")
    executed = json.loads((lessons / "executed" / "00_hello.ipynb").read_text(encoding="utf-8"))
    assert executed["cells"][1]["outputs"], "the executed copy carries outputs"

    index = (lessons / "index.html").read_text(encoding="utf-8")
    assert index.index("00_hello.html") < index.index("01_broken.html")
    assert "Hello handouts" in index and "FAILED: ValueError: lesson bug" in index
    assert index.count("FAILED") == 1
    assert "solved" not in index, "the lesson pack holds no solutions"

    assert sorted(p.name for p in solutions.glob("*.html")) == ["00_hello.html", "index.html"]
    assert "the solution 42" in (solutions / "00_hello.html").read_text(encoding="utf-8")


@pytest.mark.full  # slow: executes and exports notebooks
def test_pages_need_no_network(series: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    handouts.main(["--notebooks", str(series), "--out", str(out), "--pack", "lessons", "00"])
    page = (out / "lessons" / "00_hello.html").read_text(encoding="utf-8")
    assert not REMOTE.findall(page), REMOTE.findall(page)
    assert "cdnjs" not in page and "unpkg" not in page and "jsdelivr" not in page
    assert page.count('class="lesson-diagram"') == 1 and "```mermaid" not in page
    # The widget is a static snapshot of what it showed, marked as live in JupyterLab.
    assert handouts.SNAPSHOT_NOTE in page
    assert "<b>You:</b> hello transcript" in page.replace("<b>You:</b>", "<b>You:</b>")
    assert "<li>Alex ships on Fridays</li><li>likes teal</li>" in page
    assert "Say something" in page and re.search(r"<button disabled(=\"\")?>Send</button>", page)
    assert "application/vnd.jupyter.widget-view+json" not in page


@pytest.mark.full  # slow: starts a handout build
def test_a_diagram_without_its_svg_fails_the_build_with_the_fix(series: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(handouts, "DIAGRAMS", tmp_path / "no-diagrams")
    out = tmp_path / "out"
    assert handouts.main(["--notebooks", str(series), "--out", str(out), "--pack", "lessons", "00"]) == 1
    index = (out / "lessons" / "index.html").read_text(encoding="utf-8")
    assert "run `python -m course_kit.diagrams`" in index


def test_no_matching_notebooks_is_a_usage_error(tmp_path: Path) -> None:
    assert handouts.main(["--notebooks", str(tmp_path), "--out", str(tmp_path / "out"), "99"]) == 2
    assert not (tmp_path / "out").exists()


def test_the_default_output_is_under_the_git_ignored_build_folder() -> None:
    root = Path(handouts.__file__).resolve().parents[1]
    assert handouts.DEFAULT_OUT.relative_to(root).parts[0] == "build"
    ignored = (root / ".gitignore").read_text(encoding="utf-8").split()
    assert "build/" in ignored
