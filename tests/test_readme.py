"""The README is a learner's page: short, with every lesson and its time, links that lead somewhere, both test tiers.

Maintainers' material lives in ``docs/`` (and ``bench/README.md``), linked from the README. Nothing here runs a
notebook: it reads the README, the ``docs/`` pages and the notebooks' JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = sorted((REPO / "docs").glob("*.md"))
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
MAX_BYTES = 30_000

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
TIME = re.compile(r"^\d+ min$")
CHECK = re.compile(r"""check\(\s*["'](\d\d\.[a-z0-9_]+)["']""")


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section, up to the next heading of level 2."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, f"README has no '## {heading}' section"
    return match.group(1)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", FENCE.sub("", text), re.M):
        slug, n = _slug(heading), 0
        while (slug if n == 0 else f"{slug}-{n}") in found:
            n += 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def _relative_links(text: str) -> list[str]:
    prose = CODE_SPAN.sub("``", FENCE.sub("", text))
    return [t for t in LINK.findall(prose) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def broken_links(path: Path) -> list[str]:
    """Each relative link of ``path`` whose file is missing, or whose ``#anchor`` a Markdown target lacks."""
    broken = []
    for target in _relative_links(_read(path)):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(_read(linked)):
            broken.append(f"{target} (no such heading in {linked.relative_to(REPO)})")
    return broken


def lesson_rows(text: str) -> dict[str, list[str]]:
    """The lesson table's rows by notebook name, each as its cells."""
    rows = {}
    for line in _section(text, "The lessons").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for name in re.findall(r"`(\d\d_[a-z0-9_]+)`", line):
            rows[name] = cells
    return rows


def test_the_readme_is_at_most_30_kb() -> None:
    size = README.stat().st_size
    assert size <= MAX_BYTES, f"README.md is {size:,} bytes; move maintainers' material to docs/ (limit {MAX_BYTES:,})"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_lesson_is_in_the_lesson_table_with_a_time(notebook: Path) -> None:
    rows = lesson_rows(_read(README))
    assert notebook.stem in rows, f"the README's lesson table has no row for {notebook.stem}"
    row = rows[notebook.stem]
    assert any(TIME.match(cell) for cell in row), f"{notebook.stem}'s row gives no time estimate ('25 min'): {row}"
    assert f"(notebooks/{notebook.name})" in "|".join(row), f"{notebook.stem}'s row does not link the notebook"


def test_every_exercise_a_lesson_checks_is_named_in_the_readme() -> None:
    exercises = _section(_read(README), "Exercises")
    checked = {i for nb in NOTEBOOKS for cell in json.loads(_read(nb))["cells"] if cell["cell_type"] == "code"
               for i in CHECK.findall("".join(cell["source"]))}
    assert checked, "no check(...) cell found in the notebooks"
    missing = sorted(i for i in checked if f"`{i}`" not in exercises)
    assert not missing, f"the README's Exercises section does not name {missing}"


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    assert not broken_links(page), broken_links(page)


def test_the_docs_pages_are_linked_from_the_readme() -> None:
    linked = {t.partition("#")[0] for t in _relative_links(_read(README))}
    assert DOCS, "docs/ has no pages"
    unlinked = [p.name for p in DOCS if f"docs/{p.name}" not in linked]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_the_readme_names_both_test_tiers() -> None:
    text = _read(README)
    commands = [line.split("#")[0].strip() for block in re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M)
                for line in block.splitlines()]
    assert "python course.py test" in commands, "the Quickstart has no quick-tier command"
    assert "python course.py test --full" in commands, "the Quickstart has no full-tier command"
    tests = _section(text, "Tests")
    assert "`python course.py test`" in tests and "`python course.py test --full`" in tests, \
        "the Tests section should say what each tier covers"
    ci = _read(REPO / ".ci" / "run")
    assert re.search(r"^python3? course\.py test --full$", ci, re.M), "CI should run the README's full-tier command"
