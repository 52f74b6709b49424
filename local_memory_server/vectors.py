"""The in-RAM vector index: each user's memory vectors, searched by cosine similarity.

Kept apart from SQLite on purpose. The database is the durable copy of every vector (a float32
blob per row); this module is only the fast mirror that search reads, so it can be built,
changed and tested with plain numpy arrays, and a search never waits behind a database query
(each user's vectors have their own lock).

Vectors are unit length, so cosine similarity is a dot product. Up to ``IVF_MIN_VECTORS`` per
user a search is an exact scan of that user's matrix — a few milliseconds even at 20k x 384.
Beyond that an inverted-file (IVF) index scans only the partitions nearest the query; it is
approximate, so the bench reports how often it agrees with the exact top 10.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np

from offline_reader.kinds import MEMORY_TYPES

#: Below this many vectors per user, search is exact brute force; above, an IVF index is used.
IVF_MIN_VECTORS = 20_000
#: An IVF search scans the nearest 1/IVF_PROBE_DIVISOR of the partitions (at least 8).
IVF_PROBE_DIVISOR = 16
#: Above this many rows a matrix-vector product is worth OpenBLAS's threads (see ``dot_rows``).
BLAS_MIN_ROWS = 20_000

#: (memory id sequence number, cosine similarity), best first.
Scored = list[tuple[int, float]]


def dot_rows(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``matrix @ query``, on this thread alone unless the matrix is very large.

    A matrix-vector product of a few thousand rows goes to OpenBLAS, which fans it out to its own
    threads and leaves them spin-waiting afterwards; on a 2-core machine they then steal the cores
    the query embedding (ONNX) and the full-text query need — at 10k memories the next query
    embedding took twice as long. numpy's own einsum loop is as fast single-threaded up to
    ~20k x 384 (~0.7 ms at 10k) and spawns nothing. Only the rare exact scan of a larger matrix
    (a filtered search above the IVF threshold) is worth OpenBLAS's threads (~8 vs ~20 ms at 100k).
    """
    if len(matrix) > BLAS_MIN_ROWS:
        return matrix @ query
    return np.einsum("ij,j->i", matrix, query)


