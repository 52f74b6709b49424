"""Set up and run the series with one command, on any OS with Python >= 3.10.

    python course.py lab              create .venv, install, open the notebooks in JupyterLab
    python course.py test             create .venv, install with test extras, run the quick tier (minutes):
                                      the unit tests and every lesson notebook, offline
    python course.py test --full      the full suite, as CI runs it: solutions, browser, code quality, ...
    python course.py install          only the install `lab` does (e.g. before a workshop), no JupyterLab
    python course.py test --live      run every lesson on the model in .env; a table of what it showed
    python course.py server [ARGS]    run the local memory server in the foreground (--help for its options)
    python course.py reset NN         put lesson NN back as it was committed (drops your outputs and edits)

Everything goes into a virtual environment next to this file (.venv), so nothing touches the
Python you started it with. It installs the package with its `server` extra (the local memory
server, lessons 07 on) and, for `test`, the `test` extra. Re-running is cheap: the install is
skipped while pyproject.toml and the extras asked for are unchanged. Extra arguments after `test` go to pytest; after `lab`, to JupyterLab; after
`test --live`, to `python -m course_kit.live` (notebook paths, --cell-timeout).

`test` runs pytest on parallel workers (pytest-xdist) and deselects the tests marked `full` (-m "not full"):
the solutions, the lessons rerun on a stand-in OpenAI server and without the server extra, the browser,
lint/type/dependency checks, and the slow tests (tests/conftest.py says which). Each exercise test draws
one seed (COURSE_TEST_SEEDS, a number or `all`); `test --full` runs every test and every seed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
MIN_PYTHON = (3, 10)
COMMANDS = ("lab", "test", "install", "server", "reset")
# `test`: pytest workers in parallel (pytest-xdist; one per core, at most this many: each holds a
# notebook kernel and the embedding model), the quick tier unless `--full`, and how many seeds each
# exercise test draws (tests/exercises/conftest.py reads it).
MAX_WORKERS = 4
SEEDS_VARIABLE = "COURSE_TEST_SEEDS"
# A notebook whose kernel died before it answered, or never answered, is run once more (pytest-rerunfailures):
# on a busy machine another test's connection can take a port between jupyter_client choosing it and the kernel
# binding it (nbmake#129). Only these kernel-start errors are retried; a failing cell fails at once.
KERNEL_START_ERRORS = ("Kernel died before replying to kernel_info", "Kernel didn't respond in")
KERNEL_START_RETRY = ["--reruns", "1", *(arg for error in KERNEL_START_ERRORS for arg in ("--only-rerun", error))]
# What each command installs: the package with the memory server (an extra, so that a bare
# `pip install -e .` stays small), plus the test tools for `test`.
LAB_EXTRAS = "server"
TEST_EXTRAS = "server,test"
# setuptools warns on every editable install that a same-named folder may shadow the package;
# that folder *is* the package here, so the warning is noise a learner cannot act on.
QUIET_BUILD = {"PYTHONWARNINGS": "ignore:Editable installation"}


def _venv_python() -> Path:
    scripts = "Scripts" if os.name == "nt" else "bin"
    suffix = ".exe" if os.name == "nt" else ""
    return VENV / scripts / f"python{suffix}"


def _run(*args: str | os.PathLike[str], env: dict[str, str] | None = None, echo: bool = True) -> None:
    if echo:
        print("+", " ".join(str(a) for a in args), flush=True)
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def _install_stamp(extras: str) -> str:
    """What the last install was made from: pyproject.toml's bytes and the extras asked for."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(extras.encode("utf-8"))
    return digest.hexdigest()


