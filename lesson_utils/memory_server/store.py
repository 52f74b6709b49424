"""SQLite storage for memories: rows, a BM25 full-text index, and an in-RAM vector index.

One SQLite file holds everything (or ``:memory:`` for a throwaway store).

Memories are versioned, not overwritten. A row is *current* until a newer fact supersedes it
(``superseded_by`` = the new row's id) or a withdrawal invalidates it; either sets ``invalid_at``.
``created_at`` is the time the row became valid (the contract's ``valid_at``), so "what was
current at T" is ``created_at <= T < invalid_at``. Only current rows are in the search indexes
(full text and vectors): search cannot return an outdated fact, and the history is still there
for ``list(include_superseded=True)`` and ``as_of``. Whether a new fact supersedes an old one is
decided by the rules in ``slots.py``; this module applies the verdict atomically. File stores run in
WAL mode with ``synchronous=FULL``: a write is committed (and fsynced) before the HTTP response
that acknowledges it is sent, so an acknowledged write survives a crash of the process.

The full-text index is an FTS5 table with the Porter stemmer ("ships" matches "ship"). Each row
also carries an ``owner`` token derived from the user id, so a user's query is an index
intersection rather than a scan of everyone's matches. Vectors live in the ``memories`` table as
float32 blobs and are mirrored per user in a numpy matrix for brute-force cosine search, which
stays within a few milliseconds at 100k memories on one core.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable, Sequence

import numpy as np

from . import slots
from .classify import MEMORY_TYPES

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memories (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    content TEXT NOT NULL,
    norm TEXT NOT NULL,
    gist TEXT,
    memory_type TEXT NOT NULL,
    app_name TEXT,
    metadata TEXT,
    categories TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '[]',
    project TEXT,
    session_id TEXT,
    attributes TEXT NOT NULL DEFAULT '{}',
    infer INTEGER NOT NULL DEFAULT 1,
    created_at REAL NOT NULL,
    embedding BLOB NOT NULL,
    embedding_model TEXT NOT NULL,
    slot TEXT,
    invalid_at REAL,
    superseded_by TEXT
);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5 (owner, content, tokenize = 'porter unicode61');
"""
# Created after the version-1 → 2 migration has added the columns they cover.
_INDEXES = """
CREATE INDEX IF NOT EXISTS memories_by_user_time ON memories (user_id, created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS memories_by_user_norm ON memories (user_id, norm);
CREATE INDEX IF NOT EXISTS memories_current_slot ON memories (user_id, slot)
    WHERE invalid_at IS NULL AND slot IS NOT NULL;
"""
#: Columns schema version 2 added (knowledge updates), with their SQL types.
_V2_COLUMNS = (("slot", "TEXT"), ("invalid_at", "REAL"), ("superseded_by", "TEXT"))
#: Vector neighbours a new fact is checked against for near-duplicates and contradictions.
NEIGHBOURS = 10
#: Below this cosine similarity a neighbour is not considered the same topic.
NEIGHBOUR_MIN_SIMILARITY = 0.5


