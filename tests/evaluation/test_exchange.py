"""Lesson 10's model exchange: the stored recording, the command that regenerates it, and how it is shown."""

from __future__ import annotations

import json

import pytest

from course_kit.lessons.l10_memory_that_changes.checks import decided, model_exchange
from memory_evaluation.exchange import EXAMPLE, main, recorded_exchange, render_exchange
from local_memory_server.prompts import SYSTEM_PROMPT
from tests.models.conftest import MODEL_VARIABLES
from tests.models.stand_in_server import StandInServer


def test_the_recording_is_a_real_models_two_calls_on_the_lessons_example():
    recording = recorded_exchange()
    assert recording["messages"] == list(EXAMPLE) and recording["model"]
    extract, decide = recording["exchange"]
    assert extract["call"] == "extract" and extract["sent"][0]["content"] == SYSTEM_PROMPT
    assert extract["sent"][-1]["content"] == f"TASK extract\nuser: {EXAMPLE[1]}"
    assert decide["call"] == "decide" and decide["sent"][0]["content"] == SYSTEM_PROMPT
    assert len(decide["received"]["decisions"]) == len(extract["received"]["facts"])


def test_decided_reads_an_event_only_when_it_names_a_memory_that_was_shown():
    sent = [{"role": "user", "content": "NEW 1: The user lives in Porto.\n  STORED 1: The user lives in Lyon."}]
    exchange = [{"call": "decide", "sent": sent,
                 "received": {"decisions": [{"fact": 1, "both_true": False, "event": "UPDATE", "id": 1}]}}]
    assert decided(exchange, "UPDATE") and not decided(exchange, "DELETE")
    exchange[0]["received"]["decisions"][0]["id"] = 2
    assert not decided(exchange, "UPDATE")


def test_rendering_shows_what_was_sent_last_and_the_json_received():
    recording = recorded_exchange()
    text = render_exchange(recording["exchange"])
    assert f"user: {EXAMPLE[1]}" in text and '"decisions"' in text and SYSTEM_PROMPT.splitlines()[0] not in text
    assert SYSTEM_PROMPT.splitlines()[0] in render_exchange(recording["exchange"], examples=True)


def test_offline_the_lesson_shows_the_recording():
    assert model_exchange(object())["source"] == "recorded"


def test_the_command_records_a_models_exchange_and_refuses_without_a_model(monkeypatch, tmp_path, capsys):
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["--out", str(tmp_path / "x.json")])
    assert exited.value.code == 2 and "LOCAL_MODEL_BASE_URL" in capsys.readouterr().err

    def reply(request):
        last = request["messages"][-1]["content"]
        if request["response_format"]["json_schema"]["name"] == "facts":
            job = "nurse" if "nurse" in last else "paramedic"
            return json.dumps({"facts": [{"fact": f"The user works as a {job}.", "whose": "user", "topic": "job",
                                          "single": True, "when": "now"}]})
        return json.dumps({"decisions": [{"fact": 1, "both_true": False, "event": "UPDATE", "id": 1}]})

    with StandInServer(reply=reply, api_key=None, answers_any_model=True) as stand_in:
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", stand_in.base_url)
        monkeypatch.setenv("LOCAL_MODEL", "stand-in-model")
        assert main(["--out", str(tmp_path / "x.json")]) == 0
    written = recorded_exchange(tmp_path / "x.json")
    assert written["model"] == "stand-in-model" and decided(written["exchange"], "UPDATE")
    assert written["memories"] == [{"text": "The user works as a nurse.", "current": False},
                                   {"text": "The user works as a paramedic.", "current": True}]
