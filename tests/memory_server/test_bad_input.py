"""A table of malformed requests: each gets a 4xx with a useful message and changes nothing."""

from __future__ import annotations

import httpx
import pytest

from local_memory_server import start_memory_server

LONG = "x" * 50_001
MSG = {"role": "user", "content": "I live in Lyon."}

CASES = [
    # (method, path, json body or raw bytes, params, status, field or code, words in message)
    ("POST", "/api/v1/memories", {"user_id": "u"}, None, 400, "text", "required"),
    ("POST", "/api/v1/memories", {"user_id": "u", "text": ""}, None, 400, "text", "empty"),
    ("POST", "/api/v1/memories", {"user_id": "u", "text": "   "}, None, 400, "text", "blank"),
    ("POST", "/api/v1/memories", {"user_id": "u", "text": LONG}, None, 400, "text", "50000"),
    ("POST", "/api/v1/memories", {"user_id": "u", "text": 42}, None, 400, "text", "string"),
    ("POST", "/api/v1/memories", {"text": "no owner"}, None, 400, "user_id", "required"),
    ("POST", "/api/v1/memories", {"user_id": "", "text": "t t"}, None, 400, "user_id", "empty"),
    ("POST", "/api/v1/memories", {"user_id": "u", "text": "t t", "infer": "yes"}, None, 400, "infer", "true or false"),
    ("POST", "/api/v1/memories", {"user_id": "u", "text": "t t", "metadata": [1]}, None, 400, "metadata", "object"),
    ("POST", "/api/v1/memories", b"{not json", None, 400, "$", "not valid JSON"),
    ("POST", "/api/v1/memories", b"[1, 2]", None, 400, "$", "JSON object"),
    ("POST", "/api/v1/memories", b"", None, 400, "", "body is required"),
    ("POST", "/api/v1/memories", b'{"user_id": "u", "text": NaN}', None, 400, "$", "NaN"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "top_k": 0}, None, 400, "top_k", "between 1 and 50"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "top_k": 51}, None, 400, "top_k", "between 1 and 50"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "top_k": 2.5}, None, 400, "top_k", "integer"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "top_k": True}, None, 400, "top_k", "integer"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": ""}, None, 400, "query", "empty"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q" * 5001}, None, 400, "query", "5000"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "mode": "fuzzy"}, None, 400, "mode", "hybrid, text, vector"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "rerank": "magic"}, None, 400, "rerank", "cross_encoder"),
    ("POST", "/api/v1/memories/search", {"user_id": "u", "query": "q", "token_budget": -1}, None, 400, "token_budget", "between"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u"}, None, 400, "messages", "required"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": []}, None, 400, "messages", "between 1 and 500"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [MSG] * 501}, None, 400, "messages", "between 1 and 500"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": "hi"}, None, 400, "messages", "array"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [{"role": "robot", "content": "I am X."}]}, None, 400, "messages[0].role", "user, assistant, system"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [MSG, {"role": "user"}]}, None, 400, "messages[1].content", "required"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [{"role": "user", "content": ""}]}, None, 400, "messages[0].content", "empty"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [{"role": "user", "content": LONG}]}, None, 400, "messages[0].content", "50000"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [{"role": "x" * 21, "content": "a"}]}, None, 400, "messages[0].role", "20"),
    ("POST", "/api/v1/memories/from-conversation", {"user_id": "u", "messages": [MSG], "tags": "t"}, None, 400, "tags", "array"),
    ("POST", "/api/v1/memories/from-conversation", {"messages": [MSG]}, None, 400, "user_id", "required"),
    ("DELETE", "/api/v1/memories", {"user_id": "u", "memory_ids": []}, None, 400, "memory_ids", "at least 1"),
    ("DELETE", "/api/v1/memories", {"user_id": "u"}, None, 400, "memory_ids", "required"),
    ("DELETE", "/api/v1/memories", {"user_id": "u", "memory_ids": [1]}, None, 400, "memory_ids", "non-empty string"),
    ("DELETE", "/api/v1/memories", {"memory_ids": ["a"]}, None, 400, "user_id", "required"),
    ("GET", "/api/v1/memories", None, {}, 400, "user_id", "required"),
    ("GET", "/api/v1/memories", None, {"user_id": "u", "size": "101"}, 400, "size", "between 1 and 100"),
    ("GET", "/api/v1/memories", None, {"user_id": "u", "page": "0"}, 400, "page", "between"),
    ("GET", "/api/v1/memories", None, {"user_id": "u", "page": "two"}, 400, "page", "integer"),
    ("GET", "/api/v1/memories", None, {"user_id": "u", "as_of": "yesterday"}, 400, "as_of", "ISO 8601"),
    ("GET", "/api/v1/memories", None, {"user_id": "u", "include_superseded": "yes"}, 400, "include_superseded", '"true" or "false"'),
    ("GET", "/api/v1/memories/some-id", None, {}, 400, "validation_error", "user_id"),
    ("GET", "/api/v1/nothing-here", None, {}, 404, "not_found", "route"),
    ("PUT", "/api/v1/memories", {"user_id": "u"}, None, 405, "method_not_allowed", "Method"),
]


