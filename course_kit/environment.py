"""The newcomer's environment check: is this machine ready for the series?

Notebook 00 runs :func:`check_environment` and prints one OK/FAIL line per check, each failure
with the fix. The checks are small functions so the tests can feed them a broken world (an old
Python, a missing package, a wrong pin, an unknown kernel, an unreachable model).
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from local_memory_server.extra import SERVER_FIX, missing_server_modules

logger = logging.getLogger(__name__)

DISTRIBUTION = "lesson-utils"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
# What `course.py lab` installs: the package with its memory server (the `server` extra).
INSTALL_FIX = SERVER_FIX


@dataclass(frozen=True)
class CheckResult:
    """One line of the report: what was checked, whether it passed, and how to fix it if not."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    required: bool = True

    def line(self) -> str:
        status = "OK  " if self.ok else ("FAIL" if self.required else "WARN")
        text = f"{status} {self.name}: {self.detail}"
        if not self.ok and self.fix:
            text += f"\n     fix: {self.fix}"
        return text


@dataclass
class EnvironmentReport:
    results: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every required check passed."""
        return all(r.ok for r in self.results if r.required)

    @property
    def failures(self) -> list[CheckResult]:
        return [r for r in self.results if not r.ok]

    def __str__(self) -> str:
        lines = [r.line() for r in self.results]
        verdict = "All required checks passed." if self.ok else f"{sum(r.required for r in self.failures)} required check(s) failed; see the fixes above."
        return "\n".join([*lines, "", verdict])

    def failed_summary(self) -> str:
        """The required failures on one line each, first line included: readable without the report above it."""
        failed = [r for r in self.failures if r.required]
        lines = [f"FAIL {r.name}: {r.detail}" + (f" \u2014 fix: {r.fix}" if r.fix else "") for r in failed]
        return "; ".join(lines) if lines else "all required checks passed"


# -- Python and packages ---------------------------------------------------------------------------


def _load_toml(path: Path) -> dict[str, Any] | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            return None
    with open(path, "rb") as f:
        return tomllib.load(f)


@dataclass(frozen=True)
class Pins:
    """What the series asks for: the Python range and the package requirements."""

    requires_python: SpecifierSet
    requirements: list[Requirement]
    source: str


def read_pins(pyproject: Path | None = PYPROJECT, *, extras: Iterable[str] = ()) -> Pins:
    """The pins from ``pyproject.toml`` in a checkout, else from the installed package's metadata.

    The checkout's file wins: it is what the lessons were written against, even when the
    installed metadata is stale.
    """
    wanted = set(extras)
    data = _load_toml(pyproject) if pyproject is not None and pyproject.is_file() else None
    if data is not None and data.get("project", {}).get("name") == DISTRIBUTION:
        project = data["project"]
        lines = list(project.get("dependencies", []))
        for extra in sorted(wanted):
            lines += project.get("optional-dependencies", {}).get(extra, [])
        return Pins(SpecifierSet(project.get("requires-python", "")), [Requirement(x) for x in lines], str(pyproject))
    meta = importlib.metadata.metadata(DISTRIBUTION)
    requirements = []
    for line in importlib.metadata.requires(DISTRIBUTION) or []:
        req = Requirement(line)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in ["", *wanted]):
            requirements.append(req)
    requires_python = meta["Requires-Python"] if "Requires-Python" in meta else ""
    return Pins(SpecifierSet(requires_python or ""), requirements, f"installed {DISTRIBUTION} metadata")


def check_python(requires: SpecifierSet, version: str | None = None) -> CheckResult:
    version = version or ".".join(map(str, sys.version_info[:3]))
    ok = requires.contains(version, prereleases=True)
    return CheckResult(
        "Python",
        ok,
        f"{version} at {sys.executable}" + ("" if ok else f" (the series needs Python {requires})"),
        fix=f"install Python {requires} (python.org or `conda create -n maf python=3.11`), then re-run the set-up command with it",
    )


def check_package(req: Requirement, version_of: Callable[[str], str] = importlib.metadata.version) -> CheckResult:
    """Is ``req`` installed in a version its pin accepts?"""
    name = f"package {req.name}"
    if req.marker is not None and not req.marker.evaluate():
        return CheckResult(name, True, f"not needed here ({req.marker})")
    pin = str(req.specifier) or "any version"
    fix = f'python -m pip install "{req}"  (or {INSTALL_FIX})'
    try:
        installed = version_of(req.name)
    except importlib.metadata.PackageNotFoundError:
        return CheckResult(name, False, f"not installed (needs {pin})", fix=fix)
    try:
        ok = req.specifier.contains(Version(installed), prereleases=True)
    except InvalidVersion:
        ok = False
    detail = f"{installed} (pin {pin})" if ok else f"{installed} installed, but the lessons pin {pin}"
    return CheckResult(name, ok, detail, fix=fix)


# -- Jupyter kernel ----------------------------------------------------------------------------------


def check_kernel(name: str = "python3", manager: Any | None = None) -> CheckResult:
    """The notebooks name the ``python3`` kernel; it must exist and start this environment's Python."""
    fix = f'python -m ipykernel install --user --name {name} --display-name "Python 3 (ipykernel)"  (run it with the Python that has lesson_utils)'
    try:
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    except ImportError:
        return CheckResult("Jupyter kernel", False, "jupyter_client is not installed", fix=INSTALL_FIX)
    try:
        spec = (manager or KernelSpecManager()).get_kernel_spec(name)
    except NoSuchKernel:
        return CheckResult("Jupyter kernel", False, f"no kernel named {name!r} is installed", fix=fix)
    program = spec.argv[0] if spec.argv else ""
    if program in {"python", "python3", f"python{sys.version_info[0]}.{sys.version_info[1]}"}:
        # jupyter_client launches these with the Python running Jupyter itself.
        return CheckResult("Jupyter kernel", True, f"{name!r} runs the Python that starts Jupyter ({sys.executable})")
    path = Path(program)
    if not path.is_file():
        return CheckResult("Jupyter kernel", False, f"{name!r} points at {program}, which does not exist", fix=fix)
    if path.resolve() != Path(sys.executable).resolve():
        return CheckResult(
            "Jupyter kernel",
            False,
            f"{name!r} runs {program}, not this environment's Python ({sys.executable}); the lessons would miss their packages",
            fix=fix,
        )
    return CheckResult("Jupyter kernel", True, f"{name!r} runs {program}")


