"""``check`` itself: one line, a bool, never a traceback — whatever the learner hands it."""

from __future__ import annotations

import asyncio

import pytest

from course_kit.exercises import EXERCISES, Hint, call_learner, check, exercise
from course_kit.exercises import _registry


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


def test_the_frameworks_experimental_notices_are_not_counted_as_printed(scratch_registry, capsys, monkeypatch):
    import sys
    import warnings

    # As in a notebook: a warning is written to stderr (pytest would otherwise record it out of sight).
    monkeypatch.setattr(warnings, "showwarning", lambda message, category, *_, **__: print(
        f"{category.__name__}: {message}", file=sys.stderr))

    def doubles_with_a_notice(n):
        warnings.warn("[SESSION_STORE] FileSessionStore is experimental and may change or be removed", FutureWarning,
                      stacklevel=1)
        return n * 2

    _register_double(scratch_registry)
    assert check("99.double", doubles_with_a_notice) is True
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


def test_a_wrong_answer_that_fails_open_many_times_prints_at_most_three_lines(scratch_registry, capsys, caplog):
    """~110 fail-open warnings from the shared reporter (a down memory server) collapse into one line with a count."""
    from lesson_utils.cortadel.errors import FailureReporter

    @exercise("99.recall", title="recall with the server down")
    async def checker(answer):
        if await call_learner(answer) != "the hotel":
            raise Hint("the reply should name the hotel")

    def answer():
        reporter = FailureReporter()
        for _ in range(110):
            reporter.report(ConnectionError("connection refused"), "search")
        reporter.report(TimeoutError("timed out"), "add_conversation")
        print("thinking…\nstill thinking…")
        return "no idea"

    assert check("99.recall", answer) is False
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 3, lines
    assert lines[0].startswith("\u274c 99.recall") and "the reply should name the hotel" in lines[0]
    assert "Cortadel search failed; continuing without long-term memory" in lines[1] and "(\u00d7110)" in lines[1]
    assert "and 1 other message" in lines[1]
    assert "printed while checking: 2 lines" in lines[2]


def test_what_a_check_held_back_goes_back_to_where_it_was(scratch_registry, capsys):
    import logging

    _register_double(scratch_registry)
    handlers = logging.getLogger().handlers[:]
    check("99.double", lambda n: print("hi") or n * 2)
    assert logging.getLogger().handlers == handlers
    print("after")
    assert capsys.readouterr().out.splitlines()[-1] == "after"
