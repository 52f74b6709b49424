"""Hybrid retrieval: BM25 and vector cosine, fused with reciprocal rank fusion (RRF), with no rules about English.

Each arm ranks the user's memories on its own; a memory's fused score is the sum over arms of
``1 / (RRF_K + rank)``. Exact-word matches (names, ids) come from BM25, paraphrases ("When do I
usually ship?" for "Alex ships on Fridays") from the vectors, and RRF needs no score
calibration between the two. ``text_rank`` / ``vector_rank`` report each arm's 1-based rank.

In the hybrid mode fusion picks the candidates and the query's cosine similarity orders them: the fused
best :data:`POOL`, best similarity first (a hit only BM25 found is scored by its stored vector). BM25 matches
one common word of a short question ("car", "play", "living", which stems to "live") in many memories, and
in plain RRF a memory both arms found weakly outranks the paraphrase only the vectors found. Measured both
ways on the project's dev data, with no other rule in the query path (fused order → fused pool by cosine):

* the dev scorecard (``python bench/memory_eval.py --split dev``, 12 users, ~590 memories each), hybrid:
  recall@1 51% → 58%, recall@5 66% → 72%, update accuracy 36% → 39%;
* ``tests/memory_server/data/recall_eval.json`` (36 paraphrased questions, one fact each): recall@1
  26 → 33 of 36, recall@5 36 of 36 both ways;
* ``bench/data/paraphrase_dev.json`` (``python bench/retrieval_eval.py``, 18 questions among near misses):
  recall@1 14 → 16, recall@5 16 → 17 of 18;
* the dev update pairs (``python -m memory_evaluation.pairs``): 65 of 69 both ways (two memories
  per user: nothing to rank).

Until this version the pool was then re-ranked by English rules: a question read as asking one of the user's
attributes got the memories the update decider had filed in that attribute's slot first (a slot lookup), and
the rest were put in tiers, the user's own before other people's and, for a question about now, the present
before the past (the former readers' rules, since folded into the one offline reader, ``offline_reader/``). They were tuned on the dev data (hybrid recall@1 86%,
recall@5 94%, update accuracy 94% on the dev scorecard with them), and they did not carry over to questions
written apart from the project: on a paraphrase set written elsewhere recall@5 fell from 27 to 23 of 30 (a
question about one's manager read the manager's memory as someone else's and ranked three unrelated notes
above it), and on ``recall_eval.json`` recall@5 was 33 of 36. They also cost a query-time pass over the
pool with a few dozen regular expressions and a vote over 240 example questions. So ranking is fusion and
similarity alone; the reader stays where it helps the write path (the update decider, ``reader/changes.py``).

``rerank="cross_encoder"`` is accepted for compatibility, but the local server has no
cross-encoder: it orders the fused candidates by the embedding cosine similarity (a bi-encoder),
as the hybrid mode always does, also in the text mode, and marks each hit's
``attributes["rerank"]`` as ``"cosine"`` to say so.

In the hybrid and vector modes each hit also gets ``relevance``: the calibrated probability that
it is evidence for the query (``relevance.py``), which the service sends as
``attributes["relevance"]`` so a client can tell "nothing relevant" from "the best of nothing".
Two of its features do read English (whether a memory is about someone the question does not name,
and whether it holds no current value): so it is computed after the order is fixed and never changes it.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from . import relevance as relevance_mod
from .embeddings import Embedder
from .store import MemoryRecord, MemoryStore

RRF_K = 60
MODES = ("hybrid", "text", "vector")
#: Vector hits below this cosine similarity are not relevant enough to return on their own.
MIN_SIMILARITY = 0.1
#: How many of the fused best are ordered by cosine similarity (the hybrid mode, and ``rerank``).
POOL = 60
#: How deep each arm ranks before fusion (deeper than top_k, so the pool holds what either arm ranks well).
ARM_DEPTH = 50


# Embedding the query (onnxruntime) and the BM25 query (SQLite) both release the GIL, so the
# hybrid mode runs them side by side.
_QUERY_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="memory-query-embed")

#: Most query vectors remembered per embedder (384 floats each: 256 are ~400 KB).
QUERY_CACHE_SIZE = 256


class QueryVectorCache:
    """Recently embedded queries, per embedder object, keyed by the exact query text.

    Helps only when the very same text is searched again — a question asked twice, a notebook
    cell run again, a listing paged through with the same ``search_query``. Anything else, even a
    one-character difference, is embedded afresh. Entries belong to one embedder object (and its
    ``model`` name), so two embedders never share vectors; least recently used entries go first.
    """

    def __init__(self, size: int = QUERY_CACHE_SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._per_embedder: weakref.WeakKeyDictionary[Embedder, OrderedDict[tuple[str, str], np.ndarray]] = (
            weakref.WeakKeyDictionary()
        )

    def embed(self, embedder: Embedder, text: str) -> np.ndarray:
        """The (read-only) vector of ``text``, from the cache or freshly embedded."""
        key = (str(getattr(embedder, "model", "")), text)
        with self._lock:
            try:
                entries = self._per_embedder.setdefault(embedder, OrderedDict())
            except TypeError:  # an embedder that cannot be weakly referenced or hashed: no caching
                entries = None
            cached = entries.get(key) if entries is not None else None
            if entries is not None and cached is not None:
                entries.move_to_end(key)
                return cached
        vector = np.asarray(embedder.embed([text])[0], dtype=np.float32)
        vector.flags.writeable = False
        if entries is not None and self.size > 0:
            with self._lock:
                entries[key] = vector
                entries.move_to_end(key)
                while len(entries) > self.size:
                    entries.popitem(last=False)
        return vector


QUERY_VECTORS = QueryVectorCache()


@dataclass
class Hit:
    record: MemoryRecord
    rrf_score: float
    text_rank: int | None
    vector_rank: int | None
    similarity: float | None
    #: P(evidence) from ``relevance.py``; None in text mode or for an embedder it was not fitted for.
    relevance: float | None = None
    #: The features ``relevance`` was computed from (``relevance.FEATURES``), for refitting.
    features: tuple[float, ...] | None = None


def search(
    store: MemoryStore,
    embedder: Embedder,
    user_id: str,
    query: str,
    *,
    top_k: int = 10,
    mode: str = "hybrid",
    memory_type: str | None = None,
    session_id: str | None = None,
    rerank: bool = False,
    min_similarity: float = MIN_SIMILARITY,
) -> list[Hit]:
    """Rank the user's memories for ``query``; at most ``top_k`` hits, best first."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    depth = max(top_k * 3, ARM_DEPTH)
    qvec: np.ndarray | None = None
    arm: list[tuple[int, float]] = []
    text_ranks: dict[int, int] = {}
    vector_ranks: dict[int, int] = {}
    similarity: dict[int, float] = {}
    pending = _QUERY_POOL.submit(QUERY_VECTORS.embed, embedder, query) if mode != "text" else None
    if mode in ("hybrid", "text"):
        for rank, seq in enumerate(
            store.text_search(user_id, query, depth, memory_type=memory_type, session_id=session_id), start=1
        ):
            text_ranks[seq] = rank
    if pending is not None:  # the hybrid and vector modes
        qvec = pending.result()
        rank = 0
        arm = store.vector_search(user_id, qvec, depth, memory_type=memory_type, session_id=session_id)
        for seq, sim in arm:
            similarity[seq] = sim
            if sim < min_similarity:
                break
            rank += 1
            vector_ranks[seq] = rank
    fused: dict[int, float] = {}
    for ranks in (text_ranks, vector_ranks):
        for seq, rank in ranks.items():
            fused[seq] = fused.get(seq, 0.0) + 1.0 / (RRF_K + rank)
    order = sorted(fused, key=lambda s: (-fused[s], -s))  # ties: newest first
    if (rerank or mode == "hybrid") and order:
        if qvec is None:  # text mode computed no query vector
            qvec = QUERY_VECTORS.embed(embedder, query)
        order = _by_similarity(store, user_id, qvec, order[: max(top_k, POOL)], similarity)
    order = order[:top_k]
    if qvec is not None:  # a hit only the text arm found: its similarity from its stored vector
        _fill_similarity(store, user_id, qvec, order, similarity)
    records = store.fetch(order)
    hits = [
        Hit(
            record=records[s],
            rrf_score=float(fused.get(s, 0.0)),
            text_rank=text_ranks.get(s),
            vector_rank=vector_ranks.get(s),
            similarity=similarity.get(s),
        )
        for s in order
        if s in records
    ]
    if qvec is not None and mode != "text" and getattr(embedder, "model", None) == relevance_mod.FITTED_MODEL:
        _add_relevance(query, relevance_mod.background([sim for _, sim in arm]), hits)
    return hits


