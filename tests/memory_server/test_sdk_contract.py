"""The official cortadel SDK (async and blocking clients) against the local server over loopback HTTP."""

from __future__ import annotations

import pytest
from cortadel import (
    AddOptions, ChatMessage, ConversationOptions, CortadelClient, CortadelError, ListOptions, SearchOptions,
    SyncCortadelClient,
)


async def test_async_client_every_method(server):
    async with CortadelClient(server.url, "alex") as client:
        health = await client.health()
        assert health.status == "ok"
        assert health.checks["embeddings"]["ok"] is True and health.checks["embeddings"]["dim"] == 384

        created = await client.add(
            "Alex ships on Fridays", AddOptions(app="lesson", metadata={"source": "test"}, memory_type="semantic")
        )
        assert created.event == "ADD" and created.id and created.content == "Alex ships on Fridays"
        assert created.app_name == "lesson" and created.metadata == '{"source": "test"}'
        assert created.created_at.endswith("Z") and created.created_at.startswith("20")

        conversation = await client.add_conversation(
            [ChatMessage("user", "I live in Lyon and I have a cat named Pixel.", "turn-1"),
             ChatMessage("assistant", "Lovely! Pixel is a great name.", "turn-2")],
            ConversationOptions(tags=["lesson-06"], project="demo", session_id="s-1"),
        )
        assert [item.memory for item in conversation.results] == [
            "The user lives in Lyon.", "The user has a cat named Pixel."]
        assert all(item.event == "ADD" and item.id for item in conversation.results)
        assert conversation.no_facts_extracted is None

        found = await client.search("When do I usually ship?", SearchOptions(top_k=3))
        assert found.query == "When do I usually ship?"
        assert found.results[0].id == created.id
        assert found.total == len(found.results) <= 3

        listed = await client.list(ListOptions(size=2))
        assert listed.total == 3 and listed.pages == 2 and listed.page == 1 and len(listed.items) == 2
        assert listed.items[0].content == "The user has a cat named Pixel."  # newest first

        detail = await client.get(created.id)
        assert detail.text == "Alex ships on Fridays" and detail.app_name == "lesson"
        assert isinstance(detail.created_at, int) and detail.is_global is False

        assert await client.get("no-such-memory") is None
        assert await client.delete([created.id]) == "Deleted 1 memory."
        assert await client.get(created.id) is None


def test_blocking_client_every_method(server):
    with SyncCortadelClient(server.url, "sam") as client:
        assert client.health().status == "ok"
        created = client.add("Sam prefers tea to coffee", AddOptions(infer=False))
        assert created.event == "ADD"
        assert client.add("sam prefers tea to coffee.").event == "SKIP_DUPLICATE"
        result = client.add_conversation([ChatMessage("user", "Hello! How are you today?")])
        assert result.results is None and result.no_facts_extracted is True
        hits = client.search("what drink do I like", SearchOptions(mode="vector", top_k=1)).results
        assert [h.id for h in hits] == [created.id]
        assert hits[0].vector_rank == 1 and hits[0].text_rank is None
        listed = client.list()
        assert [i.id for i in listed.items] == [created.id] and listed.items[0].extraction_status == "skipped"
        assert client.get(created.id).text == "Sam prefers tea to coffee"
        assert client.delete([created.id, "unknown-id"]) == "Deleted 1 memory."
        assert client.list().total == 0


async def test_validation_error_maps_to_cortadel_error(server):
    async with CortadelClient(server.url, "alex") as client:
        with pytest.raises(CortadelError) as caught:
            await client.search("anything", SearchOptions(top_k=51))
    assert caught.value.status == 400
    assert caught.value.code == "validation_error"
    assert "top_k" in caught.value.message and "50" in caught.value.message


async def test_missing_user_id_without_auth_is_a_validation_error(server):
    async with CortadelClient(server.url) as client:  # no user_id, and the server has no keys
        with pytest.raises(CortadelError) as caught:
            await client.add("orphan fact")
        assert caught.value.status == 400 and "user_id" in caught.value.message
        with pytest.raises(CortadelError) as listed:
            await client.list()
        assert listed.value.status == 400 and "user_id" in listed.value.message
    assert server.service.store.count() == 0


