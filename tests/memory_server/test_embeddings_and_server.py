"""Embedders (checksums, OpenAI-compatible alternative) and the server's lifecycle."""

from __future__ import annotations

import asyncio
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import json

import httpx
import numpy as np
import pytest
from cortadel import CortadelClient, SearchOptions, SyncCortadelClient

from local_memory_server import MemoryServer, default_db_path, embeddings, start_memory_server
from local_memory_server.embeddings import (
    EmbeddingError,
    HashingEmbedder,
    OpenAICompatibleEmbedder,
    sha256_of,
    tokenizer_path,
)


def test_vendored_tokenizer_matches_its_pinned_checksum_and_notice():
    assert sha256_of(tokenizer_path()) == embeddings.TOKENIZER_SHA256
    notice = (tokenizer_path().parent / "NOTICE.txt").read_text(encoding="utf-8")
    assert "Apache License, Version 2.0" in notice and embeddings.TOKENIZER_SHA256 in notice


def test_a_tampered_model_file_is_refused(tmp_path, monkeypatch):
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    monkeypatch.setattr(embeddings, "model_path", lambda: fake)
    with pytest.raises(EmbeddingError, match="sha256"):
        embeddings._OnnxRuntime()


def test_default_embedder_is_normalised_and_semantic(embedder):
    vectors = embedder.embed(["Alex ships on Fridays", "When do I usually ship?", "My cat is called Pixel"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert embeddings.default_embedder() is embedder  # loaded once per process


@pytest.fixture
def fake_openai():
    """A minimal OpenAI-compatible /v1/embeddings endpoint (hashing vectors underneath)."""
    hashing = HashingEmbedder(32)
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            seen.append((self.path, body["model"], self.headers.get("authorization")))
            vectors = hashing.embed(body["input"]) * 3.0  # not normalised: the client must normalise
            data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
            payload = json.dumps({"object": "list", "data": data[::-1]}).encode()  # out of order on purpose
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", seen
    httpd.shutdown()
    httpd.server_close()


def test_openai_compatible_embedder_end_to_end(fake_openai):
    url, seen = fake_openai
    embedder = OpenAICompatibleEmbedder(url, "nomic-embed-text", api_key="sk-local")
    vectors = embedder.embed(["alpha beta", "gamma"])
    assert vectors.shape == (2, 32) and np.allclose(np.linalg.norm(vectors, axis=1), 1)
    assert np.allclose(vectors, HashingEmbedder(32).embed(["alpha beta", "gamma"]), atol=1e-6)
    assert seen[0] == ("/v1/embeddings", "nomic-embed-text", "Bearer sk-local")
    with start_memory_server(embedder=embedder) as server, SyncCortadelClient(server.url, "u") as client:
        client.add("alpha beta gamma")
        assert client.search("beta", SearchOptions(mode="vector")).results[0].content == "alpha beta gamma"
        assert client.health().checks["embeddings"]["provider"] == "openai"


def test_unreachable_embedding_endpoint_is_a_clear_503():
    embedder = OpenAICompatibleEmbedder("http://127.0.0.1:9/v1", "m", timeout=1)
    embedder._dim = 8  # skip the probe so the server can start
    with start_memory_server(embedder=HashingEmbedder(8)) as server:
        server.service.embedder = embedder
        response = httpx.post(f"{server.url}/api/v1/memories", json={"user_id": "u", "text": "a fact"})
        assert response.status_code == 503 and "Embedding endpoint" in response.json()["message"]
        assert server.service.store.count() == 0


def test_stop_is_idempotent_and_frees_the_port(embedder):
    server = start_memory_server(embedder=embedder)
    assert isinstance(server, MemoryServer) and server.url.startswith("http://127.0.0.1:") and server.running
    server.stop()
    server.stop()
    assert not server.running
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{server.url}/api/health", timeout=2)


async def test_two_servers_from_inside_a_running_event_loop(embedder):
    # Like two notebooks: each starts its own server while an event loop is already running.
    async with start_memory_server(embedder=embedder) as one, start_memory_server(embedder=embedder) as two:
        assert one.url != two.url
        async with CortadelClient(one.url, "u") as a, CortadelClient(two.url, "u") as b:
            await a.add("Only in the first server")
            assert (await a.list()).total == 1 and (await b.list()).total == 0
        await asyncio.sleep(0)


def test_file_store_keeps_memories_and_rebuilds_indexes_across_restarts(tmp_path, embedder):
    db = tmp_path / "nested" / "memories.sqlite3"
    with start_memory_server(db_path=db, embedder=embedder) as server, SyncCortadelClient(server.url, "u") as c:
        created = c.add("Alex ships on Fridays")
    with start_memory_server(db_path=db, embedder=embedder) as server, SyncCortadelClient(server.url, "u") as c:
        assert c.get(created.id).text == "Alex ships on Fridays"
        assert c.search("When do I usually ship?").results[0].id == created.id
        assert c.add("alex ships on fridays").event == "SKIP_DUPLICATE"


def test_changing_the_embedder_re_embeds_stored_memories(tmp_path, embedder):
    db = tmp_path / "m.sqlite3"
    with start_memory_server(db_path=db, embedder=HashingEmbedder(16)) as server:
        httpx.post(f"{server.url}/api/v1/memories", json={"user_id": "u", "text": "Alex ships on Fridays"})
    with start_memory_server(db_path=db, embedder=embedder) as server, SyncCortadelClient(server.url, "u") as c:
        hits = c.search("When do I usually ship?", SearchOptions(mode="vector")).results
        assert [h.content for h in hits] == ["Alex ships on Fridays"]
        assert c.health().checks["indexes"]["ok"] is True


def test_default_db_path_is_in_the_user_data_dir():
    import platformdirs

    path = default_db_path()
    assert path.name.endswith(".sqlite3")
    assert str(path).startswith(str(platformdirs.user_data_path()))
