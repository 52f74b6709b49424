"""The abstention trade-off curve: abstention, recall@5 and update accuracy at each relevance floor.

    python bench/abstention_curve.py --split dev                  # choose a floor here
    python bench/abstention_curve.py --split dev --users 4        # a quick slice
    python bench/abstention_curve.py --split dev --floors 0.2 0.28 0.4
    python bench/abstention_curve.py --split dev --plot curve.png

Each user of the split is ingested into a fresh local memory server (or the one at ``--url``), each
question is searched once in hybrid mode, and the provider's floor is replayed at every value:
``no floor``, today's ``rrf floor`` (``min_score=BOTH_ARMS_FLOOR``), then ``min_relevance`` at each
floor. The last lines name the floor with the most abstention whose recall@5 stays >= 95%, and the
one that keeps 95% of the no-floor recall@5 (a floor only drops hits: it cannot add recall).
Choose floors on ``dev``; ``--split test`` is for reporting a floor chosen elsewhere.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import memory_evaluation as evaluation
from memory_evaluation.abstention import DEFAULT_FLOORS, abstention_curve, choose_floor, curve_table, plot_curve


def load(split: str, users: int | None) -> list[evaluation.Case]:
    """The split's scorecard users: ``load_cases`` where the splits exist, else the dev dataset."""
    load_cases = getattr(evaluation, "load_cases", None)
    if load_cases is not None:
        return load_cases(split, users=users)
    if split != "dev":
        raise SystemExit("error: this checkout has only the dev data (load_synthetic); there is no test split here.")
    return evaluation.load_synthetic(users=users)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--users", type=int, default=None, help="only the first N users of the split")
    parser.add_argument("--floors", type=float, nargs="+", default=list(DEFAULT_FLOORS))
    parser.add_argument("--min-recall", type=float, default=0.95, help="recall@5 the chosen floor must keep")
    parser.add_argument("--url", help="a Cortadel server to measure instead of a fresh local one")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--plot", metavar="PNG", help="also save the curve as an image (needs matplotlib)")
    args = parser.parse_args()

    cases = load(args.split, args.users)
    print(f"{args.split}: {len(cases)} users, {sum(len(c.questions) for c in cases)} questions, hybrid mode")
    points = asyncio.run(abstention_curve(cases, args.floors, url=args.url, api_key=args.api_key,
                                          progress=lambda line: print(line, file=sys.stderr)))
    print(curve_table(points))
    print()
    for relative, bar in ((False, f"recall@5 >= {args.min_recall:.0%}"),
                          (True, f"recall@5 >= {args.min_recall:.0%} of the no-floor recall@5")):
        try:
            best = choose_floor(points, min_recall=args.min_recall, relative=relative)
            print(f"most abstention with {bar}: {best.label} "
                  f"(abstention {best.abstain_acc:.0%}, recall@5 {best.recall_at_5:.0%})")
        except ValueError as error:
            print(f"{bar}: {error}")
    if args.plot:
        ax = plot_curve(points)
        ax.figure.savefig(args.plot, dpi=120, bbox_inches="tight")
        print(f"plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
