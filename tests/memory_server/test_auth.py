"""Optional per-user API keys: the key decides the user; health stays open."""

from __future__ import annotations

import httpx
import pytest
from cortadel import CortadelClient, CortadelError, SyncCortadelClient

from local_memory_server import start_memory_server

KEYS = {"alice": "key-alice", "bob": "key-bob"}


@pytest.fixture
def secured(embedder):
    with start_memory_server(embedder=embedder, api_keys=KEYS) as server:
        yield server


def test_health_is_open_and_memory_routes_need_a_key(secured):
    with httpx.Client(base_url=secured.url) as http:
        assert http.get("/api/health").status_code == 200
        missing = http.post("/api/v1/memories", json={"user_id": "alice", "text": "x y z"})
        assert missing.status_code == 401 and missing.json()["code"] == "unauthorized"
        assert "Bearer" in missing.json()["message"]
        wrong = http.get("/api/v1/memories", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["message"] == "The API key is not valid."
    assert secured.service.store.count() == 0


def test_sdk_without_user_id_uses_the_keys_user(secured):
    with SyncCortadelClient(secured.url, api_key="key-alice") as alice:
        created = alice.add("Alice keeps bees")
        assert alice.get(created.id).text == "Alice keeps bees"
        assert [i.content for i in alice.list().items] == ["Alice keeps bees"]
    with SyncCortadelClient(secured.url, api_key="key-bob") as bob:
        assert bob.get(created.id) is None  # another user's memory is not found, not leaked
        assert bob.search("bees").results == []
        assert bob.delete([created.id]) == "Deleted 0 memories."
    assert secured.service.store.count("alice") == 1


def test_api_key_header_works_like_bearer(secured):
    with httpx.Client(base_url=secured.url, headers={"API_KEY": "key-bob"}) as http:
        response = http.post("/api/v1/memories", json={"text": "Bob likes jazz"})
        assert response.status_code == 200
    assert secured.service.store.count("bob") == 1


async def test_body_user_id_cannot_reach_another_user(secured):
    async with CortadelClient(secured.url, "alice", api_key="key-bob") as bob_claiming_alice:
        await bob_claiming_alice.add("Bob wrote this while claiming to be Alice")
        hits = await bob_claiming_alice.search("claiming")  # body user_id is overwritten too
        assert [h.content for h in hits.results] == ["Bob wrote this while claiming to be Alice"]
    assert secured.service.store.count("alice") == 0
    assert secured.service.store.count("bob") == 1


async def test_query_user_id_naming_another_user_is_403(secured):
    async with CortadelClient(secured.url, "alice", api_key="key-bob") as client:
        with pytest.raises(CortadelError) as caught:
            await client.list()
        # The contract declares no 403 body for list/get, so the SDK reports a bare status.
        assert caught.value.status == 403
        with pytest.raises(CortadelError) as got:
            await client.get("any-id")
        assert got.value.status == 403
    with httpx.Client(base_url=secured.url, headers={"Authorization": "Bearer key-bob"}) as http:
        body = http.get("/api/v1/memories", params={"user_id": "alice"}).json()
        assert body["code"] == "forbidden" and "does not match" in body["message"]
    async with CortadelClient(secured.url, "bob", api_key="key-bob") as client:
        assert (await client.list()).total == 0  # a matching query user_id is fine


def test_api_keys_are_validated():
    from local_memory_server.auth import ApiKeys

    with pytest.raises(ValueError, match="share one key"):
        ApiKeys({"a": "same", "b": "same"})
    with pytest.raises(ValueError, match="non-empty"):
        ApiKeys({"a": ""})