def test_wire_shapes_match_the_contract_quirks(http):
    created = http.post("/api/v1/memories", json={"user_id": "u", "text": "Alex ships on Fridays"}).json()
    assert isinstance(created["created_at"], str)  # ISO on create
    hit = http.post("/api/v1/memories/search", json={"user_id": "u", "query": "ship"}).json()["results"][0]
    assert hit["global"] is False and "is_global" not in hit  # search hits say `global`
    assert isinstance(hit["rrf_score"], float) and hit["text_rank"] == 1 and hit["vector_rank"] == 1
    assert isinstance(hit["created_at"], str) and hit["gist"] == "Alex ships on Fridays"
    item = http.get("/api/v1/memories", params={"user_id": "u"}).json()["items"][0]
    assert item["is_global"] is False and "global" not in item  # list/detail say `is_global`
    assert isinstance(item["created_at"], int)  # Unix seconds on list and get
    detail = http.get(f"/api/v1/memories/{created['id']}", params={"user_id": "u"}).json()
    assert isinstance(detail["created_at"], int) and detail["text"] == "Alex ships on Fridays"
    facts = http.post("/api/v1/memories/from-conversation",
                      json={"user_id": "u", "messages": [{"role": "user", "content": "I am vegan."}]}).json()
    assert set(facts) == {"results"}  # results xor no_facts_extracted
    nothing = http.post("/api/v1/memories/from-conversation",
                        json={"user_id": "u", "messages": [{"role": "user", "content": "Thanks!"}]}).json()
    assert nothing == {"no_facts_extracted": True}


def test_missing_memory_is_a_404_error_response(http):
    response = http.get("/api/v1/memories/nope", params={"user_id": "u"})
    assert response.status_code == 404
    assert response.json() == {"status": 404, "code": "not_found", "message": "Memory 'nope' was not found."}


def test_degraded_health_is_503_with_a_normal_body(embedder):
    from local_memory_server import start_memory_server

    class Flaky:
        model, provider, dim = embedder.model, "onnx", 384
        broken = False

        def embed(self, texts):
            if self.broken:
                raise RuntimeError("model unavailable")
            return embedder.embed(texts)

    flaky = Flaky()
    with start_memory_server(embedder=flaky) as server:
        flaky.broken = True
        with SyncCortadelClient(server.url, "u") as client:
            health = client.health()  # the SDK maps the 503 body instead of raising
            assert health.status == "degraded"
            assert health.checks["embeddings"]["ok"] is False
            assert "model unavailable" in health.checks["embeddings"]["error"]


async def test_knowledge_update_fields_and_flags_through_the_sdk(server, http):
    """Every field and flag of knowledge updates, read and sent by the official SDK unchanged."""
    async with CortadelClient(server.url, "ravi") as client:
        [lyon] = (await client.add_conversation([ChatMessage("user", "I live in Lyon.")])).results
        [porto] = (await client.add_conversation([ChatMessage("user", "I moved to Porto.")])).results
        assert (lyon.event, porto.event) == ("ADD", "SUPERSEDE") and porto.id != lyon.id

        old, new = await client.get(lyon.id), await client.get(porto.id)
        assert (old.is_current, old.superseded_by) == (False, porto.id)
        assert old.invalid_at.endswith("Z") and old.valid_at.endswith("Z")
        assert (new.is_current, new.superseded_by, new.invalid_at) == (True, None, None)

        current = await client.list()
        assert [(i.id, i.is_current, i.invalid_at) for i in current.items] == [(porto.id, True, None)]
        history = await client.list(ListOptions(include_superseded=True))  # sent as include_superseded=true
        assert [(i.id, i.is_current) for i in history.items] == [(porto.id, True), (lyon.id, False)]
        assert history.items[1].invalid_at == old.invalid_at and history.items[1].valid_at == old.valid_at

        created = await client.add("Ravi has relocated to Faro")
        assert created.event == "SUPERSEDE" and (await client.get(porto.id)).superseded_by == created.id

        [withdrawn] = (await client.add_conversation([ChatMessage("user", "Forget that I live in Faro.")])).results
        assert withdrawn.event == "INVALIDATE" and withdrawn.id is None and withdrawn.memory == "Ravi has relocated to Faro"
        [unmatched] = (await client.add_conversation([ChatMessage("user", "Forget that I own a boat.")])).results
        assert unmatched.event == "NONE" and unmatched.id is None
        assert (await client.list()).items == []
        assert (await client.list(ListOptions(include_superseded=True))).total == 3

    # ListOptions in SDK 1.2.0 has no as_of (the generated transport's query parameters do), so
    # as_of is checked on the wire: the contract's query parameter, ISO 8601 in, history out.
    before_faro = old.invalid_at
    listed = http.get("/api/v1/memories", params={"user_id": "ravi", "as_of": before_faro}).json()
    assert [i["id"] for i in listed["items"]] == [porto.id]