def _ensure_venv(extras: str) -> Path:
    python = _venv_python()
    if not python.exists():
        print(f"Creating a virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    # One stamp per set of extras: `lab` after `test` finds its own stamp, and a new extra in
    # a command (or a changed pyproject.toml) changes the stamp, so pip runs again.
    stamp_file = VENV / f".course-install-{extras.replace(',', '+') or 'base'}"
    stamp = _install_stamp(extras)
    if stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == stamp:
        _refresh_git_after_saves(VENV)
        return python
    env = {**os.environ, **QUIET_BUILD}
    _run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip", env=env)
    # --no-compile: byte-compiling all of site-packages up front costs ~30 s; Python compiles what it imports.
    _run(python, "-m", "pip", "install", "--quiet", "--no-compile", "-e", f".[{extras}]" if extras else ".", env=env)
    stamp_file.write_text(stamp, encoding="utf-8")
    _strip_outputs_in_git(python)
    _refresh_git_after_saves(VENV)
    return python


# Running a lesson adds `metadata.language_info` (the kernel's version, codemirror mode …); stripped, an
# executed lesson is byte-for-byte the committed one and `git status` stays clean.
STRIP_OPTIONS = ("--keep-id", "--extra-keys", "metadata.language_info")


def _strip_outputs_in_git(python: Path) -> None:
    """Make git see lessons without their outputs: nbstripout as a git filter (see .gitattributes).

    Running a lesson in JupyterLab saves its outputs into the notebook; with the filter, `git status`
    and `git diff` ignore them and no output can be committed. `--keep-id` keeps the committed cell
    ids, so an untouched lesson stays byte-for-byte clean. Not a git checkout: nothing to do.
    """
    if not (ROOT / ".git").exists():
        return
    strip = f'"{Path(python).as_posix()}" -m nbstripout {" ".join(STRIP_OPTIONS)}'
    for key, value in (
        ("filter.nbstripout.clean", strip),
        ("filter.nbstripout.smudge", "cat"),
        ("diff.ipynb.textconv", f"{strip} -t"),
    ):
        completed = subprocess.run(["git", "config", key, value], cwd=ROOT, capture_output=True, text=True)
        if completed.returncode != 0:
            print(f"note: could not set up output stripping for git ({completed.stderr.strip()})", flush=True)
            return


def _refresh_git_after_saves(prefix: Path) -> None:
    """Have the course's Jupyter (JupyterLab saves, `nbconvert --inplace`) keep `git status` clean after a run.

    With the filter, git *stores* an executed lesson as the committed one, but `git status` reports a file
    whose size changed as modified without filtering it. `course_kit.notebook_git` refreshes the index entry
    of a saved lesson whose filtered content is unchanged; this writes the Jupyter configuration that calls it
    into the environment's own `etc/jupyter`, which Jupyter reads wherever it is started from.
    """
    if not (ROOT / ".git").exists():
        return
    import json

    sys.path.insert(0, str(ROOT))
    try:
        from course_kit.notebook_git import JUPYTER_CONFIG
    finally:
        sys.path.remove(str(ROOT))
    folder = Path(prefix) / "etc" / "jupyter"
    folder.mkdir(parents=True, exist_ok=True)
    for name, settings in JUPYTER_CONFIG.items():
        (folder / name).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")


def _reset(python: Path, names: list[str]) -> None:
    if not names:
        sys.exit("usage: python course.py reset NN [NN ...]   (e.g. python course.py reset 04)")
    for name in names:
        matches = sorted((ROOT / "notebooks").glob(f"{name}*.ipynb")) or sorted(ROOT.glob(name))
        if len(matches) != 1:
            sys.exit(f"reset: {name!r} matches {len(matches)} notebooks; give a lesson number like 04")
        notebook = matches[0].relative_to(ROOT).as_posix()
        committed = subprocess.run(["git", "show", f"HEAD:{notebook}"], cwd=ROOT, capture_output=True)
        if committed.returncode == 0:
            (ROOT / notebook).write_bytes(committed.stdout)
            print(f"reset {notebook} to the committed lesson")
        else:  # not a git checkout: at least drop the outputs
            _run(python, "-m", "nbstripout", *STRIP_OPTIONS, notebook, echo=False)
            print(f"stripped the outputs of {notebook} (no git history to restore your edits from)")


def main(argv: list[str]) -> None:
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"This series needs Python >= {'.'.join(map(str, MIN_PYTHON))}; you ran {sys.version.split()[0]}.")
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(__doc__.strip())
        return
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        sys.exit(f"course.py: unknown command {command!r}; use one of: {', '.join(COMMANDS)}\n\n{__doc__.strip()}")
    if command == "install":
        _ensure_venv(LAB_EXTRAS)
        print(f"Installed: {_venv_python()} (run `python course.py lab` to open the notebooks)")
    elif command == "lab":
        python = _ensure_venv(LAB_EXTRAS)
        # JupyterLab refuses to start as root (containers, some WSL shells) unless told.
        as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        _run(python, "-m", "jupyter", "lab", "notebooks", *as_root, *rest)
    elif command == "server":
        python = _ensure_venv(LAB_EXTRAS)
        _run(python, "-m", "local_memory_server", *rest, echo=False)
    elif command == "reset":
        _reset(_ensure_venv(LAB_EXTRAS), rest)
    elif rest[:1] == ["--live"]:
        # No offline forcing: the lessons run on the model .env configures (see README, "Live mode").
        _run(_ensure_venv(TEST_EXTRAS), "-m", "course_kit.live", *rest[1:])
    else:
        full = "--full" in rest
        rest = [arg for arg in rest if arg != "--full"]
        python = _ensure_venv(TEST_EXTRAS)
        env = dict(os.environ)
        # The suite always runs on the offline lesson model, whatever .env says.
        env["LESSON_MODEL"] = "offline"
        if full:
            env[SEEDS_VARIABLE] = "all"
        else:
            env.setdefault(SEEDS_VARIABLE, "1")
        tier = [] if full else ["-m", "not full"]
        # One test at a time to whichever worker is free: the notebooks, collected first (tests/conftest.py), spread
        # over the workers instead of queueing on one.
        workers = ["-n", "auto", "--maxprocesses", str(MAX_WORKERS), "--dist", "load", "--maxschedchunk", "1"]
        pytest = ["-m", "pytest", "-p", "no:cacheprovider", "--nbmake", *workers, *KERNEL_START_RETRY]
        _run(python, *pytest, *tier, *rest, env=env)


if __name__ == "__main__":
    main(sys.argv[1:])
