"""A/B of two checkouts' memory stores in one process, so a shared machine's load hits both alike.

    python bench/store_ab.py /path/to/other/checkout            # 10k memories, 120 queries
    python bench/store_ab.py ../before --size 20000 --queries 200   # git worktree add ../before <rev>

Each checkout's ``local_memory_server/*.py`` is copied into its own throwaway package
(``store_a``, ``store_b``; the package ``__init__`` is left out, so nothing but storage loads),
both stores get the same memories, and every query runs in every mode against both, alternating
which goes first. Search goes through *this* checkout's ``search.search`` and embedder for both,
so only the store differs. Prints medians per store and the ratio B/A (B = this checkout).
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
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_memory_server import search as search_mod
from local_memory_server.embeddings import default_embedder


def _server_dir(checkout: Path) -> Path:
    """The checkout's memory server: ``local_memory_server/`` since the package split, ``lesson_utils/memory_server/`` before."""
    new = checkout / "local_memory_server"
    return new if new.is_dir() else checkout / "lesson_utils" / "memory_server"


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The memory server bench's synthetic texts and questions, so both benches measure the same data.
_bench = _load(ROOT / "bench" / "memory_server_bench.py", "memory_server_bench")
NAMES, QUESTIONS, THINGS, WHEN, synthetic_text = (
    _bench.NAMES, _bench.QUESTIONS, _bench.THINGS, _bench.WHEN, _bench.synthetic_text)


def load_store(checkout: Path, name: str, into: Path) -> ModuleType:
    package = into / name
    package.mkdir()
    for source in (_server_dir(checkout)).glob("*.py"):
        if source.name != "__init__.py":
            shutil.copy(source, package / source.name)
    (package / "__init__.py").write_text("", encoding="utf-8")
    return importlib.import_module(f"{name}.store")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("other", type=Path, help="the checkout to compare with (A); this one is B")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=120)
    args = parser.parse_args()
    search_mod.QUERY_VECTORS.size = 0
    embedder = default_embedder()
    rng = random.Random(11)
    pool = embedder.embed([synthetic_text(i, rng) for i in range(200)])
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        modules = {"A": load_store(args.other.resolve(), "store_a", Path(tmp)),
                   "B": load_store(ROOT, "store_b", Path(tmp))}
        stores: dict[str, Any] = {}
        add_rate: dict[str, float] = {}
        for label, mod in modules.items():
            store = mod.MemoryStore(Path(tmp) / f"{label}.sqlite3", embedding_model=embedder.model, dim=embedder.dim)
            nprng, trng = np.random.default_rng(7), random.Random(args.size)
            start = time.perf_counter()
            for first in range(0, args.size, 5000):
                n = min(5000, args.size - first)
                texts = [synthetic_text(first + i, trng) for i in range(n)]
                base = pool[nprng.integers(0, len(pool), n)]
                vectors = base + nprng.normal(0, 0.02, base.shape).astype(np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                store.add_unchecked(
                    [mod.NewMemory(user_id="bench", content=t, memory_type="semantic") for t in texts], vectors)
            add_rate[label] = args.size / (time.perf_counter() - start)
            stores[label] = store
        qrng = random.Random(5)
        queries = [qrng.choice(QUESTIONS).format(n=qrng.choice(NAMES), t=qrng.choice(THINGS), w=qrng.choice(WHEN))
                   for _ in range(args.queries)]
        timings: dict[str, dict[str, list[float]]] = {label: {m: [] for m in search_mod.MODES} for label in stores}
        writes: dict[str, list[float]] = {label: [] for label in stores}
        for i, query in enumerate(queries[:10] + queries):  # the first 10 warm up
            order = ("A", "B") if i % 2 == 0 else ("B", "A")
            for mode in search_mod.MODES:
                for label in order:
                    start = time.perf_counter()
                    search_mod.search(stores[label], embedder, "bench", query, top_k=10, mode=mode)
                    if i >= 10:
                        timings[label][mode].append((time.perf_counter() - start) * 1000)
            vector = pool[i % len(pool)]
            for label in order:  # a fact that supersedes the previous one: the heaviest write
                memory = modules[label].NewMemory(user_id="bench", content=f"The user lives in city number {i}",
                                                  memory_type="semantic")
                start = time.perf_counter()
                stores[label].write(memory, vector)
                writes[label].append((time.perf_counter() - start) * 1000)
        for store in stores.values():
            store.close()
    print(f"A = {args.other}, B = {ROOT}; {args.size:,} memories, {args.queries} queries, medians")
    print("| | A | B | B/A |\n|---|---:|---:|---:|")
    for mode in search_mod.MODES:
        a, b = (statistics.median(timings[label][mode]) for label in ("A", "B"))
        print(f"| search {mode} (ms) | {a:.2f} | {b:.2f} | {b / a:.2f} |")
    a, b = (statistics.median(writes[label]) for label in ("A", "B"))
    print(f"| store.write, superseding (ms) | {a:.2f} | {b:.2f} | {b / a:.2f} |")
    print(f"| add_unchecked (memories/s) | {add_rate['A']:.0f} | {add_rate['B']:.0f} | "
          f"{add_rate['B'] / add_rate['A']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
