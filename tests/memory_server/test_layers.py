"""The layers of the server: the service takes plain arguments; failures become contract bodies in one place."""

from __future__ import annotations

import httpx
import pytest

from local_memory_server import start_memory_server
from local_memory_server.embeddings import EmbeddingError
from local_memory_server.request_models import (
    NEEDS_USER_ID,
    CreateMemoryRequest,
    DeleteMemoriesRequest,
    ListMemoriesQuery,
    SearchMemoriesRequest,
)
from local_memory_server.server import build_service
from local_memory_server.service import NotFound


def test_the_service_works_without_http_on_a_user_id_and_request_models(embedder):
    service = build_service(None, embedder=embedder)
    try:
        created = service.create("alex", CreateMemoryRequest(text="Alex ships on Fridays", user_id="alex"))
        found = service.search("alex", SearchMemoriesRequest(query="when does Alex ship", user_id="alex"))
        assert [r["id"] for r in found["results"]] == [created["id"]]
        assert service.list_memories("sam", ListMemoriesQuery())["total"] == 0  # the user argument decides
        with pytest.raises(NotFound):
            service.get("sam", created["id"])
        deleted = service.delete("alex", DeleteMemoriesRequest.model_validate(
            {"memory_ids": [created["id"]]}, context={NEEDS_USER_ID: False}))
        assert deleted == {"message": "Deleted 1 memory."}
    finally:
        service.store.close()


def test_a_body_without_user_id_is_valid_only_when_a_key_names_the_user():
    with pytest.raises(ValueError, match="is required"):
        CreateMemoryRequest.model_validate({"text": "t"})
    assert CreateMemoryRequest.model_validate({"text": "t"}, context={NEEDS_USER_ID: False}).user_id is None


class _BrokenEmbedder:
    model, provider, dim = "broken", "test", 384

    def embed(self, texts):
        raise EmbeddingError("the embedding endpoint is down")


def test_a_failure_raised_inside_the_service_is_answered_by_the_apps_handler(embedder):
    with start_memory_server(embedder=embedder) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        server.service.embedder = _BrokenEmbedder()  # health stays up; writes now fail deep in the service
        response = http.post("/api/v1/memories", json={"user_id": "u", "text": "Alex ships on Fridays"})
        assert response.status_code == 503
        assert response.json() == {"status": 503, "code": "embeddings_unavailable",
                                   "message": "the embedding endpoint is down"}
        missing = http.get("/api/v1/memories/nope", params={"user_id": "u"})
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        assert server.service.store.count() == 0
