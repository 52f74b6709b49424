"""Live mode: run every lesson on the model configured in ``.env`` and say what that model showed.

``python course.py test --live`` calls this (``python -m course_kit.live``). The test
suite forces the offline lesson model; this does not: each notebook runs top to bottom on the
model the learner (or the workshop leader, or the maintainer before a release) configured. Every
``expect_model`` claim a lesson makes is appended to a per-notebook ``LESSON_CLAIMS_LOG`` file,
and the run ends with one table: did the lesson run, how long it took, how many of its claims it
reached (a lesson "ran" only when it reached every one), which this model demonstrated and which it
did not, and the output cap in force (a reply cut by it is named as such). A lesson that fails to run makes the exit status 1; a claim a
model did not show does not (it is information about the model, not a bug in the lesson).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .claims import CLAIMS_LOG_VARIABLE

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@dataclass
class LessonRun:
    """One notebook's live run: whether it ran, how long, and its claims (``shown`` or not)."""

    name: str
    ran: bool
    seconds: float
    error: str = ""
    claims: list[dict[str, object]] = field(default_factory=list)
    expected: int = 0  # how many claims the lesson makes (its expect_model calls)

    @property
    def complete(self) -> bool:
        """Ran to the end and reached every claim it makes."""
        return self.ran and len(self.claims) >= self.expected

    @property
    def shown(self) -> list[str]:
        return [str(c["claim"]) for c in self.claims if c.get("shown")]

    @property
    def not_shown(self) -> list[str]:
        return [str(c["claim"]) for c in self.claims if not c.get("shown")]


