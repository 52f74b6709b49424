"""A lesson run in place with the course's kernel leaves `git status` clean (issue "lessons 15–17", item 10).

The run happens in a throwaway clone, set up as ``course.py`` sets up a checkout (the nbstripout filter,
the course environment's Jupyter configuration), so the real repository's index is never touched.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from course_kit.notebook_git import refresh

REPO = Path(__file__).resolve().parents[1]
LESSON = "notebooks/01_stateless_runs.ipynb"  # short: seconds on the offline model
# The working tree's versions of what decides the outcome, so the test checks this checkout, not only HEAD.
OVERLAY = ("course.py", ".gitattributes")


def _git(clone: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=clone, check=True, capture_output=True, text=True).stdout


def _course(clone: Path):
    spec = importlib.util.spec_from_file_location("course_in_clone", clone / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def clone(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A clone of this repository set up as ``course.py`` sets one up, and the environment to run Jupyter in."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, capture_output=True)
    for name in OVERLAY:
        shutil.copyfile(REPO / name, clone / name)
    _git(clone, "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "--quiet",
         "--allow-empty", "-am", "the working tree's course.py")
    # A fresh checkout's entries may be "racily clean" (no size recorded), and git would then filter every
    # notebook on the first status, one Python start each; record them now, before the filter is set up.
    time.sleep(1.1)
    _git(clone, "update-index", "-q", "--really-refresh")
    course = _course(clone)
    course._strip_outputs_in_git(Path(sys.executable))
    prefix = tmp_path / "prefix"
    course._refresh_git_after_saves(prefix)
    env = {**os.environ, "LESSON_MODEL": "offline", "JUPYTER_CONFIG_PATH": str(prefix / "etc" / "jupyter"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "user-config")}
    return clone, env


@pytest.mark.full
@pytest.mark.timeout(600)
def test_a_lesson_executed_in_place_leaves_git_status_clean(clone: tuple[Path, dict[str, str]]) -> None:
    root, env = clone
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--execute", "--inplace", LESSON],
                   cwd=root, env=env, check=True, capture_output=True)
    ran = json.loads((root / LESSON).read_text(encoding="utf-8"))
    assert any(cell.get("outputs") for cell in ran["cells"]), "the lesson should have run, with outputs saved"
    assert _git(root, "status", "--porcelain") == ""
    assert _git(root, "hash-object", "--", LESSON).strip() == _git(root, "rev-parse", f"HEAD:{LESSON}").strip()


def test_a_lesson_the_learner_edited_still_shows_as_modified(clone: tuple[Path, dict[str, str]]) -> None:
    root, _env = clone
    lesson = root / LESSON
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    nb["cells"][0]["source"] = ["# my own notes\n", *nb["cells"][0]["source"]]
    lesson.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert refresh(lesson) is False
    assert _git(root, "status", "--porcelain").strip() == f"M {LESSON}"
