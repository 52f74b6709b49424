"""Per-hit signals of the scorecard's splits, saved once, so a relevance floor can be tuned in milliseconds.

Choosing a floor means trying many; running the scorecard for each would take minutes. But a floor
only *drops* hits — it never changes what search ranked — so each question's top five hybrid hits,
each with its ``relevance`` (what the local server sends as ``attributes["relevance"]``) and whether
it came from an evidence turn, are all a floor needs. :func:`collect` computes them for a split's
haystack users with the server's own in-process search; ``python -m memory_evaluation.floor_signals``
writes them to ``data/floor_signals.json``, and :func:`load_floor_questions` reads them back.

:func:`score_floor` applies the provider's ``min_relevance`` rule (keep a hit when ``relevance >= floor``):
abstention is the share of abstention questions with nothing kept, recall@5 the share of the other
questions with an evidence hit kept. (Questions after a withdrawal have no evidence to recall, so they
are left out.) (The scorecard is stricter for a multi-session question: it wants
*every* evidence turn among the five; here one suffices, which is enough to rank floors.)

Lesson 11's exercise tunes a floor on the dev questions and reports it on the test ones.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from .dataset import DATA_DIR, Case, DatasetError

__all__ = ["SIGNALS_PATH", "FloorHit", "FloorQuestion", "FloorScore", "collect", "load_floor_questions", "score_floor"]

SIGNALS_PATH = DATA_DIR / "floor_signals.json"
TOP_K = 5


@dataclass(frozen=True)
class FloorHit:
    """One search hit: the server's probability that it is evidence, and whether it is."""

    relevance: float
    is_evidence: bool


@dataclass(frozen=True)
class FloorQuestion:
    """One question of a split: its ability and the hits hybrid search ranked for it, best first."""

    question_id: str
    user_id: str
    ability: str
    hits: tuple[FloorHit, ...]

    @cached_property
    def highest(self) -> float:
        """The highest relevance among the first five hits (-1.0 with none): every floor above it keeps nothing."""
        return max((hit.relevance for hit in self.hits[:TOP_K]), default=-1.0)

    @cached_property
    def highest_evidence(self) -> float:
        """The highest relevance of an evidence hit among the first five (-1.0 with none): the floor up to which
        the question is recalled."""
        return max((hit.relevance for hit in self.hits[:TOP_K] if hit.is_evidence), default=-1.0)


@dataclass(frozen=True)
class FloorScore:
    """What one floor gives on a list of questions."""

    floor: float
    abstention: float
    recall_at_5: float


def score_floor(questions: Sequence[FloorQuestion], floor: float) -> FloorScore:
    """Abstention and recall@5 when only hits with ``relevance >= floor`` are kept (the provider's rule)."""
    if isinstance(floor, bool) or not isinstance(floor, int | float) or not 0.0 <= floor <= 1.0:
        raise ValueError(f"floor must be a probability from 0.0 (no floor) to 1.0, got {floor!r}.")
    abstained: list[bool] = []
    recalled: list[bool] = []
    for question in questions:
        if question.ability == "abstention":
            abstained.append(question.highest < floor)  # nothing kept
        else:
            recalled.append(question.highest_evidence >= floor)  # an evidence hit kept
    if not abstained or not recalled:
        raise ValueError("score_floor needs abstention questions and answerable ones: pass a whole split's questions.")
    return FloorScore(float(floor), sum(abstained) / len(abstained), sum(recalled) / len(recalled))


def collect(cases: Sequence[Case]) -> list[FloorQuestion]:
    """Each question's top-5 hybrid hits, searched in-process on a fresh store holding ``cases``' histories."""
    from local_memory_server import search as search_mod
    from local_memory_server.request_models import AddConversationRequest, ConversationMessageItem
    from local_memory_server.server import build_service

    service = build_service(None)
    questions: list[FloorQuestion] = []
    try:
        for case in cases:
            for session in case.sessions:
                messages = [ConversationMessageItem(role=t.role, content=t.content, uuid=t.uuid)
                            for t in session.turns if t.content.strip()]
                if messages:
                    request = AddConversationRequest(user_id=case.user_id, messages=messages, session_id=session.session_id)
                    service.from_conversation(case.user_id, request)
            for question in case.questions:
                if question.ability == "withdrawal":  # nothing to recall: the right answer is the fact's absence
                    continue
                found = search_mod.search(service.store, service.embedder, case.user_id, question.question, top_k=TOP_K)
                evidence = set(question.evidence)
                hits = []
                for hit in found:
                    if hit.relevance is None:
                        raise DatasetError("a hit came without relevance: is the embedder the one relevance.py was fitted for?")
                    sources = set(hit.record.attributes.get("source_turn_uuids") or [])
                    hits.append(FloorHit(round(hit.relevance, 4), bool(sources & evidence)))
                questions.append(FloorQuestion(question.question_id, case.user_id, question.ability, tuple(hits)))
    finally:
        service.store.close()
    return questions


def load_floor_questions(split: str, users: int | None = None, *, path: str | Path = SIGNALS_PATH) -> list[FloorQuestion]:
    """The saved signals of ``split`` ("dev" or "test"), of its first ``users`` users (all by default)."""
    try:
        with open(path, encoding="utf-8") as handle:
            data: dict[str, Any] = json.load(handle)
    except FileNotFoundError:
        raise DatasetError(f"No floor signals at {path} (run: python -m memory_evaluation.floor_signals).") from None
    if split not in data:
        raise DatasetError(f"no split {split!r} in {Path(path).name}; it has: {', '.join(sorted(data))}.")
    questions = [
        FloorQuestion(q["question_id"], q["user_id"], q["ability"],
                      tuple(FloorHit(float(r), bool(e)) for r, e in q["hits"]))
        for q in data[split]
    ]
    if users is not None:
        keep = list(dict.fromkeys(q.user_id for q in questions))[:users]
        questions = [q for q in questions if q.user_id in keep]
    return questions


def _write(path: Path = SIGNALS_PATH) -> None:
    from .haystack import load_cases

    data = {}
    for split in ("dev", "test"):
        data[split] = [
            {"question_id": q.question_id, "user_id": q.user_id, "ability": q.ability,
             "hits": [[h.relevance, int(h.is_evidence)] for h in q.hits]}
            for q in collect(load_cases(split))
        ]
        print(f"{split}: {len(data[split])} questions")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, separators=(",", ":"))
        handle.write("\n")


if __name__ == "__main__":
    _write()
