"""Named checks for lesson 00: the environment report says the machine is ready, and offline is a way back.

The memory server is an extra: the report tries to start it only when the extra is installed. "Started
exactly when installed" is the claim that tells a learner a missing server is a missing install, not a
broken machine.
"""

from __future__ import annotations

from typing import Any

from ...environment import CheckResult, EnvironmentReport, check_model
from model_config import resolve_model


def memory_server_extra(report: EnvironmentReport) -> CheckResult:
    """The report's line on the memory server extra (installed or not, with the fix)."""
    return next(result for result in report.results if result.name == "memory server extra")


def server_started_iff_extra(report: EnvironmentReport) -> bool:
    """The memory server was started (and stopped) when, and only when, its extra is installed."""
    started = [result for result in report.results if result.name == "memory server"]
    return memory_server_extra(report).ok == bool(started) and all(result.ok for result in started)


async def offline_model_check(describe: Any = None) -> CheckResult:
    """Whether the offline lesson model answers, whatever ``.env`` configures (``LESSON_MODEL=offline``)."""
    offline = describe() if describe is not None else resolve_model({"LESSON_MODEL": "offline"})
    if offline.kind != "offline":
        return CheckResult("offline lesson model", False, f"LESSON_MODEL=offline chose {offline.kind!r}")
    return await check_model(lambda: offline)
