"""The first five minutes of a learner, measured on a fresh clone: set-up, a served JupyterLab, the tests.

    python bench/first_run.py                 # a fresh clone of HEAD, pip cache as it is (warm)
    python bench/first_run.py --cold          # the same with an empty pip cache (downloads everything)
    python bench/first_run.py --rev 3662615   # an older commit, for a before/after table
    python bench/first_run.py --skip-test     # leave out `python course.py test` (the longest step)

Each step runs the README's own commands with this Python in a clone under a temporary folder,
and prints one table: seconds for `python course.py lab` until JupyterLab answers, the same again
(the second start, when nothing needs installing), the size of `.venv`, and seconds for
`python course.py test`. Nothing is left behind. Run it on an otherwise idle machine: it is noisy.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def time_to_served_lab(clone: Path, env: dict[str, str], timeout: float = 900) -> float:
    """Seconds from `python course.py lab` to JupyterLab answering /lab with 200."""
    port, token = free_port(), secrets.token_hex(8)
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "course.py", "lab", "--no-browser", f"--port={port}", f"--IdentityProvider.token={token}"],
        cwd=clone, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        while time.perf_counter() - began < timeout:
            if process.poll() is not None:
                raise RuntimeError(f"`python course.py lab` exited with {process.returncode} before serving")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=2) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - began
            except OSError:
                time.sleep(0.25)
        raise TimeoutError(f"JupyterLab did not answer within {timeout:.0f} s")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="HEAD", help="commit to clone (default HEAD)")
    parser.add_argument("--cold", action="store_true", help="use an empty pip cache")
    parser.add_argument("--skip-test", action="store_true", help="do not time `python course.py test`")
    args = parser.parse_args(argv)

    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="first-run-") as scratch:
        clone = Path(scratch) / "course"
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "checkout", "--quiet", args.rev], cwd=clone, check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LESSON_", "CORTADEL_", "OPENAI_", "AZURE_"))}
        if args.cold:
            env["PIP_CACHE_DIR"] = str(Path(scratch) / "pip-cache")
        rows.append(("first `python course.py lab` until JupyterLab answers", f"{time_to_served_lab(clone, env):.1f} s"))
        rows.append(("second `python course.py lab` (nothing to install)", f"{time_to_served_lab(clone, env):.1f} s"))
        rows.append(("size of .venv after `lab`", f"{folder_size(clone / '.venv') / 2**20:.0f} MiB"))
        if not args.skip_test:
            began = time.perf_counter()
            done = subprocess.run([sys.executable, "course.py", "test", "-q"], cwd=clone, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            took = time.perf_counter() - began
            summary = next((line for line in reversed(done.stdout.splitlines()) if " passed" in line or " failed" in line), "?")
            rows.append(("`python course.py test` (adds the test extra)", f"{took:.1f} s ({summary.strip('= ')})"))
            rows.append(("size of .venv after `test`", f"{folder_size(clone / '.venv') / 2**20:.0f} MiB"))
        shutil.rmtree(clone / ".venv", ignore_errors=True)

    cache = "cold (empty)" if args.cold else "warm"
    print(f"\nFirst run of {args.rev} on a fresh clone, pip cache {cache}, Python {sys.version.split()[0]}\n")
    print("| step | measured |\n|---|---|")
    for step, value in rows:
        print(f"| {step} | {value} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
