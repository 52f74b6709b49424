"""The seven Cortadel operations, from a parsed request to the contract's response body.

Kept apart from the HTTP layer (``app.py``) so the rules — validation, identity, dedup,
distillation, ranking, and the contract's wire quirks — read in one place:

* search hits carry ``global``, list and detail items carry ``is_global``;
* ``created_at`` is ISO 8601 on create and search, Unix seconds on list and get;
* ``from-conversation`` answers ``results`` *or* ``no_facts_extracted``, never both;
* null members are omitted, as the real server's serializer does;
* a write's ``event`` is ``ADD``, ``SKIP_DUPLICATE``, ``SUPERSEDE`` (stored, and made older facts
  not current), ``INVALIDATE`` (withdrew a stored fact, stored nothing: no ``id``) or ``NONE``
  ("Forget that …" matched nothing — the local server's name for it; an "I no longer …" that
  matches nothing is stored as a fact instead);
* list and get carry ``is_current``, ``valid_at`` and ``invalid_at``; get also ``superseded_by``
  (the contract's list item has no such field). A list with ``search_query`` ranks current
  memories only: outdated ones are not in the search indexes, whatever ``include_superseded`` says.

Every operation validates the whole request before it touches the store, so a rejected request
never changes stored data.
"""

from __future__ import annotations

import json
import logging
import math
import time
from datetime import datetime, timezone
from typing import Any
from collections.abc import Mapping

from . import classify, search as search_mod, slots
from .auth import ApiKeys, resolve_user
from .distill import Turn, distill
from .embeddings import Embedder, EmbeddingError
from .store import MEMORY_TYPES, MemoryRecord, MemoryStore, NewMemory, Written
from .validation import (
    MAX_DELETE_IDS, MAX_MESSAGES, MAX_QUERY, MAX_ROLE, MAX_TEXT, ROLES, Fields, ValidationFailed,
)

logger = logging.getLogger(__name__)

RERANK_VALUES = ("cross_encoder", "none")


class NotFound(Exception):
    pass


class BadRequest(Exception):
    """A 400 answered with an ErrorResponse body (where the contract says so)."""


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _valid_type(value: Any) -> str | None:
    """Filters ignore an invalid or blank memory_type (the contract says so)."""
    if isinstance(value, str) and value.strip().lower() in MEMORY_TYPES:
        return value.strip().lower()
    return None


