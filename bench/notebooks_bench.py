"""How long each lesson takes to execute offline, as nbmake runs it.

    python bench/notebooks_bench.py [--repeat 3] [notebooks/03_*.ipynb ...]

Each notebook is executed in a fresh kernel (start-up included, as a learner's
"Restart and run all" would) with the offline lesson model forced. Rounds are
interleaved — every notebook once, then again — so machine noise hits them alike.
Prints a Markdown table of median and slowest run per notebook, and the total.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def run_once(path: Path) -> float:
    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    started = time.perf_counter()
    client.execute()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebook in notebooks/")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per notebook (default 3)")
    args = parser.parse_args(argv)

    os.environ["LESSON_MODEL"] = "offline"
    paths = [p.resolve() for p in args.notebooks] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    timings: dict[Path, list[float]] = {p: [] for p in paths}
    for round_no in range(1, args.repeat + 1):
        for path in paths:
            seconds = run_once(path)
            timings[path].append(seconds)
            print(f"round {round_no}: {path.name} {seconds:.2f} s", file=sys.stderr, flush=True)

    print(f"\nOffline execution per notebook, fresh kernel each run, {args.repeat} interleaved rounds, "
          f"{os.cpu_count()} cores\n")
    print("| notebook | median (s) | slowest (s) |")
    print("|---|---:|---:|")
    for path, runs in timings.items():
        print(f"| {path.name} | {statistics.median(runs):.2f} | {max(runs):.2f} |")
    total = sum(statistics.median(runs) for runs in timings.values())
    print(f"| **whole series** | **{total:.2f}** | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
