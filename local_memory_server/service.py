"""The seven Cortadel operations, from a validated request to the contract's response body.

Kept apart from the HTTP layer so the rules — dedup, distillation, ranking, and the contract's
wire quirks — read in one place. Each operation takes plain arguments: the user it acts for (the
API key check in ``auth.py`` has already decided it) and the request model (``request_models.py``
has already checked every field), so nothing here knows about headers, bodies or status codes:

* search hits carry ``global``, list and detail items carry ``is_global``;
* ``created_at`` is ISO 8601 on create and search, Unix seconds on list and get — one instant,
  two encodings, both from ``timestamps.py``;
* ``from-conversation`` answers ``results`` *or* ``no_facts_extracted``, never both;
* null members are omitted, as the real server's serializer does;
* a write's ``event`` is ``ADD``, ``SKIP_DUPLICATE``, ``SUPERSEDE`` (stored, and made older facts
  not current), ``INVALIDATE`` (withdrew a stored fact, stored nothing: no ``id``) or ``NONE``
  ("Forget that …" matched nothing — the local server's name for it; an "I no longer …" that
  matches nothing is stored as a fact instead);
* list and get carry ``is_current``, ``valid_at`` and ``invalid_at``; get also ``superseded_by``
  (the contract's list item has no such field). A list with ``search_query`` ranks current
  memories only: outdated ones are not in the search indexes, whatever ``include_superseded`` says.

Requests are validated whole before an operation runs, so a rejected request never changes
stored data.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import deque
from typing import Any

import numpy as np

from offline_reader import Fact, Turn, distill, is_withdrawal, kinds as classify
from . import search as search_mod
from .embeddings import Embedder, EmbeddingError
from .request_models import (
    AddConversationRequest,
    CreateMemoryRequest,
    DeleteMemoriesRequest,
    ListMemoriesQuery,
    SearchMemoriesRequest,
)
from .store import MEMORY_TYPES, MemoryRecord, MemoryStore, NewMemory, Written
from .timestamps import iso, unix_seconds
from .model_endpoint import ModelAnswerError
from .understanding import CANDIDATES, SAME_TOPIC, ModelReader, Reading

logger = logging.getLogger(__name__)


class NotFound(Exception):
    """No memory with that id belongs to the user (the HTTP layer answers 404)."""


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _valid_type(value: Any) -> str | None:
    """Filters ignore an invalid or blank memory_type (the contract says so)."""
    if isinstance(value, str) and value.strip().lower() in MEMORY_TYPES:
        return value.strip().lower()
    return None


def _from_conversation(user: str, text: str, request: AddConversationRequest, attributes: dict[str, Any]) -> NewMemory:
    """A fact distilled from a conversation, with the request's tags, project and session, whoever read it."""
    return NewMemory(
        user_id=user, content=text, memory_type=classify.classify_memory_type(text), gist=classify.gist(text),
        categories=classify.categorize(text), tags=list(request.tags or []), project=request.project,
        session_id=request.session_id, attributes=attributes,
    )


