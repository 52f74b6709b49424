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


def _is_notebook(item: pytest.Item) -> bool:
    return item.path.suffix == ".ipynb"


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if in_full_tier(item) and item.get_closest_marker("full") is None:
            item.add_marker(pytest.mark.full)
    # Notebooks first: they are the longest items, so parallel workers start them early and the run does not end
    # waiting on one kernel. Each file's items stay together and in order (the sort is stable).
    items.sort(key=lambda item: not _is_notebook(item))
