"""A/B of ``store.write`` (bench/memory_server_bench.py's write row) between another checkout and this one, in one process.

    python bench/write_ab.py /path/to/main/checkout             # file stores, as the bench row measures
    python bench/write_ab.py /path/to/main/checkout --memory    # in-memory stores: no fsync, the checks' CPU

Each checkout's ``local_memory_server`` (code and data) is copied into a throwaway package, and with it the
checkout's ``offline_reader`` when it has one (the copy's imports renamed to that copy), so only the store and its
update decider differ; both get the same memories (1k and 10k, the bench's synthetic data) and the
bench's ``write_cost``, three rounds alternating which goes first (the first round also warms up).
Each store is given its update decider as ``build_service`` wires it (``deciders.py``'s ``make_decider``, or
``updates.py``'s in a checkout from before the one reader; the copy cannot reach the package's default
embedder). Prints medians per checkout and the ratio this/other.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import random
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _server_dir(checkout: Path) -> Path:
    """The checkout's memory server: ``local_memory_server/`` since the package split, ``lesson_utils/memory_server/`` before."""
    new = checkout / "local_memory_server"
    return new if new.is_dir() else checkout / "lesson_utils" / "memory_server"


def _package(checkout: Path, name: str, into: Path):
    reader = checkout / "offline_reader"
    copies = [(_server_dir(checkout), into / name)] + ([(reader, into / f"{name}_reader")] if reader.is_dir() else [])
    for source, target in copies:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
        (target / "__init__.py").write_text("", encoding="utf-8")
        for module in target.glob("*.py"):  # the copied server reads the copied reader, not the installed one
            text = module.read_text(encoding="utf-8")
            module.write_text(re.sub(r"\boffline_reader\b", f"{name}_reader", text), encoding="utf-8")
    return importlib.import_module(f"{name}.store")


def _deciders(name: str):
    """The module with the copy's ``make_decider``: ``deciders.py`` since the one reader, ``updates.py`` before."""
    try:
        return importlib.import_module(f"{name}.deciders")
    except ModuleNotFoundError:
        return importlib.import_module(f"{name}.updates")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a worktree of main)")
    parser.add_argument("--memory", action="store_true", help="in-memory stores (no fsync)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    sys.path.insert(0, str(tmp))
    spec = importlib.util.spec_from_file_location("memory_server_bench", ROOT / "bench" / "memory_server_bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    embedder = bench.default_embedder()
    other, this = _package(args.other, "store_other", tmp), _package(ROOT, "store_this", tmp)
    # each store gets its update decider as ``build_service`` wires it (a copy cannot reach the package's embedder)
    stores = {name: functools.partial(module.MemoryStore, decider=_deciders(f"store_{name}")
                                      .make_decider("meaning", embedder.embed, key=embedder.model))
              for name, module in (("other", other), ("this", this))}
    pool = embedder.embed([bench.synthetic_text(i, random.Random(11)) for i in range(400)])
    results: dict[str, list] = {name: [] for name in stores}
    for size in (1000, 10000):
        for rnd in range(3):
            for name in (list(stores) if rnd % 2 == 0 else list(stores)[::-1]):
                bench.MemoryStore = stores[name]
                path = None if args.memory else tmp / f"{name}-{size}-{rnd}.sqlite3"
                store = bench.build_store(size, pool, random.Random(size), path, embedder.dim, embedder.model)
                results[name].append((size, bench.write_cost(store, embedder)))
                store.close()
    print("| memories | store.write | other ms | this ms | this/other |\n|---:|---|---:|---:|---:|")
    for size in (1000, 10000):
        for label in results["other"][0][1]:
            a = statistics.median(c[label] for s, c in results["other"] if s == size)
            b = statistics.median(c[label] for s, c in results["this"] if s == size)
            print(f"| {size:,} | {label} | {a:.2f} | {b:.2f} | {b / a:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
