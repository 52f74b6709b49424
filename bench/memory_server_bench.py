"""Benchmark of the local memory server: search latency by mode and store size, write
throughput (with the knowledge-update checks on and off), and recall@5 on the evaluation set.

    python bench/memory_server_bench.py                 # 1k, 10k, 100k memories (a few minutes)
    python bench/memory_server_bench.py --quick         # 1k and 10k, fewer queries
    python bench/memory_server_bench.py --sizes 1000 --queries 50 --skip-throughput

How the scale points are built (say it plainly, since it matters for reading the numbers):
embedding 100k texts with the real model would take many minutes on 2 cores, so the synthetic
memories are inserted straight through the store with *precomputed* vectors — real
all-MiniLM-L6-v2 embeddings of a pool of distinct synthetic sentences, each reused with a little
noise. Every text is unique, so BM25 works on real postings. Queries are embedded with the real
model at search time, and that time is included in every hybrid/vector figure. All memories
belong to one user (the worst case: every search scans all of them). The server's query-vector
cache is switched off for the whole run, so every timed search embeds its query afresh. Targets: hybrid p95 under
25 ms at 100k, recall@5 of at least 0.9.

Writes check each new fact against the user's current ones (duplicates, and contradictions that
supersede an older fact — the update decider, ``offline_reader/changes.py``). The write rows measure that path two ways: over HTTP
with the real embedding (what a client sees), and inside the store at each scale point with
precomputed vectors (what the checks themselves cost as the store grows), each with the checks on
(``infer`` true, the default) and off (``infer: false``). The "moves" rows write a fact that
supersedes the previous one every time ("The user lives in <city>"), the heaviest case.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_memory_server import search as search_mod
from local_memory_server.embeddings import default_embedder
from local_memory_server.server import MemoryServer, bind_socket
from local_memory_server.service import MemoryService
from local_memory_server.store import IVF_MIN_VECTORS, MemoryStore, NewMemory
from offline_reader.changes import masked

EVAL = ROOT / "tests" / "memory_server" / "data" / "recall_eval.json"
NAMES = "Alex Sam Priya Jonas Mei Tomas Ines Kofi Lena Omar Yuki Clara Ravi Noor Elena Felix".split()
VERBS = ("likes", "ships", "visits", "cooks", "reads about", "plays", "studies", "fixes", "drives to", "writes about",
         "dislikes", "collects", "paints", "teaches", "orders", "builds")
THINGS = ("green tea", "the billing service", "Lisbon", "ramen", "astronomy", "the cello", "Rust", "old bikes",
          "the office", "chess openings", "spicy food", "vinyl records", "watercolours", "kids' coding classes",
          "sourdough", "garden sheds", "the mobile app", "jazz", "mountain huts", "board games")
WHEN = ("on Fridays", "every morning", "in the summer", "after work", "at weekends", "twice a month",
        "before lunch", "on holiday", "when it rains", "late at night")
QUESTIONS = ("When does {n} usually deal with {t}?", "What does {n} think of {t}?", "Who cares about {t}?",
             "What does {n} do {w}?", "Tell me about {t}", "{n} {t}")


def synthetic_text(i: int, rng: random.Random) -> str:
    return (f"{rng.choice(NAMES)} {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(WHEN)} "
            f"(note {i})")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def build_store(size: int, pool_vectors: np.ndarray, rng: random.Random, path: Path, dim: int, model: str):
    store = MemoryStore(path, embedding_model=model, dim=dim)
    nprng = np.random.default_rng(7)
    batch = 5000
    for start in range(0, size, batch):
        n = min(batch, size - start)
        texts = [synthetic_text(start + i, rng) for i in range(n)]
        base = pool_vectors[nprng.integers(0, len(pool_vectors), n)]
        vectors = base + nprng.normal(0, 0.02, base.shape).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.add_unchecked(
            [NewMemory(user_id="bench", content=t, memory_type="semantic", gist=t) for t in texts], vectors)
    return store


def time_modes(store, embedder, queries, with_http: bool) -> dict[str, list[float]]:
    """Latency per mode, measured side by side: each query runs in every mode in turn, so load
    from other processes on this shared machine hits all modes alike."""
    server = None
    http = None
    if with_http:
        server = MemoryServer(MemoryService(store, embedder), bind_socket("127.0.0.1", 0))
        server._start(60)
        http = httpx.Client(base_url=server.url, timeout=30)
    timings: dict[str, list[float]] = {mode: [] for mode in search_mod.MODES}
    if with_http:
        timings["hybrid over HTTP"] = []
    timings["(query embedding alone)"] = []
    try:
        for i, q in enumerate(queries[:10] + queries):  # the first 10 warm up (and train the IVF index)
            for mode in timings:
                start = time.perf_counter()
                if mode == "(query embedding alone)":
                    embedder.embed([q])
                elif mode == "hybrid over HTTP":
                    http.post("/api/v1/memories/search",
                              json={"user_id": "bench", "query": q, "top_k": 10}).raise_for_status()
                else:
                    search_mod.search(store, embedder, "bench", q, top_k=10, mode=mode)
                if i >= 10:
                    timings[mode].append((time.perf_counter() - start) * 1000)
    finally:
        if http is not None:
            http.close()
        if server is not None:
            server.stop()  # also closes the store
    return timings


def ann_agreement(store, embedder, queries) -> float:
    """Mean overlap of the indexed vector top 10 with the exact (brute-force) top 10."""
    overlaps = []
    for q in queries[:50]:
        vec = embedder.embed([q])[0]
        approx = {s for s, _ in store.vectors.search("bench", vec, 10)}
        exact = {s for s, _ in store.vectors.exact_search("bench", vec, 10)}
        overlaps.append(len(approx & exact) / 10)
    return sum(overlaps) / len(overlaps)


CITIES = ("Lyon", "Porto", "Tallinn", "Quito", "Gdansk", "Valencia", "Leipzig", "Bergen", "Kyoto", "Tucson",
          "Oslo", "Lisbon", "Turin", "Cork", "Graz", "Malmo")


def write_cost(store, embedder, n: int = 60) -> dict[str, float]:
    """Median ms per ``store.write`` at the store's current size (vectors precomputed, no HTTP).

    ``new facts``: unique synthetic facts (the checks find nothing to do); ``moves``: each fact
    supersedes the previous one. Each with the update checks on and off; every text is unique,
    so no write is skipped as a duplicate."""
    rng = random.Random(17)
    runs = {}
    for k, (label, checks) in enumerate([(lb, ch) for lb in ("new facts", "moves") for ch in (True, False)]):
        base = 10_000_000 + k * n
        if label == "new facts":
            texts = [synthetic_text(base + i, rng) for i in range(n)]
        else:
            texts = [f"The user lives in {CITIES[i % len(CITIES)]}, district {base + i}" for i in range(n)]
        runs[(label, checks)] = texts
    everything = [t for texts in runs.values() for t in texts]
    vectors = dict(zip(everything, embedder.embed(everything), strict=True))
    # checkouts before the decider embedded twins itself took the twin's vector from the service (a/b only)
    twins = "frame" in inspect.signature(store.write).parameters
    frames = dict(zip(everything, embedder.embed([masked(t) for t in everything]), strict=True)) if twins else {}
    out = {}
    for (label, checks), texts in runs.items():
        times = []
        for text in texts:
            memory = NewMemory(user_id="bench", content=text, memory_type="semantic")
            extra = {"frame": frames[text]} if twins and checks else {}
            start = time.perf_counter()
            written = store.write(memory, vectors[text], check_updates=checks, **extra)
            times.append((time.perf_counter() - start) * 1000)
            assert written.event != "SKIP_DUPLICATE", text
        out[f"{label}, checks {'on' if checks else 'off'}"] = statistics.median(times)
    return out


def throughput(embedder, n_add: int, n_conv: int, tmp: Path) -> list[tuple[str, str]]:
    store = MemoryStore(tmp / "throughput.sqlite3", embedding_model=embedder.model, dim=embedder.dim)
    server = MemoryServer(MemoryService(store, embedder), bind_socket("127.0.0.1", 0))
    server._start(60)
    rng = random.Random(3)
    rows = []
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            start = time.perf_counter()
            for i in range(n_add):
                http.post("/api/v1/memories", json={"user_id": "tp", "text": synthetic_text(i, rng)}).raise_for_status()
            elapsed = time.perf_counter() - start
            rows.append(("add (HTTP, real embedding, fsync per write; update checks on)",
                         f"{n_add / elapsed:.0f} memories/s"))
            start = time.perf_counter()
            for i in range(n_add):
                http.post("/api/v1/memories", json={"user_id": "tp-off", "text": synthetic_text(i, rng),
                                                    "infer": False}).raise_for_status()
            elapsed = time.perf_counter() - start
            rows.append(("add, infer: false (update checks off)", f"{n_add / elapsed:.0f} memories/s"))
            events = []
            start = time.perf_counter()
            for i in range(n_add):
                reply = http.post("/api/v1/memories", json={"user_id": "tp-moves",
                                                            "text": f"I live in {CITIES[i % len(CITIES)]}"})
                events.append(reply.json()["event"])
            elapsed = time.perf_counter() - start
            superseded = events.count("SUPERSEDE")
            assert superseded == n_add - 1, f"expected every move after the first to supersede, got {superseded}"
            rows.append(("add, each one supersedes the previous (moves)",
                         f"{n_add / elapsed:.0f} memories/s ({superseded} SUPERSEDE)"))
            facts = 0
            start = time.perf_counter()
            for i in range(n_conv):
                name, thing, when = rng.choice(NAMES), rng.choice(THINGS), rng.choice(WHEN)
                messages = [
                    {"role": "user", "content": f"Hi, I'm {name}. I usually work on {thing} {when}, "
                                                f"and my favourite number is {i}. What do you think?"},
                    {"role": "assistant", "content": "That sounds great! I will remember it."},
                ]
                body = http.post("/api/v1/memories/from-conversation",
                                 json={"user_id": f"conv-{i % 7}", "messages": messages}).json()
                facts += len(body.get("results") or [])
            elapsed = time.perf_counter() - start
            rows.append(("from-conversation (HTTP, 2 turns)",
                         f"{n_conv / elapsed:.0f} conversations/s ({facts / elapsed:.0f} facts/s)"))
    finally:
        server.stop()
    return rows


def recall(embedder) -> list[tuple[str, float]]:
    data = json.loads(EVAL.read_text(encoding="utf-8"))
    store = MemoryStore(None, embedding_model=embedder.model, dim=embedder.dim)
    facts = [item["fact"] for item in data["items"]]
    records = store.add_unchecked(
        [NewMemory(user_id="eval", content=f, memory_type="semantic") for f in facts], embedder.embed(facts))
    ids = {r.seq: r.content for r in records}
    out = []
    for mode in search_mod.MODES:
        hits = 0
        for item in data["items"]:
            found = search_mod.search(store, embedder, "eval", item["question"], top_k=5, mode=mode)
            hits += item["fact"] in [ids.get(h.record.seq) for h in found]
        out.append((mode, hits / len(data["items"])))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated store sizes")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per mode and size")
    parser.add_argument("--pool", type=int, default=400, help="distinct sentences embedded for the vector pool")
    parser.add_argument("--adds", type=int, default=200, help="memories added for the throughput row")
    parser.add_argument("--conversations", type=int, default=100, help="conversations for the throughput row")
    parser.add_argument("--quick", action="store_true", help="1k and 10k only, 60 queries, smaller throughput runs")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-recall", action="store_true")
    parser.add_argument("--skip-http", action="store_true", help="do not time hybrid search over HTTP")
    args = parser.parse_args()
    search_mod.QUERY_VECTORS.size = 0  # no cache hits: each mode below re-runs the same query
    if args.quick:
        args.sizes, args.queries, args.adds, args.conversations = "1000,10000", 60, 60, 30
    sizes = [int(s) for s in args.sizes.split(",") if s]

    t0 = time.perf_counter()
    embedder = default_embedder()
    load_s = time.perf_counter() - t0
    rng = random.Random(11)
    pool_texts = [synthetic_text(i, rng) for i in range(args.pool)]
    t0 = time.perf_counter()
    pool = embedder.embed(pool_texts)
    pool_s = time.perf_counter() - t0
    qrng = random.Random(5)
    queries = [qrng.choice(QUESTIONS).format(n=qrng.choice(NAMES), t=qrng.choice(THINGS), w=qrng.choice(WHEN))
               for _ in range(args.queries)]

    print("# Local memory server benchmark")
    try:
        import os

        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    except (AttributeError, OSError):
        pass
    print(f"model load {load_s * 1000:.0f} ms; pool of {args.pool} sentences embedded in {pool_s:.1f} s "
          f"({args.pool / pool_s:.0f} texts/s, batches of 32)")
    print("Scale points: synthetic unique texts, inserted through the store with precomputed real-model vectors "
          "(pool + noise); one user; queries embedded with the real model at search time (included).\n")
    print("| memories | mode | median ms | p95 ms | build s |")
    print("|---:|---|---:|---:|---:|")
    ann_notes: list[str] = []
    write_rows: list[tuple[int, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            t0 = time.perf_counter()
            store = build_store(size, pool, random.Random(size), Path(tmp) / f"bench-{size}.sqlite3",
                                embedder.dim, embedder.model)
            build_s = time.perf_counter() - t0
            if size >= IVF_MIN_VECTORS:
                store.vector_search("bench", embedder.embed(["warm up"])[0], 10)  # trains the IVF index
                ann_notes.append(f"{size:,}: IVF vector index agrees with the exact top 10 on "
                                 f"{ann_agreement(store, embedder, queries):.0%} of hits")
            if not args.skip_throughput:
                write_rows.append((size, write_cost(store, embedder)))
            for mode, lat in time_modes(store, embedder, queries, not args.skip_http).items():
                print(f"| {size:,} | {mode} | {statistics.median(lat):.1f} | {percentile(lat, 95):.1f} | "
                      f"{build_s:.1f} |", flush=True)
            store.close()
        for note in ann_notes:
            print(f"\n{note} (exact scan below {IVF_MIN_VECTORS:,} memories per user)")
        if write_rows:
            print("\n| memories | store.write (no HTTP, vectors precomputed) | median ms |")
            print("|---:|---|---:|")
            for size, costs in write_rows:
                for label, ms in costs.items():
                    print(f"| {size:,} | {label} | {ms:.2f} |")
        if not args.skip_throughput:
            print("\n| write path | throughput |")
            print("|---|---:|")
            for name, value in throughput(embedder, args.adds, args.conversations, Path(tmp)):
                print(f"| {name} | {value} |", flush=True)
    if not args.skip_recall:
        print("\n| recall@5 on tests/memory_server/data/recall_eval.json | value |")
        print("|---|---:|")
        for mode, value in recall(embedder):
            print(f"| {mode} | {value:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
