"""Run a learner's function in a fresh Python interpreter: the check behind "in a new process".

A resume that only works in the process that saved the session is not a resume. The checker hands
the learner's function to ``python -m course_kit.exercises._new_process`` and reads back what it
returned. Functions written in a notebook cannot be imported by another interpreter, so the function
travels by value with ``cloudpickle`` (its code and the globals it uses; modules by name). It is
pickled *before* the checker calls the learner's ``save``, so nothing ``save`` leaves in this
process's memory can reach the child. The child runs on the offline lesson model.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cloudpickle

from lesson_utils.resume import CHILD_PROCESS_TIMEOUT_S, child_env
from ._registry import Hint

__all__ = ["ChildResult", "freeze", "run_frozen"]


@dataclass(frozen=True)
class ChildResult:
    """What the child reported: its pid, the returned value (JSON-native) or an error line."""

    pid: int
    value: Any = None
    value_type: str = "NoneType"
    error: str | None = None


def freeze(fn: Callable[..., Any]) -> bytes:
    """``fn`` as bytes another interpreter can load, even when it was written in a notebook or a test."""
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    by_value = module is not None and module.__name__ != "__main__" and not module.__name__.startswith("lesson_utils")
    if by_value:
        cloudpickle.register_pickle_by_value(module)
    try:
        return cloudpickle.dumps(fn)
    except Exception as exc:  # it refers to an object of this process (a client, a lock) that cannot travel
        raise Hint(f"`{getattr(fn, '__name__', 'your function')}` uses an object of this process that cannot go to "
                   f"a new one ({type(exc).__name__}: {exc}); build what it needs inside it, e.g. the agent "
                   "with get_chat_client()") from None
    finally:
        if by_value:
            cloudpickle.unregister_pickle_by_value(module)


def run_frozen(frozen: bytes, *args: Any) -> ChildResult:
    """Call the frozen function with ``args`` (JSON-native) in a new interpreter; wait for its answer."""
    with tempfile.TemporaryDirectory(prefix="exercise-child-") as folder:
        job, answer = Path(folder) / "job.pkl", Path(folder) / "answer.json"
        job.write_bytes(pickle.dumps((frozen, list(args))))
        env = dict(child_env(), LESSON_MODEL="offline")
        try:
            done = subprocess.run(
                [sys.executable, "-m", "course_kit.exercises._new_process", str(job), str(answer)],
                capture_output=True, text=True, encoding="utf-8", env=env,
                cwd=tempfile.gettempdir(), timeout=CHILD_PROCESS_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return ChildResult(pid=-1, error=f"the new process did not finish within {CHILD_PROCESS_TIMEOUT_S} s")
        if not answer.exists():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return ChildResult(pid=-1, error=f"the new process failed before answering: {last}")
        with open(answer, encoding="utf-8") as f:
            return ChildResult(**json.load(f))


def _child(job: Path, answer: Path) -> None:
    report: dict[str, Any] = {"pid": os.getpid()}
    try:
        frozen, args = pickle.loads(job.read_bytes())
        fn = cloudpickle.loads(frozen)
        value = fn(*args)
        if inspect.isawaitable(value):
            value = asyncio.run(_await(value))
        report["value_type"] = type(value).__name__
        report["value"] = value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)[:200]
    except NotImplementedError:
        report["error"] = "it still raises NotImplementedError"
    except Exception as exc:  # the learner's code failed in the child: one line, where it failed
        report["error"] = f"{type(exc).__name__}: {exc}"
    with open(answer, "w", encoding="utf-8") as f:
        json.dump(report, f)


async def _await(awaitable: Any) -> Any:
    return await awaitable


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))
