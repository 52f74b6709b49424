"""Retrieval alone: does a search put a question's answer memory in the top 1 / top 5?

    python bench/retrieval_eval.py bench/data/paraphrase_dev.json                  # hybrid (the default)
    python bench/retrieval_eval.py bench/data/paraphrase_dev.json --mode vector    # one arm alone: text or vector
    python bench/retrieval_eval.py bench/data/paraphrase_dev.json --rerank         # rerank="cross_encoder"
    python bench/retrieval_eval.py FILE.json --misses                              # and each missed question's top 5

Why: the scorecard (``bench/memory_eval.py``) scores search behind distillation and the update decider, so a
ranking change is mixed with everything those do to a 590-memory history. This measures ranking only: each
user's memories are stored exactly as written (``MemoryService.create`` with ``infer=False``, what the
contract's ``POST /memories`` with ``"infer": false`` does: no distilling, no supersession, only the duplicate
check), in a fresh in-memory local server per user, and each question is searched once with ``top_k=5``
through ``MemoryService.search`` (the route's own code, without HTTP).

The set is JSON (``FILE.json``), any number of users, each with its own memories and questions; a question's
``answers`` are indexes into that user's ``memories``, and any one of them in the top k counts as found::

    {"users": [{"id": "u1",
                "memories": ["The user ...", "..."],
                "questions": [{"id": "q01", "question": "...", "answers": [0, 3]}]}]}

It prints one Markdown row: questions, recall@1, recall@5 (the share of questions with an answer memory
among the first 1 / 5 hits) and the median milliseconds per search (the query embedding included; the
query-vector cache is off, so a question asked twice is embedded twice).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODES = ("hybrid", "text", "vector")
TOP_K = 5


@dataclass
class Report:
    """What :func:`evaluate` found: per question whether it was found at 1 and at 5, and each search's time."""

    questions: int = 0
    found_at_1: int = 0
    found_at_5: int = 0
    millis: list[float] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)  # questions with no answer in the top 5

    @property
    def recall_at_1(self) -> float:
        return self.found_at_1 / self.questions if self.questions else 0.0

    @property
    def recall_at_5(self) -> float:
        return self.found_at_5 / self.questions if self.questions else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.millis) if self.millis else 0.0


def load_set(path: str | Path) -> dict[str, Any]:
    """Read and check a set: every user has memories, every answer is an index into them."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    users = data.get("users") if isinstance(data, dict) else None
    if not isinstance(users, list) or not users:
        raise ValueError(f"{path}: expected {{\"users\": [...]}} with at least one user")
    for user in users:
        memories, questions = user.get("memories"), user.get("questions")
        if not isinstance(memories, list) or not memories or not all(isinstance(m, str) and m for m in memories):
            raise ValueError(f"{path}: user {user.get('id')!r} needs a non-empty list of memory strings")
        for question in questions or []:
            answers = question.get("answers")
            if not answers or not all(isinstance(a, int) and 0 <= a < len(memories) for a in answers):
                raise ValueError(f"{path}: question {question.get('id')!r} of user {user.get('id')!r} needs answers "
                                 f"that are indexes into its {len(memories)} memories")
    return data


def evaluate(data: dict[str, Any], *, mode: str = "hybrid", rerank: bool = False, embedder: Any = None) -> Report:
    """Store each user's memories in a fresh in-memory local server and search each of its questions."""
    from local_memory_server import search as search_mod
    from local_memory_server.embeddings import default_embedder
    from local_memory_server.request_models import CreateMemoryRequest, SearchMemoriesRequest
    from local_memory_server.server import build_service

    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    embedder = embedder if embedder is not None else default_embedder()
    cache_size, search_mod.QUERY_VECTORS.size = search_mod.QUERY_VECTORS.size, 0
    report = Report()
    try:
        for user in data["users"]:
            user_id = str(user.get("id") or "user")
            service = build_service(None, embedder=embedder)
            try:
                ids = []
                for text in user["memories"]:
                    created = service.create(user_id, CreateMemoryRequest.model_validate(
                        {"user_id": user_id, "text": text, "infer": False}))
                    ids.append(created.get("id"))  # a near duplicate gets the id of the memory it matched
                for question in user.get("questions") or []:
                    request = SearchMemoriesRequest.model_validate({
                        "user_id": user_id, "query": question["question"], "top_k": TOP_K, "mode": mode,
                        "rerank": "cross_encoder" if rerank else None})
                    started = time.perf_counter()
                    results = service.search(user_id, request)["results"]
                    report.millis.append((time.perf_counter() - started) * 1000)
                    found = [r["id"] for r in results]
                    answers = {ids[a] for a in question["answers"]}
                    report.questions += 1
                    report.found_at_1 += bool(answers & set(found[:1]))
                    report.found_at_5 += bool(answers & set(found[:TOP_K]))
                    if not answers & set(found[:TOP_K]):
                        report.misses.append({"user": user_id, "id": question.get("id"), "question": question["question"],
                                              "answers": [user["memories"][a] for a in question["answers"]],
                                              "top": [r["content"] for r in results]})
            finally:
                service.store.close()
    finally:
        search_mod.QUERY_VECTORS.size = cache_size
    return report


def table(name: str, mode: str, rerank: bool, report: Report) -> str:
    """The Markdown table: a header and one row."""
    n = report.questions
    row = (f"| {name} | {mode}{' + rerank' if rerank else ''} | {n} | {report.found_at_1}/{n} ({report.recall_at_1:.0%}) | "
           f"{report.found_at_5}/{n} ({report.recall_at_5:.0%}) | {report.median_ms:.2f} |")
    return "\n".join(["| set | mode | questions | recall@1 | recall@5 | median ms per search |",
                      "|---|---|---:|---:|---:|---:|", row])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", metavar="FILE.json", help="the set: users with memories and questions")
    parser.add_argument("--mode", choices=MODES, default="hybrid", help="search mode (default hybrid)")
    parser.add_argument("--rerank", action="store_true", help='search with rerank="cross_encoder"')
    parser.add_argument("--misses", action="store_true", help="also print each missed question and its top 5")
    args = parser.parse_args(argv)
    try:
        data = load_set(args.file)
    except (OSError, ValueError) as error:
        print(f"retrieval_eval: {error}", file=sys.stderr)
        return 2
    report = evaluate(data, mode=args.mode, rerank=args.rerank)
    print(table(Path(args.file).name, args.mode, args.rerank, report))
    if args.misses:
        for miss in report.misses:
            print(f"\nmissed {miss['user']}/{miss['id']}: {miss['question']}\n  answer: {' | '.join(miss['answers'])}")
            for rank, content in enumerate(miss["top"], start=1):
                print(f"  {rank}. {content}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
