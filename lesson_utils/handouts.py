"""Workshop handouts: every notebook executed offline and exported to HTML, plus an index page.

    python -m lesson_utils.handouts                  # all notebooks -> build/handouts/
    python -m lesson_utils.handouts --out DIR 02 03  # only notebooks whose name starts with 02 or 03

Notebooks are executed as *copies* (under ``<out>/executed/``) on the offline lesson model, so
the committed notebooks stay output-free and nothing needs a key. A notebook that fails is still
exported (its error is visible in the HTML), marked FAILED in the index, and the command exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import logging
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
from nbconvert import HTMLExporter

logger = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_NOTEBOOKS = REPO_ROOT / "notebooks"
DEFAULT_OUT = REPO_ROOT / "build" / "handouts"


@dataclass(frozen=True)
class Handout:
    """One exported notebook."""

    notebook: Path
    title: str
    html: Path
    executed: Path
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@contextlib.contextmanager
def offline_kernel_environment() -> Iterator[None]:
    """Kernels started inside inherit LESSON_MODEL=offline and can import lesson_utils from this checkout."""
    saved = {key: os.environ.get(key) for key in ("LESSON_MODEL", "PYTHONPATH")}
    os.environ["LESSON_MODEL"] = "offline"
    paths = [str(REPO_ROOT), *filter(None, (saved["PYTHONPATH"] or "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def notebook_title(nb: nbformat.NotebookNode, fallback: str) -> str:
    """The first markdown heading, without the leading ``#``."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return fallback


def build_handout(notebook: Path, out: Path, *, timeout: int = 120, kernel_name: str = "python3") -> Handout:
    """Execute one notebook (a copy) and export it to ``out/<name>.html``."""
    with open(notebook, encoding="utf-8") as f:
        nb = nbformat.read(f, as_version=4)
    title = notebook_title(nb, notebook.stem)
    client = NotebookClient(
        nb, timeout=timeout, kernel_name=kernel_name, resources={"metadata": {"path": str(notebook.parent)}}
    )
    error: str | None = None
    began = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as exc:
        error = f"{exc.ename}: {exc.evalue}"
    except (CellTimeoutError, DeadKernelError, RuntimeError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - began

    executed = out / "executed" / notebook.name
    executed.parent.mkdir(parents=True, exist_ok=True)
    with open(executed, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)
    body, _resources = HTMLExporter(template_name="lab").from_notebook_node(nb, resources={"metadata": {"name": title}})
    target = out / f"{notebook.stem}.html"
    with open(target, "w", encoding="utf-8") as f:
        f.write(body)
    return Handout(notebook, title, target, executed, seconds, error)


def write_index(handouts: Sequence[Handout], out: Path) -> Path:
    """``out/index.html``: the lessons in order, each linked, failures marked."""
    rows = []
    for h in handouts:
        status = "" if h.ok else f" <strong style='color:#b00020'>FAILED: {html.escape(h.error or '')}</strong>"
        rows.append(
            f"<li><a href='{html.escape(h.html.name)}'>{html.escape(h.title)}</a>"
            f" <small>({html.escape(h.notebook.name)}, {h.seconds:.1f} s)</small>{status}</li>"
        )
    page = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<title>Conversation and Memory with Microsoft Agent Framework: handouts</title></head>"
        "<body style='font-family:sans-serif;max-width:50em;margin:2em auto'>"
        "<h1>Conversation and Memory with Microsoft Agent Framework</h1>"
        "<p>Each lesson below was executed top to bottom on the offline lesson model.</p>"
        f"<ol>{''.join(rows)}</ol></body></html>"
    )
    index = out / "index.html"
    with open(index, "w", encoding="utf-8") as f:
        f.write(page)
    return index


def select_notebooks(folder: Path, prefixes: Sequence[str] = ()) -> list[Path]:
    notebooks = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    if prefixes:
        notebooks = [p for p in notebooks if any(p.name.startswith(prefix) for prefix in prefixes)]
    return notebooks


def build_handouts(
    notebooks: Sequence[Path], out: Path = DEFAULT_OUT, *, timeout: int = 120, kernel_name: str = "python3"
) -> list[Handout]:
    """Execute and export each notebook in order, then write the index."""
    out.mkdir(parents=True, exist_ok=True)
    handouts = []
    with offline_kernel_environment():
        for notebook in notebooks:
            logger.info("executing %s", notebook.name)
            handouts.append(build_handout(notebook, out, timeout=timeout, kernel_name=kernel_name))
    write_index(handouts, out)
    return handouts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lesson_utils.handouts", description=__doc__.split("\n\n")[0])
    parser.add_argument("prefixes", nargs="*", help="only notebooks whose file name starts with one of these (e.g. 02)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default: {DEFAULT_OUT})")
    parser.add_argument("--notebooks", type=Path, default=DEFAULT_NOTEBOOKS, help="folder of .ipynb lessons")
    parser.add_argument("--timeout", type=int, default=120, help="seconds allowed per cell (default: 120)")
    args = parser.parse_args(argv)

    notebooks = select_notebooks(args.notebooks, args.prefixes)
    if not notebooks:
        print(f"No notebooks found in {args.notebooks}" + (f" starting with {args.prefixes}" if args.prefixes else ""), file=sys.stderr)
        return 2
    handouts = build_handouts(notebooks, args.out, timeout=args.timeout)
    for h in handouts:
        print(f"{'OK  ' if h.ok else 'FAIL'} {h.notebook.name} -> {h.html} ({h.seconds:.1f} s)" + ("" if h.ok else f"\n     {h.error}"))
    print(f"Index: {args.out / 'index.html'}")
    return 0 if all(h.ok for h in handouts) else 1


if __name__ == "__main__":
    sys.exit(main())
