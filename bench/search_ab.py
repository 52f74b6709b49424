"""A/B of two checkouts' ``search.search`` on one store in one process, so a shared machine's load hits both alike.

    python bench/search_ab.py /path/to/other/checkout                  # 100k memories, 200 queries
    python bench/search_ab.py ../main --size 10000 --queries 100

The other checkout's ``lesson_utils`` is copied into a throwaway package (``lu_other``) and its
``memory_server.search`` imported from there; *this* checkout builds the store (the same synthetic
memories and precomputed real-model vectors as ``memory_server_bench.py``), and both searches run
against it, every query in both modes, alternating which goes first. The query-vector cache is off
in both, so every timed search embeds its query. Prints median and p95 per side and the p95 ratio
(B = this checkout, A = the other). Use it for a change to ranking itself (``search.py``,
``relevance.py``); ``store_ab.py`` compares two stores under one search.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_memory_server import search as search_b
from local_memory_server.embeddings import default_embedder

# The store, its synthetic memories and the queries are memory_server_bench.py's own.
_spec = importlib.util.spec_from_file_location("memory_server_bench", ROOT / "bench" / "memory_server_bench.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, help="the other checkout (A), e.g. a worktree of main")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    server = next((d for d in (args.other / "local_memory_server", args.other / "lesson_utils" / "memory_server")
                   if (d / "search.py").exists()), None)  # the layout since the package split, or before it
    if server is None:
        print(f"error: {args.other} has no local_memory_server/search.py; give a checkout of this repository.")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        before_split = server.parent.name == "lesson_utils"  # then its relative imports reach lesson_utils
        shutil.copytree(server.parent if before_split else server, Path(tmp) / "lu_other",
                        ignore=shutil.ignore_patterns("__pycache__"))
        sys.path.insert(0, tmp)
        search_a = importlib.import_module("lu_other.memory_server.search" if before_split else "lu_other.search")
        search_a.QUERY_VECTORS.size = search_b.QUERY_VECTORS.size = 0
        embedder = default_embedder()
        pool = embedder.embed([bench.synthetic_text(i, random.Random(3)) for i in range(400)])
        store = bench.build_store(args.size, pool, random.Random(args.size), Path(tmp) / "ab.sqlite3",
                                  embedder.dim, embedder.model)
        store.vector_search("bench", embedder.embed(["warm up"])[0], 10)  # trains the IVF index at scale
        qrng = random.Random(5)
        queries = [qrng.choice(bench.QUESTIONS).format(n=qrng.choice(bench.NAMES), t=qrng.choice(bench.THINGS),
                                                       w=qrng.choice(bench.WHEN)) for _ in range(args.queries)]
        timings: dict[tuple[str, str], list[float]] = {(side, mode): [] for side in "AB" for mode in ("hybrid", "vector")}
        for i, query in enumerate(queries[:10] + queries):  # the first 10 warm up
            sides = [("A", search_a), ("B", search_b)] if i % 2 else [("B", search_b), ("A", search_a)]
            for mode in ("hybrid", "vector"):
                for side, module in sides:
                    start = time.perf_counter()
                    module.search(store, embedder, "bench", query, top_k=10, mode=mode)
                    if i >= 10:
                        timings[(side, mode)].append((time.perf_counter() - start) * 1000)
        store.close()
    print(f"A = {args.other}, B = {ROOT}; {args.size:,} memories, {args.queries} queries, top 10")
    print("| mode | A median ms | A p95 ms | B median ms | B p95 ms | p95 B/A |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode in ("hybrid", "vector"):
        a, b = timings[("A", mode)], timings[("B", mode)]
        pa, pb = bench.percentile(a, 95), bench.percentile(b, 95)
        print(f"| {mode} | {statistics.median(a):.1f} | {pa:.1f} | {statistics.median(b):.1f} | {pb:.1f} | {pb / pa:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
