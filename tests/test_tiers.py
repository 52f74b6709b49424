"""The two tiers: ``python course.py test`` (quick: unit tests and every lesson notebook) and ``--full`` (CI: all).

What is in which tier is decided in ``tests/conftest.py``; these tests check it from the outside, by what pytest
collects, and check that ``course.py`` asks pytest for the right tier, workers and seed count.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LESSONS = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "notebooks" / "solutions").glob("*.ipynb"))
# The kinds of test only the full tier runs, and one quick unit test file that stays in the default tier.
FULL_KINDS = ("tests/browser", "tests/test_code_quality.py", "tests/models/test_notebooks_on_a_real_client.py")
NO_EXTRA_RUN = "tests/course/test_server_extra.py::test_lessons_before_memory_run_without_the_extra"
QUICK = "tests/test_errors.py"


def _collected(marker: str) -> list[str]:
    """Node ids that ``-m marker`` collects from the notebooks and the files above (no test runs)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--nbmake", "--collect-only",
         "-q", "-m", marker, "notebooks", *FULL_KINDS, "tests/course/test_server_extra.py", QUICK],
        cwd=REPO, capture_output=True, text=True, timeout=300, env={**os.environ, "LESSON_MODEL": "offline"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line or line.endswith(".ipynb")]


def _notebooks(ids: list[str]) -> list[str]:
    return sorted(i.split("::")[0] for i in ids if i.split("::")[0].endswith(".ipynb"))


@pytest.mark.full  # a collection of the notebooks and five test files in a new process: ~10 s
def test_the_default_tier_runs_every_lesson_and_no_solution() -> None:
    ids = _collected("not full")
    assert _notebooks(ids) == [p for p in LESSONS], "every lesson notebook once, and no solution"
    assert not [i for i in ids if i.startswith(FULL_KINDS) or i.startswith(NO_EXTRA_RUN)], ids
    assert any(i.startswith(QUICK) for i in ids), "the quick unit tests stay in the default tier"


@pytest.mark.full
def test_the_full_tier_holds_the_solutions_and_the_slow_kinds() -> None:
    ids = _collected("full")
    assert _notebooks(ids) == SOLUTIONS and len(SOLUTIONS) > 0
    for kind in (*FULL_KINDS, NO_EXTRA_RUN):
        assert any(i.startswith(kind) for i in ids), f"nothing of {kind} in the full tier"
    assert not any(i.startswith(QUICK) for i in ids)


# --- course.py: which pytest command each tier runs ----------------------------------------------------------


def _course(monkeypatch: pytest.MonkeyPatch) -> tuple:
    spec = importlib.util.spec_from_file_location("course_tiers_under_test", REPO / "course.py")
    assert spec is not None and spec.loader is not None
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    calls: list[tuple] = []
    monkeypatch.setattr(course, "_ensure_venv", lambda extras: Path("venv-python"))
    monkeypatch.setattr(course, "_run", lambda *args, env=None: calls.append(([str(a) for a in args], env)))
    return course, calls


def test_course_test_runs_the_quick_tier_on_parallel_workers_with_one_seed(monkeypatch) -> None:
    monkeypatch.delenv("COURSE_TEST_SEEDS", raising=False)
    course, calls = _course(monkeypatch)
    course.main(["test", "-k", "selection"])
    ((args, env),) = calls
    assert args[1:3] == ["-m", "pytest"] and "--nbmake" in args
    assert args[args.index("-m", 3) + 1] == "not full"
    assert args[args.index("-n") + 1] == "auto"
    assert env["COURSE_TEST_SEEDS"] == "1" and env["LESSON_MODEL"] == "offline"
    assert args[-2:] == ["-k", "selection"], "the learner's own pytest arguments come last, so they win"


