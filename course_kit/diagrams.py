"""The lessons' mermaid diagrams as SVG files, so handouts show them with no network.

JupyterLab draws a ```` ```mermaid ```` block in a markdown cell by itself. An exported HTML page
would need mermaid's script from a CDN, and venue Wi-Fi fails. So every diagram is rendered once,
when it is written, to ``notebooks/diagrams/<hash>.svg``, named by the hash of its source: the
handout build inlines that file, and a test fails when a diagram has no SVG or an SVG no diagram.

Rendering is an authoring step, not a build step: ``python -m course_kit.diagrams`` draws the
missing ones in headless Chromium with mermaid from npm (see ``--help``). Building handouts needs
neither.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO_ROOT / "notebooks"
DIAGRAMS = NOTEBOOKS / "diagrams"
MERMAID_JS = REPO_ROOT / "build" / "mermaid" / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
CHROMIUM = Path("/usr/bin/chromium")

MERMAID_BLOCK = re.compile(r"^```mermaid[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def diagram_id(source: str) -> str:
    """The file stem of a diagram: the first 16 hex digits of the sha256 of its stripped source."""
    return hashlib.sha256(source.strip().encode("utf-8")).hexdigest()[:16]


def svg_path(source: str, folder: Path = DIAGRAMS) -> Path:
    return folder / f"{diagram_id(source)}.svg"


def sources_in(notebook: Path) -> list[str]:
    """The mermaid sources of one notebook's markdown cells, in order."""
    with open(notebook, encoding="utf-8") as f:
        nb = json.load(f)
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            found += [match.group(1) for match in MERMAID_BLOCK.finditer(text)]
    return found


def all_sources(notebooks: Iterable[Path] | None = None) -> dict[str, str]:
    """``{diagram id: source}`` over every lesson and solution notebook."""
    paths = notebooks if notebooks is not None else sorted(NOTEBOOKS.rglob("*.ipynb"))
    return {diagram_id(source): source for path in paths for source in sources_in(path)}


def inline_diagrams(markdown: str, folder: Path = DIAGRAMS) -> tuple[str, list[str]]:
    """``markdown`` with each mermaid block replaced by its SVG as an image; and the ids with no SVG."""
    missing: list[str] = []

    def replace(match: re.Match[str]) -> str:
        path = svg_path(match.group(1), folder)
        if not path.is_file():
            missing.append(path.stem)
            return match.group(0)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'<img class="lesson-diagram" alt="diagram" src="data:image/svg+xml;base64,{data}"/>'

    return MERMAID_BLOCK.sub(replace, markdown), missing


def render(sources: dict[str, str], folder: Path = DIAGRAMS, *, mermaid_js: Path = MERMAID_JS) -> list[Path]:
    """Draw each source to ``folder/<id>.svg`` in headless Chromium; the files written."""
    if not mermaid_js.is_file():
        raise FileNotFoundError(
            f"mermaid is not installed at {mermaid_js}: run `npm install --prefix build/mermaid mermaid@11` "
            "from the repository root (authoring only; handouts do not need it)"
        )
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        page = browser.new_page()
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(path=str(mermaid_js))
        page.evaluate(
            "() => mermaid.initialize({startOnLoad: false, theme: 'default', securityLevel: 'strict',"
            " flowchart: {htmlLabels: false}})"
        )
        for key, source in sources.items():
            svg = page.evaluate("async ([id, src]) => (await mermaid.render(id, src)).svg", [f"d{key}", source])
            target = folder / f"{key}.svg"
            target.write_text(svg, encoding="utf-8")
            written.append(target)
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_kit.diagrams",
        description="Render the lessons' mermaid diagrams to notebooks/diagrams/*.svg (authoring step). "
        "Needs /usr/bin/chromium and `npm install --prefix build/mermaid mermaid@11`.",
    )
    parser.add_argument("--check", action="store_true", help="only list missing and stale SVGs; exit 1 if any")
    args = parser.parse_args(argv)
    wanted = all_sources()
    have = {p.stem for p in DIAGRAMS.glob("*.svg")} if DIAGRAMS.is_dir() else set()
    missing = {key: source for key, source in wanted.items() if key not in have}
    stale = sorted(have - set(wanted))
    if args.check:
        for key in missing:
            print(f"missing: notebooks/diagrams/{key}.svg")
        for key in stale:
            print(f"stale:   notebooks/diagrams/{key}.svg")
        return 1 if missing or stale else 0
    for key in stale:
        os.remove(DIAGRAMS / f"{key}.svg")
        print(f"removed stale notebooks/diagrams/{key}.svg")
    for path in render(missing):
        print(f"rendered {path.relative_to(REPO_ROOT).as_posix()}")
    print(f"{len(wanted)} diagrams, {len(missing)} rendered, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
