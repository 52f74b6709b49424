"""The evaluation data model, and the two formats it is read from.

One model for both: a *case* is one user's history (dated sessions of turns, each turn with a
uuid) and the questions asked against it. A question names its ability and the turns that hold
the answer (``evidence``); a knowledge-update question also names the turns it replaces
(``superseded``). Turn uuids travel with ``add_conversation`` and come back on each distilled
memory (``attributes.source_turn_uuids``), which is how a recalled memory is matched to evidence.

* the shipped data is two splits (:mod:`.splits`, dev and test) that :mod:`.haystack` assembles
  into users with 40+ sessions each (:func:`~.haystack.load_cases`);
* :func:`load_longmemeval` reads the public LongMemEval JSON (``longmemeval_s.json``,
  ``longmemeval_oracle.json``...): a list of items with ``question_id``, ``question_type``,
  ``question``, ``answer``, ``haystack_session_ids``, ``haystack_dates``, ``haystack_sessions``
  (lists of ``{role, content, has_answer?}``) and ``answer_session_ids``. Each item becomes one
  case; a question id ending in ``_abs`` is an abstention question.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "ABILITIES", "Case", "Question", "Session", "Tracked", "Turn", "DATA_DIR", "load_longmemeval",
    "load_synthetic", "DatasetError",
]

ABILITIES = ("information_extraction", "multi_session", "knowledge_update", "temporal_reasoning", "abstention")
DATA_DIR = Path(__file__).with_name("data")

#: LongMemEval's question types, mapped onto the five abilities.
LONGMEMEVAL_TYPES = {
    "single-session-user": "information_extraction",
    "single-session-assistant": "information_extraction",
    "single-session-preference": "information_extraction",
    "multi-session": "multi_session",
    "knowledge-update": "knowledge_update",
    "temporal-reasoning": "temporal_reasoning",
}


class DatasetError(ValueError):
    """The file is not in the format this loader reads (the message names what is wrong)."""


@dataclass
class Turn:
    uuid: str
    role: str
    content: str


@dataclass
class Session:
    session_id: str
    date: str | None
    turns: list[Turn]


@dataclass
class Question:
    question_id: str
    ability: str
    question: str
    answer: str | None
    evidence: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    superseded_answer: str | None = None


@dataclass
class Tracked:
    """An item whose stored memories must end up current or not (knowledge updates, keeps, withdrawals).

    ``current`` and ``not_current`` are turn uuids; the scorecard ingests each such turn in its own
    ``add_conversation`` call, so the ids it returns are that turn's memories, and reads their
    currency back through the SDK's list (``include_superseded``). Where a turn holds several
    facts, ``current_text`` / ``not_current_text`` pick the memory that carries the value.
    """

    item_id: str
    kind: str                                   # "update" | "keep" | "withdrawal"
    current: list[str] = field(default_factory=list)
    not_current: list[str] = field(default_factory=list)
    current_text: str | None = None
    not_current_text: str | None = None


@dataclass
class Case:
    user_id: str
    sessions: list[Session]
    questions: list[Question]
    phatic: list[str] = field(default_factory=list)
    tracked: list[Tracked] = field(default_factory=list)


def _read_json(path: str | Path):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise DatasetError(f"No dataset at {path}: give the path to a LongMemEval JSON file (e.g. longmemeval_s.json).") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path} is not valid JSON ({exc}).") from None


def load_synthetic(path: str | Path | None = None, *, users: int | None = None) -> list[Case]:
    """The dev split's scorecard users (or the first ``users``): kept for callers of the old name.

    The shipped data is now two splits (:mod:`.splits`) assembled into full haystacks
    (:mod:`.haystack`); use :func:`memory_evaluation.load_cases` for the test split."""
    from .haystack import load_cases

    if path is not None:
        raise DatasetError("load_synthetic no longer reads a file: use load_cases('dev' or 'test') "
                           "or load_longmemeval(path).")
    return load_cases("dev", users=users)


def load_longmemeval(path: str | Path, *, limit: int | None = None) -> list[Case]:
    """Cases from a LongMemEval JSON file: one case (one fresh user) per question."""
    data = _read_json(path)
    if not isinstance(data, list):
        raise DatasetError(f"{path}: a LongMemEval file is a JSON list of question items, got {type(data).__name__}.")
    cases = []
    for n, item in enumerate(data[:limit]):
        missing = [k for k in ("question_id", "question_type", "question", "haystack_sessions") if k not in item]
        if missing:
            raise DatasetError(f"{path}: item {n} has no {', '.join(missing)} (is this a LongMemEval file?).")
        qid = str(item["question_id"])
        ability = "abstention" if qid.endswith("_abs") else LONGMEMEVAL_TYPES.get(item["question_type"])
        if ability is None:
            raise DatasetError(f"{path}: item {qid} has unknown question_type {item['question_type']!r}.")
        ids = item.get("haystack_session_ids") or [f"s{i}" for i in range(len(item["haystack_sessions"]))]
        dates = item.get("haystack_dates") or [None] * len(ids)
        answer_sessions = set(item.get("answer_session_ids") or [])
        if not len(ids) == len(dates) == len(item["haystack_sessions"]):
            raise DatasetError(
                f"{path}: item {qid} has {len(item['haystack_sessions'])} haystack_sessions but "
                f"{len(ids)} haystack_session_ids and {len(dates)} haystack_dates; they must match."
            )
        sessions, marked, whole = [], [], []
        for sid, day, turns in zip(ids, dates, item["haystack_sessions"], strict=True):
            rows = []
            for t, turn in enumerate(turns):
                uuid = f"{qid}:{sid}:{t}"
                rows.append(Turn(uuid, turn["role"], turn["content"]))
                if turn.get("has_answer"):
                    marked.append(uuid)
                if sid in answer_sessions and turn["role"] == "user":
                    whole.append(uuid)
            sessions.append(Session(str(sid), day, rows))
        # Evidence: the turns LongMemEval marks has_answer; if none are marked, the user turns of
        # the answer sessions (session-level recall). Abstention questions have none by design.
        evidence = [] if ability == "abstention" else (marked or whole)
        answer = item.get("answer")
        question = Question(qid, ability, str(item["question"]), None if answer is None else str(answer), evidence)
        cases.append(Case(f"lme-{qid}", sessions, [question]))
    return cases