# -- Model and memory server -------------------------------------------------------------------------


def _field(description: Any, key: str) -> Any:
    if isinstance(description, dict):
        return description.get(key)
    return getattr(description, key, None)


#: The settings a backend reads, in the order a learner would check them (see ``model_config/choice.py``).
_SETTING_KEYS = ("url_var", "model_var", "api_key_var")
OFFLINE_FALLBACK = "or set LESSON_MODEL=offline to use the offline lesson model"


def _model_fix(variables: Iterable[str]) -> str:
    """The fix for a model that failed: the variables of *its* backend, or the choice itself when unknown."""
    named = [v for v in dict.fromkeys(variables) if v]
    where = ", ".join(named) if named else "LESSON_MODEL and the variables of the backend you chose"
    return f"check {where} in .env, {OFFLINE_FALLBACK}"


async def check_model(
    describe: Callable[[], Any] | None = None,
    probe: Callable[[], Awaitable[Any]] | None = None,
    served: Callable[[str], Awaitable[list[str] | None]] | None = None,
) -> CheckResult:
    """Which model is active and whether it answers; the offline model always does.

    A failure names the variables of the backend that failed (``LOCAL_MODEL_BASE_URL`` for a local
    server, not the OpenAI ones). For a local server, the ids it lists at ``/v1/models`` are compared
    with the configured name: llama.cpp's server answers to any name, so a wrong ``LOCAL_MODEL``
    would otherwise pass unnoticed. ``served`` (for tests) returns those ids, or None when unknown.
    """
    try:
        if describe is None:
            from chat_models import describe_chat_client

            describe = describe_chat_client
        description = describe()
    except Exception as exc:  # a configured-but-broken model: one clear line
        return CheckResult("model", False, f"{type(exc).__name__}: {exc}", fix=_model_fix([getattr(exc, "variable", "")]))
    kind, model, base_url, reason = (_field(description, k) for k in ("kind", "model", "base_url", "reason"))
    settings = _field(description, "settings") or {}
    fix = _model_fix(settings.get(key, "") for key in _SETTING_KEYS)
    label = f"{kind} ({model})" + (f" at {base_url}" if base_url else "")
    if kind == "offline":
        return CheckResult("model", True, f"{label}; {reason}. Always reachable: it runs inside this process")
    probe = probe or _default_model_probe
    try:
        await probe()
    except Exception as exc:
        return CheckResult("model", False, f"{label} is configured ({reason}) but did not answer: {exc}", fix=fix)
    if kind == "local" and base_url:
        ids = await (served or _served_model_ids)(str(base_url))
        if ids and model not in ids:
            model_var = settings.get("model_var") or "LOCAL_MODEL"
            return CheckResult(
                "model",
                False,
                f"{label} answered, but the server lists no model {model!r} at /v1/models; it lists: {', '.join(ids)}",
                fix=f"set {model_var} to one of: {', '.join(ids)} (for llama-server, the name given with -a)",
            )
    return CheckResult("model", True, f"{label} answered; {reason}")