def _top(scores: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the ``limit`` highest scores, best first (ties keep position order)."""
    k = min(limit, len(scores))
    if k <= 0:
        return np.empty(0, dtype=np.intp)
    top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    return top[np.argsort(-scores[top], kind="stable")]


class UserVectors:
    """A growable float32 matrix of one user's vectors plus the filter columns search needs.

    Up to ``ivf_min_vectors`` a search is an exact scan. Beyond that a scan reads the whole
    matrix (150 MB at 100k x 384) for every query, so an inverted-file index takes over: k-means
    centroids (about sqrt(n) of them) partition the vectors, a query scans only the vectors of
    its nearest ``nprobe`` partitions, and the candidates are scored exactly. It is retrained when
    the user's vectors have doubled since the last training.
    """

    def __init__(self, dim: int, *, ivf_min_vectors: int = IVF_MIN_VECTORS) -> None:
        self.dim = dim
        self.ivf_min_vectors = ivf_min_vectors
        self.size = 0
        self.vecs = np.zeros((16, dim), dtype=np.float32)
        self.seqs = np.zeros(16, dtype=np.int64)
        self.types = np.zeros(16, dtype=np.int8)
        self.assign = np.zeros(16, dtype=np.int32)
        self.sessions: list[str | None] = []
        self.pos: dict[int, int] = {}
        self.centroids: np.ndarray | None = None
        self.trained_at = 0
        self.lock = threading.RLock()

    def add(self, seq: int, vec: np.ndarray, memory_type: str, session_id: str | None) -> None:
        with self.lock:
            if self.size == len(self.seqs):
                cap = len(self.seqs) * 2
                self.vecs = np.resize(self.vecs, (cap, self.dim))
                self.seqs = np.resize(self.seqs, cap)
                self.types = np.resize(self.types, cap)
                self.assign = np.resize(self.assign, cap)
            i = self.size
            self.vecs[i] = vec
            self.seqs[i] = seq
            self.types[i] = MEMORY_TYPES.index(memory_type)
            if self.centroids is not None:
                self.assign[i] = int(np.argmax(self.centroids @ vec))
            self.sessions.append(session_id)
            self.pos[seq] = i
            self.size += 1

    def remove(self, seq: int) -> None:
        """Drop ``seq`` (if present) by moving the last row into its place."""
        with self.lock:
            i = self.pos.pop(seq, None)
            if i is None:
                return
            last = self.size - 1
            if i != last:
                self.vecs[i] = self.vecs[last]
                self.seqs[i] = self.seqs[last]
                self.types[i] = self.types[last]
                self.assign[i] = self.assign[last]
                self.sessions[i] = self.sessions[last]
                self.pos[int(self.seqs[i])] = i
            self.sessions.pop()
            self.size -= 1

    def _train(self) -> None:
        """Spherical k-means on a sample, then assign every vector to its nearest centroid."""
        n = self.size
        nlist = max(16, int(np.sqrt(n)))
        rng = np.random.default_rng(0)
        sample = self.vecs[rng.choice(n, size=min(n, nlist * 40), replace=False)]
        centroids = sample[rng.choice(len(sample), size=nlist, replace=False)].copy()
        for _ in range(8):
            labels = np.argmax(sample @ centroids.T, axis=1)
            sums = np.zeros_like(centroids)
            np.add.at(sums, labels, sample)
            empty = ~sums.any(axis=1)
            sums[empty] = sample[rng.choice(len(sample), size=int(empty.sum()), replace=False)]
            centroids = sums / np.linalg.norm(sums, axis=1, keepdims=True)
        assign = np.empty(n, dtype=np.int32)
        for start in range(0, n, 8192):
            assign[start : start + 8192] = np.argmax(self.vecs[start : min(n, start + 8192)] @ centroids.T, axis=1)
        self.assign[:n] = assign
        self.centroids = centroids
        self.trained_at = n

    def _candidates(self, query: np.ndarray) -> np.ndarray | None:
        """Positions worth scoring for ``query``, or None for an exact scan."""
        if self.size < self.ivf_min_vectors:
            self.centroids = None
            return None
        if self.centroids is None or self.size >= 2 * self.trained_at:
            self._train()
        assert self.centroids is not None
        nlist = len(self.centroids)
        nprobe = max(8, nlist // IVF_PROBE_DIVISOR)
        probed = np.zeros(nlist, dtype=bool)
        probed[np.argpartition(-(self.centroids @ query), nprobe - 1)[:nprobe]] = True
        return np.flatnonzero(probed[self.assign[: self.size]])

    def search(self, query: np.ndarray, limit: int, memory_type: str | None, session_id: str | None) -> Scored:
        """The ``limit`` most similar vectors, best first; filtered searches are always exact."""
        with self.lock:
            if self.size == 0:
                return []
            filtered = memory_type is not None or session_id is not None
            positions = self._candidates(query)
            if positions is None or filtered:  # a filter can empty the probed lists: stay exact
                positions = np.arange(self.size)
                scores = dot_rows(self.vecs[: self.size], query)
            else:
                scores = dot_rows(self.vecs[positions], query)
            if filtered:
                keep = np.ones(len(positions), dtype=bool)
                if memory_type is not None:
                    keep &= self.types[positions] == MEMORY_TYPES.index(memory_type)
                if session_id is not None:
                    keep &= np.array([self.sessions[p] == session_id for p in positions], dtype=bool)
                scores = np.where(keep, scores, -np.inf)
            top = _top(scores, limit)
            return [(int(self.seqs[positions[i]]), float(scores[i])) for i in top if np.isfinite(scores[i])]

    def exact_search(self, query: np.ndarray, limit: int) -> Scored:
        """Brute-force top ``limit``: what the IVF index approximates (tests and the bench compare)."""
        with self.lock:
            scores = dot_rows(self.vecs[: self.size], query)
            return [(int(self.seqs[i]), float(scores[i])) for i in _top(scores, limit)]


class VectorIndex:
    """Every user's vectors, one ``UserVectors`` each: a user's search never scans another's."""

    def __init__(self, dim: int, *, ivf_min_vectors: int = IVF_MIN_VECTORS) -> None:
        self.dim = dim
        self.ivf_min_vectors = ivf_min_vectors
        self._users: dict[str, UserVectors] = {}
        self._lock = threading.Lock()

    def _of(self, user_id: str) -> UserVectors:
        index = self._users.get(user_id)
        if index is None:
            with self._lock:
                index = self._users.setdefault(user_id, UserVectors(self.dim, ivf_min_vectors=self.ivf_min_vectors))
        return index

    def add(self, user_id: str, seq: int, vector: np.ndarray, memory_type: str, session_id: str | None) -> None:
        vec = np.asarray(vector, dtype=np.float32)
        if vec.shape != (self.dim,):
            raise ValueError(f"expected a vector of {self.dim} floats, got shape {vec.shape}")
        self._of(user_id).add(seq, vec, memory_type, session_id)

    def remove(self, user_id: str, seqs: Iterable[int]) -> None:
        index = self._users.get(user_id)
        if index is not None:
            for seq in seqs:
                index.remove(seq)

    def size(self, user_id: str) -> int:
        index = self._users.get(user_id)
        return 0 if index is None else index.size

    def search(
        self,
        user_id: str,
        query: np.ndarray,
        limit: int,
        *,
        memory_type: str | None = None,
        session_id: str | None = None,
    ) -> Scored:
        """Cosine ranking (best first) of the user's vectors, as (seq, similarity)."""
        index = self._users.get(user_id)
        if index is None:
            return []
        return index.search(np.asarray(query, dtype=np.float32), limit, memory_type, session_id)

    def exact_search(self, user_id: str, query: np.ndarray, limit: int) -> Scored:
        index = self._users.get(user_id)
        if index is None:
            return []
        return index.exact_search(np.asarray(query, dtype=np.float32), limit)

    def uses_ivf(self, user_id: str) -> bool:
        """Whether the user's last unfiltered search went through the IVF index."""
        index = self._users.get(user_id)
        return index is not None and index.centroids is not None

    def vectors_for(self, user_id: str, seqs: Sequence[int]) -> dict[int, np.ndarray]:
        """Copies of the stored vectors of ``seqs`` (those the index holds)."""
        index = self._users.get(user_id)
        if index is None:
            return {}
        with index.lock:
            return {s: index.vecs[index.pos[s]].copy() for s in seqs if s in index.pos}
