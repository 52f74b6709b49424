"""Which part of ``lesson_utils`` may import which: the dependency direction, written down and enforced.

Why: a learner who opens the provider they built should not find it importing the course's checks, and the local
memory server should run without the offline lesson model. Every top-level module or package of ``lesson_utils``
belongs to one part (:data:`PARTS`); a part may import only the parts :data:`MAY_IMPORT` names. Imports are read
from the source with ``ast``: ``import``/``from`` statements anywhere (inside functions too) and
``importlib.import_module("lesson_utils....")`` with a literal name. :data:`KNOWN_CROSSINGS` lists the crossings
that exist today, each with its reason; the package split (issue 45) removes them. It may only shrink: a new
crossing fails, and so does a listed one that no longer exists.

The graph (arrows: may import):

    course kit ──► evaluation ──► taught library ──► foundation
        │              │  └──────► memory server ───► foundation
        │              └─────────► offline model ───► foundation
        └──► everything
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "lesson_utils"

PARTS = {
    "foundation": {"errors", "model_config", "cortadel_contract", "language", "reader"},
    "taught library": {"cortadel", "persistence", "user_memory", "resume", "scaling", "framework_memory",
                       "context_budget", "typed_state"},
    "memory server": {"memory_server"},
    "offline model": {"models"},
    "evaluation": {"evaluation"},
    "course kit": {"__init__", "checks", "exercises", "claims", "widgets", "handouts", "lesson", "environment",
                   "source", "diagrams", "notebook_git"},
}
MAY_IMPORT = {
    "foundation": {"foundation"},
    "taught library": {"foundation", "taught library"},
    "memory server": {"foundation", "memory server"},
    "offline model": {"foundation", "offline model"},
    "evaluation": {"foundation", "taught library", "memory server", "offline model", "evaluation"},
    "course kit": set(PARTS),
}
#: (importing module, imported top-level unit): why it exists today. The package split removes these.
KNOWN_CROSSINGS = {
    ("cortadel/server_choice.py", "memory_server"): "open_memory_server starts a local server when no URL is set",
    ("framework_memory/designs.py", "evaluation"): "lesson 16's measurement reads the scorecard's cases",
    ("framework_memory/designs.py", "models"): "lesson 16's measurement counts tokens as the offline model does",
    ("framework_memory/embedding_client.py", "memory_server"): "the MiniLM embedder lives in the server extra",
    ("framework_memory/reading.py", "models"): "lesson 15 reads the requests the offline model recorded",
    ("resume.py", "models"): "lesson 05's new process builds the lessons' chat client",
    ("scaling/worker.py", "models"): "lesson 14's worker builds the lessons' chat client and records requests",
    ("models/live.py", "claims"): "live mode reads where claims are logged",
}


def _unit(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0].removesuffix(".py")


def _imported_units(path: Path, source: str | None = None) -> set[str]:
    """The top-level ``lesson_utils`` units ``path`` (or ``source`` read as that module) imports, however it does."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    here = list(path.relative_to(PACKAGE).parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                dotted = base + (node.module.split(".") if node.module else [])
                found |= {dotted[0]} if dotted else {alias.name for alias in node.names}
            elif node.module == "lesson_utils":
                found |= {alias.name for alias in node.names}
            elif node.module and node.module.startswith("lesson_utils."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("lesson_utils.")}
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
              and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and node.args[0].value.startswith("lesson_utils.")):
            found.add(node.args[0].value.split(".")[1])
    return {unit.removesuffix(".py") for unit in found}


def _part(unit: str) -> str | None:
    return next((part for part, units in PARTS.items() if unit in units), None)


def _crossings() -> set[tuple[str, str]]:
    crossings = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = _part(_unit(path))
        for unit in _imported_units(path):
            if _unit(path) != unit and _part(unit) not in MAY_IMPORT[mine or "course kit"]:
                crossings.add((path.relative_to(PACKAGE).as_posix(), unit))
    return crossings


def test_every_module_of_the_package_belongs_to_one_part() -> None:
    units = {_unit(p) for p in PACKAGE.rglob("*.py")}
    unplaced = sorted(u for u in units if _part(u) is None)
    assert not unplaced, f"place {unplaced} in one part of PARTS (and say what it may import)"
    assert sum(len(units) for units in PARTS.values()) == len(set().union(*PARTS.values())), "a unit in two parts"


def test_no_part_imports_what_the_direction_forbids() -> None:
    new = sorted(_crossings() - set(KNOWN_CROSSINGS))
    assert not new, "forbidden imports (see the graph in this module's docstring): " + "; ".join(
        f"{module} imports lesson_utils.{unit}" for module, unit in new)


def test_the_known_crossings_only_shrink() -> None:
    gone = sorted(set(KNOWN_CROSSINGS) - _crossings())
    assert not gone, f"these crossings no longer exist: remove them from KNOWN_CROSSINGS: {gone}"


def test_a_forbidden_import_fails_however_it_is_written() -> None:
    server = PACKAGE / "memory_server" / "service.py"
    for line in ("from ..checks import l10_memory_that_changes", "import lesson_utils.checks.requests",
                 "from lesson_utils import checks", 'importlib.import_module("lesson_utils.checks.requests")'):
        assert "checks" in _imported_units(server, f"import importlib\n{line}\n"), line
    assert _part("checks") not in MAY_IMPORT[_part("memory_server") or ""]
