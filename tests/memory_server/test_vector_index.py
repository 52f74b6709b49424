"""The vector index alone: plain numpy vectors, no SQLite, no embedder."""

from __future__ import annotations

import numpy as np
import pytest

from local_memory_server.vectors import BLAS_MIN_ROWS, VectorIndex, dot_rows


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _clustered(n: int, dim: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` unit vectors around 40 centres, and the centres (queries near the data, like real ones)."""
    rng = np.random.default_rng(seed)
    centres = _unit(rng.normal(size=(40, dim)))
    return _unit(centres[rng.integers(0, 40, n)] + rng.normal(0, 0.15, (n, dim))), centres


def _filled(vectors: np.ndarray, *, ivf_min_vectors: int, types=("semantic",), sessions=(None,)) -> VectorIndex:
    index = VectorIndex(vectors.shape[1], ivf_min_vectors=ivf_min_vectors)
    for seq, vec in enumerate(vectors, start=1):
        index.add("u", seq, vec, types[seq % len(types)], sessions[seq % len(sessions)])
    return index


def test_the_ivf_index_agrees_with_the_exact_scan_and_forgets_removed_vectors():
    vectors, centres = _clustered(4000, 32)
    index = _filled(vectors, ivf_min_vectors=1000)
    rng = np.random.default_rng(2)
    queries = _unit(centres[rng.integers(0, 40, 30)] + rng.normal(0, 0.3, (30, 32)))
    overlaps = []
    for q in queries:
        approx = [seq for seq, _ in index.search("u", q, 10)]
        assert index.uses_ivf("u")  # the IVF path really ran
        exact = [seq for seq, _ in index.exact_search("u", q, 10)]
        overlaps.append(len(set(approx) & set(exact)) / 10)
    assert np.mean(overlaps) >= 0.85
    # Removing keeps the partitions consistent: a removed vector is never returned, even for itself.
    gone = set(range(1, 2001))
    index.remove("u", gone)
    assert index.size("u") == 2000
    for seq in range(1, 51):
        assert not gone & {s for s, _ in index.search("u", vectors[seq - 1], 10)}
    # The rows moved into the freed places are still found, under their own seq.
    for seq in (2001, 3000, 4000):
        assert index.search("u", vectors[seq - 1], 1)[0][0] == seq


def test_below_the_threshold_search_is_the_exact_scan():
    vectors, centres = _clustered(500, 16)
    index = _filled(vectors, ivf_min_vectors=1000)
    for q in centres[:10]:
        assert index.search("u", q, 10) == index.exact_search("u", q, 10)
    assert not index.uses_ivf("u")
    best = index.search("u", vectors[41], 3)
    assert best[0][0] == 42 and best[0][1] == pytest.approx(1.0, abs=1e-5)
    assert [s for _, s in best] == sorted((s for _, s in best), reverse=True)


@pytest.mark.parametrize("ivf_min_vectors", [10_000, 1000], ids=["exact", "ivf"])
def test_filters_by_memory_type_and_session_are_exact(ivf_min_vectors):
    vectors, _ = _clustered(3000, 16)
    index = _filled(vectors, ivf_min_vectors=ivf_min_vectors, types=("semantic", "episodic", "procedural"),
                    sessions=("s1", "s2", None, "s1"))
    query = vectors[1499]

    def kinds(seq: int) -> tuple[str, str | None]:
        return ("semantic", "episodic", "procedural")[seq % 3], ("s1", "s2", None, "s1")[seq % 4]

    for memory_type in ("semantic", "episodic", "procedural"):
        hits = index.search("u", query, 20, memory_type=memory_type)
        assert len(hits) == 20 and all(kinds(s)[0] == memory_type for s, _ in hits)
        everything = [(s, sim) for s, sim in index.exact_search("u", query, 3000) if kinds(s)[0] == memory_type]
        assert [s for s, _ in hits] == [s for s, _ in everything[:20]]  # the exact filtered top 20
    hits = index.search("u", query, 50, session_id="s2", memory_type="episodic")
    assert hits and all(kinds(s) == ("episodic", "s2") for s, _ in hits)
    assert index.search("u", query, 10, session_id="nowhere") == []


def test_removing_in_any_order_keeps_every_other_vector_under_its_own_seq():
    vectors = _unit(np.eye(12) + 0.05)
    index = _filled(vectors, ivf_min_vectors=1000)
    left = set(range(1, 13))
    for seq in (1, 12, 11, 5, 2):  # 12 moves into 1's place, then leaves itself, ...
        index.remove("u", [seq])
        left.discard(seq)
        for kept in left:
            assert index.search("u", vectors[kept - 1], 1)[0][0] == kept
            np.testing.assert_array_equal(index.vectors_for("u", [kept])[kept], vectors[kept - 1])
    assert index.size("u") == len(left) == 7


def test_a_filtered_search_above_the_threshold_finds_matches_outside_the_probed_partitions():
    vectors, centres = _clustered(3000, 16)
    near = np.argmax(vectors @ centres.T, axis=1)  # each vector's own centre
    index = VectorIndex(16, ivf_min_vectors=1000)
    for seq, (vec, centre) in enumerate(zip(vectors, near, strict=True), start=1):
        index.add("u", seq, vec, "procedural" if centre == 0 else "semantic", None)
    query = centres[1]  # far from centre 0: its partitions are not the probed ones
    hits = index.search("u", query, 5, memory_type="procedural")
    assert index.uses_ivf("u")
    wanted = [(s, sim) for s, sim in index.exact_search("u", query, 3000) if near[s - 1] == 0][:5]
    assert [s for s, _ in hits] == [s for s, _ in wanted]


def test_users_never_see_each_others_vectors():
    index = VectorIndex(4)
    index.add("alice", 1, _unit(np.ones((1, 4)))[0], "semantic", None)
    index.add("bob", 2, _unit(np.ones((1, 4)))[0], "semantic", None)
    assert [s for s, _ in index.search("alice", np.ones(4), 10)] == [1]
    assert [s for s, _ in index.search("bob", np.ones(4), 10)] == [2]
    assert index.search("carol", np.ones(4), 10) == []
    index.remove("alice", [2])  # bob's seq, asked through alice: nothing happens
    assert index.size("bob") == 1 and index.size("alice") == 1
    assert set(index.vectors_for("bob", [1, 2])) == {2}


def test_a_vector_of_the_wrong_size_is_refused_with_the_expected_size():
    index = VectorIndex(8)
    with pytest.raises(ValueError, match="expected a vector of 8 floats"):
        index.add("u", 1, np.ones(4), "semantic", None)
    assert index.size("u") == 0


@pytest.mark.parametrize("rows", [100, BLAS_MIN_ROWS + 1])
def test_dot_rows_is_the_matrix_product_on_both_sides_of_the_blas_threshold(rows):
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(rows, 8)).astype(np.float32)
    query = rng.normal(size=8).astype(np.float32)
    np.testing.assert_allclose(dot_rows(matrix, query), matrix @ query, rtol=1e-5, atol=1e-5)
