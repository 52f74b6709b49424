"""Hybrid retrieval: BM25 and vector cosine, fused with reciprocal rank fusion (RRF).

Each arm ranks the user's memories on its own; a memory's fused score is the sum over arms of
``1 / (RRF_K + rank)``. Exact-word matches (names, ids) come from BM25, paraphrases ("When do I
usually ship?" for "Alex ships on Fridays") from the vectors, and RRF needs no score
calibration between the two. ``text_rank`` / ``vector_rank`` report each arm's 1-based rank.

In the hybrid mode fusion picks the candidates and the query's cosine similarity orders them: the fused
best :data:`SUBJECT_POOL`, best similarity first (a hit only BM25 found is scored by its stored vector).
In a history of hundreds of memories BM25 matches one common word of a short question ("car", "home",
"living", which stems to "live") in many memories, and a memory both arms found weakly outranked in RRF
the paraphrase only the vectors found ("What car do I have?": "took the car for its service" above "swapped
the Volvo for a Subaru"). On the dev haystacks, ordering the fused pool by similarity lifted update accuracy
from 81% to 86% (dev's filler) and from 48% to 70% (another author's), and recall@1 from 81% to 84% and
62% to 75%. ``rrf_score`` and the arms' ranks are still each hit's own.

A question that asks about one of the user's single-valued attributes ("What do I do for a living?", read
by ``asked.py``) is answered by the memories the update decider filed as that attribute's current value (the
rows' ``slot``): in the hybrid mode they join the pool wherever the arms ranked them, and go first. Dev
update accuracy rose from 86% to 89%, and from 70% to 82% among another author's filler.

Then the rest of the pool is put in tiers, each kept in that order: memories about
the user (or a person the query names) first; for a query about now, memories that hold no current
value next (the distant past, a wish, a stay: ``timeframe.py``); memories about someone the query does
not name last (``subject.py``). A large history is full of both kinds of near miss, and neither arm can
tell them from the answer.

``rerank="cross_encoder"`` is accepted for compatibility, but the local server has no
cross-encoder: it orders the fused candidates by the embedding cosine similarity (a bi-encoder),
as the hybrid mode always does, also in the text mode, and marks each hit's
``attributes["rerank"]`` as ``"cosine"`` to say so.

In the hybrid and vector modes each hit also gets ``relevance``: the calibrated probability that
it is evidence for the query (``relevance.py``), which the service sends as
``attributes["relevance"]`` so a client can tell "nothing relevant" from "the best of nothing".
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from . import relevance as relevance_mod, subject, timeframe
from .asked import asked_attribute
from .embeddings import Embedder
from .store import MemoryRecord, MemoryStore

RRF_K = 60
MODES = ("hybrid", "text", "vector")
#: Vector hits below this cosine similarity are not relevant enough to return on their own.
MIN_SIMILARITY = 0.1
#: How many of the fused best are re-ordered by subject and time (a deeper pool than top_k, so a
#: memory about the user that dozens about other people pushed down still comes back; 60 of 50-deep
#: arms measured best on the dev haystacks: recall@5 80% with 40 of 30, 82% with 60 of 50 or deeper).
SUBJECT_POOL = 60
#: How deep each arm ranks before fusion (deeper than top_k: see SUBJECT_POOL).
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
    #: True when the hit fills the attribute the query asks about (``asked.py``).
    asked: bool = False
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
    pool = order[: max(top_k, SUBJECT_POOL)]
    answers: set[int] = set()
    if mode == "hybrid" and qvec is not None:
        family = asked_attribute(embedder, query, qvec)
        if family is not None:  # "What do I do for a living?": the user's current job, wherever the arms put it
            answers = set(store.current_in_family(user_id, family, memory_type=memory_type, session_id=session_id))
            pool = [*pool, *sorted(answers - set(pool))]
    if rerank and qvec is None and pool:  # text mode computed no query vector
        qvec = QUERY_VECTORS.embed(embedder, query)
    if qvec is not None and (rerank or mode == "hybrid"):
        pool = _by_similarity(store, user_id, qvec, pool, similarity)
    order = _by_subject_and_time(query, pool, store.contents(pool), answers)[:top_k]
    records = store.fetch(order)
    hits = [
        Hit(
            record=records[s],
            rrf_score=float(fused.get(s, 0.0)),
            text_rank=text_ranks.get(s),
            vector_rank=vector_ranks.get(s),
            similarity=similarity.get(s),
            asked=s in answers,
        )
        for s in order
        if s in records
    ]
    if qvec is not None and mode != "text" and getattr(embedder, "model", None) == relevance_mod.FITTED_MODEL:
        _add_relevance(query, relevance_mod.background([sim for _, sim in arm]), hits)
    return hits


def _by_similarity(
    store: MemoryStore, user_id: str, qvec: np.ndarray, pool: list[int], similarity: dict[int, float]
) -> list[int]:
    """``pool`` by the query's cosine similarity, best first (ties keep their fused order). A hit only the
    text arm found gets its similarity from its stored vector, and ``similarity`` keeps it."""
    missing = [seq for seq in pool if seq not in similarity]
    for seq, vec in store.vectors_for(user_id, missing).items():
        similarity[seq] = float(np.dot(vec, qvec))
    return sorted(pool, key=lambda s: -similarity.get(s, -1.0))


def _by_subject_and_time(query: str, pool: list[int], contents: dict[int, str], answers: set[int]) -> list[int]:
    """``pool`` (best first) in tiers, each in its own order: the user's current values of the attribute the
    query asks about (``answers``); memories about the user (or a person the query names); for a query about
    now, those that hold no current value (the distant past, a wish, a stay with an end: the decider's own
    test); memories about someone the query does not name (``subject.py``, ``timeframe.py`` say how each is read)."""
    now = timeframe.about_now(query)

    def tier(seq: int) -> int:
        if seq in answers:
            return -1
        content = contents[seq]
        if subject.about_someone_else(query, content):
            return 2
        return 1 if now and timeframe.not_current(content) else 0

    return sorted((s for s in pool if s in contents), key=tier)  # sorted is stable: ranks kept within a tier


def _add_relevance(query: str, background: float, hits: list[Hit]) -> None:
    """Fill each hit's ``features`` and ``relevance``. Every hit has its similarity by now: the vector mode's
    from its arm, the hybrid mode's from ``_by_similarity``."""
    for h in hits:
        if h.similarity is not None:
            h.features = relevance_mod.hit_features(h.similarity, background, query, h.record.content, asked=h.asked)
            h.relevance = relevance_mod.probability(h.features)
