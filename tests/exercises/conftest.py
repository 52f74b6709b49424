"""What every exercise test asks of ``check``: one line, ✅ for a right answer, ❌ with the hint for a wrong one."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from course_kit.exercises import check
from course_kit.exercises._cases import SEED_VARIABLE


@pytest.fixture
def fails_with(capsys: pytest.CaptureFixture[str]) -> Callable[..., str]:
    """``fails_with(exercise_id, answer, *hints)``: the check fails with one ❌ line holding one of ``hints``."""

    def run(exercise_id: str, answer: Any, *hints: str) -> str:
        assert check(exercise_id, answer) is False
        out = capsys.readouterr().out
        assert out.startswith(f"\u274c {exercise_id}") and out.count("\n") == 1, out
        assert any(hint in out for hint in hints), out
        return out

    return run


# --- issue 21: every wrong answer rejected on several draws; every solution right on many -------------

WRONG_ANSWERS = Path(__file__).resolve().parent / "wrong_answers"
SEEDS_FOR_WRONG_ANSWERS = (3, 14, 159, 2653, 58979)  # at least five draws per wrong answer
SEEDS_FOR_SOLUTIONS = tuple(range(101, 121))  # twenty draws per worked solution
# How many of those seeds a run draws: the first N, or `all`. `python course.py test` draws one (the default here);
# `python course.py test --full` (CI) sets `all`, so every seed above runs there.
SEEDS_VARIABLE = "COURSE_TEST_SEEDS"


def seeds_to_draw(seeds: tuple[int, ...]) -> tuple[int, ...]:
    """The first ``COURSE_TEST_SEEDS`` of ``seeds`` (1 when unset; ``all`` for every one)."""
    value = os.environ.get(SEEDS_VARIABLE, "").strip().lower() or "1"
    if value == "all":
        return seeds
    if not value.isdigit() or int(value) < 1:
        raise pytest.UsageError(f"{SEEDS_VARIABLE} must be a whole number >= 1 or 'all', not {value!r}")
    return seeds[: int(value)]


def wrong_answers_of(lesson: str) -> list[tuple[str, Any, str]]:
    """``wrong_answers/wrong_l<lesson>.py``'s ``WRONG``: (exercise id, answer, mistake), loaded by path."""
    path = WRONG_ANSWERS / f"wrong_l{lesson}.py"
    spec = importlib.util.spec_from_file_location(f"wrong_answers_l{lesson}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.WRONG)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test asking for ``wrong_answer`` runs once per wrong answer of its lesson (``test_lNN_*.py``)."""
    if "wrong_answer" not in metafunc.fixturenames:
        return
    lesson = Path(str(metafunc.definition.fspath)).name[len("test_l") :][:2]
    cases = wrong_answers_of(lesson)
    # A test module may name wrong answers its check still accepts (each with the reason): they run as strict xfails,
    # so the day the check catches them the test says so.
    known = getattr(metafunc.module, "STILL_PASSES", {})
    params = [
        pytest.param(case, id=_answer_name(case[1]),
                     marks=[pytest.mark.xfail(strict=True, reason=known[_answer_name(case[1])])]
                     if _answer_name(case[1]) in known else [])
        for case in cases
    ]
    metafunc.parametrize("wrong_answer", params)


def _answer_name(answer: Any) -> str:
    if isinstance(answer, tuple):
        return "/".join(a.__name__ for a in answer)
    return getattr(answer, "__name__", repr(answer))


@pytest.fixture
def rejected_on_every_seed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[..., None]:
    """``rejected_on_every_seed(exercise_id, answer)``: ``check`` is False on every seed drawn, each ❌ naming its seed."""

    def run(exercise_id: str, answer: Any, seeds: tuple[int, ...] = SEEDS_FOR_WRONG_ANSWERS) -> None:
        for seed in seeds_to_draw(seeds):
            monkeypatch.setenv(SEED_VARIABLE, str(seed))
            passed = check(exercise_id, answer)
            out = capsys.readouterr().out
            assert passed is False, f"the wrong answer passed with {SEED_VARIABLE}={seed}: {out}"
            assert f"seed {seed}" in out, f"the ❌ does not name its seed {seed}: {out}"

    return run


@pytest.fixture
def passes_on_every_seed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Callable[..., None]:
    """``passes_on_every_seed(exercise_id, answer)``: ``check`` is True on every seed drawn (twenty in the full tier)."""

    def run(exercise_id: str, answer: Any, seeds: tuple[int, ...] = SEEDS_FOR_SOLUTIONS) -> None:
        for seed in seeds_to_draw(seeds):
            monkeypatch.setenv(SEED_VARIABLE, str(seed))
            passed = check(exercise_id, answer)
            out = capsys.readouterr().out
            assert passed is True, f"the solution failed with {SEED_VARIABLE}={seed}: {out}"

    return run
