"""The model update decider against the loopback stand-in model server (tests/models/stand_in_server.py).

It is an opt-in option of the local server: the verdicts come from the configured model when it
answers the JSON asked for, and from the offline decider — with one log line — when it does not.
"""

from __future__ import annotations

import json
import logging

import pytest
from cortadel import ChatMessage, SyncCortadelClient

from memory_evaluation.pairs import main as pairs_main
from local_memory_server import start_memory_server
from local_memory_server.__main__ import main as server_main
from offline_reader.changes import MeaningDecider
from local_memory_server.model_decider import ModelDecider
from offline_reader.changes import Fact, UpdateDecider, Verdict
from chat_models import ModelConfigurationError
from tests.models.conftest import MODEL_VARIABLES
from tests.models.stand_in_server import StandInServer


def _env(stand_in: StandInServer) -> dict[str, str]:
    return {"LESSON_MODEL": "local", "LOCAL_MODEL_BASE_URL": stand_in.base_url, "LOCAL_MODEL": "stand-in-model",
            "LOCAL_MODEL_API_KEY": "test-key"}


def _verdicts(request) -> str:
    """Answer like a model: "supersedes" for every stored fact that names a city, else "unrelated"."""
    stored = request["messages"][-1]["content"].split("STORED facts:\n", 1)[1].splitlines()
    if "WITHDRAWAL" in request["messages"][-1]["content"]:
        return json.dumps({"retracts": [True for _ in stored]})
    said = ["supersedes" if "Lyon" in line else "unrelated" for line in stored]
    return f"Here you are:\n```json\n{json.dumps({'verdicts': said})}\n```"


@pytest.fixture
def offline(embedder) -> MeaningDecider:
    return MeaningDecider(embedder.embed)


@pytest.fixture
def fact(embedder):
    return lambda text: Fact(text, embedder.embed([text])[0])


def test_the_models_verdicts_are_used_and_it_was_asked_with_the_facts(offline, fact):
    with StandInServer(reply=_verdicts) as stand_in:
        decider = ModelDecider(fallback=offline, env=_env(stand_in))
        assert isinstance(decider, UpdateDecider)
        # The offline decider would call "likes tea" unrelated; the model's verdict wins.
        got = decider.decide(fact("Alex likes tea."), [fact("Alex lives in Lyon."), fact("Alex likes coffee.")])
        assert got == [Verdict.SUPERSEDES, Verdict.UNRELATED]
        assert decider.retracts(fact("Alex no longer likes tea."), [fact("Alex likes tea.")]) == [True]
        asked = stand_in.requests[0]
        assert asked["model"] == "stand-in-model" and asked["temperature"] == 0
        assert "NEW fact: Alex likes tea." in asked["messages"][-1]["content"]
        assert "2. Alex likes coffee." in asked["messages"][-1]["content"]
        assert decider.decide(fact("Alex likes tea."), []) == [] and len(stand_in.requests) == 2  # nothing to ask
        decider.close()


@pytest.mark.full  # slow: over 10 s each on 2 cores
@pytest.mark.parametrize("misbehave", [None, "status:500"])  # None: the stand-in echoes, which is not JSON
def test_garbage_or_an_error_falls_back_to_the_offline_decider_with_one_log_line(offline, fact, misbehave, caplog):
    with StandInServer(misbehave=misbehave) as stand_in:
        decider = ModelDecider(fallback=offline, env=_env(stand_in))
        new, old = fact("The user has relocated to Quito."), fact("The user is based in Tallinn.")
        with caplog.at_level(logging.WARNING, logger="local_memory_server.model_decider"):
            assert decider.decide(new, [old]) == offline.decide(new, [old]) == [Verdict.SUPERSEDES]
        assert len(caplog.records) == 1 and "used the offline decider" in caplog.records[0].getMessage()
        decider.close()


@pytest.mark.full  # slow: over 10 s on 2 cores
def test_a_wrong_length_or_unknown_verdict_is_garbage_too(offline, fact):
    answers = iter([json.dumps({"verdicts": ["supersedes", "supersedes"]}), json.dumps({"verdicts": ["maybe"]})])
    with StandInServer(reply=lambda request: next(answers)) as stand_in:
        decider = ModelDecider(fallback=offline, env=_env(stand_in))
        for _ in range(2):
            assert decider.decide(fact("Alex likes coffee."), [fact("Alex likes tea.")]) == [Verdict.UNRELATED]
        decider.close()


def test_without_a_model_configured_it_says_what_to_set(offline, monkeypatch, tmp_path):
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ModelConfigurationError, match="LOCAL_MODEL_BASE_URL"):
        ModelDecider(fallback=offline)


@pytest.mark.parametrize("main", [
    lambda: server_main(["--db", ":memory:", "--port", "0", "--update-decider", "model"]),
    lambda: pairs_main(["--update-decider", "model"]),
], ids=["server", "pairs"])
def test_the_command_lines_say_what_to_set_in_one_line_when_no_model_is_configured(main, monkeypatch, tmp_path, capsys):
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2 and capsys.readouterr().err.splitlines()[-1].endswith("update_decider='meaning'.")


def test_the_local_server_takes_it_as_an_option(embedder, monkeypatch, tmp_path):
    with StandInServer(reply=_verdicts) as stand_in:
        for name in MODEL_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in _env(stand_in).items():
            monkeypatch.setenv(name, value)
        monkeypatch.chdir(tmp_path)
        with start_memory_server(embedder=embedder, update_decider="model") as server:
            assert server.service.store.decider.name == "model"
            with SyncCortadelClient(server.url, "noor") as client:
                client.add_conversation([ChatMessage("user", "I live in Lyon.")])
                [moved] = client.add_conversation([ChatMessage("user", "My brother lives in Lyon.")]).results
        assert moved.event == "SUPERSEDE"  # the stand-in's verdict: offline, a brother's home is not the user's
        assert any("Lyon" in r["messages"][-1]["content"] for r in stand_in.requests)
