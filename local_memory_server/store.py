"""The memory store: the rows, the full-text index and the vector index, kept in step.

Storage is three parts, each in its own module and testable alone:

* ``rows.py`` — the memories table in SQLite (one row per memory version, the durable copy);
* ``fulltext.py`` — the FTS5/BM25 index of the current memories, and which query words count;
* ``vectors.py`` — each user's vectors in RAM, searched by an exact scan or an IVF index.

This module composes them and owns what none of them can decide alone: one lock, and the
transactions that change a row and both indexes together, so a search never sees a memory in
one index and not the other. It also applies the write policy: a new fact is checked against
the user's current ones for duplicates and contradictions (the verdicts come from the store's
:class:`~offline_reader.UpdateDecider`, the one seam for that decision),
and a superseded fact leaves both indexes in the same transaction that stores its successor.
Only current memories are in the indexes: search cannot return an outdated fact, and the
history is still in the rows for ``list_memories(include_superseded=True)`` and ``as_of``.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from offline_reader.kinds import MEMORY_TYPES
from .fulltext import (
    STOPWORDS,
    TEXT_POSTINGS_BUDGET,
    FullTextIndex,
    content_key,
    normalise_text,
    owner_token,
    query_terms,
)
from .rows import SCHEMA_VERSION, MemoryRecord, MemoryRows, NewMemory, now
from offline_reader.changes import Fact, UpdateDecider, Verdict
from .deciders import make_decider
from .vectors import IVF_MIN_VECTORS, VectorIndex

# The parts' names importers already use (``from .store import MemoryRecord, normalise_text, …``).
__all__ = [
    "MEMORY_TYPES", "IVF_MIN_VECTORS", "NEIGHBOURS", "NEIGHBOUR_MIN_SIMILARITY", "SCHEMA_VERSION", "STOPWORDS",
    "TEXT_POSTINGS_BUDGET", "MemoryRecord", "MemoryStore", "NewMemory", "Written",
    "content_key", "normalise_text", "owner_token", "query_terms",
]

logger = logging.getLogger(__name__)

#: Vector neighbours a new fact is checked against for near-duplicates and contradictions.
NEIGHBOURS = 10
#: Below this cosine similarity a neighbour is not considered the same topic.
NEIGHBOUR_MIN_SIMILARITY = 0.5


@dataclass
class Written:
    """What a write did: ``event`` is ADD, SKIP_DUPLICATE, SUPERSEDE, INVALIDATE or NONE."""

    event: str
    record: MemoryRecord | None
    #: The memories this write made no longer current (superseded or invalidated).
    replaced: list[MemoryRecord] = field(default_factory=list)


class MemoryStore:
    """Thread-safe memory storage: one SQLite connection and the in-RAM indexes, under one lock.

    ``rows``, ``text`` and ``vectors`` are the three parts, readable for tests and the bench;
    every change goes through the store's methods, which keep the three in step. ``decider`` decides
    knowledge updates (default: the offline meaning decider, with the default embedder's examples
    when the store holds that embedder's vectors)."""

    def __init__(
        self, path: str | os.PathLike[str] | None, *, embedding_model: str, dim: int,
        decider: UpdateDecider | None = None,
    ) -> None:
        self.embedding_model = embedding_model
        self.dim = dim
        self.decider = decider if decider is not None else make_decider("meaning", _default_embed(embedding_model), key=embedding_model)
        self._lock = threading.RLock()
        self.rows = MemoryRows(path)
        self.path = self.rows.path
        self.text = FullTextIndex(self.rows.db)
        self.vectors = VectorIndex(dim)
        self.stale_vectors = self._load_vectors()

    # -- lifecycle -------------------------------------------------------------------------

    def _load_vectors(self) -> int:
        """Mirror every current vector in RAM; returns how many rows another model embedded."""
        stale = 0
        for seq, user, mtype, session, blob, model in self.rows.current_embeddings():
            vec = np.frombuffer(blob, dtype=np.float32)
            if model != self.embedding_model or vec.shape[0] != self.dim:
                stale += 1
                continue
            self.vectors.add(user, seq, vec, mtype, session)
        return stale

    def reembed_stale(self, embed: Callable[[list[str]], Any]) -> int:
        """Re-embed rows written under a different embedding model (called once at start-up)."""
        with self._lock:
            rows = self.rows.embedded_by_other_models(self.embedding_model)
        for start in range(0, len(rows), 256):
            batch = rows[start : start + 256]
            vecs = embed([r[4] for r in batch])
            with self._lock:  # the vectors change after the commit, still under the lock
                with self._transaction():
                    for (seq, *_), vec in zip(batch, vecs, strict=True):
                        self.rows.set_embedding(seq, vec, self.embedding_model)
                for (seq, user, mtype, session, _, current), vec in zip(batch, vecs, strict=True):
                    if current:  # only current memories are searchable
                        self.vectors.add(user, seq, vec, mtype, session)
        if rows:
            logger.info("Re-embedded %d memories with %s", len(rows), self.embedding_model)
        self.stale_vectors = 0
        return len(rows)

    def close(self) -> None:
        with self._lock:
            self.rows.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One SQLite transaction under the store's lock. On failure the row changes roll back
        and the caches that counted them are rebuilt; the vector index is only changed by
        callers after the commit."""
        with self._lock:
            self.rows.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.rows.db.execute("COMMIT")
            except BaseException:
                self.rows.db.execute("ROLLBACK")
                self.rows.forget_cached()
                self.text.recount()
                raise

    # -- writes ----------------------------------------------------------------------------

    def write(
        self,
        memory: NewMemory,
        vector: np.ndarray,
        *,
        dedup_threshold: float | None = 0.9,
        check_updates: bool = True,
    ) -> Written:
        """Store ``memory`` unless the user already has it, superseding what it contradicts.

        A duplicate (``SKIP_DUPLICATE``) is the same text up to case, spacing and punctuation; or
        (with a threshold) a current memory at least that cosine-similar *and* with the same topic
        words ("ships on Friday" vs "ships on Fridays") — similarity alone would merge facts that
        differ only in a number or a name; or (with ``check_updates``) the same slot and value
        ("now lives in Lyon" after "lives in Lyon"). With ``check_updates``, the current memories
        the decider says it supersedes — looked up by attribute (the row's slot) and among its nearest
        vector neighbours — get ``invalid_at`` and ``superseded_by`` in the same transaction as
        the insert (``SUPERSEDE``). Checking and writing happen under one lock, so two concurrent
        writes of the same fact store it once.
        """
        vector = np.asarray(vector, dtype=np.float32)
        new = Fact(memory.content, vector) if check_updates else None
        if new is not None:
            memory.slot = self.decider.attribute(new)
        with self._lock:
            same = self.rows.current_duplicate(memory.user_id, normalise_text(memory.content))
            if same is not None:
                return Written("SKIP_DUPLICATE", same)
            near = self.vectors.search(memory.user_id, vector, NEIGHBOURS)
            # Without the update checks only near-duplicates matter: fetch just those rows.
            floor = NEIGHBOUR_MIN_SIMILARITY if new is not None else (dedup_threshold or 2.0)
            neighbours = self.rows.fetch([seq for seq, sim in near if sim >= floor])
            if dedup_threshold is not None:
                key = content_key(memory.content)
                for seq, sim in near[:5]:
                    if sim < dedup_threshold:
                        break
                    candidate = neighbours.get(seq)
                    if candidate is not None and content_key(candidate.content) == key:
                        return Written("SKIP_DUPLICATE", candidate)
            replaced: list[MemoryRecord] = []
            if new is not None:
                candidates, stored = self._candidates(memory.user_id, memory.slot, neighbours)
                verdicts = self.decider.decide(new, stored)
                same = next((old for old, v in zip(candidates, verdicts, strict=True) if v is Verdict.SAME), None)
                if same is not None:
                    return Written("SKIP_DUPLICATE", same)
                replaced = [old for old, v in zip(candidates, verdicts, strict=True) if v is Verdict.SUPERSEDES]
            record = self._insert_many([memory], [vector], supersede=replaced)[0]
            for old in replaced:
                old.invalid_at, old.superseded_by = record.created_at, record.id
            return Written("SUPERSEDE" if replaced else "ADD", record, replaced)

    def add(
        self, memory: NewMemory, vector: np.ndarray, *, dedup_threshold: float | None = 0.9
    ) -> tuple[MemoryRecord, bool]:
        """``write`` with the update checks on, answered as (record, created) — the pre-versioning API."""
        written = self.write(memory, vector, dedup_threshold=dedup_threshold)
        assert written.record is not None
        return written.record, written.event != "SKIP_DUPLICATE"

    def retract(self, user_id: str, text: str, vector: np.ndarray) -> Written:
        """Invalidate the current memory that ``text`` withdraws ("no longer …", "forget that …").

        The memories the decider says it takes back, among the user's memories in the attribute
        it names and its nearest vector neighbours, are marked not current (``INVALIDATE``);
        nothing new is stored. With no match nothing changes (``NONE``)."""
        withdrawal = Fact(text, np.asarray(vector, dtype=np.float32))
        with self._lock:
            near = self.vectors.search(user_id, withdrawal.vector, NEIGHBOURS)
            neighbours = self.rows.fetch([seq for seq, _ in near])
            candidates, stored = self._candidates(user_id, self.decider.attribute(withdrawal), neighbours)
            taken = self.decider.retracts(withdrawal, stored)
            return self.invalidate(user_id, [old for old, hit in zip(candidates, taken, strict=True) if hit])

    # -- writes decided elsewhere (a model read the turn: ``understanding.py``) ---------------

    def similar(self, user_id: str, text: str, vector: np.ndarray, k: int) -> list[MemoryRecord]:
        """The user's ``k`` current memories most like a fact: its vector neighbours and BM25 matches, fused by
        reciprocal rank (the candidates a model decides against; no rule chooses them)."""
        scores: dict[int, float] = {}
        with self._lock:
            near = self.vectors.search(user_id, np.asarray(vector, dtype=np.float32), NEIGHBOURS)
            words = self.text.search(user_id, text, NEIGHBOURS)
            for ranked in ([seq for seq, _ in near], words):
                for rank, seq in enumerate(ranked, 1):
                    scores[seq] = scores.get(seq, 0.0) + 1.0 / (60 + rank)
            best = sorted(scores, key=lambda seq: -scores[seq])[:k]
            found = self.rows.fetch(best)
        return [found[seq] for seq in best if seq in found and found[seq].is_current]

    def replace(self, memory: NewMemory, vector: np.ndarray, old: Sequence[MemoryRecord]) -> Written:
        """Store ``memory`` and make ``old`` not current in one transaction (``SUPERSEDE``); the same text already
        current is a ``SKIP_DUPLICATE``, and a memory that stopped being current meanwhile is left as it is."""
        vector = np.asarray(vector, dtype=np.float32)
        with self._lock:
            same = self.rows.current_duplicate(memory.user_id, normalise_text(memory.content))
            if same is not None:
                return Written("SKIP_DUPLICATE", same)
            still = self.rows.fetch([r.seq for r in old])
            replaced = [r for r in old if r.seq in still and still[r.seq].is_current]
            record = self._insert_many([memory], [vector], supersede=replaced)[0]
            for r in replaced:
                r.invalid_at, r.superseded_by = record.created_at, record.id
            return Written("SUPERSEDE" if replaced else "ADD", record, replaced)

    def invalidate(self, user_id: str, old: Sequence[MemoryRecord]) -> Written:
        """Withdraw ``old`` (those still current): not current from now, nothing stored (``INVALIDATE``)."""
        with self._lock:
            still = self.rows.fetch([r.seq for r in old])
            replaced = [r for r in old if r.seq in still and still[r.seq].is_current]
            if not replaced:
                return Written("NONE", None)
            at = now()
            with self._transaction():
                self._invalidate(user_id, replaced, at, None)
            self.vectors.remove(user_id, [r.seq for r in replaced])
            for r in replaced:
                r.invalid_at = at
            return Written("INVALIDATE", None, replaced)

    def _candidates(
        self, user_id: str, slot: str | None, neighbours: dict[int, MemoryRecord]
    ) -> tuple[list[MemoryRecord], list[Fact]]:
        """The user's current memories in ``slot`` (an index lookup), then the vector neighbours:
        the records, and the same as facts (text and stored vector) for the decider."""
        found: dict[int, MemoryRecord] = {}
        if slot is not None:
            for record in self.rows.current_in_slot(user_id, slot):
                found[record.seq] = record
        for seq, record in neighbours.items():
            found.setdefault(seq, record)
        vectors = self.vectors.vectors_for(user_id, [seq for seq, r in found.items() if r.is_current])
        records = [found[seq] for seq in vectors]
        return records, [Fact(r.content, vectors[r.seq]) for r in records]

    def _invalidate(self, user_id: str, old: Sequence[MemoryRecord], at: float, superseded_by: str | None) -> None:
        """Inside a transaction: mark the user's rows not current and take them out of full text."""
        seqs = [r.seq for r in old]
        self.rows.invalidate(user_id, seqs, at, superseded_by)
        self.text.remove(user_id, seqs)

    def add_unchecked(self, memories: Sequence[NewMemory], vectors: Any) -> list[MemoryRecord]:
        """Bulk insert in one transaction, without dedup (bench and import use)."""
        with self._lock:
            return self._insert_many(memories, vectors)

    def _insert_many(
        self, memories: Sequence[NewMemory], vectors: Any, *, supersede: Sequence[MemoryRecord] = ()
    ) -> list[MemoryRecord]:
        """Insert in one transaction; with ``supersede``, the first new memory replaces those rows."""
        out: list[MemoryRecord] = []
        at = now()
        with self._transaction():
            for m, vec in zip(memories, vectors, strict=True):
                record = self.rows.insert(m, vec, norm=normalise_text(m.content), model=self.embedding_model, at=at)
                self.text.add(record.seq, m.user_id, m.content)
                out.append(record)
            if supersede:
                self._invalidate(out[0].user_id, supersede, at, out[0].id)
        if supersede:
            self.vectors.remove(out[0].user_id, [r.seq for r in supersede])
        for rec, vec in zip(out, vectors, strict=True):
            self.vectors.add(rec.user_id, rec.seq, vec, rec.memory_type, rec.session_id)
        return out

    def delete(self, user_id: str, ids: Iterable[str]) -> int:
        """Delete the user's memories among ``ids``; other users' ids are silently not touched."""
        with self._lock:
            found = self.rows.owned(user_id, list(dict.fromkeys(ids)))
            if not found:
                return 0
            seqs = [seq for seq, _ in found]
            with self._transaction():
                self.rows.delete(user_id, seqs)
                self.text.remove(user_id, [seq for seq, current in found if current])
            self.vectors.remove(user_id, seqs)
            return len(seqs)

    # -- reads -----------------------------------------------------------------------------

    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        with self._lock:
            return self.rows.get(user_id, memory_id)

    def fetch(self, seqs: Sequence[int]) -> dict[int, MemoryRecord]:
        if not seqs:
            return {}
        with self._lock:
            return self.rows.fetch(seqs)

    def list_memories(
        self,
        user_id: str,
        *,
        page: int,
        size: int,
        memory_type: str | None = None,
        app: str | None = None,
        categories: Sequence[str] = (),
        as_of: float | None = None,
        include_superseded: bool = False,
    ) -> tuple[list[MemoryRecord], int]:
        """One page of the user's memories, newest first, and the total count.

        Current memories only, unless ``include_superseded``; with ``as_of`` (Unix seconds), the
        memories that were current at that time (valid from before it, not yet replaced then)."""
        with self._lock:
            return self.rows.page(
                user_id, page=page, size=size, memory_type=memory_type, app=app, categories=categories,
                as_of=as_of, include_superseded=include_superseded,
            )

    def text_search(
        self,
        user_id: str,
        query: str,
        limit: int,
        *,
        memory_type: str | None = None,
        session_id: str | None = None,
    ) -> list[int]:
        """BM25 ranking (best first) of the user's current memories sharing a stemmed term with ``query``."""
        with self._lock:  # one section: the query plan depends on row counts a write could change
            return self.text.search(user_id, query, limit, memory_type=memory_type, session_id=session_id)

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        limit: int,
        *,
        memory_type: str | None = None,
        session_id: str | None = None,
    ) -> list[tuple[int, float]]:
        """Cosine ranking (best first) of the user's current memories, as (seq, similarity).

        Not under the store's lock: the vector index has its own, per user."""
        return self.vectors.search(user_id, vector, limit, memory_type=memory_type, session_id=session_id)

    def vectors_for(self, user_id: str, seqs: Sequence[int]) -> dict[int, np.ndarray]:
        return self.vectors.vectors_for(user_id, seqs)

    def latest_attribute(self, user_id: str, key: str) -> Any:
        """The newest value of ``attributes[key]`` among the user's current memories (e.g. their name)."""
        with self._lock:
            return self.rows.latest_attribute(user_id, key)

    def count(self, user_id: str | None = None) -> int:
        with self._lock:
            return self.rows.count(user_id)

    def ping(self) -> float:
        """Round-trip a trivial query; returns milliseconds (the health check's database probe)."""
        start = time.perf_counter()
        with self._lock:
            self.rows.db.execute("SELECT 1").fetchone()
        return (time.perf_counter() - start) * 1000


def _default_embed(embedding_model: str) -> Callable[[list[str]], Any] | None:
    """The default embedder's ``embed``, loaded on first use, when the store holds its vectors."""
    from .embeddings import OnnxMiniLMEmbedder, default_embedder

    if embedding_model != OnnxMiniLMEmbedder.model:
        return None
    return lambda texts: default_embedder().embed(texts)
