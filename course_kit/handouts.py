"""Workshop handouts: every notebook executed offline and exported to HTML, plus an index page.

    python -m course_kit.handouts                  # build/handouts/lessons/ and build/handouts/solutions/
    python -m course_kit.handouts --out DIR 02 03  # only notebooks whose name starts with 02 or 03
    python -m course_kit.handouts --pack lessons   # the lesson pack alone (no solutions in it)

Notebooks are executed as *copies* (under ``<pack>/executed/``) on the offline lesson model, so
the committed notebooks stay output-free and nothing needs a key. A notebook that fails is still
exported (its error is visible in the HTML), marked FAILED in the index, and the command exits 1.

The lesson pack holds the lessons with their exercises still to do; the solutions pack, built
from ``notebooks/solutions/``, is separate, so a workshop leader hands out one and keeps the other.

Pages work from ``file://`` with the network off (venue Wi-Fi fails): no remote script, style or
font. Diagrams are inlined from their pre-rendered SVG (:mod:`course_kit.diagrams`), and each
widget output becomes a static snapshot of what it showed when executed, marked as live in JupyterLab.
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

from .diagrams import DIAGRAMS, inline_diagrams

logger = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_NOTEBOOKS = REPO_ROOT / "notebooks"
DEFAULT_OUT = REPO_ROOT / "build" / "handouts"
PACKS = {"lessons": "", "solutions": "solutions"}  # pack name -> folder under the notebooks folder
TEMPLATES = Path(__file__).resolve().parent / "handout_template"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
SNAPSHOT_NOTE = "Live in JupyterLab: this widget is interactive there. Below is what it showed when this page was built."


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
        nb,
        timeout=timeout,
        kernel_name=kernel_name,
        resources={"metadata": {"path": str(notebook.parent)}},
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
    missing = make_offline(nb)
    if missing and error is None:
        error = f"diagrams without an SVG ({', '.join(missing)}): run `python -m course_kit.diagrams`"
    exporter = HTMLExporter(template_name="handout", extra_template_basedirs=[str(TEMPLATES)])
    body, _resources = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    target = out / f"{notebook.stem}.html"
    with open(target, "w", encoding="utf-8") as f:
        f.write(body)
    return Handout(notebook, title, target, executed, seconds, error)


def make_offline(nb: nbformat.NotebookNode) -> list[str]:
    """Make an executed notebook need no network as HTML: diagrams inlined, widgets as snapshots.

    Returns the ids of diagrams that have no rendered SVG (left as code blocks).
    """
    missing: list[str] = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source, absent = inline_diagrams(cell.source, DIAGRAMS)
            missing += absent
    states = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is not None:
                snapshot = widget_html(view.get("model_id", ""), states)
                output["data"] = {
                    "text/html": f"<div class='lesson-widget-snapshot'><div class='lesson-widget-note'>"
                    f"{html.escape(SNAPSHOT_NOTE)}</div>{snapshot}</div>",
                    "text/plain": SNAPSHOT_NOTE,
                }
    nb.metadata.pop("widgets", None)
    return missing


def widget_html(model_id: str, states: dict, depth: int = 0) -> str:
    """Static HTML for what a widget model showed, from the widget state nbclient saved."""
    entry = states.get(model_id)
    if entry is None or depth > 20:
        return "<em>(this widget's state was not saved)</em>"
    name, state = entry.get("model_name", ""), entry.get("state", {})
    children = [c.removeprefix("IPY_MODEL_") for c in state.get("children", []) if isinstance(c, str)]
    if children:
        direction = "row" if name == "HBoxModel" else "column"
        inner = "".join(widget_html(child, states, depth + 1) for child in children)
        return f"<div style='display:flex;flex-direction:{direction};gap:0.4em'>{inner}</div>"
    value = state.get("value", "")
    if name in {"HTMLModel", "HTMLMathModel"}:
        return str(value)  # the widget's own markup, exactly as JupyterLab rendered it
    if name in {"TextModel", "TextareaModel"}:
        shown = value or state.get("placeholder", "")
        return f"<div style='border:1px solid #ccc;padding:2px 4px;color:#777'>{html.escape(str(shown))}</div>"
    labels = state.get("_options_labels")
    if isinstance(labels, list):  # Select, SelectMultiple, Dropdown, RadioButtons: their options as a list
        items = "".join(f"<li>{html.escape(str(label))}</li>" for label in labels)
        return f"<ul style='border:1px solid #ccc;margin:0;padding:2px 1.5em'>{items}</ul>" if items else ""
    if name == "ButtonModel":
        return f"<button disabled>{html.escape(str(state.get('description', '')))}</button>"
    if name == "LabelModel" or isinstance(value, str):
        return f"<span>{html.escape(str(value))}</span>"
    return f"<em>({html.escape(name.removesuffix('Model') or 'widget')})</em>"


def write_index(handouts: Sequence[Handout], out: Path, *, pack: str = "lessons") -> Path:
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
        f"<p>{'Solutions to the exercises' if pack == 'solutions' else 'The lessons, with their exercises to do'}: "
        "each page below was executed top to bottom on the offline lesson model.</p>"
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
    notebooks: Sequence[Path],
    out: Path = DEFAULT_OUT,
    *,
    timeout: int = 120,
    kernel_name: str = "python3",
    pack: str = "lessons",
) -> list[Handout]:
    """Execute and export each notebook in order, then write the pack's index."""
    out.mkdir(parents=True, exist_ok=True)
    handouts = []
    with offline_kernel_environment():
        for notebook in notebooks:
            logger.info("executing %s", notebook.name)
            handouts.append(build_handout(notebook, out, timeout=timeout, kernel_name=kernel_name))
    write_index(handouts, out, pack=pack)
    return handouts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_kit.handouts", description=__doc__.split("\n\n")[0])
    parser.add_argument("prefixes", nargs="*", help="only notebooks whose file name starts with one of these (e.g. 02)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default: {DEFAULT_OUT})")
    parser.add_argument("--notebooks", type=Path, default=DEFAULT_NOTEBOOKS, help="folder of .ipynb lessons")
    parser.add_argument("--pack", choices=[*PACKS, "both"], default="both",
                        help="lessons (no solutions), solutions, or both as two separate packs (default)")
    parser.add_argument("--timeout", type=int, default=120, help="seconds allowed per cell (default: 120)")
    args = parser.parse_args(argv)

    packs = list(PACKS) if args.pack == "both" else [args.pack]
    chosen = {pack: select_notebooks(args.notebooks / PACKS[pack], args.prefixes) for pack in packs}
    if not any(chosen.values()):
        print(f"No notebooks found in {args.notebooks}" + (f" starting with {args.prefixes}" if args.prefixes else ""), file=sys.stderr)
        return 2
    ok = True
    for pack, notebooks in chosen.items():
        if not notebooks:
            continue
        handouts = build_handouts(notebooks, args.out / pack, timeout=args.timeout, pack=pack)
        for h in handouts:
            print(f"{'OK  ' if h.ok else 'FAIL'} {h.notebook.name} -> {h.html} ({h.seconds:.1f} s)" + ("" if h.ok else f"\n     {h.error}"))
        print(f"{pack} pack: {args.out / pack / 'index.html'}")
        ok = ok and all(h.ok for h in handouts)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
