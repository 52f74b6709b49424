"""The three small seams every lesson uses: start_lesson, expect_model, show_source."""

from __future__ import annotations

import json

import pytest

from course_kit import Lesson, expect_model, show_source, start_lesson
from course_kit.claims import Shown
from course_kit.source import source_view
from lesson_utils.user_memory import UserMemoryProvider


def test_start_lesson_prints_the_model_and_gives_client_and_recorder(monkeypatch, capsys):
    monkeypatch.setenv("LESSON_MODEL", "offline")
    lesson = start_lesson()
    assert isinstance(lesson, Lesson)
    assert lesson.offline and lesson.model.kind == "offline"
    assert lesson.recorder.last_request is None
    assert capsys.readouterr().out.startswith("model: offline model")


def test_start_lesson_quiet_prints_nothing(monkeypatch, capsys):
    monkeypatch.setenv("LESSON_MODEL", "offline")
    start_lesson(quiet=True)
    assert capsys.readouterr().out == ""


def test_expect_model_asserts_on_the_offline_model(monkeypatch, capsys):
    monkeypatch.setenv("LESSON_MODEL", "offline")
    assert expect_model("the reply uses the name", True) is True
    assert "\u2713 the reply uses the name" in capsys.readouterr().out
    with pytest.raises(AssertionError, match="the reply uses the name"):
        expect_model("the reply uses the name", False)


def test_expect_model_reports_on_a_real_model_and_never_raises(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LESSON_MODEL", "local")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LOCAL_MODEL", "tiny")
    log = tmp_path / "claims.jsonl"
    monkeypatch.setenv("LESSON_CLAIMS_LOG", str(log))
    assert expect_model("the model called search_memory", False, hint="see README") is False
    out = capsys.readouterr().out
    assert out.startswith("\u2717 the model called search_memory: this model did not show it \u2014 see README")
    assert expect_model("the reply uses the name", True) is True
    capsys.readouterr()
    assert expect_model("the model called add_memories", Shown(False, why="it wrote the call as text")) is False
    assert "did not show it \u2014 it wrote the call as text" in capsys.readouterr().out
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(r["claim"], r["shown"], r["kind"]) for r in records] == [
        ("the model called search_memory", False, "local"),
        ("the reply uses the name", True, "local"),
        ("the model called add_memories", False, "local"),
    ]


def test_source_view_has_path_and_real_line_numbers():
    view = source_view(UserMemoryProvider.before_run)
    assert view.path.startswith("lesson_utils/")
    assert view.lines[0].lstrip().startswith(("async def before_run", "def before_run", "@"))
    text = str(view)
    assert text.splitlines()[0] == f"# {view.path}, lines {view.first_line}-{view.last_line}"
    assert text.splitlines()[1].lstrip().startswith(str(view.first_line))


def test_source_view_html_is_highlighted_with_line_numbers():
    view = source_view(UserMemoryProvider)
    page = view._repr_html_()
    assert view.path in page and "<span" in page and str(view.first_line) in page


def test_show_source_prints_plain_text_outside_a_notebook(capsys):
    show_source(source_view)
    out = capsys.readouterr().out
    assert "course_kit/source.py" in out and "def source_view" in out


def test_show_source_names_the_fix_for_what_it_cannot_show():
    with pytest.raises(TypeError, match="needs a class, function, method or module"):
        show_source(42)


def test_a_claim_that_shows_a_failure_reads_shown_not_a_tick(monkeypatch, capsys):
    monkeypatch.setenv("LESSON_MODEL", "offline")
    assert expect_model("the weather question loaded the coffee topic", True, failure=True) is True
    assert capsys.readouterr().out == "shown: the weather question loaded the coffee topic\n"
    with pytest.raises(AssertionError, match="loaded the coffee topic"):
        expect_model("the weather question loaded the coffee topic", False, failure=True)