@pytest.fixture(scope="module")
def server(embedder):
    """One server for the whole table: every case must leave it exactly as it was."""
    with start_memory_server(embedder=embedder) as running:
        with httpx.Client(base_url=running.url, timeout=30) as http:
            created = http.post("/api/v1/memories", json={"user_id": "u", "text": "Alex ships on Fridays"})
            assert created.status_code == 200
        yield running


@pytest.fixture(scope="module")
def seeded(server):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        yield http


def memory_count(server) -> int:
    return server.service.store.count()


def _snapshot(http):
    return http.get("/api/v1/memories", params={"user_id": "u", "size": 100}).json()["items"]


@pytest.mark.parametrize("method, path, body, params, status, where, words", CASES,
                         ids=[f"{c[0]} {c[1]} -> {c[5]}" for c in CASES])
def test_bad_request_is_rejected_with_a_useful_message(seeded, server, method, path, body, params, status, where, words):
    before = _snapshot(seeded)
    kwargs = {"params": params}
    if isinstance(body, bytes):
        kwargs["content"] = body
        kwargs["headers"] = {"content-type": "application/json"}
    elif body is not None:
        kwargs["json"] = body
    response = seeded.request(method, path, **kwargs)
    assert response.status_code == status, response.text
    payload = response.json()
    if status == 400 and "errors" in payload:  # ValidationProblemDetails
        assert payload["status"] == 400 and payload["title"]
        assert where in payload["errors"], payload
        assert words.lower() in " ".join(payload["errors"][where]).lower(), payload
    else:  # ErrorResponse
        assert payload["status"] == status and payload["code"] == where, payload
        assert words.lower() in payload["message"].lower(), payload
    assert _snapshot(seeded) == before and len(before) == 1


def test_wrong_content_type_is_415(seeded, server):
    before = memory_count(server)
    response = seeded.post("/api/v1/memories", content=b"user_id=u&text=hi",
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 415 and "application/json" in response.json()["message"]
    assert memory_count(server) == before


def test_every_problem_is_reported_at_once(seeded):
    response = seeded.post("/api/v1/memories/search", json={"query": "", "top_k": 99, "mode": 3})
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"query", "user_id", "top_k", "mode"}


def test_invalid_memory_type_is_ignored_as_the_contract_says(seeded):
    for text in ("Alex went to Rome last year", "Alex likes maps"):
        created = seeded.post("/api/v1/memories", json={"user_id": "typed", "text": text, "memory_type": "cosmic"})
        assert created.status_code == 200
    listed = seeded.get("/api/v1/memories", params={"user_id": "typed", "memory_type": "cosmic"}).json()
    assert listed["total"] == 2  # an invalid filter is no filter
    types = {i["content"]: i["memory_type"] for i in listed["items"]}
    assert types == {"Alex went to Rome last year": "episodic", "Alex likes maps": "semantic"}  # classified instead