class MemoryService:
    """Validation + identity + store + ranking, per operation. Thread-safe."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        api_keys: ApiKeys,
        *,
        dedup_threshold: float | None = 0.9,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.keys = api_keys
        self.dedup_threshold = dedup_threshold

    # -- identity --------------------------------------------------------------------------

    def _body_user(self, f: Fields, headers: Mapping[str, str]) -> str | None:
        claimed = f.string("user_id", required=not self.keys.enabled, min_len=1, blank_ok=False)
        return resolve_user(self.keys, headers, claimed, from_query=False)

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

    def create(self, body: dict[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
        f = Fields(body)
        text = f.string("text", required=True, min_len=1, max_len=MAX_TEXT, blank_ok=False)
        user = self._body_user(f, headers)
        infer = f.boolean("infer", default=True)
        requested_type = f.string("memory_type")
        metadata = f.obj("metadata")
        app = f.string("app", max_len=200)
        if f.errors:
            raise ValidationFailed(f.errors)
        assert text is not None and user is not None
        memory = NewMemory(
            user_id=user,
            content=text,
            memory_type=classify.coerce_memory_type(requested_type, text),
            gist=classify.gist(text),
            app_name=app,
            metadata=metadata,
            categories=classify.categorize(text) if infer else [],
            infer=infer,
        )
        written = self._write(memory, self.embedder.embed([memory.content])[0], check_updates=infer)
        record = written.record
        if record is None:  # a withdrawal ("Alex no longer …"): nothing was created
            return _drop_none({"content": text, "state": "active", "created_at": iso(time.time()),
                               "event": written.event, "app_name": app})
        return _drop_none({
            "id": record.id, "content": record.content, "state": "active", "created_at": iso(record.created_at),
            "event": written.event, "app_name": record.app_name,
            "metadata": json.dumps(record.metadata) if record.metadata is not None else None,
        })

    def _write(self, memory: NewMemory, vector, *, check_updates: bool = True, forget: bool = False) -> Written:
        """Store a fact, or — for "Forget that …" and "no longer …" — withdraw the one it names.

        ``check_updates=False`` (the contract's ``infer: false``) stores the text as given: no
        supersede and no withdrawal, only the duplicate checks."""
        if forget or (check_updates and slots.read(memory.content).ceased):
            withdrawn = self.store.retract(memory.user_id, memory.content, vector)
            if forget or withdrawn.event != "NONE":
                return withdrawn
            # "I no longer live in Paris" with no Paris fact to withdraw is still worth keeping.
        return self.store.write(memory, vector, dedup_threshold=self.dedup_threshold, check_updates=check_updates)

    def from_conversation(self, body: dict[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
        f = Fields(body)
        user = self._body_user(f, headers)
        turns: list[Turn] = []
        messages = body.get("messages")
        if messages is None:
            f.error("messages", "The messages field is required.")
        elif not isinstance(messages, list):
            f.error("messages", "The messages field must be an array of {role, content} objects.")
        elif not 1 <= len(messages) <= MAX_MESSAGES:
            f.error("messages", f"The messages field must contain between 1 and {MAX_MESSAGES} items (got {len(messages)}).")
        else:
            for i, item in enumerate(messages):
                if not isinstance(item, dict):
                    f.error(f"messages[{i}]", "Each message must be an object with role and content.")
                    continue
                m = Fields(item, prefix=f"messages[{i}].")
                role = m.string("role", required=True, min_len=1, max_len=MAX_ROLE, blank_ok=False)
                content = m.string("content", required=True, min_len=1, max_len=MAX_TEXT)
                uuid = m.string("uuid")
                if role is not None and role.strip().lower() not in ROLES:
                    m.error("role", f"The role must be one of {', '.join(ROLES)} (got {role!r}).")
                for key, errs in m.errors.items():
                    f.errors.setdefault(key, []).extend(errs)
                if not m.errors:
                    turns.append(Turn(role=role.strip().lower(), content=content, uuid=uuid))
        is_agent = f.boolean("is_agent_memory")
        tags = f.string_list("tags", max_items=100)
        project = f.string("project", max_len=500)
        session_id = f.string("session_id", max_len=500)
        transcript_path = f.string("transcript_path", max_len=4096)
        if f.errors:
            raise ValidationFailed(f.errors)
        assert user is not None
        known_name = None if is_agent else self.store.latest_attribute(user, "user_name")
        facts = distill(turns, is_agent_memory=is_agent, known_name=known_name)
        if not facts:
            return {"no_facts_extracted": True}
        vectors = self.embedder.embed([fact.text for fact in facts])
        results = []
        for fact, vector in zip(facts, vectors, strict=True):
            attributes: dict[str, Any] = {"source_turn_uuids": fact.source_uuids, "origin": "conversation"}
            if is_agent:
                attributes["is_agent_memory"] = True
            if transcript_path is not None:
                attributes["transcript_path"] = transcript_path
            if fact.name:
                attributes["user_name"] = fact.name
            memory = NewMemory(
                user_id=user, content=fact.text, memory_type=classify.classify_memory_type(fact.text),
                gist=classify.gist(fact.text), categories=classify.categorize(fact.text), tags=list(tags or []),
                project=project, session_id=session_id, attributes=attributes,
            )
            written = self._write(memory, vector, forget=fact.forget)
            if written.record is not None:
                results.append({"id": written.record.id, "memory": fact.text, "event": written.event})
            else:  # the contract leaves id empty for INVALIDATE; say which fact was withdrawn
                withdrawn = "; ".join(r.content for r in written.replaced) or fact.text
                results.append({"memory": withdrawn, "event": written.event})
        return {"results": results}

    def search(self, body: dict[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
        f = Fields(body)
        query = f.string("query", required=True, min_len=1, max_len=MAX_QUERY, blank_ok=False)
        user = self._body_user(f, headers)
        top_k = f.integer("top_k", 10, 1, 50)
        mode = (f.string("mode") or "hybrid").strip().lower() or "hybrid"
        if mode not in search_mod.MODES:
            f.error("mode", f"The mode must be one of {', '.join(search_mod.MODES)} (got {body.get('mode')!r}).")
        rerank = (f.string("rerank") or "").strip().lower()
        if rerank and rerank not in RERANK_VALUES:
            f.error("rerank", f"The rerank field must be 'cross_encoder' or empty (got {body.get('rerank')!r}).")
        session_id = f.string("session_id")
        memory_type = _valid_type(f.string("memory_type"))
        token_budget = f.integer("token_budget", 0, 0, 200_000)
        f.string("app_name")
        for flag in ("expand_query", "include_faded", "include_session_arm"):
            f.boolean(flag)  # accepted and type-checked; the local server has nothing for them to change
        if f.errors:
            raise ValidationFailed(f.errors)
        assert query is not None and user is not None
        hits = search_mod.search(
            self.store, self.embedder, user, query, top_k=top_k, mode=mode, memory_type=memory_type,
            session_id=session_id, rerank=rerank == "cross_encoder",
        )
        results = [self._hit(h, reranked=rerank == "cross_encoder") for h in hits]
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
        if reranked:
            attributes["rerank"] = "cosine"
        return _drop_none({
            "id": r.id, "content": r.content, "rrf_score": hit.rrf_score, "created_at": iso(r.created_at),
            "app_name": r.app_name, "categories": r.categories, "memory_type": r.memory_type, "tags": r.tags,
            "source": "personal", "global": False, "gist": r.gist, "project_id": r.project,
            "text_rank": hit.text_rank, "vector_rank": hit.vector_rank, "attributes": attributes or None,
        })

    def list(self, params: Mapping[str, str], headers: Mapping[str, str]) -> dict[str, Any]:
        errors: dict[str, list[str]] = {}
        claimed = params.get("user_id")
        if claimed is not None and not claimed.strip():
            claimed = None
        if claimed is None and not self.keys.enabled:
            errors["user_id"] = ["The user_id query parameter is required."]
        page = _int_param(params, "page", 1, 1, 1_000_000, errors)
        size = _int_param(params, "size", 10, 1, 100, errors)
        as_of = None
        if params.get("as_of"):
            try:
                as_of = datetime.fromisoformat(params["as_of"].replace("Z", "+00:00"))
                if as_of.tzinfo is None:
                    as_of = as_of.replace(tzinfo=timezone.utc)
            except ValueError:
                errors["as_of"] = [f"The as_of value {params['as_of']!r} is not an ISO 8601 date or time."]
        include_superseded = False
        raw_flag = (params.get("include_superseded") or "").strip().lower()
        if raw_flag in ("true", "1"):
            include_superseded = True
        elif raw_flag not in ("", "false", "0"):
            errors["include_superseded"] = [
                f"The include_superseded value {params['include_superseded']!r} must be \"true\" or \"false\"."]
        search_query = params.get("search_query")
        if search_query is not None and len(search_query) > MAX_QUERY:
            errors["search_query"] = [f"The search_query must be at most {MAX_QUERY} characters."]
        if errors:
            raise ValidationFailed(errors)
        user = resolve_user(self.keys, headers, claimed, from_query=True)
        assert user is not None
        memory_type = _valid_type(params.get("memory_type"))
        app = params.get("app_id") or None
        categories = [c.strip() for c in (params.get("categories") or "").split(",") if c.strip()]
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
                as_of=round(as_of.timestamp(), 3) if as_of else None, include_superseded=include_superseded,
            )
        return {
            "items": [self._list_item(r) for r in records], "total": total, "page": page, "size": size,
            "pages": math.ceil(total / size) if total else 0,
        }

    @staticmethod
    def _list_item(r: MemoryRecord) -> dict[str, Any]:
        return _drop_none({
            "id": r.id, "content": r.content, "created_at": int(r.created_at), "state": "active",
            "app_id": r.app_name, "app_name": r.app_name, "categories": r.categories,
            "memory_type": r.memory_type, "extraction_status": "done" if r.infer else "skipped",
            "valid_at": iso(r.created_at), "is_current": r.is_current,
            "invalid_at": iso(r.invalid_at) if r.invalid_at is not None else None,
            "is_global": False, "metadata_": r.metadata,
        })

    def get(self, memory_id: str, params: Mapping[str, str], headers: Mapping[str, str]) -> dict[str, Any]:
        claimed = params.get("user_id") or None
        if claimed is None and not self.keys.enabled:
            raise BadRequest("The user_id query parameter is required.")
        user = resolve_user(self.keys, headers, claimed, from_query=True)
        assert user is not None
        record = self.store.get(user, memory_id)
        if record is None:
            raise NotFound(f"Memory '{memory_id}' was not found.")
        return _drop_none({
            "id": record.id, "text": record.content, "created_at": int(record.created_at), "state": "active",
            "app_id": record.app_name, "app_name": record.app_name, "categories": record.categories,
            "metadata_": record.metadata, "valid_at": iso(record.created_at), "is_current": record.is_current,
            "invalid_at": iso(record.invalid_at) if record.invalid_at is not None else None,
            "superseded_by": record.superseded_by, "is_global": False,
        })

    def delete(self, body: dict[str, Any], headers: Mapping[str, str]) -> dict[str, Any]:
        f = Fields(body)
        user = self._body_user(f, headers)
        ids = f.string_list("memory_ids", required=True, min_items=1, max_items=MAX_DELETE_IDS)
        if f.errors:
            raise ValidationFailed(f.errors)
        assert user is not None and ids is not None
        count = self.store.delete(user, ids)
        noun = "memory" if count == 1 else "memories"
        return {"message": f"Deleted {count} {noun}."}


def _int_param(params: Mapping[str, str], name: str, default: int, lo: int, hi: int, errors) -> int:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        errors[name] = [f"The value {raw!r} is not valid for {name}: expected an integer."]
        return default
    if not lo <= value <= hi:
        errors[name] = [f"The {name} parameter must be between {lo} and {hi} (got {value})."]
        return default
    return value


__all__ = ["MemoryService", "NotFound", "BadRequest", "EmbeddingError"]