# Words that carry no topic: dropped from full-text queries so "When do I usually ship?" asks
# the index about "usually ship", not about every memory containing "I".
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing don down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor not now of off on once only or other our ours ourselves out
    over own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves tell know remember recall please
    anything something thing things user users""".split()
)
_NEGATIONS = frozenset({"not", "no", "nor", "don", "t"})
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def normalise_text(text: str) -> str:
    """The exact-duplicate key: case, spacing and trailing punctuation do not make a new memory."""
    return " ".join(_TOKEN.findall(text.casefold()))


def query_terms(text: str) -> list[str]:
    terms = [t for t in _TOKEN.findall(text.casefold()) if t not in STOPWORDS]
    return list(dict.fromkeys(terms))[:64]


def content_key(text: str) -> frozenset[str]:
    """The topic words of a text, crudely stemmed: equal keys mean "says the same thing"."""
    return frozenset(
        t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t
        for t in _TOKEN.findall(text.casefold())
        if t not in STOPWORDS or t in _NEGATIONS
    )


def _now() -> float:
    """Wall-clock time to the millisecond: the precision the API reports ``valid_at`` and
    ``invalid_at`` in, so a reported time passed back as ``as_of`` selects exactly that version."""
    return round(time.time(), 3)


def owner_token(user_id: str) -> str:
    return "u" + hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:24]


@dataclass
class MemoryRecord:
    """One stored memory, as the API layer sees it."""

    seq: int
    id: str
    user_id: str
    content: str
    gist: str | None
    memory_type: str
    app_name: str | None
    metadata: dict[str, Any] | None
    categories: list[str]
    tags: list[str]
    project: str | None
    session_id: str | None
    attributes: dict[str, Any]
    infer: bool
    created_at: float
    slot: str | None = None
    invalid_at: float | None = None
    superseded_by: str | None = None

    @property
    def is_current(self) -> bool:
        return self.invalid_at is None


@dataclass
class Written:
    """What a write did: ``event`` is ADD, SKIP_DUPLICATE, SUPERSEDE, INVALIDATE or NONE."""

    event: str
    record: MemoryRecord | None
    #: The memories this write made no longer current (superseded or invalidated).
    replaced: list[MemoryRecord] = field(default_factory=list)


@dataclass
class NewMemory:
    """What the API layer asks the store to write."""

    user_id: str
    content: str
    memory_type: str
    gist: str | None = None
    app_name: str | None = None
    metadata: dict[str, Any] | None = None
    categories: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    project: str | None = None
    session_id: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    infer: bool = True
    #: The single-valued slot the fact fills (``slots.read``); filled in by the store when None.
    slot: str | None = None


_COLUMNS = (
    "seq, id, user_id, content, gist, memory_type, app_name, metadata, categories, tags, "
    "project, session_id, attributes, infer, created_at, slot, invalid_at, superseded_by"
)


def _record(row: sqlite3.Row | tuple) -> MemoryRecord:
    (seq, mid, user, content, gist, mtype, app, metadata, cats, tags, project, session, attrs, infer, created,
     slot, invalid_at, superseded_by) = row
    return MemoryRecord(
        seq=seq,
        id=mid,
        user_id=user,
        content=content,
        gist=gist,
        memory_type=mtype,
        app_name=app,
        metadata=json.loads(metadata) if metadata is not None else None,
        categories=json.loads(cats),
        tags=json.loads(tags),
        project=project,
        session_id=session,
        attributes=json.loads(attrs),
        infer=bool(infer),
        created_at=created,
        slot=slot,
        invalid_at=invalid_at,
        superseded_by=superseded_by,
    )


#: Most posting-list entries one full-text query scores (see MemoryStore._informative).
TEXT_POSTINGS_BUDGET = 3_000
#: Below this many vectors per user, search is exact brute force; above, an IVF index is used.
IVF_MIN_VECTORS = 20_000
#: An IVF search scans the nearest 1/IVF_PROBE_DIVISOR of the partitions (at least 8).
IVF_PROBE_DIVISOR = 16


def _dot_rows(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``matrix @ query``, on this thread alone unless the matrix is very large.

    A matrix-vector product of a few thousand rows goes to OpenBLAS, which fans it out to its own
    threads and leaves them spin-waiting afterwards; on a 2-core machine they then steal the cores
    the query embedding (ONNX) and the full-text query need — at 10k memories the next query
    embedding took twice as long. numpy's own einsum loop is as fast single-threaded up to
    ~20k x 384 (~0.7 ms at 10k) and spawns nothing. Only the rare exact scan of a larger matrix
    (a filtered search above the IVF threshold) is worth OpenBLAS's threads (~8 vs ~20 ms at 100k).
    """
    if len(matrix) > IVF_MIN_VECTORS:
        return matrix @ query
    return np.einsum("ij,j->i", matrix, query)


