"""Committed notebooks carry no outputs and follow the series' conventions.

The output check reads what *git would commit*, not the working file: after running lessons in
JupyterLab the notebooks on disk hold outputs, and the nbstripout git filter that ``course.py`` sets
up removes them on the way into git. Where the filter is not set up, the check fails with the fix.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
ALL_NOTEBOOKS = sorted((REPO / "notebooks").rglob("*.ipynb"))
# The git filter runs nbstripout once per notebook it reads (a Python start each). The fixture starts from a copy
# of the real index, so git filters only the notebooks changed since they were last added: none in a fresh clone,
# the lessons a learner ran in place otherwise. From an empty index it filtered all 36, over 300 s on a loaded
# 2-core machine.
pytestmark = pytest.mark.timeout(900)
FIX = "run `python course.py lab` once (it sets up output stripping for git), or `python course.py reset NN`"


@pytest.fixture(scope="module")
def committed() -> dict[Path, dict]:
    """Each notebook as ``git add`` would store it (clean filter applied), via a throwaway index."""
    if not (REPO / ".git").exists():
        return {p: json.loads(p.read_text(encoding="utf-8")) for p in ALL_NOTEBOOKS}
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(scratch) / "index")}
        real_index = subprocess.run(["git", "rev-parse", "--git-path", "index"], cwd=REPO, check=True,
                                    capture_output=True, text=True).stdout.strip()
        if (REPO / real_index).is_file():  # unchanged notebooks keep their entries: git filters only the others
            shutil.copyfile(REPO / real_index, Path(scratch) / "index")
        paths = [p.relative_to(REPO).as_posix() for p in ALL_NOTEBOOKS]
        subprocess.run(["git", "add", "--", *paths], cwd=REPO, env=env, check=True, capture_output=True)
        stored = {}
        for path, rel in zip(ALL_NOTEBOOKS, paths, strict=True):
            blob = subprocess.run(["git", "show", f":{rel}"], cwd=REPO, env=env, check=True, capture_output=True)
            stored[path] = json.loads(blob.stdout.decode("utf-8"))
        return stored


def test_lessons_are_numbered_once_each_and_appendices_sort_after_them() -> None:
    numbers = [int(re.match(r"(\d\d)_[a-z0-9_]+\.ipynb$", nb.name).group(1)) for nb in NOTEBOOKS]
    assert len(numbers) == len(set(numbers)), [nb.name for nb in NOTEBOOKS]
    assert numbers[0] == 0, "the series starts with 00_setup"


def test_the_readme_lesson_table_lists_every_notebook() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for nb in NOTEBOOKS:
        assert f"`{nb.stem}`" in readme, f"README's lesson table should list {nb.stem}"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.relative_to(REPO / "notebooks").as_posix())
def test_what_git_would_commit_has_no_outputs(path: Path, committed: dict[Path, dict]) -> None:
    nb = committed[path]
    dirty = [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)
    ]
    assert not dirty, f"{path.name}: cells {dirty} would be committed with their outputs; {FIX}"


FRAMEWORK_ONLY = {"00", "01", "02"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_imports_lesson_utils_and_checks_its_claim(path: Path) -> None:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    # Lessons 00-02 teach the framework's own Agent and AgentSession: nothing of lesson_utils yet.
    if path.name[:2] not in FRAMEWORK_ONLY:
        assert "from lesson_utils" in code, f"{path.name} should import its implementation from lesson_utils"
    assert "from course_kit" in code, f"{path.name} should open with course_kit's start_lesson and check with it"
    assert re.search(r"^\s*assert\b", code, re.M), f"{path.name} should prove its claim in an assert cell"
    assert "asyncio.run(" not in code, f"{path.name}: use top-level await, not asyncio.run, in notebooks"


@pytest.mark.full  # slow: nbstripout in a new process
def test_a_lesson_run_in_place_strips_back_to_the_committed_one(tmp_path: Path) -> None:
    """What execution adds (outputs, counts, the kernel's language_info) is all that the git filter drops."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("course", REPO / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    committed = json.loads((REPO / "notebooks" / "01_stateless_runs.ipynb").read_text(encoding="utf-8"))
    executed = json.loads(json.dumps(committed))
    executed["metadata"]["language_info"] = {"name": "python", "version": "3.12.3", "codemirror_mode": {"name": "ipython"}}
    for number, cell in enumerate(c for c in executed["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = number + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["ran\n"]}]
    ran = tmp_path / "ran.ipynb"
    ran.write_text(json.dumps(executed), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "nbstripout", *course.STRIP_OPTIONS, str(ran)], check=True)
    assert json.loads(ran.read_text(encoding="utf-8")) == committed
