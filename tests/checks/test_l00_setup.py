"""Lesson 00's named checks hold on a ready report and fail on one that is not."""

from __future__ import annotations

from types import SimpleNamespace as NS

from course_kit.lessons.l00_setup.checks import memory_server_extra, offline_model_check, server_started_iff_extra
from course_kit.environment import CheckResult, EnvironmentReport


def _report(extra: bool, started: list[bool]) -> EnvironmentReport:
    results = [CheckResult("memory server extra", extra, "…", required=False)]
    results += [CheckResult("memory server", ok, "…") for ok in started]
    return EnvironmentReport(results)


def test_server_started_exactly_when_its_extra_is_installed() -> None:
    assert server_started_iff_extra(_report(True, [True]))
    assert server_started_iff_extra(_report(False, []))
    assert not server_started_iff_extra(_report(True, []))
    assert not server_started_iff_extra(_report(False, [True]))
    assert not server_started_iff_extra(_report(True, [False]))
    assert memory_server_extra(_report(True, [True])).ok


async def test_offline_model_check_answers_and_refuses_another_kind() -> None:
    assert (await offline_model_check()).ok
    assert not (await offline_model_check(lambda: NS(kind="openai"))).ok
