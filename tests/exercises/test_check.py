"""``check`` itself: one line, a bool, never a traceback — whatever the learner hands it."""

from __future__ import annotations

import asyncio

import pytest

from lesson_utils.exercises import EXERCISES, Hint, call_learner, check, exercise
from lesson_utils.exercises import _registry


@pytest.fixture
def scratch_registry(monkeypatch):
    monkeypatch.setattr(_registry, "EXERCISES", {})
    return _registry.EXERCISES


def _register_double(registry_fixture):
    @exercise("99.double", title="double a number")
    async def checker(answer):
        value = await call_learner(answer, 21)
        if value != 42:
            raise Hint(f"double(21) gave {value!r}; it should be 42")

    return checker


def test_a_right_answer_prints_a_tick_and_returns_true(scratch_registry, capsys):
    _register_double(scratch_registry)
    assert check("99.double", lambda n: n * 2) is True
    assert capsys.readouterr().out == "\u2705 99.double \u00b7 double a number: correct\n"


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (lambda n: n + 2, "double(21) gave 23; it should be 42"),
        (lambda n: ..., "fill in `<lambda>` first"),
        (lambda n: (_ for _ in ()).throw(NotImplementedError()), "fill in `<lambda>` first"),
        (lambda n: 1 / 0, "raised ZeroDivisionError: division by zero"),
        ("not a function", "raised TypeError"),
    ],
    ids=["wrong", "stub-ellipsis", "stub-not-implemented", "crash", "wrong-type"],
)
def test_a_wrong_answer_prints_one_line_with_its_hint(scratch_registry, capsys, answer, hint):
    _register_double(scratch_registry)
    assert check("99.double", answer) is False
    out = capsys.readouterr().out
    assert out.startswith("\u274c 99.double \u00b7 double a number: ") and hint in out
    assert out.count("\n") == 1


def test_an_unknown_id_lists_the_known_ones(scratch_registry, capsys):
    _register_double(scratch_registry)
    assert check("99.triple", lambda n: n) is False
    assert "no exercise '99.triple'; the ids are: 99.double" in capsys.readouterr().out


def test_a_broken_checker_is_reported_as_the_check_failing_not_the_learner(scratch_registry, capsys):
    @exercise("99.broken", title="broken")
    def checker(answer):
        raise KeyError("oops")

    assert check("99.broken", 1) is False
    assert "the check itself failed (KeyError" in capsys.readouterr().out


async def test_check_works_inside_a_running_event_loop_like_a_notebook(scratch_registry, capsys):
    _register_double(scratch_registry)
    asyncio.get_running_loop()  # we are inside a loop, as in a notebook cell with top-level await
    assert check("99.double", lambda n: n * 2) is True


def test_ids_must_name_their_lesson(scratch_registry):
    with pytest.raises(ValueError, match=r"look like '04\.remember_city'"):
        exercise("remember_city", title="x")


def test_every_registered_exercise_names_a_lesson_notebook():
    from pathlib import Path

    notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    lessons = {p.name[:2] for p in notebooks.glob("[0-9][0-9]_*.ipynb")}
    for entry in EXERCISES.values():
        assert entry.lesson in lessons, f"{entry.id} names lesson {entry.lesson}, which has no notebook"
        assert entry.title
