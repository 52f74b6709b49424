"""Which package may import which: the dependency direction, written down and enforced.

Why: a learner who opens the provider they built should not find it importing the course's checks, and the local
memory server should run without the offline lesson model. The distribution holds six packages; each module
belongs to one part (:data:`PARTS`), and a part may import only the parts :data:`MAY_IMPORT` names. Imports are
read from the source with ``ast``: ``import``/``from`` statements anywhere (inside functions too), relative ones
resolved, and ``importlib.import_module("...")`` with a literal name. :data:`KNOWN_CROSSINGS` lists the crossings
that exist, each with its reason. It may only shrink: a new crossing fails, and so does a listed one that no longer
exists.

The graph (arrows: may import; ``docs/maintainers.md`` draws the same):

    course_kit ──► memory_evaluation ──► lesson_utils ───────────► foundation
        │                 │  └─────────► local_memory_server ────► foundation
        │                 └────────────► chat_models ────────────► foundation
        └──► everything

foundation = ``model_config`` (which model the lessons use), ``offline_reader`` (the one small offline reader of
English) and two small modules of ``lesson_utils`` that every part shares: ``errors`` (the one exception base) and
``cortadel_contract`` (the REST contract's limits).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("lesson_utils", "model_config", "offline_reader", "chat_models", "local_memory_server", "memory_evaluation", "course_kit")
FOUNDATION = {"lesson_utils.errors", "lesson_utils.cortadel_contract", "model_config", "offline_reader"}

PARTS = ("foundation", "lesson_utils", "local_memory_server", "chat_models", "memory_evaluation", "course_kit")
MAY_IMPORT = {
    "foundation": {"foundation"},
    "lesson_utils": {"foundation", "lesson_utils"},
    "local_memory_server": {"foundation", "local_memory_server"},
    "chat_models": {"foundation", "chat_models"},
    "memory_evaluation": {"foundation", "lesson_utils", "local_memory_server", "chat_models", "memory_evaluation"},
    "course_kit": set(PARTS),
}
#: (importing file, imported part): why it exists.
KNOWN_CROSSINGS = {
    ("lesson_utils/resume.py", "chat_models"):
        "lesson 05's other process is a program: its command line builds the lessons' chat client",
    ("lesson_utils/scaling/worker.py", "chat_models"):
        "lesson 14's worker is a program: it builds the lessons' chat client and records what it sent",
}


def part_of(module: str) -> str | None:
    """The part a dotted module name belongs to, or ``None`` for anything outside the distribution."""
    if any(module == unit or module.startswith(unit + ".") for unit in FOUNDATION):
        return "foundation"
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def _module_of(path: Path) -> str:
    dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return dotted.removesuffix(".__init__")


def imported_modules(path: Path, source: str | None = None) -> set[str]:
    """The distribution's modules ``path`` (or ``source`` read as that file) imports, however it does."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - (node.level - 1)] + ([node.module] if node.module else []))
            for alias in node.names:  # `from lesson_utils import errors` imports the foundation, not the package
                named = f"{base}.{alias.name}"
                found.add(named if part_of(named) == "foundation" else base)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
              and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return {module for module in found if part_of(module) is not None}


def _crossings() -> set[tuple[str, str]]:
    crossings = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            mine = part_of(_module_of(path))
            assert mine is not None
            for module in imported_modules(path):
                theirs = part_of(module)
                if theirs not in MAY_IMPORT[mine]:
                    crossings.add((path.relative_to(ROOT).as_posix(), theirs or module))
    return crossings


def test_the_distribution_installs_exactly_these_packages() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert all(f'"{package}*"' in text for package in PACKAGES), "pyproject's packages.find lists every package"
    assert {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()} == set(PACKAGES)


def test_no_part_imports_what_the_direction_forbids() -> None:
    new = sorted(_crossings() - set(KNOWN_CROSSINGS))
    assert not new, "forbidden imports (see the graph in this module's docstring): " + "; ".join(
        f"{module} imports {part}" for module, part in new)


def test_the_known_crossings_only_shrink() -> None:
    gone = sorted(set(KNOWN_CROSSINGS) - _crossings())
    assert not gone, f"these crossings no longer exist: remove them from KNOWN_CROSSINGS: {gone}"


def test_a_forbidden_import_fails_however_it_is_written() -> None:
    server = ROOT / "local_memory_server" / "service.py"
    for line in ("from course_kit.checks import requests", "import course_kit.checks.requests",
                 "from course_kit import checks", 'importlib.import_module("course_kit.checks.requests")',
                 "from chat_models import get_chat_client", "import lesson_utils.cortadel"):
        imported = imported_modules(server, f"import importlib\n{line}\n")
        assert {part_of(m) for m in imported} - MAY_IMPORT["local_memory_server"], line
    taught = ROOT / "lesson_utils" / "cortadel" / "provider.py"
    for line in ("from ..errors import LessonError", "from offline_reader import content_words",
                 "from model_config import resolve_model"):
        assert {part_of(m) for m in imported_modules(taught, line)} <= MAY_IMPORT["lesson_utils"], line
    assert {part_of(m) for m in imported_modules(taught, "from ...course_kit import lesson")} == {"course_kit"}


def test_the_taught_library_is_small() -> None:
    """The brief's "small shared package": what the lessons teach, at most 5,000 lines of Python."""
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "lesson_utils").rglob("*.py"))
    print(f"lesson_utils: {lines} lines of Python")
    assert lines <= 5000, f"lesson_utils is {lines} lines: move what the lessons do not teach to its own package"
