"""The query-vector cache: only the exact same text from the same embedder is served from it."""

from __future__ import annotations

import numpy as np

from local_memory_server.embeddings import HashingEmbedder
from local_memory_server.search import QueryVectorCache, search
from local_memory_server.store import MemoryStore, NewMemory


class CountingEmbedder(HashingEmbedder):
    def __init__(self, dim: int = 64) -> None:
        super().__init__(dim)
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts.extend(texts)
        return super().embed(texts)


def test_same_text_is_embedded_once_and_any_other_text_afresh():
    cache, embedder = QueryVectorCache(size=8), CountingEmbedder()
    first = cache.embed(embedder, "When do I ship?")
    again = cache.embed(embedder, "When do I ship?")
    other = cache.embed(embedder, "when do I ship?")
    assert embedder.texts == ["When do I ship?", "when do I ship?"]
    assert again is first and np.allclose(first, embedder.embed(["When do I ship?"])[0])
    assert not first.flags.writeable  # a caller cannot corrupt what the next caller gets
    assert other is not first


def test_embedders_never_share_vectors():
    cache, a, b = QueryVectorCache(size=8), CountingEmbedder(64), CountingEmbedder(32)
    va, vb = cache.embed(a, "Alex ships on Fridays"), cache.embed(b, "Alex ships on Fridays")
    assert a.texts == b.texts == ["Alex ships on Fridays"]
    assert va.shape == (64,) and vb.shape == (32,)


def test_least_recently_used_entries_are_evicted():
    cache, embedder = QueryVectorCache(size=2), CountingEmbedder()
    cache.embed(embedder, "one")
    cache.embed(embedder, "two")
    cache.embed(embedder, "one")  # "two" is now the least recently used
    cache.embed(embedder, "three")
    cache.embed(embedder, "one")
    cache.embed(embedder, "two")
    assert embedder.texts == ["one", "two", "three", "two"]


def test_hybrid_search_results_do_not_change_when_the_query_vector_is_cached():
    embedder = CountingEmbedder()
    store = MemoryStore(None, embedding_model=embedder.model, dim=embedder.dim)
    texts = ["Alex ships on Fridays", "Alex likes green tea", "Priya lives in Lisbon"]
    store.add_unchecked([NewMemory(user_id="alex", content=t, memory_type="semantic") for t in texts], embedder.embed(texts))
    query = "When does Alex ship? (cache test)"
    first = search(store, embedder, "alex", query, top_k=3)
    second = search(store, embedder, "alex", query, top_k=3)
    assert embedder.texts.count(query) == 1
    assert [(h.record.id, h.rrf_score, h.similarity) for h in first] == [
        (h.record.id, h.rrf_score, h.similarity) for h in second
    ]
    assert first[0].record.content == "Alex ships on Fridays"
    store.close()
