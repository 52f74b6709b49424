"""The model path of the server's write path, against the loopback stand-in model server.

A model reads each turn in at most two calls (extract, then decide), its JSON constrained by a schema; the code
finds candidates by similarity, applies the decisions as the contract's events, and vetoes a replacement the
model's own labels do not allow. Any failure of the model falls back to the offline reader for that turn, with
one log line, and loses nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from cortadel import ChatMessage, SyncCortadelClient

from memory_evaluation.pairs import main as pairs_main
from local_memory_server import start_memory_server
from local_memory_server.__main__ import main as server_main
from local_memory_server.model_endpoint import ModelEndpoint, endpoint_from_environment
from local_memory_server.prompts import SYSTEM_PROMPT
from local_memory_server.request_models import AddConversationRequest
from local_memory_server.server import build_service
from chat_models import ModelConfigurationError
from tests.models.conftest import MODEL_VARIABLES
from tests.models.stand_in_server import StandInServer


def fact(text: str, *, whose: str = "user", topic: str = "home city", single: bool = True,
         when: str = "now") -> dict[str, Any]:
    return {"fact": text, "whose": whose, "topic": topic, "single": single, "when": when}


class Script:
    """A stand-in model's answers: ``facts[said]`` for an extraction of a turn that says ``said``, and
    ``decide(new_facts_block)`` for a deciding call."""

    def __init__(self, facts: dict[str, list[dict[str, Any]]],
                 decide: Callable[[str], list[dict[str, Any]]] | None = None) -> None:
        self.facts, self.decide = facts, decide

    def __call__(self, request: dict[str, Any]) -> str:
        last = request["messages"][-1]["content"]
        if request["response_format"]["json_schema"]["name"] == "facts":
            said = last.split("user: ", 1)[1]
            return json.dumps({"facts": self.facts.get(said, [])})
        assert self.decide is not None, "no deciding call expected"
        return json.dumps({"decisions": self.decide(last)})


def decision(event: str, number: int = 0, *, both_true: bool = False, fact_no: int = 1) -> dict[str, Any]:
    return {"fact": fact_no, "both_true": both_true, "event": event, "id": number}


@pytest.fixture
def model_service(embedder):
    """A service whose reader is a stand-in model answering ``script`` (set per test)."""
    made = []

    def make(script: Script, **stand_in: Any):
        server = StandInServer(reply=script, api_key=None, answers_any_model=True, **stand_in).__enter__()
        endpoint = ModelEndpoint(server.base_url, "stand-in-model", timeout=stand_in.get("delay", 5.0) / 2 or 5.0)
        service = build_service(None, embedder=embedder, understanding=endpoint)
        made.append((server, service))
        return service, server

    yield make
    for server, service in made:
        service.store.close()
        server.__exit__(None, None, None)


def say(service, text: str, user: str = "ana") -> dict[str, Any]:
    request = AddConversationRequest.model_validate(
        {"user_id": user, "messages": [{"role": "user", "content": text, "uuid": "t1"}]})
    return service.from_conversation(user, request)


def current(service, user: str = "ana") -> list[str]:
    records, _ = service.store.list_memories(user, page=1, size=50)
    return sorted(r.content for r in records)


# -- the protocol ---------------------------------------------------------------------------------------


def test_a_first_turn_costs_one_call_constrained_by_a_schema_with_the_fixed_prompt_first(model_service):
    service, stand_in = model_service(Script({"I live in Lyon.": [fact("The user lives in Lyon.")]}))
    body = say(service, "I live in Lyon.")
    assert body == {"results": [{"id": body["results"][0]["id"], "memory": "The user lives in Lyon.", "event": "ADD"}]}
    [asked] = stand_in.requests  # nothing stored yet: nothing to decide against, so no second call
    assert asked["temperature"] == 0 and asked["response_format"]["type"] == "json_schema"
    assert asked["response_format"]["json_schema"]["schema"]["required"] == ["facts"]
    assert asked["messages"] == [{"role": "system", "content": SYSTEM_PROMPT},
                                 {"role": "user", "content": "TASK extract\nuser: I live in Lyon."}]


def test_an_update_supersedes_the_memory_the_model_named_in_one_deciding_call(model_service):
    script = Script({"I live in Lyon.": [fact("The user lives in Lyon.")],
                     "Moved to Porto last week!": [fact("The user lives in Porto.")]},
                    decide=lambda block: [decision("UPDATE", 1)])
    service, stand_in = model_service(script)
    say(service, "I live in Lyon.")
    body = say(service, "Moved to Porto last week!")
    assert [r["event"] for r in body["results"]] == ["SUPERSEDE"]
    assert current(service) == ["The user lives in Porto."]
    deciding = stand_in.requests[-1]
    assert len(stand_in.requests) == 3 and deciding["messages"] == [
        {"role": "system", "content": SYSTEM_PROMPT},  # the same fixed prefix as the extraction: one prompt cache
        {"role": "user", "content": "TASK decide\nNEW 1: The user lives in Porto.\n  STORED 1: The user lives in Lyon."}]
    schema = deciding["response_format"]["json_schema"]["schema"]["properties"]["decisions"]
    assert (schema["minItems"], schema["maxItems"], schema["items"]["properties"]["id"]) == (1, 1, {"enum": [1]})
    old = service.store.list_memories("ana", page=1, size=50, include_superseded=True)[0]
    assert [r.superseded_by for r in old if not r.is_current] == [body["results"][0]["id"]]


def test_every_fact_of_a_turn_is_decided_in_one_call_and_each_event_is_the_contracts(model_service):
    first = [fact("The user lives in Lyon."), fact("The user plays darts on Thursdays.", topic="darts", single=False),
             fact("The user has a cat.", topic="pet", single=False)]
    second = [fact("The user lives in Porto."), fact("The user no longer plays darts.", topic="darts"),
              fact("The user has a cat.", topic="pet", single=False), fact("The user likes jazz.", topic="music",
                                                                           single=False)]

    def decide(block: str) -> list[dict[str, Any]]:
        number = {line.split(": ", 1)[1]: int(line.split()[1].rstrip(":"))
                  for line in block.splitlines() if line.strip().startswith("STORED")}
        return [decision("UPDATE", number["The user lives in Lyon."], fact_no=1),
                decision("DELETE", number["The user plays darts on Thursdays."], fact_no=2),
                decision("NONE", number["The user has a cat."], both_true=True, fact_no=3),
                decision("ADD", both_true=True, fact_no=4)]

    service, stand_in = model_service(Script({"a": first, "b": second}, decide))
    say(service, "a")
    body = say(service, "b")
    assert [r["event"] for r in body["results"]] == ["SUPERSEDE", "INVALIDATE", "SKIP_DUPLICATE", "ADD"], [
        d.vetoed for d in service.readings[-1].decisions]
    assert "id" not in body["results"][1] and body["results"][1]["memory"] == "The user plays darts on Thursdays."
    assert current(service) == ["The user has a cat.", "The user likes jazz.", "The user lives in Porto."]
    assert len(stand_in.requests) == 3  # two turns: one extraction each, one deciding call for all four facts


def test_the_exchange_is_kept_as_sent_and_received(model_service):
    service, _ = model_service(Script({"I live in Lyon.": [fact("The user lives in Lyon.")]}))
    say(service, "I live in Lyon.")
    [reading] = service.readings
    [exchange] = reading.exchange
    assert exchange["call"] == "extract" and exchange["received"]["facts"][0]["fact"] == "The user lives in Lyon."
    assert exchange["sent"][-1]["content"] == "TASK extract\nuser: I live in Lyon."


def test_one_users_memories_are_never_another_users_candidates(model_service):
    script = Script({"I live in Lyon.": [fact("The user lives in Lyon.")],
                     "I live in Porto.": [fact("The user lives in Porto.")]},
                    decide=lambda block: [decision("UPDATE", 1)])
    service, stand_in = model_service(script)
    say(service, "I live in Lyon.", user="ana")
    say(service, "I live in Porto.", user="ben")
    assert len(stand_in.requests) == 2  # ben had nothing stored: no deciding call at all
    assert current(service, "ana") == ["The user lives in Lyon."]


# -- guard-rails: the model's own labels keep a small model from retiring true memories -----------------


@pytest.mark.parametrize("first, second, answer, why", [
    (fact("The user has a dog.", topic="pet", single=False), fact("The user has a cat.", topic="pet", single=False),
     decision("UPDATE", 1), "many-valued"),
    (fact("The user lives in Turin."), fact("The user lived in Rome as a child.", when="past"),
     decision("UPDATE", 1), "past"),
    (fact("The user lives in Turin."), fact("The user would love to live in Lisbon.", when="plan"),
     decision("UPDATE", 1), "plan"),
    (fact("The user lives in Bergen."), fact("The user's brother lives in Oslo.", whose="brother"),
     decision("UPDATE", 1), "'brother'"),
    (fact("The user lives in Bergen."), fact("The user lives in Oslo."),
     decision("UPDATE", 1, both_true=True), "both can be true"),
    (fact("The user lives in Bergen."), fact("The user lives in Oslo."), decision("UPDATE", 7), "not one shown"),
    (fact("The user's sister swims.", whose="sister", topic="sport", single=False),
     fact("The user no longer swims.", topic="sport"), decision("DELETE", 1), "'sister'"),
])
def test_a_replacement_the_labels_do_not_allow_is_stored_as_an_add(model_service, first, second, answer, why):
    # Each turn says its fact: one the turn never told could read as a copy of the prompt's examples.
    service, _ = model_service(Script({first["fact"]: [first], second["fact"]: [second]}, decide=lambda block: [answer]))
    say(service, first["fact"])
    body = say(service, second["fact"])
    assert [r["event"] for r in body["results"]] == ["ADD"]
    assert current(service) == sorted([first["fact"], second["fact"]])
    assert why in service.readings[-1].decisions[0].vetoed


def test_a_fact_copied_from_the_prompts_examples_is_not_stored_unless_the_turn_told_it(model_service, caplog):
    copied = fact("The user has a tortoise called Pebble.", topic="pet", single=False)
    script = Script({"Went to a car boot sale, got a bread knife.": [fact("The user bought a bread knife."), copied],
                     "We have a tortoise called Pebble.": [copied]}, decide=lambda block: [decision("ADD", 1)])
    service, _ = model_service(script)
    with caplog.at_level(logging.INFO, logger="local_memory_server.understanding"):
        body = say(service, "Went to a car boot sale, got a bread knife.")
    assert [r["memory"] for r in body["results"]] == ["The user bought a bread knife."]
    assert "one of the prompt's examples" in caplog.text and "Pebble" in caplog.text
    say(service, "We have a tortoise called Pebble.", user="ben")  # told in the turn: kept
    assert current(service, "ben") == ["The user has a tortoise called Pebble."]


def say_and_hear(service, text: str, reply: str, user: str = "ana") -> dict[str, Any]:
    request = AddConversationRequest.model_validate({"user_id": user, "messages": [
        {"role": "user", "content": text, "uuid": "t1"}, {"role": "assistant", "content": reply}]})
    return service.from_conversation(user, request)


PLAYLIST = ("Try these: Electric Feel by MGMT, Heat Waves by Glass Animals, and Time (You and I) by Khruangbin. "
            "Which of them do you like?")


def test_a_fact_in_the_assistants_words_is_not_stored_and_the_users_answer_is(model_service, caplog):
    asked = "I run on Tuesdays, any songs for a playlist?"
    suggested = fact("The user likes the song Electric Feel by MGMT.", topic="music", single=False)
    own = fact("The user runs on Tuesdays.", topic="running", single=False)
    service, _ = model_service(Script({f"{asked}\nassistant: {PLAYLIST}": [own, suggested]}))
    with caplog.at_level(logging.INFO, logger="local_memory_server.understanding"):
        say_and_hear(service, asked, PLAYLIST)
    assert current(service) == ["The user runs on Tuesdays."]
    assert "in the assistant's words" in caplog.text and "MGMT" in caplog.text


def test_a_short_answer_to_the_assistants_question_keeps_its_fact(model_service):
    # Two of the assistant's words, "heat waves", and the user's own "love": under the guard's three.
    answered = fact("The user loves Heat Waves.", topic="music", single=False)
    service, _ = model_service(Script({f"the second one, love it\nassistant: {PLAYLIST}": [answered]}))
    say_and_hear(service, "the second one, love it", PLAYLIST)
    assert current(service) == ["The user loves Heat Waves."]


def test_a_fact_the_model_writes_twice_is_decided_and_stored_once(model_service):
    twice = fact("The user has a border collie called Biscuit.", topic="pet", single=False)
    service, _ = model_service(Script({"My border collie Biscuit needs a walk.": [twice, twice, twice]}))
    body = say(service, "My border collie Biscuit needs a walk.")
    assert [r["memory"] for r in body["results"]] == ["The user has a border collie called Biscuit."]
    assert [f.text for f in service.readings[-1].facts] == ["The user has a border collie called Biscuit."]


# -- failures fall back to the offline reader, lose nothing, and say so in one line ---------------------


@pytest.mark.parametrize("reply, misbehave, problem", [
    (lambda request: "I think you live in Lyon!", None, "not JSON"),
    (lambda request: json.dumps({"facts": "Lyon"}), None, "no facts list"),
    (lambda request: json.dumps({"facts": [{"fact": ""}]}), None, "a fact without text"),
    (lambda request: " ".join(["word"] * 600), None, "cut at 512 tokens"),
    (lambda request: "{}", "status:500", "HTTP 500"),
    (lambda request: "{}", "slow", "no answer within"),
])
def test_a_model_that_fails_hands_the_turn_to_the_offline_reader(model_service, caplog, reply, misbehave, problem):
    service, _ = model_service(reply, misbehave=misbehave, delay=2.0)
    with caplog.at_level(logging.WARNING, logger="local_memory_server.service"):
        body = say(service, "I live in Lyon.")
    assert [r["event"] for r in body["results"]] == ["ADD"] and current(service) == ["The user lives in Lyon."]
    [line] = [r.getMessage() for r in caplog.records]
    assert "offline reader" in line and problem in line and "\n" not in line


def test_a_wrong_number_of_decisions_falls_back_before_anything_is_written(model_service, caplog):
    script = Script({"I live in Lyon.": [fact("The user lives in Lyon.")],
                     "I live in Porto now.": [fact("The user lives in Porto now.")]},
                    decide=lambda block: [decision("UPDATE", 1), decision("ADD", fact_no=2)])
    service, _ = model_service(script)
    say(service, "I live in Lyon.")
    with caplog.at_level(logging.WARNING, logger="local_memory_server.service"):
        say(service, "I live in Porto now.")
    assert "1 decisions expected" in caplog.text
    assert current(service) == ["The user lives in Porto now."]  # the offline reader read this one


def test_a_dead_model_falls_back_too(embedder, caplog):
    service = build_service(None, embedder=embedder, understanding=ModelEndpoint("http://127.0.0.1:9/v1", "gone"))
    with caplog.at_level(logging.WARNING, logger="local_memory_server.service"):
        body = say(service, "I live in Lyon.")
    service.store.close()
    assert [r["event"] for r in body["results"]] == ["ADD"] and "ConnectError" in caplog.text


# -- which reader: the lessons' model, or offline; a missing model named in one line --------------------


@pytest.fixture
def no_model(monkeypatch, tmp_path):
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def test_auto_reads_with_the_lessons_model_and_offline_without_one(no_model, embedder):
    assert endpoint_from_environment() is None
    assert build_service(None, embedder=embedder).reader is None
    no_model.setenv("LOCAL_MODEL_BASE_URL", "http://127.0.0.1:8080/v1")
    no_model.setenv("LOCAL_MODEL", "qwen15")
    service = build_service(None, embedder=embedder)
    assert service.reader is not None and service.reader.model == "qwen15"
    assert build_service(None, embedder=embedder, understanding="offline").reader is None


def test_asking_for_the_model_without_one_is_one_line_naming_the_variables(no_model, embedder, capsys):
    with pytest.raises(ModelConfigurationError, match="LOCAL_MODEL_BASE_URL and LOCAL_MODEL"):
        build_service(None, embedder=embedder, understanding="model")
    for main, argv in ((server_main, ["--db", ":memory:", "--understanding", "model"]),
                       (pairs_main, ["--understanding", "model"])):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        [line] = [x for x in capsys.readouterr().err.splitlines() if "LOCAL_MODEL_BASE_URL" in x]
        assert "error:" in line


def test_the_official_sdk_sees_the_models_events_through_the_server(no_model, embedder):
    script = Script({"I live in Lyon.": [fact("The user lives in Lyon.")],
                     "Moved to Porto!": [fact("The user lives in Porto.")]},
                    decide=lambda block: [decision("UPDATE", 1)])
    with StandInServer(reply=script, api_key=None, answers_any_model=True) as stand_in:
        endpoint = ModelEndpoint(stand_in.base_url, "stand-in-model")
        with start_memory_server(embedder=embedder, understanding=endpoint) as server:
            with SyncCortadelClient(server.url, "ana") as client:
                client.add_conversation([ChatMessage("user", "I live in Lyon.")])
                result = client.add_conversation([ChatMessage("user", "Moved to Porto!")])
                assert [r.event for r in result.results] == ["SUPERSEDE"]
                hits = client.search("Where do I live?").results
                assert [h.content for h in hits] == ["The user lives in Porto."]
            assert not endpoint.closed
        assert endpoint.closed, "stopping the server closes its connection to the model"
