"""Set up and run the series with one command, on any OS with Python >= 3.10.

    python course.py lab     # create .venv, install, open the notebooks in JupyterLab
    python course.py test    # create .venv, install with test extras, run the whole suite
    python course.py test --live   # run every lesson on the model in .env; table of what it showed

Everything goes into a virtual environment next to this file (``.venv``), so nothing
touches the Python you started it with. Re-running is cheap: pip skips what is there.
Extra arguments after ``test`` are passed to pytest; after ``lab``, to JupyterLab; after
``test --live``, to ``python -m lesson_utils.models.live`` (notebook paths, ``--cell-timeout``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
MIN_PYTHON = (3, 10)


def _venv_python() -> Path:
    scripts = "Scripts" if os.name == "nt" else "bin"
    suffix = ".exe" if os.name == "nt" else ""
    return VENV / scripts / f"python{suffix}"


def _run(*args: str | os.PathLike[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def _ensure_venv(extras: str) -> Path:
    python = _venv_python()
    if not python.exists():
        print(f"Creating a virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    _run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    _run(python, "-m", "pip", "install", "--quiet", "-e", f".[{extras}]" if extras else ".")
    return python


def main(argv: list[str]) -> None:
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"This series needs Python >= {'.'.join(map(str, MIN_PYTHON))}; you ran {sys.version.split()[0]}.")
    if not argv or argv[0] not in {"lab", "test"}:
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    if command == "lab":
        python = _ensure_venv("")
        # JupyterLab refuses to start as root (containers, some WSL shells) unless told.
        as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        _run(python, "-m", "jupyter", "lab", "notebooks", *as_root, *rest)
    elif rest[:1] == ["--live"]:
        # No offline forcing: the lessons run on the model .env configures (see README, "Live mode").
        _run(_ensure_venv("test"), "-m", "lesson_utils.models.live", *rest[1:])
    else:
        python = _ensure_venv("test")
        env = dict(os.environ)
        # The suite always runs on the offline lesson model, whatever .env says.
        env["LESSON_MODEL"] = "offline"
        _run(python, "-m", "pytest", "-p", "no:cacheprovider", "--nbmake", *rest, env=env)


if __name__ == "__main__":
    main(sys.argv[1:])
