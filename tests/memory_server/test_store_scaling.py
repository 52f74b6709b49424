"""The store's large-scale paths, exercised at small sizes by lowering their thresholds."""

from __future__ import annotations

import numpy as np

from lesson_utils.memory_server import store as store_mod
from lesson_utils.memory_server.store import MemoryStore, NewMemory


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_ivf_index_agrees_with_the_exact_scan(monkeypatch):
    monkeypatch.setattr(store_mod, "IVF_MIN_VECTORS", 1000)
    rng = np.random.default_rng(1)
    centres = _unit(rng.normal(size=(40, 32)))
    vectors = _unit(centres[rng.integers(0, 40, 4000)] + rng.normal(0, 0.15, (4000, 32)))
    store = MemoryStore(None, embedding_model="test", dim=32)
    records = store.add_unchecked(
        [NewMemory(user_id="u", content=f"memory {i}", memory_type="semantic") for i in range(4000)], vectors)
    index = store._vectors["u"]
    overlaps = []
    queries = _unit(centres[rng.integers(0, 40, 30)] + rng.normal(0, 0.3, (30, 32)))  # near the data, like real ones
    for q in queries:
        approx = [s for s, _ in store.vector_search("u", q, 10)]
        assert index.centroids is not None  # the IVF path really ran
        overlaps.append(len(set(approx) & {s for s, _ in index.exact_search(q, 10)}) / 10)
    assert np.mean(overlaps) >= 0.85
    # Deleting keeps the index consistent: deleted memories are never returned.
    gone = {r.seq for r in records[:2000]}
    assert store.delete("u", [r.id for r in records[:2000]]) == 2000
    for q in vectors[:50]:
        assert not gone & {s for s, _ in store.vector_search("u", q, 10)}
    # A filtered search stays exact.
    q = vectors[3000]
    assert store.vector_search("u", q, 1, memory_type="semantic")[0][0] == records[3000].seq


def test_common_terms_are_dropped_beyond_the_postings_budget(monkeypatch):
    monkeypatch.setattr(store_mod, "TEXT_POSTINGS_BUDGET", 50)
    store = MemoryStore(None, embedding_model="test", dim=4)
    texts = [f"Alex noted detail number {i}" for i in range(299)] + ["Alex has a cat called Pixel"]
    store.add_unchecked([NewMemory(user_id="u", content=t, memory_type="semantic") for t in texts],
                        _unit(np.ones((300, 4))))
    with store._lock:
        assert store._informative(["alex", "pixel"]) == (["pixel"], False)  # "alex" is in every memory
        assert store._informative(["alex"]) == (["alex"], True)  # too common alone: newest matches only
    hits = store.text_search("u", "Is Alex's cat Pixel?", 5)
    assert [store.fetch(hits)[h].content for h in hits] == ["Alex has a cat called Pixel"]
    newest = store.text_search("u", "Alex", 300)
    assert sorted(newest) == list(range(251, 301))  # capped to the 50 newest matches, ranked by BM25
    # Under the budget nothing is dropped.
    monkeypatch.setattr(store_mod, "TEXT_POSTINGS_BUDGET", 10_000)
    with store._lock:
        assert store._informative(["alex", "pixel"]) == (["alex", "pixel"], False)


def test_full_text_search_is_scoped_to_the_user_on_every_query_plan():
    store = MemoryStore(None, embedding_model="test", dim=4)
    vec = _unit(np.ones((1, 4)))

    def add(user: str, text: str) -> None:
        store.add_unchecked([NewMemory(user_id=user, content=text, memory_type="semantic")], vec)

    def texts(user: str) -> list[str]:
        return [r.content for r in store.fetch(store.text_search(user, "kiwi", 50)).values()]

    add("solo", "solo eats kiwi")
    assert texts("solo") == ["solo eats kiwi"]  # the only user: no filter needed
    assert texts("nobody") == []
    for i in range(5):
        add("major", f"major eats kiwi {i}")  # owns most rows: filtered through the join
    add("minor", "minor eats kiwi")  # owns few rows: filtered by the owner token
    assert sorted(texts("major")) == [f"major eats kiwi {i}" for i in range(5)]
    assert texts("minor") == ["minor eats kiwi"]
    assert texts("solo") == ["solo eats kiwi"]
    assert texts("nobody") == []
