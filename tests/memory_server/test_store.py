"""The store composing rows, full text and vectors: every write changes all three, or none."""

from __future__ import annotations

import numpy as np
import pytest

from local_memory_server.store import MemoryStore, NewMemory
from offline_reader.changes import Fact, Verdict


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _memories(user: str, *texts: str) -> list[NewMemory]:
    return [NewMemory(user_id=user, content=t, memory_type="semantic") for t in texts]


def test_a_failed_write_changes_neither_the_rows_nor_the_indexes():
    store = MemoryStore(None, embedding_model="test", dim=4)
    store.add_unchecked(_memories("u", "kiwi one"), _unit(np.ones((1, 4))))
    with pytest.raises(ValueError):  # two memories, one vector: fails after the first row is inserted
        store.add_unchecked(_memories("u", "kiwi two", "kiwi three"), _unit(np.ones((1, 4))))
    assert store.count("u") == 1
    assert store.text.rows_of("u") == 1 and store.vectors.size("u") == 1
    assert [store.fetch([s])[s].content for s in store.text_search("u", "kiwi", 10)] == ["kiwi one"]


def test_delete_takes_memories_out_of_every_index_for_their_owner_only():
    store = MemoryStore(None, embedding_model="test", dim=4)
    vecs = _unit(np.eye(4) + 0.1)
    mine = store.add_unchecked(_memories("u", "kiwi a", "kiwi b", "kiwi c"), vecs[:3])
    [theirs] = store.add_unchecked(_memories("v", "kiwi d"), vecs[3:])
    assert store.delete("u", [mine[0].id, theirs.id, "no-such-id"]) == 1  # v's id is not u's to delete
    assert {s for s, _ in store.vector_search("u", vecs[0], 10)} == {mine[1].seq, mine[2].seq}
    assert set(store.text_search("u", "kiwi", 10)) == {mine[1].seq, mine[2].seq}
    assert store.text_search("v", "kiwi", 10) == [theirs.seq]
    assert store.text.rows == 3 and store.count() == 3


class Supersedes:
    """An update decider for vectors with no meaning: every stored candidate is superseded."""

    name = "supersedes"

    def attribute(self, fact: Fact) -> str | None:
        return "home"

    def decide(self, new: Fact, stored) -> list[Verdict]:
        return [Verdict.SUPERSEDES for _ in stored]

    def retracts(self, withdrawal: Fact, stored) -> list[bool]:
        return [False for _ in stored]


def test_a_superseded_memory_leaves_both_indexes_and_stays_listed_as_history():
    store = MemoryStore(None, embedding_model="test", dim=4, decider=Supersedes())
    vec = _unit(np.ones((1, 4)))[0]
    first = store.write(NewMemory(user_id="u", content="I live in Lyon", memory_type="semantic"), vec)
    moved = store.write(NewMemory(user_id="u", content="I live in Porto", memory_type="semantic"), vec)
    assert moved.event == "SUPERSEDE" and [r.id for r in moved.replaced] == [first.record.id]
    assert store.text_search("u", "live", 10) == [moved.record.seq]
    assert [s for s, _ in store.vector_search("u", vec, 10)] == [moved.record.seq]
    current, total = store.list_memories("u", page=1, size=10)
    assert [r.content for r in current] == ["I live in Porto"] and total == 1
    history, total = store.list_memories("u", page=1, size=10, include_superseded=True)
    assert total == 2 and history[1].superseded_by == moved.record.id


def test_a_reopened_file_store_rebuilds_its_indexes_from_the_rows(tmp_path):
    path = tmp_path / "m.sqlite3"
    store = MemoryStore(path, embedding_model="test", dim=4)
    vecs = _unit(np.eye(4) + 0.1)
    records = store.add_unchecked(_memories("u", "kiwi a", "mango b"), vecs[:2])
    store.close()
    again = MemoryStore(path, embedding_model="test", dim=4)
    assert again.stale_vectors == 0 and again.vectors.size("u") == 2 and again.text.rows_of("u") == 2
    assert again.vector_search("u", vecs[1], 1)[0][0] == records[1].seq
    assert again.text_search("u", "mango", 10) == [records[1].seq]
    again.close()
    other_model = MemoryStore(path, embedding_model="other", dim=4)
    assert other_model.stale_vectors == 2 and other_model.vectors.size("u") == 0
    assert other_model.reembed_stale(lambda texts: vecs[: len(texts)]) == 2
    assert other_model.vectors.size("u") == 2
    other_model.close()
