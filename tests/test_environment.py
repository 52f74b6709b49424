"""The newcomer environment check: each check passes here and fails, with a fix, in a broken world."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from course_kit import environment as env
from course_kit.environment import CheckResult, EnvironmentReport


def test_pins_come_from_this_repositorys_pyproject() -> None:
    pins = env.read_pins()
    names = {req.name for req in pins.requirements}
    assert {"agent-framework-core", "ipywidgets", "jupyterlab", "cortadel"} <= names
    core = next(req for req in pins.requirements if req.name == "agent-framework-core")
    assert "1.23.0" in core.specifier and "1.24.0" not in core.specifier
    assert pins.requires_python.contains("3.10") and not pins.requires_python.contains("3.9")
    assert "pytest" not in names, "extras are only read when asked for"
    assert "pytest" in {req.name for req in env.read_pins(extras=["test"]).requirements}


def test_pins_from_another_pyproject(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "lesson-utils"\nrequires-python = ">=3.12"\ndependencies = ["ipywidgets>=8"]\n',
        encoding="utf-8",
    )
    pins = env.read_pins(pyproject)
    assert [str(r) for r in pins.requirements] == ["ipywidgets>=8"]
    assert str(pins.requires_python) == ">=3.12"


def test_python_check_passes_here_and_fails_for_an_old_python() -> None:
    here = env.check_python(SpecifierSet(">=3.10"))
    assert here.ok and here.line().startswith("OK   Python: ")
    old = env.check_python(SpecifierSet(">=3.10"), version="3.9.18")
    assert not old.ok and "needs Python >=3.10" in old.detail
    assert "FAIL Python" in old.line() and "fix: install Python >=3.10" in old.line()


def fake_versions(**installed: str) -> Any:
    def version_of(name: str) -> str:
        try:
            return installed[name]
        except KeyError:
            raise importlib.metadata.PackageNotFoundError(name) from None

    return version_of


def test_package_pins_are_compared_with_installed_versions() -> None:
    versions = fake_versions(**{"agent-framework-core": "1.23.4", "ipywidgets": "7.8.1"})
    good = env.check_package(Requirement("agent-framework-core~=1.23.0"), versions)
    assert good.ok and good.detail == "1.23.4 (pin ~=1.23.0)"

    too_old = env.check_package(Requirement("ipywidgets>=8.1,<9"), versions)
    assert not too_old.ok and "7.8.1 installed, but the lessons pin <9,>=8.1" in too_old.detail
    assert 'python -m pip install "ipywidgets<9,>=8.1"' in too_old.fix

    missing = env.check_package(Requirement("cortadel~=1.2"), versions)
    assert not missing.ok and missing.detail == "not installed (needs ~=1.2)"


def test_a_package_for_another_platform_is_not_needed() -> None:
    result = env.check_package(Requirement('pywin32>=300; sys_platform == "nonexistent"'), fake_versions())
    assert result.ok and "not needed here" in result.detail


def test_every_pinned_package_is_installed_in_this_environment() -> None:
    failures = [r.line() for r in map(env.check_package, env.read_pins().requirements) if not r.ok]
    assert failures == []


class FakeSpec:
    def __init__(self, argv: list[str]) -> None:
        self.argv = argv


class FakeManager:
    def __init__(self, specs: dict[str, FakeSpec]) -> None:
        self.specs = specs

    def get_kernel_spec(self, name: str) -> FakeSpec:
        from jupyter_client.kernelspec import NoSuchKernel

        if name not in self.specs:
            raise NoSuchKernel(name)
        return self.specs[name]


def test_kernel_check() -> None:
    assert env.check_kernel().ok, "this environment has a python3 kernel"
    missing = env.check_kernel("python3", FakeManager({}))
    assert not missing.ok and "ipykernel install --user --name python3" in missing.fix
    gone = env.check_kernel("python3", FakeManager({"python3": FakeSpec(["/nowhere/bin/python", "-m", "ipykernel"])}))
    assert not gone.ok and "does not exist" in gone.detail
    this = env.check_kernel("python3", FakeManager({"python3": FakeSpec([sys.executable, "-m", "ipykernel"])}))
    assert this.ok


async def test_the_offline_model_is_always_reachable() -> None:
    async def never() -> None:
        raise AssertionError("the offline model needs no probe")

    result = await env.check_model(
        lambda: {"kind": "offline", "model": "offline-lesson-model", "base_url": None, "reason": "LESSON_MODEL=offline"},
        never,
    )
    assert result.ok and "offline (offline-lesson-model); LESSON_MODEL=offline" in result.detail


async def test_a_configured_model_that_does_not_answer_fails_with_one_clear_line() -> None:
    async def unreachable() -> None:
        raise ConnectionError("401 Unauthorized: invalid API key")

    result = await env.check_model(
        lambda: {"kind": "openai", "model": "gpt-4o-mini", "base_url": "https://api.openai.com/v1", "reason": "OPENAI_API_KEY is set"},
        unreachable,
    )
    assert not result.ok
    assert "openai (gpt-4o-mini) at https://api.openai.com/v1 is configured" in result.detail
    assert "invalid API key" in result.detail and "LESSON_MODEL=offline" in result.fix
    assert "\n" not in result.detail


async def test_a_broken_model_configuration_is_a_fail_line() -> None:
    def broken() -> None:
        raise ValueError("LESSON_MODEL=azure but AZURE_OPENAI_ENDPOINT is not set")

    result = await env.check_model(broken)
    assert not result.ok and "AZURE_OPENAI_ENDPOINT is not set" in result.detail


async def test_a_memory_server_that_cannot_start_is_a_fail_line() -> None:
    def cannot_start() -> Any:
        raise OSError("[Errno 98] address already in use")

    result = await env.check_memory_server(cannot_start)
    assert not result.ok and "address already in use" in result.detail and result.fix


def test_report_verdict_counts_only_required_failures() -> None:
    report = EnvironmentReport(
        [CheckResult("a", True, "fine"), CheckResult("b", False, "broken", fix="do x"), CheckResult("c", False, "meh", required=False)]
    )
    assert not report.ok and [r.name for r in report.failures] == ["b", "c"]
    text = str(report)
    assert "OK   a: fine" in text and "FAIL b: broken\n     fix: do x" in text and "WARN c: meh" in text
    assert text.endswith("1 required check(s) failed; see the fixes above.")
    assert EnvironmentReport([CheckResult("a", True, "fine")]).ok


async def test_the_real_checks_pass_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """What notebook 00 asserts: with no model configured, every required check passes here."""
    monkeypatch.setenv("LESSON_MODEL", "offline")
    report = await env.check_environment()
    assert report.ok, str(report)
    names = [r.name for r in report.results]
    assert names[0] == "Python" and names[-4:] == ["Jupyter kernel", "model", "memory server extra", "memory server"]
    assert "package fastapi" in names, "with the server extra installed, its pins are checked too"
    model = report.results[-3]
    assert model.detail.startswith("offline (") and "LESSON_MODEL=offline" in model.detail
    assert "health" in report.results[-1].detail and "stopped again" in report.results[-1].detail


async def test_a_configured_local_model_that_is_down_fails_with_the_real_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("LESSON_MODEL", "local")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("LOCAL_MODEL", "llama3.2")
    result = await env.check_model()
    assert not result.ok
    assert result.detail.startswith(f"local (llama3.2) at http://127.0.0.1:{port}/v1 is configured (LESSON_MODEL=local) but did not answer")
    assert "Traceback" not in result.detail


def test_without_a_checkout_the_pins_come_from_the_installed_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    requires = [
        "agent-framework-core~=1.23.0",
        'pytest>=8; extra == "test"',
        'pywin32>=300; sys_platform == "nonexistent"',
    ]
    monkeypatch.setattr(env.importlib.metadata, "requires", lambda name: requires if name == "lesson-utils" else None)
    monkeypatch.setattr(env.importlib.metadata, "metadata", lambda name: {"Requires-Python": ">=3.10"})
    pins = env.read_pins(None)
    assert [r.name for r in pins.requirements] == ["agent-framework-core"]
    assert [r.name for r in env.read_pins(None, extras=["test"]).requirements] == ["agent-framework-core", "pytest"]
    assert str(pins.requires_python) == ">=3.10" and pins.source == "installed lesson-utils metadata"


async def test_unreadable_pins_are_a_fail_line_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(*_args: Any, **_kwargs: Any) -> Any:
        raise importlib.metadata.PackageNotFoundError("lesson-utils")

    monkeypatch.setattr(env, "read_pins", missing)
    report = await env.check_environment(model=False, memory_server=False)
    assert not report.ok
    assert report.results[0].name == "pins" and "install" in report.results[0].fix


async def test_no_configured_memory_server_adds_no_line(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("CORTADEL_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert await env.check_configured_memory_server() is None


async def test_a_dead_cortadel_base_url_is_a_fail_line_naming_the_variable() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    result = await env.check_configured_memory_server((url, None))
    assert result is not None and not result.ok and result.required
    assert result.detail.startswith(f"CORTADEL_BASE_URL={url} cannot be reached")
    assert "remove CORTADEL_BASE_URL" in result.fix


async def test_a_live_cortadel_base_url_is_an_ok_line() -> None:
    from local_memory_server import start_memory_server

    with start_memory_server() as server:
        result = await env.check_configured_memory_server((server.url, None))
    assert result is not None and result.ok and result.detail == f"CORTADEL_BASE_URL={server.url} answered, health 'ok'"


def test_a_missing_server_extra_is_a_warn_line_with_the_fix() -> None:
    result = env.check_server_extra(lambda: ["fastapi", "uvicorn"])
    assert not result.ok and not result.required
    assert result.line() == (
        "WARN memory server extra: not installed (missing: fastapi, uvicorn); lessons 00–06 run without it, "
        'lessons 07 on need it\n     fix: from the repository folder run `python -m pip install -e ".[server]"` '
        "(or `python course.py lab`)"
    )
    assert env.check_server_extra(list).ok


async def test_without_the_server_extra_the_report_passes_and_starts_no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LESSON_MODEL", "offline")
    monkeypatch.delenv("CORTADEL_BASE_URL", raising=False)
    monkeypatch.setattr(env, "missing_server_modules", lambda: ["fastapi"])

    async def must_not_start(*_args: Any) -> Any:
        raise AssertionError("the local server was started without its extra")

    monkeypatch.setattr(env, "check_memory_server", must_not_start)
    report = await env.check_environment()
    names = [r.name for r in report.results]
    assert report.ok and names[-1] == "memory server extra" and "memory server" not in names
    assert "package fastapi" not in names, "the server's pins are checked only when it is installed"
