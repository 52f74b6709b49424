"""Suite-wide settings: every test and every notebook runs on the offline lesson model, in two tiers.

``python course.py test`` runs ``-m "not full"``: every unit test that takes under a second and every lesson
notebook once under nbmake. ``python course.py test --full`` (CI) runs everything. A test is in the full tier
when it carries the ``full`` marker: given here by path for whole kinds of test (below), given here to every
test marked ``slow``, or written on the test itself (``@pytest.mark.full``) for a slow test among quick ones.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Set before any notebook kernel starts, so nbmake's kernels inherit it whatever .env says.
os.environ["LESSON_MODEL"] = "offline"

REPO = Path(__file__).resolve().parents[1]

# Whole kinds of test that only the full tier runs, by path from the repository root (a folder ends with "/").
FULL_TIER_PATHS = (
    "notebooks/solutions/",  # the worked solutions under nbmake (the lessons themselves run in both tiers)
    "tests/browser/",  # JupyterLab and the handouts in Chromium
    "tests/test_code_quality.py",  # ruff, mypy, deptry
    "tests/models/test_notebooks_on_a_real_client.py",  # every lesson again, on a stand-in OpenAI server
)


def _repo_path(item: pytest.Item) -> str:
    try:
        return item.path.resolve().relative_to(REPO).as_posix()
    except ValueError:  # collected from outside the repository
        return item.path.as_posix()


def in_full_tier(item: pytest.Item) -> bool:
    """Whether ``item`` belongs to the full tier only (see the module docstring)."""
    return (
        _repo_path(item).startswith(FULL_TIER_PATHS)
        or item.get_closest_marker("slow") is not None
        or item.get_closest_marker("full") is not None
    )


# Test modules whose items each run a whole notebook: they go early (see below).
NOTEBOOK_RUNS = ("tests/models/test_notebooks_on_a_real_client.py", "tests/course/test_server_extra.py")


def _longest_first(item: pytest.Item) -> int:
    """0 for a notebook under nbmake, 1 for a test module that runs whole notebooks, 2 for the other tests of the
    full tier (the slow ones: in `--full`, started early so that the run does not end on them), 3 for the rest."""
    if item.path.suffix == ".ipynb":
        return 0
    if _repo_path(item).startswith(NOTEBOOK_RUNS):
        return 1
    return 2 if item.get_closest_marker("full") is not None else 3


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if in_full_tier(item) and item.get_closest_marker("full") is None:
            item.add_marker(pytest.mark.full)
    # The longest items first, so parallel workers (course.py hands them out one at a time) start them early and the
    # run does not end waiting on one kernel. Within each group the order is pytest's (the sort is stable).
    items.sort(key=_longest_first)
