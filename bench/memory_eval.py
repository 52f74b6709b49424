"""The memory scorecard: recall, knowledge updates, abstention, tokens and latency per ability and mode.

    python bench/memory_eval.py                          # the dev split, all users (tune on this one)
    python bench/memory_eval.py --split test             # the test split (report this one; tune nothing on it)
    python bench/memory_eval.py --split test --users 3   # the CI slice
    python bench/memory_eval.py --split dev --seed 7     # fresh users drawn from the same items
    python bench/memory_eval.py --haystack memory_evaluation/data/dev_haystack2.json  # another author's filler
    python bench/memory_eval.py --longmemeval longmemeval_s.json --limit 50
    python bench/memory_eval.py --url https://app.cortadel.ai --api-key $CORTADEL_API_KEY
    python bench/memory_eval.py --designs                # memory designs on the test split (lesson 16)
    python bench/memory_eval.py --modes hybrid hybrid+rewrite   # what query rewriting buys (lesson 16)

A split (``memory_evaluation/data/{dev,test}_split.json``) is assembled into users with 44
dated sessions and ~590 stored memories each (``memory_evaluation/haystack.py``). Sessions
are ingested with ``add_conversation`` into a fresh local memory server (or the server at
``--url``), then every question is one ``before_run`` of the Cortadel provider in each mode:
``text``, ``vector``, ``hybrid``, ``hybrid+gate`` (skip phatic turns), ``hybrid+floor`` (drop hits
only one arm found), ``hybrid+gating`` (both), ``hybrid+relevance`` (the calibrated floor,
``min_relevance=RELEVANCE_FLOOR``) and ``hybrid+rewrite`` (the query built from the
recent turns: a follow-up is searched with the question it follows). See ``memory_evaluation/scorecard.py`` for
the definitions. ``--check-floors`` exits 1 when a metric is under the floors written next to
the data (``memory_evaluation/data/floors.json``, set on the test split's CI slice).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_evaluation import (
    ALL_MODES,
    DatasetError,
    check_floors,
    load_floors,
    load_longmemeval,
    load_split,
    run_scorecard,
)
from memory_evaluation.haystack import SEED, assemble
from memory_evaluation.splits import with_haystack


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("dev", "test"), default="dev", help="which split to score (default dev)")
    parser.add_argument("--users", type=int, default=None, help="score only the first N users (a slice)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"draw the users with this seed (default {SEED})")
    parser.add_argument("--haystack", metavar="PATH", help="the split's items among this file's filler instead "
                        "(e.g. memory_evaluation/data/dev_haystack2.json, a second dev author's)")
    parser.add_argument("--longmemeval", metavar="PATH", help="a LongMemEval JSON file (longmemeval_s.json, ...)")
    parser.add_argument("--limit", type=int, default=None, help="with --longmemeval: the first N questions")
    parser.add_argument("--modes", nargs="+", default=list(ALL_MODES), choices=list(ALL_MODES))
    parser.add_argument("--url", help="a Cortadel server to score instead of a fresh local one")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--settle", type=float, default=None,
                        help="seconds to wait between ingesting and asking (default 0 locally, 5 with --url)")
    parser.add_argument("--check-floors", action="store_true", help="exit 1 if a metric is under its floor")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    parser.add_argument("--designs", action="store_true", help="run memory designs instead (lesson 16): the test "
                        "split, default --users 2 --per-ability 1 --sessions 6 (minutes on 2 cores)")
    parser.add_argument("--sessions", type=int, default=6, help="with --designs: cut each history to N sessions (0: all)")
    parser.add_argument("--per-ability", type=int, default=1, help="with --designs: each user's first N questions per ability (0: all)")
    args = parser.parse_args()
    if args.designs:
        return run_designs_bench(args.users or 2, args.sessions or None, args.per_ability or None)

    try:
        if args.longmemeval:
            cases = load_longmemeval(args.longmemeval, limit=args.limit)
            source = f"LongMemEval file {args.longmemeval}"
        else:
            split = load_split(args.split)
            split = with_haystack(split, args.haystack) if args.haystack else split
            cases = assemble(split, seed=args.seed)[: args.users]
            source = f"{args.split} split, seed {args.seed}" + (f" (first {args.users} users)" if args.users else "")
            source += f", haystack {Path(args.haystack).name}" if args.haystack else ""
    except DatasetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    questions = sum(len(c.questions) for c in cases)
    print(f"{source}: {len(cases)} users, {questions} questions, modes {', '.join(args.modes)}")
    settle = args.settle if args.settle is not None else (5.0 if args.url else 0.0)
    started = time.perf_counter()
    card = asyncio.run(run_scorecard(cases, url=args.url, api_key=args.api_key, modes=args.modes,
                                     settle_seconds=settle, progress=True))
    print(f"scored in {time.perf_counter() - started:.0f}s (ingest {card.meta['ingest_seconds']:.0f}s)\n")
    print(card.table())
    if args.split == "test" and not args.longmemeval and not args.haystack:
        from memory_evaluation.readers_compared import readers_table

        print("\nWho reads the conversations (the test split's update pairs; the model from its stored run,\n"
              "python -m memory_evaluation.readers_compared --write computes it again):")
        print(readers_table())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"rows": card.rows(), "modes": card.mode_summary(), "items": card.items(),
                       "baseline_tokens": card.baseline_tokens}, handle, indent=1)
    if args.check_floors:
        problems = check_floors(card, load_floors())
        for line in problems:
            print(f"FLOOR: {line}")
        print("floors: " + ("all hold" if not problems else f"{len(problems)} below"))
        return 1 if problems else 0
    return 0


def run_designs_bench(users: int, sessions: int | None, per_ability: int | None) -> int:
    """Every design through the test split's first ``users`` users on the offline lesson model; one table."""
    import tempfile
    import time
    import warnings

    from memory_evaluation.designs import cortadel_designs, design_cases, design_table, framework_designs, run_designs
    from local_memory_server import start_memory_server
    from chat_models import OfflineChatClient

    warnings.filterwarnings("ignore", category=FutureWarning)  # the framework's experimental-API notices
    cases = design_cases("test", users=users, sessions=sessions, per_ability=per_ability)
    turns = sum(1 for case in cases for session in case.sessions for turn in session.turns if turn.role == "user")
    print(f"test split, first {users} users, {per_ability or 'all'} questions per ability, {sessions or 'all'} sessions "
          f"(at least those holding the evidence): {turns} user turns, "
          f"{sum(len(c.questions) for c in cases)} questions; offline lesson model (tools only: its rule-based policy)")

    async def run() -> list:
        with start_memory_server() as server, tempfile.TemporaryDirectory() as folder:
            designs = [*framework_designs(), *cortadel_designs(server.url)]
            return await run_designs(cases, designs, client_factory=OfflineChatClient, folder=folder)

    started = time.perf_counter()
    rows = asyncio.run(run())
    print(design_table(rows))
    print(f"ran in {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