def test_course_test_full_runs_everything_with_every_seed(monkeypatch) -> None:
    monkeypatch.setenv("COURSE_TEST_SEEDS", "1")
    course, calls = _course(monkeypatch)
    course.main(["test", "--full", "-x"])
    ((args, env),) = calls
    assert "--full" not in args and "not full" not in args and args[-1] == "-x"
    assert args[args.index("-n") + 1] == "auto"
    assert env["COURSE_TEST_SEEDS"] == "all" and env["LESSON_MODEL"] == "offline"


def test_a_seed_count_the_learner_sets_is_kept_in_the_quick_tier(monkeypatch) -> None:
    monkeypatch.setenv("COURSE_TEST_SEEDS", "3")
    course, calls = _course(monkeypatch)
    course.main(["test"])
    ((_, env),) = calls
    assert env["COURSE_TEST_SEEDS"] == "3"


# --- the seed count the exercise tests read ---------------------------------------------------------------------


def _seeds_to_draw():
    spec = importlib.util.spec_from_file_location("exercises_conftest_under_test", REPO / "tests/exercises/conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.seeds_to_draw, module.SEEDS_FOR_SOLUTIONS


@pytest.mark.parametrize(("value", "count"), [(None, 1), ("", 1), ("1", 1), ("3", 3), ("all", 20), ("ALL", 20)])
def test_the_seed_count_comes_from_the_environment(monkeypatch, value, count) -> None:
    seeds_to_draw, solutions = _seeds_to_draw()
    if value is None:
        monkeypatch.delenv("COURSE_TEST_SEEDS", raising=False)
    else:
        monkeypatch.setenv("COURSE_TEST_SEEDS", value)
    assert seeds_to_draw(solutions) == solutions[:count]


@pytest.mark.parametrize("value", ["0", "-2", "some", "2.5"])
def test_a_bad_seed_count_is_a_usage_error(monkeypatch, value) -> None:
    seeds_to_draw, solutions = _seeds_to_draw()
    monkeypatch.setenv("COURSE_TEST_SEEDS", value)
    with pytest.raises(pytest.UsageError, match="COURSE_TEST_SEEDS"):
        seeds_to_draw(solutions)


# --- a notebook whose kernel could not start is run once more; a failing cell is not -----------------------------


def test_the_retried_errors_are_the_ones_jupyter_client_raises_at_kernel_start(monkeypatch) -> None:
    import inspect

    import jupyter_client.client

    course, _ = _course(monkeypatch)
    raised_at_start = inspect.getsource(jupyter_client.client.KernelClient._async_wait_for_ready)
    assert all(error in raised_at_start for error in course.KERNEL_START_ERRORS), "jupyter_client reworded them"


def _run_one_notebook(tmp_path: Path, retry: list[str], source: str, kernel: str = "python3") -> str:
    """Run a one-cell notebook under nbmake with ``retry``, and return pytest's summary line.

    A kernel named "dies" exits before it answers, as a kernel does whose port was taken (nbmake#129)."""
    import nbformat

    dies = tmp_path / "jupyter" / "kernels" / "dies"
    dies.mkdir(parents=True)
    spec = {"argv": [sys.executable, "-c", "raise SystemExit(1)"], "display_name": "dies", "language": "python"}
    (dies / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    notebook = tmp_path / "one.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), str(notebook))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--nbmake",
         f"--nbmake-kernel={kernel}", *retry, str(notebook)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")},
    )
    return done.stdout.strip().splitlines()[-1]  # pytest's summary line: "1 failed, 1 rerun in 5.0s"


@pytest.mark.full  # two notebook runs in new processes: ~10 s
def test_a_kernel_that_dies_at_start_is_retried_and_a_failing_cell_is_not(monkeypatch, tmp_path) -> None:
    course, _ = _course(monkeypatch)
    assert "1 failed, 1 rerun" in _run_one_notebook(tmp_path / "a", course.KERNEL_START_RETRY, "1", kernel="dies")
    failed_cell = _run_one_notebook(tmp_path / "b", course.KERNEL_START_RETRY, "raise ValueError('wrong answer')")
    assert "1 failed in" in failed_cell, f"a wrong answer is reported at once, not run again: {failed_cell}"
