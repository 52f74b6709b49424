"""The memories table: one SQLite row per memory version, and the records the server passes around.

Why a module of its own: the row layout, its migration and its queries are the durable part of
the server — what survives a restart — and read best without the search indexes around them.

Memories are versioned, not overwritten. A row is *current* until a newer fact supersedes it
(``superseded_by`` = the new row's id) or a withdrawal invalidates it; either sets ``invalid_at``.
``created_at`` is the time the row became valid (the contract's ``valid_at``), so "what was
current at T" is ``created_at <= T < invalid_at``. Each row also keeps its embedding (float32
bytes and the model's name): the durable copy the in-RAM vector index (``vectors.py``) is
rebuilt from at start-up.

File databases run in WAL mode with ``synchronous=FULL``: a write is committed (and fsynced)
before the HTTP response that acknowledges it is sent, so an acknowledged write survives a crash
of the process. Apart from opening and migrating, this class never begins or commits a
transaction: the store does, around each write with its index updates.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


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
#: Most ids one SQL statement binds (SQLite's default limit is 999 variables).
_CHUNK = 500


def now() -> float:
    """Wall-clock time to the millisecond: the precision the API reports ``valid_at`` and
    ``invalid_at`` in, so a reported time passed back as ``as_of`` selects exactly that version."""
    return round(time.time(), 3)


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
    #: The single-valued attribute the fact fills (the update decider's ``attribute``), or None.
    slot: str | None = None


_COLUMNS = (
    "seq, id, user_id, content, gist, memory_type, app_name, metadata, categories, tags, "
    "project, session_id, attributes, infer, created_at, slot, invalid_at, superseded_by"
)


def _record(row: Sequence[Any]) -> MemoryRecord:
    (seq, mid, user, content, gist, mtype, app, metadata, cats, tags, project, session, attrs, infer, created,
     slot, invalid_at, superseded_by) = row
    return MemoryRecord(
        seq=seq, id=mid, user_id=user, content=content, gist=gist, memory_type=mtype, app_name=app,
        metadata=json.loads(metadata) if metadata is not None else None,
        categories=json.loads(cats), tags=json.loads(tags), project=project, session_id=session,
        attributes=json.loads(attrs), infer=bool(infer), created_at=created, slot=slot,
        invalid_at=invalid_at, superseded_by=superseded_by,
    )


class MemoryRows:
    """The memories table over one SQLite connection (callers serialise access to it)."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = ":memory:" if path is None else os.fspath(path)
        if self.path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            mode = self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                logger.warning("SQLite refused WAL mode (got %s); writes are still synchronous", mode)
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("PRAGMA busy_timeout = 5000")
        self.db.executescript(_SCHEMA)
        self._migrate()
        self.db.executescript(_INDEXES)
        self._check_meta()
        self._attr_cache: dict[tuple[str, str], Any] = {}

    # -- lifecycle -------------------------------------------------------------------------

    def _check_meta(self) -> None:
        rows = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        if not rows:
            self.db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [("schema_version", str(SCHEMA_VERSION)), ("created_at", str(time.time()))],
            )
        elif rows.get("schema_version") != str(SCHEMA_VERSION):
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    def _migrate(self) -> None:
        """Version 1 → 2: add the versioning columns; every existing memory stays current.

        Existing rows get no slot (an attribute needs the decider); a later contradicting fact
        still finds them among its nearest vector neighbours."""
        have = {r[1] for r in self.db.execute("PRAGMA table_info(memories)")}
        missing = [(name, kind) for name, kind in _V2_COLUMNS if name not in have]
        if not missing:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for name, kind in missing:
                self.db.execute(f"ALTER TABLE memories ADD COLUMN {name} {kind}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        count = self.db.execute("SELECT count(*) FROM memories").fetchone()[0]
        logger.info("Upgraded the memory store to schema version %d (%d memories)", SCHEMA_VERSION, count)

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:  # pragma: no cover - closing twice
            pass

    def forget_cached(self, user_id: str | None = None) -> None:
        """Drop cached attribute values (of one user, or all after a rolled-back write)."""
        if user_id is None:
            self._attr_cache.clear()
        else:
            for cached in [k for k in self._attr_cache if k[0] == user_id]:
                del self._attr_cache[cached]

    # -- writes (inside the caller's transaction) --------------------------------------------

    def insert(self, m: NewMemory, vector: np.ndarray, *, norm: str, model: str, at: float) -> MemoryRecord:
        """Insert one current row; ``norm`` is its exact-duplicate key, ``model`` its embedder."""
        mid = str(uuid.uuid4())
        cur = self.db.execute(
            "INSERT INTO memories (id, user_id, content, norm, gist, memory_type, app_name, metadata,"
            " categories, tags, project, session_id, attributes, infer, created_at, embedding,"
            " embedding_model, slot) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                mid, m.user_id, m.content, norm, m.gist, m.memory_type, m.app_name,
                json.dumps(m.metadata) if m.metadata is not None else None,
                json.dumps(m.categories), json.dumps(m.tags), m.project, m.session_id, json.dumps(m.attributes),
                int(m.infer), at, np.asarray(vector, dtype=np.float32).tobytes(), model, m.slot,
            ),
        )
        assert cur.lastrowid is not None
        for key, value in m.attributes.items():
            if (m.user_id, key) in self._attr_cache and value is not None:
                self._attr_cache[(m.user_id, key)] = value
        return MemoryRecord(
            seq=cur.lastrowid, id=mid, user_id=m.user_id, content=m.content, gist=m.gist,
            memory_type=m.memory_type, app_name=m.app_name, metadata=m.metadata,
            categories=list(m.categories), tags=list(m.tags), project=m.project,
            session_id=m.session_id, attributes=dict(m.attributes), infer=m.infer, created_at=at, slot=m.slot,
        )

    def invalidate(self, user_id: str, seqs: Sequence[int], at: float, superseded_by: str | None) -> None:
        """Mark the user's rows ``seqs`` not current as of ``at``."""
        self.db.executemany(
            "UPDATE memories SET invalid_at = ?, superseded_by = ? WHERE seq = ? AND invalid_at IS NULL",
            [(at, superseded_by, s) for s in seqs],
        )
        self.forget_cached(user_id)

    def delete(self, user_id: str, seqs: Sequence[int]) -> None:
        self.db.executemany("DELETE FROM memories WHERE seq = ?", [(s,) for s in seqs])
        self.forget_cached(user_id)

    def set_embedding(self, seq: int, vector: np.ndarray, model: str) -> None:
        self.db.execute(
            "UPDATE memories SET embedding = ?, embedding_model = ? WHERE seq = ?",
            (np.asarray(vector, dtype=np.float32).tobytes(), model, seq),
        )

    # -- reads -----------------------------------------------------------------------------

    def owned(self, user_id: str, ids: Sequence[str]) -> list[tuple[int, bool]]:
        """(seq, is_current) of the user's rows among ``ids``; other users' ids are not matched."""
        found: list[tuple[int, bool]] = []
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            found += [
                (seq, invalid_at is None)
                for seq, invalid_at in self.db.execute(
                    f"SELECT seq, invalid_at FROM memories WHERE user_id = ? AND id IN ({marks})", (user_id, *chunk)
                )
            ]
        return found

    def current_duplicate(self, user_id: str, norm: str) -> MemoryRecord | None:
        """The user's current memory with this exact-duplicate key, if any."""
        row = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE user_id = ? AND norm = ? AND invalid_at IS NULL LIMIT 1",
            (user_id, norm),
        ).fetchone()
        return _record(row) if row is not None else None

    def current_in_slot(self, user_id: str, slot: str, limit: int = 50) -> list[MemoryRecord]:
        """The user's current memories filling ``slot``, newest first (an index lookup)."""
        return [
            _record(row)
            for row in self.db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE user_id = ? AND slot = ? AND invalid_at IS NULL"
                " ORDER BY seq DESC LIMIT ?",
                (user_id, slot, limit),
            )
        ]

    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        row = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE id = ? AND user_id = ?", (memory_id, user_id)
        ).fetchone()
        return _record(row) if row else None

    def fetch(self, seqs: Sequence[int]) -> dict[int, MemoryRecord]:
        if not seqs:
            return {}
        marks = ",".join("?" * len(seqs))
        rows = self.db.execute(f"SELECT {_COLUMNS} FROM memories WHERE seq IN ({marks})", tuple(seqs)).fetchall()
        return {r[0]: _record(r) for r in rows}

    def page(
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
        """One page of the user's memories, newest first, and the total count (see ``MemoryStore.list_memories``)."""
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
        total = self.db.execute(f"SELECT COUNT(*) FROM memories WHERE {clause}", args).fetchone()[0]
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE {clause} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?",
            (*args, size, (page - 1) * size),
        ).fetchall()
        return [_record(r) for r in rows], total

    def latest_attribute(self, user_id: str, key: str) -> Any:
        """The newest value of ``attributes[key]`` among the user's current memories (e.g. their name).

        Cached per (user, key): an insert carrying the key updates it, an invalidation or a
        delete forgets the user."""
        if not re.fullmatch(r"[a-z_]+", key):
            raise ValueError("attribute keys are lower-case identifiers")
        if (user_id, key) in self._attr_cache:
            return self._attr_cache[(user_id, key)]
        row = self.db.execute(
            f"SELECT json_extract(attributes, '$.{key}') FROM memories WHERE user_id = ? AND invalid_at IS NULL"
            f" AND json_extract(attributes, '$.{key}') IS NOT NULL ORDER BY seq DESC LIMIT 1",
            (user_id,),
        ).fetchone()
        value = self._attr_cache[(user_id, key)] = row[0] if row else None
        return value

    def count(self, user_id: str | None = None) -> int:
        if user_id is None:
            return int(self.db.execute("SELECT COUNT(*) FROM memories").fetchone()[0])
        return int(self.db.execute("SELECT COUNT(*) FROM memories WHERE user_id = ?", (user_id,)).fetchone()[0])

    def current_embeddings(self) -> Iterator[tuple[int, str, str, str | None, bytes, str]]:
        """(seq, user, memory_type, session, embedding bytes, model) of every current row, oldest first."""
        yield from self.db.execute(
            "SELECT seq, user_id, memory_type, session_id, embedding, embedding_model FROM memories"
            " WHERE invalid_at IS NULL ORDER BY seq"
        )

    def embedded_by_other_models(self, model: str) -> list[tuple[int, str, str, str | None, str, bool]]:
        """(seq, user, memory_type, session, content, is_current) of rows not embedded by ``model``."""
        return [
            (seq, user, mtype, session, content, invalid_at is None)
            for seq, user, mtype, session, content, invalid_at in self.db.execute(
                "SELECT seq, user_id, memory_type, session_id, content, invalid_at FROM memories"
                " WHERE embedding_model != ?",
                (model,),
            )
        ]