async def _served_model_ids(base_url: str) -> list[str] | None:
    """The model ids an OpenAI-compatible server lists at ``/models``; None when it lists none or cannot say."""
    import httpx

    try:
        async with httpx.AsyncClient(timeout=10) as http:
            response = await http.get(base_url.rstrip("/") + "/models")
        data = response.json().get("data") if response.status_code == 200 else None
    except Exception:  # a server without the listing route: nothing to compare with
        return None
    ids = [str(item.get("id")) for item in data or [] if isinstance(item, dict) and item.get("id")]
    return ids or None


async def _default_model_probe() -> Any:
    from chat_models import check_chat_client, get_chat_client

    return await check_chat_client(get_chat_client())


def check_server_extra(missing: Callable[[], list[str]] | None = None) -> CheckResult:
    """Is the local memory server (the ``server`` extra) installed? Lessons 00–06 do not need it.

    Not a required check: without the extra the first lessons run, and the memory lessons
    (07 on) stop at their first cell with the same fix.
    """
    absent = (missing or missing_server_modules)()
    if not absent:
        return CheckResult("memory server extra", True, "installed (lessons 07 on start the local memory server)")
    return CheckResult(
        "memory server extra",
        False,
        f"not installed (missing: {', '.join(absent)}); lessons 00–06 run without it, lessons 07 on need it",
        fix=SERVER_FIX,
        required=False,
    )


async def check_memory_server(start: Callable[..., Any] | None = None) -> CheckResult:
    """Start the local memory server on a free loopback port, ask it for health, stop it."""
    fix = "see the README's troubleshooting section (a port blocked on 127.0.0.1, or a broken onnxruntime/tokenizers install: " + INSTALL_FIX + ")"
    began = time.perf_counter()
    try:
        if start is None:
            from local_memory_server import start_memory_server

            start = start_memory_server
        # Starting blocks until the server is healthy (and loads the embedder once): keep it off the loop.
        server = await asyncio.to_thread(start)
        async with server:
            from cortadel import CortadelClient

            async with CortadelClient(server.url, "environment-check") as client:
                health = await client.health()
            url = server.url
    except Exception as exc:
        return CheckResult("memory server", False, f"could not start the local server: {type(exc).__name__}: {exc}", fix=fix)
    return CheckResult("memory server", True, f"local server started at {url}, health {health.status!r}, stopped again ({time.perf_counter() - began:.1f} s)")


async def check_configured_memory_server(configured: tuple[str, str | None] | None = None) -> CheckResult | None:
    """The server ``CORTADEL_BASE_URL`` names answers ``/api/health``; ``None`` when none is configured."""
    from lesson_utils.cortadel.server_choice import MemoryServerUnreachable, configured_server, probe_configured_server

    configured = configured if configured is not None else configured_server()
    if configured is None:
        return None
    url, api_key = configured
    try:
        status = await asyncio.to_thread(probe_configured_server, url, api_key)
    except MemoryServerUnreachable as exc:
        detail, _, fix = str(exc).partition(": ")
        return CheckResult("configured memory server", False, detail, fix=fix or str(exc))
    return CheckResult("configured memory server", True, f"CORTADEL_BASE_URL={url} answered, health {status!r}")


async def check_environment(*, model: bool = True, memory_server: bool = True, extras: Iterable[str] = ()) -> EnvironmentReport:
    """Run every check and return the report (print it for the OK/FAIL lines).

    With the ``server`` extra installed its pins are checked and the local server is started;
    without it, one ``WARN`` line says so and names the fix (lessons 00–06 do not need it).
    """
    report = EnvironmentReport()
    server_extra = check_server_extra() if memory_server else None
    if server_extra is not None and server_extra.ok:
        extras = {*extras, "server"}
    try:
        pins = read_pins(extras=extras)
    except Exception as exc:
        report.results.append(CheckResult("pins", False, f"could not read the series' pins: {exc}", fix=INSTALL_FIX))
        pins = None
    if pins is not None:
        report.results.append(check_python(pins.requires_python))
        report.results += [check_package(req) for req in pins.requirements]
    report.results.append(check_kernel())
    if model:
        report.results.append(await check_model())
    if server_extra is not None:
        report.results.append(server_extra)
        if server_extra.ok:
            report.results.append(await check_memory_server())
        configured = await check_configured_memory_server()  # a real Cortadel needs only the client
        if configured is not None:
            report.results.append(configured)
    return report
