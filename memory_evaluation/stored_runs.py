"""Lessons 11 and 16's measurements, stored: the lessons run a slice live in seconds and show these.

Lesson 11 scores two users of each split in the scorecard's four modes and draws the abstention curve on the
test users; lesson 16 replays one test user through six memory designs. Each takes a minute or more on two cores,
so a lesson runs a small slice of the same harness live (the mechanism) and shows the full figures from
``data/`` (the measurement). A test in the full tier computes them again and asserts they equal the stored files,
so a stored figure is what today's code measures.

    python -m memory_evaluation.stored_runs                        # print the stored figures
    python -m memory_evaluation.stored_runs --write scorecards     # measure lesson 11's again and store them
    python -m memory_evaluation.stored_runs --write designs        # the same for lesson 16's

What is stored is what is the same on every run: no milliseconds or ingest seconds (they measure the machine).
The scorecard reads with the local server's offline reader and never calls a chat model, so its figures are the
same whatever model a lesson uses. The designs replay every turn through a model: the stored run is the offline
lesson model's, and on any other model a lesson says so and offers ``MEASURE_ALL = True`` to measure it there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from lesson_utils.cortadel.gating import RELEVANCE_FLOOR
from .abstention import CurvePoint, abstention_curve, curve_table
from .designs import (
    DesignRow,
    cortadel_designs,
    design_cases,
    design_summary,
    design_table,
    framework_designs,
    run_designs,
)
from .haystack import load_cases
from .scorecard import Scorecard, ScorecardFigures, run_scorecard, side_by_side
from .stored_json import write_json

__all__ = ["CURVE_FLOORS", "DESIGNS", "DESIGN_SLICE", "SCORECARDS", "SCORECARD_USERS", "measure_designs",
           "measure_scorecards", "score_splits", "shown_figures", "stored_designs", "stored_scorecards"]

DATA = Path(__file__).with_name("data")
#: Lesson 11's figures: dev and test scorecards (two users each) and the test users' abstention curve.
SCORECARDS = DATA / "lesson11_scorecards.json"
#: Lesson 16's figures: one row per design and ability, on the offline lesson model.
DESIGNS = DATA / "lesson16_designs.json"
#: What lesson 11 measures: the first users of each split, and the relevance floors of its curve.
SCORECARD_USERS = 2
CURVE_FLOORS = (0.05, RELEVANCE_FLOOR, 0.2, 0.3)
#: What lesson 16 measures: one test user, about six sessions, the first question of each ability.
DESIGN_SLICE: dict[str, Any] = {"split": "test", "users": 1, "sessions": 6, "per_ability": 1}
COMMAND = "python -m memory_evaluation.stored_runs --write"


async def score_splits() -> tuple[Scorecard, Scorecard, list[CurvePoint]]:
    """Lesson 11's measurement, here: dev and test scorecards and the test users' curve (a minute or two)."""
    dev, test = (load_cases(split, users=SCORECARD_USERS) for split in ("dev", "test"))
    return await run_scorecard(dev), await run_scorecard(test), await abstention_curve(test, floors=CURVE_FLOORS)


async def measure_scorecards() -> dict[str, Any]:
    """Lesson 11's measurement as the stored file holds it."""
    dev, test, points = await score_splits()
    return {"users_per_split": SCORECARD_USERS, "dev": dev.figures(), "test": test.figures(),
            "curve": [asdict(point) for point in points]}


def stored_scorecards() -> tuple[ScorecardFigures, ScorecardFigures, list[CurvePoint]]:
    """Lesson 11's figures as last written by ``--write scorecards``: dev, test, and the curve's points."""
    stored = _read(SCORECARDS)
    return (ScorecardFigures(stored["dev"]), ScorecardFigures(stored["test"]),
            [CurvePoint(**point) for point in stored["curve"]])


async def measure_designs(client_factory: Any = None) -> list[DesignRow]:
    """Lesson 16's measurement: the slice through every design, on ``client_factory``'s model (default: offline)."""
    if client_factory is None:
        from chat_models import OfflineChatClient

        client_factory = OfflineChatClient
    from local_memory_server import start_memory_server

    cases = design_cases(**DESIGN_SLICE)
    async with start_memory_server() as server:
        designs = [*framework_designs(), *cortadel_designs(server.url)]
        with tempfile.TemporaryDirectory(prefix="designs-") as folder:
            return await run_designs(cases, designs, client_factory=client_factory, folder=folder)


def _design_record(rows: list[DesignRow]) -> dict[str, Any]:
    return {"slice": DESIGN_SLICE, "model": "offline lesson model",
            "rows": [{k: v for k, v in asdict(row).items() if k != "question_ms"} for row in rows]}


def stored_designs() -> list[DesignRow]:
    """Lesson 16's rows as last written by ``--write designs`` (no question timings: those are the machine's)."""
    return [DesignRow(**row) for row in _read(DESIGNS)["rows"]]


def shown_figures(kind: str, measured_here: bool) -> str:
    """One line under a lesson's table: whose figures they are, and how to measure them on this machine's model."""
    from chat_models.selection import describe_chat_client

    model = describe_chat_client()
    if measured_here:
        return f"Measured here, on the {model.kind} model {model.model or ''}".rstrip() + "."
    if kind == "scorecards":
        return (f"Stored run ({COMMAND} scorecards): the server's offline reader, no chat model, so any model gives "
                "these figures. MEASURE_ALL = True measures them here.")
    line = f"Stored run of the offline lesson model ({COMMAND} designs)."
    if model.kind != "offline":
        line += (f" Not your {model.kind} model {model.model or ''}: set MEASURE_ALL = True to measure it "
                 "(every turn replayed through six designs: slow).")
    return line


def _read(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Lessons 11 and 16's stored measurements: print them, or measure and store.")
    parser.add_argument("--write", choices=("scorecards", "designs"), action="append", default=[],
                        help="measure again offline and store (repeat for both)")
    args = parser.parse_args(argv)
    if "scorecards" in args.write:
        write_json(SCORECARDS, asyncio.run(measure_scorecards()), indent=1, ensure_ascii=False)
    if "designs" in args.write:
        write_json(DESIGNS, _design_record(asyncio.run(measure_designs())), indent=1, ensure_ascii=False)
    dev, test, points = stored_scorecards()
    print(side_by_side({"dev": dev, "test": test}), "", curve_table(points), "", sep="\n")
    print(design_table(list(design_summary(stored_designs()).values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