class _UserVectors:
    """A growable float32 matrix of one user's vectors plus the filter columns search needs.

    Up to ``IVF_MIN_VECTORS`` a search is an exact scan. Beyond that a scan reads the whole
    matrix (150 MB at 100k x 384) for every query, so an inverted-file index takes over: k-means
    centroids (about sqrt(n) of them) partition the vectors, a query scans only the vectors of
    its nearest ``nprobe`` partitions, and the candidates are scored exactly. It is approximate
    — the bench reports how often it agrees with the exact top 10 — and is retrained when the
    user's memories have doubled since the last training.
    """

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.size = 0
        self.vecs = np.zeros((16, dim), dtype=np.float32)
        self.seqs = np.zeros(16, dtype=np.int64)
        self.types = np.zeros(16, dtype=np.int8)
        self.assign = np.zeros(16, dtype=np.int32)
        self.sessions: list[str | None] = []
        self.pos: dict[int, int] = {}
        self.centroids: np.ndarray | None = None
        self.trained_at = 0
        # Its own lock, so vector search does not wait behind a full-text query on the database.
        self.lock = threading.RLock()

    def add(self, seq: int, vec: np.ndarray, mtype: str, session: str | None) -> None:
        with self.lock:
            self._add(seq, vec, mtype, session)

    def _add(self, seq: int, vec: np.ndarray, mtype: str, session: str | None) -> None:
        if self.size == len(self.seqs):
            cap = len(self.seqs) * 2
            self.vecs = np.resize(self.vecs, (cap, self.dim))
            self.seqs = np.resize(self.seqs, cap)
            self.types = np.resize(self.types, cap)
            self.assign = np.resize(self.assign, cap)
        i = self.size
        self.vecs[i] = vec
        self.seqs[i] = seq
        self.types[i] = MEMORY_TYPES.index(mtype)
        if self.centroids is not None:
            self.assign[i] = int(np.argmax(self.centroids @ vec))
        self.sessions.append(session)
        self.pos[seq] = i
        self.size += 1

    def remove(self, seq: int) -> None:
        with self.lock:
            self._remove(seq)

    def _remove(self, seq: int) -> None:
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
        if self.size < IVF_MIN_VECTORS:
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

    def search(
        self, query: np.ndarray, limit: int, memory_type: str | None, session_id: str | None
    ) -> list[tuple[int, float]]:
        with self.lock:
            return self._search(query, limit, memory_type, session_id)

    def _search(
        self, query: np.ndarray, limit: int, memory_type: str | None, session_id: str | None
    ) -> list[tuple[int, float]]:
        if self.size == 0:
            return []
        positions = self._candidates(query)
        if positions is not None and (memory_type is not None or session_id is not None):
            positions = None  # filtered searches stay exact: a filter can empty the probed lists
        if positions is None:
            positions = np.arange(self.size)
            scores = _dot_rows(self.vecs[: self.size], query)
        else:
            scores = _dot_rows(self.vecs[positions], query)
        if memory_type is not None or session_id is not None:
            keep = np.ones(len(positions), dtype=bool)
            if memory_type is not None:
                keep &= self.types[positions] == MEMORY_TYPES.index(memory_type)
            if session_id is not None:
                keep &= np.array([self.sessions[p] == session_id for p in positions], dtype=bool)
            scores = np.where(keep, scores, -np.inf)
        k = min(limit, len(positions))
        if k == 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k] if k < len(positions) else np.arange(len(positions))
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self.seqs[positions[i]]), float(scores[i])) for i in top if np.isfinite(scores[i])]

    def exact_search(self, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
        """Brute-force top ``limit`` (what the IVF index approximates; used by the bench)."""
        with self.lock:
            return self._exact_search(query, limit)

    def _exact_search(self, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
        scores = _dot_rows(self.vecs[: self.size], query)
        k = min(limit, self.size)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(self.seqs[i]), float(scores[i])) for i in top]


