"""The memory tools' descriptions hold no example value: small models copy examples, and a model that
really calls ``add_memories`` would store the copied example as a false fact about the user."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lesson_utils.cortadel import create_memory_tools

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


class _NoClient:
    async def search(self, *a, **k): ...
    async def add_conversation(self, *a, **k): ...
    async def add(self, *a, **k): ...


def _lesson_text() -> str:
    cells = []
    for path in sorted(NOTEBOOKS.rglob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells += ["".join(c["source"]) for c in nb["cells"]]
    return "\n".join(cells).lower()


def _descriptions() -> str:
    from lesson_utils.cortadel.client import MemoryClient

    client = _NoClient()
    assert isinstance(client, MemoryClient)
    tools = create_memory_tools(client)
    return " ".join(tool.description for tool in tools) + json.dumps([tool.parameters() for tool in tools])


def test_tool_descriptions_hold_no_example_value() -> None:
    # A model that really calls add_memories would store a copied example as a fact about the user.
    descriptions = _descriptions()
    assert not re.search(r"\b(?:e\.g\.|i\.e\.|for example|for instance|such as)", descriptions, re.IGNORECASE)
    # A quoted value, in the text or (escaped) in the JSON schema; an apostrophe ("user's") is no quote.
    quoted = re.findall(r"(?<![A-Za-z])'[^']{3,}'(?![A-Za-z])|\\\"[^\\]{3,}\\\"", descriptions)
    assert not quoted, f"a tool description quotes an example value: {quoted}"


def test_no_lesson_fact_is_named_in_a_tool_description() -> None:
    descriptions = _descriptions().lower()
    for fact_word in ("friday", "sourdough", "bubbles", "porto", "priya"):
        assert fact_word not in descriptions
    assert _lesson_text()  # the lessons were read


def test_the_check_catches_an_example() -> None:
    planted = "The fact worth remembering (e.g. 'Keeps a sourdough starter named Bubbles')."
    assert re.search(r"\b(?:e\.g\.|for example|such as)", planted)
    assert re.findall(r"(?<![A-Za-z])'[^']{3,}'(?![A-Za-z])", planted)