def _fill_similarity(
    store: MemoryStore, user_id: str, qvec: np.ndarray, seqs: list[int], similarity: dict[int, float]
) -> None:
    """Give every seq of ``seqs`` its cosine similarity to the query, from its stored vector when the vector arm
    did not rank it."""
    missing = [seq for seq in seqs if seq not in similarity]
    for seq, vec in store.vectors_for(user_id, missing).items():
        similarity[seq] = float(np.dot(vec, qvec))


def _by_similarity(
    store: MemoryStore, user_id: str, qvec: np.ndarray, pool: list[int], similarity: dict[int, float]
) -> list[int]:
    """``pool`` by the query's cosine similarity, best first (ties keep their fused order)."""
    _fill_similarity(store, user_id, qvec, pool, similarity)
    return sorted(pool, key=lambda s: -similarity.get(s, -1.0))


def _add_relevance(query: str, background: float, hits: list[Hit]) -> None:
    """Fill each hit's ``features`` and ``relevance`` (every hit has its similarity by now). It does not change the
    order: ``relevance`` reads English patterns (``relevance.py`` says which), ranking reads none."""
    for h in hits:
        if h.similarity is not None:
            h.features = relevance_mod.hit_features(h.similarity, background, query, h.record.content)
            h.relevance = relevance_mod.probability(h.features)
