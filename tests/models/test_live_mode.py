"""Live mode (``python course.py test --live``): lessons run on the configured model with no offline
forcing, each with its own claims log, and one table says what ran and what the model showed.
Tested against the loopback stand-in, which echoes, so it demonstrates some claims and not others."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

from course_kit import live

from .stand_in_server import StandInServer

ROOT = Path(__file__).resolve().parents[2]


def notebook(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nbformat.write(nb, path)
    return path


@pytest.fixture
def stand_in(clean_env):
    with StandInServer(api_key=None) as server:
        clean_env.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
        clean_env.setenv("LOCAL_MODEL", "stand-in-model")
        clean_env.delenv("LESSON_CLAIMS_LOG", raising=False)
        yield server


@pytest.mark.full  # slow: live mode runs notebooks on the stand-in
def test_live_mode_runs_on_the_configured_model_and_tables_the_claims(stand_in, tmp_path, capfd) -> None:
    talks = notebook(
        tmp_path / "01_talks.ipynb",
        "from agent_framework import Agent\nfrom course_kit import expect_model, start_lesson\n"
        "lesson = start_lesson()\nreply = await Agent(client=lesson.client).run('Say hi')",
        "expect_model('the model echoed the request', 'Say hi' in reply.text)\n"
        "expect_model('the model answered in French', 'Bonjour' in reply.text, hint='try another model')",
    )
    breaks = notebook(
        tmp_path / "02_breaks.ipynb",
        "from course_kit import expect_model\nexpect_model('shown before the failure', True)",
        "raise RuntimeError('this lesson broke')",
        "expect_model('never reached', True)",
    )
    silent = notebook(tmp_path / "03_silent.ipynb", "x = 1")
    status = live.main([str(talks), str(breaks), str(silent), "--cell-timeout", "120"])
    captured = capfd.readouterr()
    out = captured.out
    assert status == 1, "a lesson that failed to run fails the live run"
    assert f"local model stand-in-model at {stand_in.base_url}" in out
    assert "LOCAL_MODEL_MAX_TOKENS=512, LESSON_MODEL_TIMEOUT=120 s" in out, "the table states the cap in force"
    assert stand_in.requests, "the notebook reached the configured model, not the offline one"
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith(("01_", "02_", "03_"))}
    assert rows["01_talks"][1] == "ok" and rows["01_talks"][3:7] == ["2", "of", "2", "1"]
    # A lesson that stopped early says how many of its claims it reached, not only those it did.
    assert rows["02_breaks"][1] == "FAILED" and rows["02_breaks"][3:6] == ["1", "of", "2"]
    assert rows["03_silent"][1] == "ok" and "none made" in " ".join(rows["03_silent"])
    assert "01_talks: \u2717 the model answered in French" in out
    assert "02_breaks: FAILED \u2014 RuntimeError: this lesson broke" in out
    assert "2 of 3 lessons ran with every claim reached; 2 of 3 model claims demonstrated." in out
    assert "without encryption" not in captured.err + out, "no kernel transport notice in live mode"
    assert "  ok in " in out and "2 of 2 claims reached, 1 shown" in out, "each lesson's figures as soon as it ends"
    seconds = float(rows["01_talks"][2])
    assert 0 < seconds < 120


@pytest.mark.full  # slow: live mode runs a notebook on the stand-in
def test_a_bare_assert_is_reported_by_the_line_that_failed(stand_in, tmp_path) -> None:
    bare = notebook(tmp_path / "04_bare.ipynb", "x = 3\nassert x < 2")
    run = live.run_lesson(bare, cell_timeout=60)
    assert not run.ran and run.error == "AssertionError at: assert x < 2", run.error


def test_a_lesson_that_ends_without_reaching_its_claims_did_not_run() -> None:
    run = live.LessonRun("05_x", ran=True, seconds=1.0, claims=[{"claim": "a", "shown": True}], expected=3)
    table = live.render_table([run], "a model", cap="LOCAL_MODEL_MAX_TOKENS=5")
    assert not run.complete and "short" in table and "reached 1 of its 3 claims" in table
    cut = live.LessonRun("09_y", ran=True, seconds=1.0, claims=[{"claim": "b", "shown": False, "cut": True}], expected=1)
    assert "09_y: \u2717 b (cut by the cap)" in live.render_table([cut], "a model")


@pytest.mark.full  # slow: live mode runs notebooks on the stand-in
def test_claims_logs_are_per_notebook_and_cleaned_up(stand_in, tmp_path) -> None:
    one = notebook(tmp_path / "01_a.ipynb", "from course_kit import expect_model\nexpect_model('a', True)")
    two = notebook(tmp_path / "02_b.ipynb", "from course_kit import expect_model\nexpect_model('b', False)")
    first, second = live.run_lesson(one, cell_timeout=60), live.run_lesson(two, cell_timeout=60)
    assert [c["claim"] for c in first.claims] == ["a"] and first.shown == ["a"]
    assert [c["claim"] for c in second.claims] == ["b"] and second.not_shown == ["b"]
    assert second.claims[0]["kind"] == "local" and second.claims[0]["model"] == "stand-in-model"
    import os

    assert "LESSON_CLAIMS_LOG" not in os.environ


def test_the_lesson_list_is_the_numbered_notebooks_without_solutions() -> None:
    names = [p.name for p in live.lesson_notebooks()]
    assert names == sorted(names) and "09_memory_tools.ipynb" in names
    assert all(p.parent.name == "notebooks" for p in live.lesson_notebooks())


def _course(monkeypatch: pytest.MonkeyPatch) -> tuple[object, list[tuple]]:
    spec = importlib.util.spec_from_file_location("course_under_test", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    calls: list[tuple] = []
    monkeypatch.setattr(course, "_ensure_venv", lambda extras: Path("venv-python"))
    monkeypatch.setattr(course, "_run", lambda *args, env=None: calls.append((args, env)))
    return course, calls


def test_course_test_live_runs_the_live_module_without_forcing_offline(monkeypatch) -> None:
    course, calls = _course(monkeypatch)
    course.main(["test", "--live", "notebooks/09_memory_tools.ipynb"])
    ((args, env),) = calls
    assert [str(a) for a in args] == ["venv-python", "-m", "course_kit.live", "notebooks/09_memory_tools.ipynb"]
    assert env is None  # the learner's environment as it is: no LESSON_MODEL=offline


def test_course_test_still_forces_the_offline_model(monkeypatch) -> None:
    course, calls = _course(monkeypatch)
    course.main(["test", "-k", "selection"])
    ((args, env),) = calls
    assert env["LESSON_MODEL"] == "offline" and "--nbmake" in args and args[-2:] == ("-k", "selection")