class MemoryService:
    """Store + distillation + ranking, per operation. Thread-safe."""

    def __init__(self, store: MemoryStore, embedder: Embedder, *, dedup_threshold: float | None = 0.9,
                 reader: ModelReader | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.dedup_threshold = dedup_threshold
        #: The model that reads conversations (``understanding.py``); None: the offline reader does.
        self.reader = reader
        #: The newest turns the model read, with the exchange as sent and received (lesson 10 shows one).
        self.readings: deque[Reading] = deque(maxlen=20)
        #: Turns the model could not read (the offline reader read them), since the service started.
        self.fallbacks = 0

    # -- operations ------------------------------------------------------------------------

    def health(self) -> tuple[int, dict[str, Any]]:
        checks: dict[str, Any] = {}
        ok = True
        try:
            db_ms = self.store.ping()
            checks["memgraph"] = _drop_none({"ok": True, "url": f"sqlite:///{self.store.path}",
                                             "latency_ms": round(db_ms)})
        except Exception as exc:
            ok = False
            checks["memgraph"] = {"ok": False, "url": f"sqlite:///{self.store.path}", "error": str(exc)}
        start = time.perf_counter()
        try:
            vec = self.embedder.embed(["health check"])
            emb_ok = vec.shape == (1, self.store.dim)
            checks["embeddings"] = _drop_none({
                "ok": emb_ok, "provider": self.embedder.provider, "model": self.embedder.model,
                "dim": int(vec.shape[1]), "latency_ms": round((time.perf_counter() - start) * 1000),
                "error": None if emb_ok else f"expected dimension {self.store.dim}, got {vec.shape[1]}",
            })
            ok = ok and emb_ok
        except Exception as exc:
            ok = False
            checks["embeddings"] = {"ok": False, "provider": self.embedder.provider,
                                    "model": self.embedder.model, "error": str(exc)}
        checks["indexes"] = {
            "ok": self.store.stale_vectors == 0, "model": self.store.embedding_model,
            "provider_dim": self.store.dim, "vector_indexes": [f"Memory.embedding@{self.store.dim}"],
            "mismatches": [] if self.store.stale_vectors == 0 else
            [f"{self.store.stale_vectors} memories embedded by another model"],
        }
        body = {"status": "ok" if ok else "degraded", "checked_at": iso(time.time()), "checks": checks}
        return (200 if ok else 503), body

    def create(self, user: str, request: CreateMemoryRequest) -> dict[str, Any]:
        text, infer, app, metadata = request.text, request.infer, request.app, request.metadata
        memory = NewMemory(
            user_id=user,
            content=text,
            memory_type=classify.coerce_memory_type(request.memory_type, text),
            gist=classify.gist(text),
            app_name=app,
            metadata=metadata,
            categories=classify.categorize(text) if infer else [],
            infer=infer,
        )
        [vector] = self.embedder.embed([memory.content])
        written = self._write(memory, vector, check_updates=infer)
        record = written.record
        if record is None:  # a withdrawal ("Alex no longer …"): nothing was created
            return _drop_none({"content": text, "state": "active", "created_at": iso(time.time()),
                               "event": written.event, "app_name": app})
        return _drop_none({
            "id": record.id, "content": record.content, "state": "active", "created_at": iso(record.created_at),
            "event": written.event, "app_name": record.app_name,
            "metadata": json.dumps(record.metadata) if record.metadata is not None else None,
        })

    def _write(self, memory: NewMemory, vector: np.ndarray, *, check_updates: bool = True,
               forget: bool = False) -> Written:
        """Store a fact, or — for "Forget that …" and "no longer …" — withdraw the one it names.

        ``check_updates=False`` (the contract's ``infer: false``) stores the text as given: no
        supersede and no withdrawal, only the duplicate checks."""
        if forget or (check_updates and is_withdrawal(memory.content)):
            withdrawn = self.store.retract(memory.user_id, memory.content, vector)
            if forget or withdrawn.event != "NONE":
                return withdrawn
            # "I no longer live in Paris" with no Paris fact to withdraw is still worth keeping.
        return self.store.write(memory, vector, dedup_threshold=self.dedup_threshold, check_updates=check_updates)

    def from_conversation(self, user: str, request: AddConversationRequest) -> dict[str, Any]:
        turns = [Turn(role=m.role, content=m.content, uuid=m.uuid) for m in request.messages]
        if self.reader is not None and not request.is_agent_memory:
            try:
                return self._read_with_model(user, request, turns)
            except ModelAnswerError as exc:  # nothing was written yet: the offline reader reads this turn
                self.fallbacks += 1
                logger.warning("The model %s could not read a turn, so the offline reader did: %s",
                               self.reader.model, exc)
        is_agent, transcript_path = request.is_agent_memory, request.transcript_path
        known_name = None if is_agent else self.store.latest_attribute(user, "user_name")
        facts = distill(turns, is_agent_memory=is_agent, known_name=known_name)
        if not facts:
            return {"no_facts_extracted": True}
        texts = [fact.text for fact in facts]
        results = []
        for fact, vector in zip(facts, self.embedder.embed(texts), strict=True):
            attributes: dict[str, Any] = {"source_turn_uuids": fact.source_uuids, "origin": "conversation"}
            if is_agent:
                attributes["is_agent_memory"] = True
            if transcript_path is not None:
                attributes["transcript_path"] = transcript_path
            if fact.name:
                attributes["user_name"] = fact.name
            written = self._write(_from_conversation(user, fact.text, request, attributes), vector, forget=fact.forget)
            if written.record is not None:
                results.append({"id": written.record.id, "memory": fact.text, "event": written.event})
            else:  # the contract leaves id empty for INVALIDATE; say which fact was withdrawn
                withdrawn = "; ".join(r.content for r in written.replaced) or fact.text
                results.append({"memory": withdrawn, "event": written.event})
        return {"results": results}

    def _read_with_model(self, user: str, request: AddConversationRequest, turns: list[Turn]) -> dict[str, Any]:
        """The turn read by the model (at most two calls), then its decisions applied: see ``understanding.py``."""
        assert self.reader is not None
        facts, extracted = self.reader.extract(turns)
        if not facts:
            self.readings.append(Reading([], [], [extracted]))
            return {"no_facts_extracted": True}
        vectors = self.embedder.embed([fact.text for fact in facts])
        candidates = [self.store.similar(user, fact.text, vector, CANDIDATES)
                      for fact, vector in zip(facts, vectors, strict=True)]
        decisions, decided = self.reader.decide(
            facts, candidates, labels_of=lambda r: r.attributes.get("read_as") or {}, text_of=lambda r: r.content,
            same_topic=self._same_topic, same_attribute=self._same_attribute)
        self.readings.append(Reading(facts, decisions, [extracted, *([decided] if decided else [])]))
        uuids = [t.uuid for t in turns if t.role == "user" and t.uuid]
        results, taken = [], set()
        for fact, vector, decision in zip(facts, vectors, decisions, strict=True):
            target = decision.target
            if target is not None and target.id in taken:  # two facts of one turn never replace one memory twice
                target, event = None, "ADD"
            else:
                event = decision.event
            if event == "NONE":
                results.append({"id": target.id, "memory": target.content, "event": "SKIP_DUPLICATE"})
                continue
            if event == "DELETE":
                taken.add(target.id)
                written = self.store.invalidate(user, [target])
                results.append({"memory": target.content, "event": written.event})
                continue
            attributes: dict[str, Any] = {"source_turn_uuids": uuids, "origin": "conversation",
                                          "read_by": self.reader.model, "read_as": fact.labels}
            if request.transcript_path is not None:
                attributes["transcript_path"] = request.transcript_path
            memory = _from_conversation(user, fact.text, request, attributes)
            if event == "UPDATE":
                taken.add(target.id)
                written = self.store.replace(memory, vector, [target])
            else:
                written = self.store.write(memory, vector, dedup_threshold=self.dedup_threshold, check_updates=False)
            assert written.record is not None
            results.append({"id": written.record.id, "memory": fact.text, "event": written.event})
        return {"results": results}

    def _same_topic(self, a: str, b: str) -> bool:
        """Two topic labels the model gave name the same thing: their embeddings are close."""
        if a.strip().casefold() == b.strip().casefold():
            return True
        first, second = self.embedder.embed([a, b])
        return float(np.dot(first, second)) >= SAME_TOPIC

    def _same_attribute(self, text: str, record: MemoryRecord) -> bool:
        """The offline reader files a new fact and a stored memory under the same single-valued attribute."""
        decider = self.store.decider
        new, old = self.embedder.embed([text, record.content])
        attribute = decider.attribute(Fact(text, new))
        return attribute is not None and attribute == decider.attribute(Fact(record.content, old))

    def search(self, user: str, request: SearchMemoriesRequest) -> dict[str, Any]:
        query, token_budget, reranked = request.query, request.token_budget, request.rerank == "cross_encoder"
        hits = search_mod.search(
            self.store, self.embedder, user, query, top_k=request.top_k, mode=request.mode,
            memory_type=_valid_type(request.memory_type), session_id=request.session_id, rerank=reranked,
        )
        results = [self._hit(h, reranked=reranked) for h in hits]
        if token_budget > 0:
            kept, used = [], 0
            for item in results:
                cost = max(1, math.ceil(len(item["content"]) / 4))
                if used + cost > token_budget:
                    break
                kept.append(item)
                used += cost
            results = kept
        return {"query": query, "results": results, "total": len(results)}

    @staticmethod
    def _hit(hit: search_mod.Hit, *, reranked: bool) -> dict[str, Any]:
        r = hit.record
        attributes = dict(r.attributes)
        if r.session_id is not None:
            attributes["session_id"] = r.session_id
        if hit.similarity is not None:
            attributes["similarity"] = round(hit.similarity, 4)
        if hit.relevance is not None:  # P(evidence), calibrated on dev data: see relevance.py
            attributes["relevance"] = round(hit.relevance, 4)
        if reranked:
            attributes["rerank"] = "cosine"
        return _drop_none({
            "id": r.id, "content": r.content, "rrf_score": hit.rrf_score, "created_at": iso(r.created_at),
            "app_name": r.app_name, "categories": r.categories, "memory_type": r.memory_type, "tags": r.tags,
            "source": "personal", "global": False, "gist": r.gist, "project_id": r.project,
            "text_rank": hit.text_rank, "vector_rank": hit.vector_rank, "attributes": attributes or None,
        })

    def list_memories(self, user: str, query: ListMemoriesQuery) -> dict[str, Any]:
        page, size, as_of, search_query = query.page, query.size, query.as_of, query.search_query
        memory_type, app, categories = _valid_type(query.memory_type), query.app_id, query.category_list
        if search_query and search_query.strip():
            hits = search_mod.search(self.store, self.embedder, user, search_query, top_k=50, memory_type=memory_type)
            records = [h.record for h in hits]
            records = [r for r in records if (app is None or r.app_name == app)
                       and all(c in r.categories for c in categories)
                       and (as_of is None or r.created_at <= as_of.timestamp())]
            total = len(records)
            records = records[(page - 1) * size: page * size]
        else:
            records, total = self.store.list_memories(
                user, page=page, size=size, memory_type=memory_type, app=app, categories=categories,
                as_of=round(as_of.timestamp(), 3) if as_of else None, include_superseded=query.include_superseded,
            )
        return {
            "items": [self._list_item(r) for r in records], "total": total, "page": page, "size": size,
            "pages": math.ceil(total / size) if total else 0,
        }

    @staticmethod
    def _list_item(r: MemoryRecord) -> dict[str, Any]:
        return _drop_none({
            "id": r.id, "content": r.content, "created_at": unix_seconds(r.created_at), "state": "active",
            "app_id": r.app_name, "app_name": r.app_name, "categories": r.categories,
            "memory_type": r.memory_type, "extraction_status": "done" if r.infer else "skipped",
            "valid_at": iso(r.created_at), "is_current": r.is_current,
            "invalid_at": iso(r.invalid_at) if r.invalid_at is not None else None,
            "is_global": False, "metadata_": r.metadata,
        })

    def get(self, user: str, memory_id: str) -> dict[str, Any]:
        record = self.store.get(user, memory_id)
        if record is None:
            raise NotFound(f"Memory '{memory_id}' was not found.")
        return _drop_none({
            "id": record.id, "text": record.content, "created_at": unix_seconds(record.created_at), "state": "active",
            "app_id": record.app_name, "app_name": record.app_name, "categories": record.categories,
            "metadata_": record.metadata, "valid_at": iso(record.created_at), "is_current": record.is_current,
            "invalid_at": iso(record.invalid_at) if record.invalid_at is not None else None,
            "superseded_by": record.superseded_by, "is_global": False,
        })

    def delete(self, user: str, request: DeleteMemoriesRequest) -> dict[str, Any]:
        count = self.store.delete(user, request.memory_ids)
        noun = "memory" if count == 1 else "memories"
        return {"message": f"Deleted {count} {noun}."}


__all__ = ["MemoryService", "NotFound", "EmbeddingError"]