def lesson_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The numbered lesson notebooks of ``folder``, in order (not the solutions)."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def claims_in(path: Path) -> int:
    """How many ``expect_model`` claims a lesson's code cells make (what a full run reaches)."""
    import nbformat

    with open(path, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    return sum(cell.source.count("expect_model(") for cell in nb.cells if cell.cell_type == "code")


def run_lesson(path: Path, *, cell_timeout: float) -> LessonRun:
    """Execute one notebook in a fresh kernel, on whatever model the environment configures."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    with tempfile.TemporaryDirectory(prefix="lesson-claims-") as folder:
        log = Path(folder) / "claims.jsonl"
        previous = os.environ.get(CLAIMS_LOG_VARIABLE)
        os.environ[CLAIMS_LOG_VARIABLE] = str(log)  # the kernel inherits it
        started = time.monotonic()
        error = ""
        try:
            with open(path, encoding="utf-8") as f:
                nb = nbformat.read(f, as_version=4)
            client = NotebookClient(
                nb,
                timeout=cell_timeout,
                kernel_name="python3",
                resources={"metadata": {"path": str(path.parent)}},
                # The kernel's transport notice ("running over TCP without encryption") is for a kernel
                # shared over a network; this one is private to this run. Errors still show.
                extra_arguments=["--IPKernelApp.log_level=ERROR"],
            )
            client.execute()
        except (CellExecutionError, CellTimeoutError) as exc:
            error = _one_line(exc)
        except Exception as exc:  # a kernel that would not start, a notebook that would not parse
            error = f"{type(exc).__name__}: {_one_line(exc)}"
        finally:
            if previous is None:
                os.environ.pop(CLAIMS_LOG_VARIABLE, None)
            else:
                os.environ[CLAIMS_LOG_VARIABLE] = previous
        seconds = time.monotonic() - started
        claims = _read_claims(log)
    return LessonRun(path.stem, not error, seconds, error, claims, expected=claims_in(path))


def _read_claims(log: Path) -> list[dict[str, object]]:
    if not log.exists():
        return []
    with open(log, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _one_line(exc: BaseException) -> str:
    """The last meaningful line of a cell error (nbclient puts the traceback first)."""
    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    if ename and not str(evalue or "").strip():  # a bare assert: show the line that failed
        failed = [line for line in _plain(str(exc)).splitlines() if line.lstrip().startswith("---->")]
        if failed:
            return f"{ename} at: {failed[-1].split('---->', 1)[1].strip().lstrip('0123456789 ').strip()}"[:200]
    if ename:
        return f"{ename}: {evalue}".splitlines()[0][:200]
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return (lines[-1] if lines else type(exc).__name__)[:200]


def progress_line(run: LessonRun) -> str:
    """One lesson's result as soon as it is known: status, seconds, claims reached and shown."""
    status = "ok" if run.complete else ("FAILED" if not run.ran else "short")
    line = f"{status} in {run.seconds:.1f} s; {len(run.claims)} of {run.expected} claims reached, {len(run.shown)} shown"
    return line + (f" \u2014 {run.error}" if run.error else "")


def _plain(text: str) -> str:
    """``text`` without terminal colour codes (a kernel's traceback carries them)."""
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def render_table(runs: Sequence[LessonRun], model: str, *, cap: str = "") -> str:
    """The per-lesson table, then the claims each lesson's model did not show (and why it failed)."""
    width = max([len("lesson"), *(len(r.name) for r in runs)])
    lines = [
        f"Live run on {model}" + (f" \u00b7 {cap}" if cap else ""),
        "",
        f"{'lesson':<{width}}  ran     seconds  claims reached  shown",
        f"{'-' * width}  ------  -------  --------------  -----",
    ]
    for r in runs:
        reached = f"{len(r.claims)} of {r.expected}" if r.expected or r.claims else "none made"
        shown = f"{len(r.shown)}" if r.claims else "-"
        status = "ok" if r.complete else ("FAILED" if not r.ran else "short")
        lines.append(f"{r.name:<{width}}  {status:<6}  {r.seconds:7.1f}  {reached:<14}  {shown}")
    details = []
    for r in runs:
        if not r.ran:
            details.append(f"{r.name}: FAILED \u2014 {r.error}")
        elif not r.complete:
            details.append(f"{r.name}: reached {len(r.claims)} of its {r.expected} claims")
        details += [
            f"{r.name}: \u2717 {c['claim']}" + (" (cut by the cap)" if c.get("cut") else "")
            for c in r.claims
            if not c.get("shown")
        ]
    if details:
        lines += ["", "Not demonstrated by this model (or failed):", *(f"  {d}" for d in details)]
    total = sum(len(r.claims) for r in runs)
    shown_total = sum(len(r.shown) for r in runs)
    ok = sum(r.complete for r in runs)
    lines += ["", f"{ok} of {len(runs)} lessons ran with every claim reached; {shown_total} of {total} model claims demonstrated."]
    return "\n".join(lines)


def cap_in_force(start: Path = NOTEBOOKS) -> str:
    """The call policy in force for the configured model, as the table's header states it."""
    from model_config.policy import MAX_TOKENS_VARIABLE, TIMEOUT_VARIABLE, read_policy
    from model_config import lesson_environment, resolve_model

    env, _file = lesson_environment(start)
    policy = read_policy(env, resolve_model(env).kind)
    cap = f"{MAX_TOKENS_VARIABLE}={policy.max_tokens}" if policy.max_tokens else "no output cap"
    return f"{cap}, {TIMEOUT_VARIABLE}={policy.timeout:g} s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="course.py test --live", description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to run (default: every lesson)")
    parser.add_argument("--cell-timeout", type=float, default=900.0, help="seconds one cell may take (default 900)")
    args = parser.parse_args(argv)
    from chat_models import describe_chat_client

    model = describe_chat_client(start=NOTEBOOKS)
    print(f"model: {model}", flush=True)
    if model.kind == "offline":
        print("No real model is configured (see .env.example): this live run uses the offline lesson model.")
    runs = []
    for path in args.notebooks or lesson_notebooks():
        print(f"running {path.name} ...", flush=True)
        runs.append(run := run_lesson(path, cell_timeout=args.cell_timeout))
        print(f"  {progress_line(run)}", flush=True)  # a run stopped half-way still leaves its figures
    print()
    print(render_table(runs, str(model), cap=cap_in_force()))
    return 0 if all(r.complete for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
