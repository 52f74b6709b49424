"""A reply the output cap cut short says so, once, and the claims made on it say why.

A local model's replies are capped (``LOCAL_MODEL_MAX_TOKENS``, see ``policy.py``) so a runaway small
model cannot write for minutes. A reply that hits the cap stops mid-sentence, and the server says so
only in the response's finish reason (``length``). Unnamed, that looks like the model's fault: a tool
call cut in half reads as "this model does not call tools". So the call guard records every reply
the policy's cap cut and prints one line naming the variable, and :func:`course_kit.expect_model`
reports a claim made on a cut reply as *cut by the cap*, not as something the model did not show.

A cap the caller set itself (a lesson that asks for short replies) is the caller's choice: it is
counted, not announced. The line goes to stderr: a notebook shows it under the cell, and a child
process whose stdout *is* the reply (lesson 05 resumes a session in one) keeps its stdout clean.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from model_config.policy import MAX_TOKENS_VARIABLE

CUT_REASON = "length"


@dataclass
class CapRecord:
    """How many replies the policy's cap cut in this process, and the cap in force then."""

    cut: int = 0
    cap: int | None = None


RECORD = CapRecord()


def cut_by_cap_line(cap: int) -> str:
    """The one line a learner sees when a reply stopped at the policy's cap."""
    return (
        f"note: this reply stopped at the output cap, {MAX_TOKENS_VARIABLE}={cap} tokens "
        f"(finish reason 'length'); raise {MAX_TOKENS_VARIABLE} in .env for longer replies"
    )


def note_finish(finish_reason: object, cap: int | None, *, from_policy: bool) -> bool:
    """Record (and, for the policy's cap, announce) a reply whose finish reason says it was cut."""
    if str(finish_reason or "").lower() != CUT_REASON or not cap:
        return False
    if from_policy:
        RECORD.cut += 1
        RECORD.cap = cap
        print(cut_by_cap_line(cap), file=sys.stderr, flush=True)
    return True


def cuts_so_far() -> int:
    """How many replies the policy's cap has cut in this process (compare two readings)."""
    return RECORD.cut


__all__ = ["CUT_REASON", "RECORD", "cut_by_cap_line", "cuts_so_far", "note_finish"]
