"""``course.py``: unknown commands say so, lessons run in the lab leave git clean, reset restores a lesson."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LESSON = REPO / "notebooks" / "01_stateless_runs.ipynb"


def _course():
    spec = importlib.util.spec_from_file_location("course", REPO / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_unknown_command_is_named_with_the_valid_ones():
    done = subprocess.run([sys.executable, str(REPO / "course.py"), "nonsense"], capture_output=True, text=True)
    assert done.returncode != 0
    first = done.stderr.splitlines()[0]
    assert first == "course.py: unknown command 'nonsense'; use one of: lab, test, install, server, reset"
    assert "``" not in done.stderr, "no RST markup in the terminal"


def test_help_lists_every_command():
    done = subprocess.run([sys.executable, str(REPO / "course.py"), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for command in ("lab", "test", "install", "server", "reset"):
        assert f"python course.py {command}" in done.stdout


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def lesson_repo(tmp_path, monkeypatch):
    """A git checkout holding one committed lesson, with course.py pointed at it."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "course"
    (repo / "notebooks").mkdir(parents=True)
    shutil.copy(LESSON, repo / "notebooks" / LESSON.name)
    shutil.copy(REPO / ".gitattributes", repo / ".gitattributes")
    _git(repo, "init", "-q")
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".")
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "lesson")
    course = _course()
    monkeypatch.setattr(course, "ROOT", repo)
    return course, repo


def _run_in_the_lab(path: Path) -> None:
    """What JupyterLab's autosave does after a learner ran every cell: outputs land in the file."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for number, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = number + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hello\n"]}]
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.mark.full  # slow: a lesson executed in a git checkout
def test_with_the_filter_set_up_a_lesson_run_in_the_lab_leaves_git_clean(lesson_repo):
    course, repo = lesson_repo
    course._strip_outputs_in_git(Path(sys.executable))
    _run_in_the_lab(repo / "notebooks" / LESSON.name)
    assert _git(repo, "diff") == "", "git diff ignores the outputs"
    _git(repo, "add", "-A")
    assert _git(repo, "status", "--porcelain") == "", "and nothing with outputs can be staged"


def test_without_the_filter_git_sees_the_outputs(lesson_repo):
    _course_module, repo = lesson_repo
    _run_in_the_lab(repo / "notebooks" / LESSON.name)
    _git(repo, "add", "-A")
    assert _git(repo, "status", "--porcelain").strip() == f"M  notebooks/{LESSON.name}"


def test_reset_puts_the_committed_lesson_back(lesson_repo):
    course, repo = lesson_repo
    path = repo / "notebooks" / LESSON.name
    _run_in_the_lab(path)
    course._reset(Path(sys.executable), ["01"])
    assert path.read_bytes() == LESSON.read_bytes()


def test_reset_names_the_fix_for_an_unknown_lesson(lesson_repo):
    course, _repo = lesson_repo
    with pytest.raises(SystemExit, match="matches 0 notebooks; give a lesson number like 04"):
        course._reset(Path(sys.executable), ["77"])
