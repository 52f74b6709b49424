"""Run every wrong answer through its exercise's ``check`` and print a table (issue 21, item 1).

    python tests/exercises/wrong_answers/run_all.py [--lessons 01 04 ...] [--markdown RESULTS.md]

``True`` in the *passed* column means the wrong answer PASSED its check: the check is too weak there.
Each lesson runs in its own child process (with a time limit), so module-level state one wrong answer
leaves behind cannot leak into another lesson's checks, and a hanging check cannot stop the run.

Not named ``test_*``: pytest does not collect it. The regression tests (each wrong answer rejected over
five seeds) are ``tests/exercises/test_lNN_*.py``, through ``tests/exercises/conftest.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LESSONS = sorted(path.stem[len("wrong_l"):] for path in HERE.glob("wrong_l[0-9][0-9].py"))
CHILD_TIMEOUT_S = 1200


def run_lesson(lesson: str) -> list[dict]:
    """In this process: check every wrong answer of one lesson; one row per answer."""
    from course_kit.exercises import check

    module = importlib.import_module(f"tests.exercises.wrong_answers.wrong_l{lesson}")
    rows = []
    for exercise_id, answer, mistake in module.WRONG:
        out = io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stdout(out):
            passed = check(exercise_id, answer)
        said = [_without_title(line) for line in out.getvalue().splitlines() if line.startswith(("\u2705", "\u274c"))]
        rows.append(
            {
                "exercise": exercise_id,
                "answer": getattr(answer, "__name__", None) or "/".join(a.__name__ for a in answer),
                "mistake": mistake,
                "passed": passed,
                "seconds": round(time.perf_counter() - started, 1),
                "check_said": said[-1] if said else out.getvalue().strip()[-200:],
            }
        )
    return rows


def _without_title(line: str) -> str:
    """``❌ 04.x · title: hint`` → ``❌ hint``: the table already names the exercise."""
    head, sep, hint = line.partition(": ")
    return f"{line[0]} {hint}" if sep and "\u00b7" in head else line


def run_in_child(lesson: str) -> list[dict]:
    command = [sys.executable, str(Path(__file__)), "--child", lesson]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, encoding="utf-8", timeout=CHILD_TIMEOUT_S, cwd=HERE.parents[2]
        )
    except subprocess.TimeoutExpired:
        return [
            {
                "exercise": f"{lesson}.*",
                "answer": "-",
                "mistake": "(whole lesson)",
                "passed": None,
                "seconds": CHILD_TIMEOUT_S,
                "check_said": f"timed out after {CHILD_TIMEOUT_S} s",
            }
        ]
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("ROWS "):
            return json.loads(line[5:])
    return [
        {
            "exercise": f"{lesson}.*",
            "answer": "-",
            "mistake": "(whole lesson)",
            "passed": None,
            "seconds": 0,
            "check_said": f"runner failed (exit {done.returncode}): {done.stderr.strip()[-300:]}",
        }
    ]


def _cell(text: str, width: int = 110) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def markdown(rows: list[dict]) -> str:
    lines = ["| exercise | wrong answer | mistake | passed? | check said |", "|---|---|---|---|---|"]
    for row in rows:
        verdict = {True: "**PASSED**", False: "rejected", None: "error"}[row["passed"]]
        lines.append(
            f"| {row['exercise']} | `{row['answer']}` | {_cell(row['mistake'], 70)} | {verdict} | {_cell(row['check_said'])} |"
        )
    lines += ["", "| exercise | wrong answers | passed (check too weak) |", "|---|---:|---:|"]
    by_exercise: dict[str, list[dict]] = {}
    for row in rows:
        by_exercise.setdefault(row["exercise"], []).append(row)
    for exercise, group in by_exercise.items():
        lines.append(f"| {exercise} | {len(group)} | {sum(1 for r in group if r['passed'])} |")
    total_passed = sum(1 for r in rows if r["passed"])
    weak = sum(1 for group in by_exercise.values() if any(r["passed"] for r in group))
    lines.append(f"| **all** | {len(rows)} | {total_passed} (in {weak} of {len(by_exercise)} exercises) |")
    return "\n".join(lines)


def _header() -> str:
    """Where and when the table was made: the commit of the checks it measured, and how to read it."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE
    ).stdout.strip()
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return (
        "# Wrong answers against the exercise checks\n\n"
        f"Made {when} at commit `{commit}` with `python tests/exercises/wrong_answers/run_all.py --markdown "
        "tests/exercises/wrong_answers/RESULTS.md` (offline lesson model, local memory server).\n\n"
        "The wrong answers were written from each exercise's text as the learner sees it, without reading the checks "
        "or their tests (issue 21, item 1). **PASSED** means the wrong answer passed its `check`: the check is too "
        "weak there. *rejected* means `check` returned False; the last column is its one-line hint, so you can see "
        "whether it named the mistake or failed for another reason.\n\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", nargs="*", default=LESSONS)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(HERE.parents[2]))
        rows = run_lesson(args.child)
        print("ROWS " + json.dumps(rows, ensure_ascii=False))
        return
    rows: list[dict] = []
    for lesson in args.lessons:
        lesson_rows = run_in_child(lesson)
        for row in lesson_rows:
            print(
                f"{row['exercise']:24} {row['answer']:36} passed={row['passed']!s:5} {row['seconds']:6.1f}s  {_cell(row['check_said'], 90)}",
                flush=True,
            )
        rows += lesson_rows
    table = markdown(rows)
    print()
    print(table)
    if args.markdown:
        args.markdown.write_text(_header() + table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
