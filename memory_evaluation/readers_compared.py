"""The offline reader and a model, side by side on the test split's update pairs: what a model buys and costs.

Why a stored run: a small model on a laptop CPU reads a message in seconds, so the 290 messages of the test
split's pairs take about half an hour. The model's answers from one run are kept in ``data/`` (a
:class:`~memory_evaluation.replay.ReplayEndpoint` file), and the comparison is computed again from them,
with no model at hand: the guard-rails and the store are today's code, the answers are the model's. A request
the stored run does not hold (the code now asks something else) is not answered: that turn falls back to the
offline reader and is counted, so a stale run shows as fallbacks, never as the model's figure.

    python -m memory_evaluation.readers_compared            # print the stored comparison
    python -m memory_evaluation.readers_compared --write    # compute it again (about a minute) and store it

The figures of a fresh model run (``python -m memory_evaluation.pairs … --understanding model --replay FILE``)
come into the comparison by copying FILE over :data:`MODEL_RUN` and updating :data:`MODEL` (bench/README.md,
"Twenty-second round", has the run's command and machine).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from .stored_json import write_json

__all__ = ["MODEL", "MODEL_RUN", "STORED", "compare_readers", "model_read_every_turn", "model_was_more_accurate",
           "readers_table", "stored_comparison"]

DATA = Path(__file__).with_name("data")
TEST_PAIRS = DATA / "test_split.json"
#: The model's answers from its one run on the test split's pairs (request sha256 → answer and seconds).
MODEL_RUN = DATA / "model_run_test_pairs.json"
#: Which model gave them, as it was named in the requests, and the file it was served from.
MODEL = {"name": "qwen15", "file": "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (GGUF)",
         "sha256": "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
         "served": "llama.cpp llama-server -t 1 on a 2-core CPU, load average median 5.4 (2026-12-06)"}
STORED = DATA / "readers_compared.json"


def _row(report: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"updates": [report.updates_right, report.updates],
           "false_supersessions": [report.false_supersessions, report.keeps],
           "withdrawals": [report.withdrawals_honoured, report.withdrawals]}
    if report.model_calls:
        row |= {"model_calls_per_message": round(statistics.mean(report.model_calls), 2),
                "model_seconds_per_message": round(statistics.median(report.model_seconds), 1),
                "fallbacks": report.fallbacks, "messages": len(report.model_calls)}
    return row


def compare_readers(split: str | os.PathLike[str] = TEST_PAIRS, run: str | os.PathLike[str] = MODEL_RUN
                    ) -> dict[str, Any]:
    """Score ``split``'s pairs twice on fresh in-memory servers: read offline, and read by the stored model run."""
    from local_memory_server.server import build_service
    from local_memory_server.understanding import ModelReader
    from .pairs import evaluate_pairs
    from .replay import ReplayEndpoint

    split = Path(split)
    offline = evaluate_pairs(split, service=build_service(None, understanding="offline"))
    service = build_service(None, understanding="offline")
    service.reader = ModelReader(ReplayEndpoint.stored(run, MODEL["name"]))
    model = evaluate_pairs(split, service=service)
    return {"split": split.name, "model": MODEL, "offline": _row(offline), "model_run": _row(model)}


def stored_comparison() -> dict[str, Any]:
    """The comparison as last written by ``--write`` (what lessons 11 and 16 and the scorecard print)."""
    with open(STORED, encoding="utf-8") as handle:
        return json.load(handle)


def model_read_every_turn(comparison: dict[str, Any]) -> bool:
    """The model's column is its own: no turn fell back to the offline reader, each took a call and seconds."""
    model = comparison["model_run"]
    return model["fallbacks"] == 0 and model["model_calls_per_message"] >= 1 and model["model_seconds_per_message"] > 0


def model_was_more_accurate(comparison: dict[str, Any]) -> bool:
    """The model did at least as well as the offline reader in every column, and better in one."""
    offline, model = comparison["offline"], comparison["model_run"]
    gains = [model["updates"][0] - offline["updates"][0], offline["false_supersessions"][0] - model["false_supersessions"][0],
             model["withdrawals"][0] - offline["withdrawals"][0]]
    return min(gains) >= 0 and max(gains) > 0


def readers_table(comparison: dict[str, Any] | None = None) -> str:
    """The comparison as a small text table: one column per reader."""
    data = comparison or stored_comparison()
    offline, model = data["offline"], data["model_run"]

    def count(row: dict[str, Any], key: str) -> str:
        right, total = row[key]
        return f"{right}/{total}"

    lines = [f"{'test split, pair by pair':<38} {'offline reader':>15} {'model (stored run)':>19}"]
    for key, label in (("updates", "updates right (more is better)"),
                       ("false_supersessions", "false supersessions (fewer is better)"),
                       ("withdrawals", "withdrawals honoured (more is better)")):
        lines.append(f"{label:<38} {count(offline, key):>15} {count(model, key):>19}")
    lines.append(f"{'model calls per message':<38} {0:>15} {model['model_calls_per_message']:>19}")
    lines.append(f"{'model seconds per message (median)':<38} {0:>15} {model['model_seconds_per_message']:>19}")
    lines.append(f"{'turns the model could not read':<38} {'—':>15} {model['fallbacks']:>19}")
    lines.append(f"model: {data['model']['file']}, {data['model']['served']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The offline reader and a stored model run, side by side.")
    parser.add_argument("--write", action="store_true", help=f"compute the comparison again and store it in {STORED}")
    args = parser.parse_args(argv)
    if args.write:
        write_json(STORED, compare_readers(), indent=1)
    print(readers_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