class MemoryStore:
    """Thread-safe memory storage over one SQLite connection (guarded by a lock)."""

    def __init__(self, path: str | os.PathLike | None, *, embedding_model: str, dim: int) -> None:
        self.path = ":memory:" if path is None else os.fspath(path)
        self.embedding_model = embedding_model
        self.dim = dim
        if self.path != ":memory:":
            parent = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(parent, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                logger.warning("SQLite refused WAL mode (got %s); writes are still synchronous", mode)
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA busy_timeout = 5000")
        self._db.executescript(_SCHEMA)
        self._migrate()
        self._db.executescript(_INDEXES)
        # BM25 over the content column only (the owner column is a filter, weight 0).
        self._db.execute("INSERT INTO memories_fts (memories_fts, rank) VALUES ('rank', 'bm25(0.0, 1.0)')")
        self._vectors: dict[str, _UserVectors] = {}
        self._df_cache: dict[str, tuple[int, int]] = {}
        self._attr_cache: dict[tuple[str, str], Any] = {}
        self._fts_rows = self._db.execute("SELECT count(*) FROM memories WHERE invalid_at IS NULL").fetchone()[0]
        self._check_meta()
        self._load_vectors()

    # -- lifecycle -------------------------------------------------------------------------

    def _check_meta(self) -> None:
        with self._lock:
            rows = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
            if not rows:
                self._db.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [("schema_version", str(SCHEMA_VERSION)), ("created_at", str(time.time()))],
                )
            elif rows.get("schema_version") != str(SCHEMA_VERSION):
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    def _migrate(self) -> None:
        """Version 1 → 2: add the versioning columns; every existing memory stays current.

        Existing rows get their slot read from their text, so a fact stored before the upgrade
        is still superseded by a later contradicting one."""
        have = {r[1] for r in self._db.execute("PRAGMA table_info(memories)")}
        missing = [(name, kind) for name, kind in _V2_COLUMNS if name not in have]
        if not missing:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for name, kind in missing:
                self._db.execute(f"ALTER TABLE memories ADD COLUMN {name} {kind}")
            rows = self._db.execute("SELECT seq, content FROM memories").fetchall()
            self._db.executemany("UPDATE memories SET slot = ? WHERE seq = ?",
                                 [(slots.slot_of(content), seq) for seq, content in rows])
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        logger.info("Upgraded the memory store to schema version %d (%d memories)", SCHEMA_VERSION, len(rows))

    def _load_vectors(self) -> None:
        """Mirror every stored vector in RAM; rows embedded by another model must be re-embedded."""
        stale = 0
        for seq, user, mtype, session, blob, model in self._db.execute(
            "SELECT seq, user_id, memory_type, session_id, embedding, embedding_model FROM memories"
            " WHERE invalid_at IS NULL ORDER BY seq"
        ):
            vec = np.frombuffer(blob, dtype=np.float32)
            if model != self.embedding_model or vec.shape[0] != self.dim:
                stale += 1
                continue
            self._user_vectors(user).add(seq, vec, mtype, session)
        self.stale_vectors = stale

    def reembed_stale(self, embed) -> int:
        """Re-embed rows written under a different embedding model (called once at start-up)."""
        rows = self._db.execute(
            "SELECT seq, user_id, memory_type, session_id, content, invalid_at FROM memories"
            " WHERE embedding_model != ?",
            (self.embedding_model,),
        ).fetchall()
        for start in range(0, len(rows), 256):
            batch = rows[start : start + 256]
            vecs = embed([r[4] for r in batch])
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for r, v in zip(batch, vecs, strict=True):
                        self._db.execute(
                            "UPDATE memories SET embedding = ?, embedding_model = ? WHERE seq = ?",
                            (np.asarray(v, dtype=np.float32).tobytes(), self.embedding_model, r[0]),
                        )
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                for r, v in zip(batch, vecs, strict=True):
                    if r[5] is None:  # only current memories are searchable
                        self._user_vectors(r[1]).add(r[0], v, r[2], r[3])
        if rows:
            logger.info("Re-embedded %d memories with %s", len(rows), self.embedding_model)
        self.stale_vectors = 0
        return len(rows)

    def close(self) -> None:
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error:  # pragma: no cover - closing twice
                pass

    def _user_vectors(self, user_id: str) -> _UserVectors:
        index = self._vectors.get(user_id)
        if index is None:
            index = self._vectors[user_id] = _UserVectors(self.dim)
        return index

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
        the new one contradicts (``slots.supersedes``) — looked up by slot and among its nearest
        vector neighbours — get ``invalid_at`` and ``superseded_by`` in the same transaction as
        the insert (``SUPERSEDE``). Checking and writing happen under one lock, so two concurrent
        writes of the same fact store it once.
        """
        norm = normalise_text(memory.content)
        vector = np.asarray(vector, dtype=np.float32)
        statement = slots.read(memory.content) if check_updates else None
        if statement is not None:
            memory.slot = statement.slot
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE user_id = ? AND norm = ? AND invalid_at IS NULL LIMIT 1",
                (memory.user_id, norm),
            ).fetchone()
            if row is not None:
                return Written("SKIP_DUPLICATE", _record(row))
            near = self._user_vectors(memory.user_id).search(vector, NEIGHBOURS, None, None)
            # Without the update checks only near-duplicates matter: fetch just those rows.
            floor = NEIGHBOUR_MIN_SIMILARITY if statement is not None else (dedup_threshold or 2.0)
            neighbours = self.fetch([seq for seq, sim in near if sim >= floor])
            if dedup_threshold is not None:
                key = content_key(memory.content)
                for seq, sim in near[:5]:
                    if sim < dedup_threshold:
                        break
                    candidate = neighbours.get(seq)
                    if candidate is not None and content_key(candidate.content) == key:
                        return Written("SKIP_DUPLICATE", candidate)
            replaced: list[MemoryRecord] = []
            if statement is not None:
                for old in self._candidates(memory.user_id, statement.slot, neighbours):
                    said = slots.read(old.content)
                    if slots.same_fact(statement, said):
                        return Written("SKIP_DUPLICATE", old)
                    if slots.supersedes(statement, said):
                        replaced.append(old)
            record = self._insert_many([memory], [vector], supersede=[r.seq for r in replaced])[0]
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

        The closest match by ``slots.retracts`` among the user's memories in the slot it names
        and its nearest vector neighbours is marked not current (``INVALIDATE``); nothing new
        is stored. With no match nothing changes (``NONE``)."""
        statement = slots.read(text)
        with self._lock:
            near = self._user_vectors(user_id).search(np.asarray(vector, dtype=np.float32), NEIGHBOURS, None, None)
            neighbours = self.fetch([seq for seq, _ in near])
            scored = []
            for old in self._candidates(user_id, slots.retraction_slot(statement), neighbours):
                cost = slots.retracts(statement, slots.read(old.content))
                if cost is not None:
                    scored.append((cost, old))
            if not scored:
                return Written("NONE", None)
            best = min(cost for cost, _ in scored)
            replaced = [old for cost, old in scored if cost == best]
            now = _now()
            self._invalidate([r.seq for r in replaced], now, None)
            for old in replaced:
                old.invalid_at = now
            return Written("INVALIDATE", None, replaced)

    def _candidates(
        self, user_id: str, slot: str | None, neighbours: dict[int, MemoryRecord]
    ) -> list[MemoryRecord]:
        """The user's current memories in ``slot`` (an index lookup), then the vector neighbours."""
        found: dict[int, MemoryRecord] = {}
        if slot is not None:
            for row in self._db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE user_id = ? AND slot = ? AND invalid_at IS NULL"
                " ORDER BY seq DESC LIMIT 50",
                (user_id, slot),
            ):
                found[row[0]] = _record(row)
        for seq, record in neighbours.items():
            found.setdefault(seq, record)
        return [r for r in found.values() if r.is_current]

    def _invalidate(self, seqs: Sequence[int], at: float, superseded_by: str | None, *, in_transaction=False) -> None:
        """Mark rows not current and take them out of the search indexes (caller holds the lock)."""
        if not seqs:
            return
        if not in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany(
                "UPDATE memories SET invalid_at = ?, superseded_by = ? WHERE seq = ? AND invalid_at IS NULL",
                [(at, superseded_by, s) for s in seqs],
            )
            self._db.executemany("DELETE FROM memories_fts WHERE rowid = ?", [(s,) for s in seqs])
            if not in_transaction:
                self._db.execute("COMMIT")
        except BaseException:
            if not in_transaction:
                self._db.execute("ROLLBACK")
            raise
        if not in_transaction:  # else the caller does this once its transaction has committed
            self._after_invalidate(seqs)

    def _after_invalidate(self, seqs: Sequence[int]) -> None:
        users = {r[0] for r in self._db.execute(
            f"SELECT DISTINCT user_id FROM memories WHERE seq IN ({','.join('?' * len(seqs))})", tuple(seqs))}
        self._fts_rows -= len(seqs)
        for user in users:
            index = self._vectors.get(user)
            if index is not None:
                for s in seqs:
                    index.remove(s)
            for cached in [k for k in self._attr_cache if k[0] == user]:
                del self._attr_cache[cached]

    def add_unchecked(self, memories: Sequence[NewMemory], vectors: np.ndarray) -> list[MemoryRecord]:
        """Bulk insert in one transaction, without dedup (bench and import use)."""
        with self._lock:
            return self._insert_many(memories, vectors)

    def _insert_many(
        self, memories: Sequence[NewMemory], vectors, *, supersede: Sequence[int] = ()
    ) -> list[MemoryRecord]:
        """Insert in one transaction; with ``supersede``, the first new memory replaces those rows."""
        out: list[MemoryRecord] = []
        now = _now()
        for m in memories:
            if m.slot is None:
                m.slot = slots.slot_of(m.content)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for m, vec in zip(memories, vectors, strict=True):
                vec = np.asarray(vec, dtype=np.float32)
                mid = str(uuid.uuid4())
                cur = self._db.execute(
                    "INSERT INTO memories (id, user_id, content, norm, gist, memory_type, app_name, metadata,"
                    " categories, tags, project, session_id, attributes, infer, created_at, embedding,"
                    " embedding_model, slot) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        mid,
                        m.user_id,
                        m.content,
                        normalise_text(m.content),
                        m.gist,
                        m.memory_type,
                        m.app_name,
                        json.dumps(m.metadata) if m.metadata is not None else None,
                        json.dumps(m.categories),
                        json.dumps(m.tags),
                        m.project,
                        m.session_id,
                        json.dumps(m.attributes),
                        int(m.infer),
                        now,
                        vec.tobytes(),
                        self.embedding_model,
                        m.slot,
                    ),
                )
                seq = cur.lastrowid
                self._db.execute(
                    "INSERT INTO memories_fts (rowid, owner, content) VALUES (?, ?, ?)",
                    (seq, owner_token(m.user_id), m.content),
                )
                out.append(
                    MemoryRecord(
                        seq=seq, id=mid, user_id=m.user_id, content=m.content, gist=m.gist,
                        memory_type=m.memory_type, app_name=m.app_name, metadata=m.metadata,
                        categories=list(m.categories), tags=list(m.tags), project=m.project,
                        session_id=m.session_id, attributes=dict(m.attributes), infer=m.infer,
                        created_at=now, slot=m.slot,
                    )
                )
            if supersede:
                self._invalidate(supersede, now, out[0].id, in_transaction=True)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        if supersede:
            self._after_invalidate(supersede)
        self._fts_rows += len(out)
        for rec in out:
            for key, value in rec.attributes.items():
                if (rec.user_id, key) in self._attr_cache and value is not None:
                    self._attr_cache[(rec.user_id, key)] = value
        for rec, vec in zip(out, vectors, strict=True):
            self._user_vectors(rec.user_id).add(rec.seq, np.asarray(vec, dtype=np.float32), rec.memory_type, rec.session_id)
        return out

    def delete(self, user_id: str, ids: Iterable[str]) -> int:
        """Delete the user's memories among ``ids``; other users' ids are silently not touched."""
        ids = list(dict.fromkeys(ids))
        with self._lock:
            rows: list[tuple[int, float | None]] = []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows += self._db.execute(
                    f"SELECT seq, invalid_at FROM memories WHERE user_id = ? AND id IN ({marks})", (user_id, *chunk)
                ).fetchall()
            seqs = [seq for seq, _ in rows]
            if not seqs:
                return 0
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("DELETE FROM memories WHERE seq = ?", [(s,) for s in seqs])
                self._db.executemany("DELETE FROM memories_fts WHERE rowid = ?", [(s,) for s in seqs])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._fts_rows -= sum(1 for _, invalid_at in rows if invalid_at is None)
            for cached in [k for k in self._attr_cache if k[0] == user_id]:
                del self._attr_cache[cached]
            index = self._user_vectors(user_id)
            for s in seqs:
                index.remove(s)
            return len(seqs)

    # -- reads -----------------------------------------------------------------------------

    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE id = ? AND user_id = ?", (memory_id, user_id)
            ).fetchone()
        return _record(row) if row else None

    def fetch(self, seqs: Sequence[int]) -> dict[int, MemoryRecord]:
        if not seqs:
            return {}
        marks = ",".join("?" * len(seqs))
        with self._lock:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM memories WHERE seq IN ({marks})", tuple(seqs)).fetchall()
        return {r[0]: _record(r) for r in rows}

    def list(
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
        where = ["user_id = ?"]
        args: list[Any] = [user_id]
        if memory_type is not None:
            where.append("memory_type = ?")
            args.append(memory_type)
        if app is not None:
            where.append("app_name = ?")
            args.append(app)
        if as_of is not None:
            where.append("created_at <= ? AND (invalid_at IS NULL OR invalid_at > ?)")
            args += [as_of, as_of]
        elif not include_superseded:
            where.append("invalid_at IS NULL")
        for cat in categories:
            where.append("EXISTS (SELECT 1 FROM json_each(memories.categories) WHERE value = ?)")
            args.append(cat)
        clause = " AND ".join(where)
        with self._lock:
            total = self._db.execute(f"SELECT COUNT(*) FROM memories WHERE {clause}", args).fetchone()[0]
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE {clause} ORDER BY created_at DESC, seq DESC"
                " LIMIT ? OFFSET ?",
                (*args, size, (page - 1) * size),
            ).fetchall()
        return [_record(r) for r in rows], total

    def text_search(
        self,
        user_id: str,
        query: str,
        limit: int,
        *,
        memory_type: str | None = None,
        session_id: str | None = None,
    ) -> list[int]:
        """BM25 ranking (best first) of the user's memories sharing a stemmed term with ``query``."""
        terms = query_terms(query)
        if not terms:
            return []
        with self._lock:  # one section: the plan below depends on row counts a write could change
            return self._text_search_locked(user_id, terms, limit, memory_type, session_id)

    def _text_search_locked(
        self, user_id: str, terms: list[str], limit: int, memory_type: str | None, session_id: str | None
    ) -> list[int]:
        terms, capped = self._informative(terms)
        content = "content : (" + " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) + ")"
        # The owner token makes a user's query an index intersection, which pays off when the user
        # owns a minority of the rows; when they own most of them, filtering the joined rows is cheaper.
        mine = self._vectors[user_id].size if user_id in self._vectors else 0
        everyone = self._fts_rows
        use_owner = mine * 2 <= everyone
        only_user = mine == everyone  # a one-user store needs no user filter at all
        match = f'owner : "{owner_token(user_id)}" AND {content}' if use_owner else content
        args: list[Any] = [match]
        extra = []
        filter_rows = not use_owner and not only_user
        join = filter_rows or memory_type is not None or session_id is not None
        if filter_rows:
            extra.append("m.user_id = ?")
            args.append(user_id)
        if memory_type is not None:
            extra.append("m.memory_type = ?")
            args.append(memory_type)
        if session_id is not None:
            extra.append("m.session_id = ?")
            args.append(session_id)
        sql = "SELECT f.rowid AS seq, f.rank AS score FROM memories_fts f"
        if join:
            sql += " JOIN memories m ON m.seq = f.rowid"
        sql += " WHERE memories_fts MATCH ?"
        if extra:
            sql += " AND " + " AND ".join(extra)
        if capped:  # even the rarest term is common: rank only its newest matches
            sql = f"SELECT seq FROM ({sql} ORDER BY f.rowid DESC LIMIT {TEXT_POSTINGS_BUDGET}) ORDER BY score LIMIT ?"
        else:
            sql += " ORDER BY f.rank LIMIT ?"
        args.append(limit)
        return [r[0] for r in self._db.execute(sql, args)]

    def _informative(self, terms: list[str]) -> tuple[list[str], bool]:
        """The query terms to score, rarest first, within a budget of posting-list entries.

        Scoring a term costs one step per memory containing it, and a very common term (a
        user's own name can be in nearly every memory) carries almost no BM25 weight. So terms
        are taken from the rarest up while their document frequencies add up to at most
        ``TEXT_POSTINGS_BUDGET``; the rarest term is always kept. If even that one is more common
        than the budget (``capped``), only its newest matches are ranked. Below the budget —
        every store of lesson size — nothing is dropped and the ranking is plain BM25. Document
        frequencies are cached until the index grows or shrinks by a tenth.
        """
        rows = self._fts_rows
        if rows <= TEXT_POSTINGS_BUDGET:
            return terms, False
        dfs = {}
        for term in terms:
            cached = self._df_cache.get(term)
            if cached is None or abs(rows - cached[1]) > cached[1] // 10:
                df = self._db.execute(
                    "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?",
                    ('content : "' + term.replace('"', '""') + '"',),
                ).fetchone()[0]
                if len(self._df_cache) > 50_000:
                    self._df_cache.clear()
                cached = self._df_cache[term] = (df, rows)
            dfs[term] = cached[0]
        ordered = sorted(terms, key=lambda t: dfs[t])
        kept, spent = [ordered[0]], dfs[ordered[0]]
        for term in ordered[1:]:
            if spent + dfs[term] > TEXT_POSTINGS_BUDGET:
                break
            kept.append(term)
            spent += dfs[term]
        return kept, spent > TEXT_POSTINGS_BUDGET

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        limit: int,
        *,
        memory_type: str | None = None,
        session_id: str | None = None,
    ) -> list[tuple[int, float]]:
        """Cosine ranking (best first) of the user's memories, as (seq, similarity)."""
        index = self._vectors.get(user_id)
        if index is None:
            return []
        return index.search(np.asarray(vector, dtype=np.float32), limit, memory_type, session_id)

    def vectors_for(self, user_id: str, seqs: Sequence[int]) -> dict[int, np.ndarray]:
        index = self._vectors.get(user_id)
        if index is None:
            return {}
        with index.lock:
            return {s: index.vecs[index.pos[s]].copy() for s in seqs if s in index.pos}

    def latest_attribute(self, user_id: str, key: str) -> Any:
        """The newest value of ``attributes[key]`` among the user's memories (e.g. their name).

        Cached per (user, key): a write carrying the key updates it, a delete forgets the user."""
        if not re.fullmatch(r"[a-z_]+", key):
            raise ValueError("attribute keys are lower-case identifiers")
        with self._lock:
            if (user_id, key) in self._attr_cache:
                return self._attr_cache[(user_id, key)]
            row = self._db.execute(
                f"SELECT json_extract(attributes, '$.{key}') FROM memories WHERE user_id = ? AND invalid_at IS NULL"
                f" AND json_extract(attributes, '$.{key}') IS NOT NULL ORDER BY seq DESC LIMIT 1",
                (user_id,),
            ).fetchone()
            self._attr_cache[(user_id, key)] = row[0] if row else None
        return row[0] if row else None

    def count(self, user_id: str | None = None) -> int:
        with self._lock:
            if user_id is None:
                return self._db.execute("SELECT COUNT(*) FROM memories").fetchone()[0]
            return self._db.execute("SELECT COUNT(*) FROM memories WHERE user_id = ?", (user_id,)).fetchone()[0]

    def ping(self) -> float:
        """Round-trip a trivial query; returns milliseconds (the health check's database probe)."""
        start = time.perf_counter()
        with self._lock:
            self._db.execute("SELECT 1").fetchone()
        return (time.perf_counter() - start) * 1000
