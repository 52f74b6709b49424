"""The memory tools' descriptions use examples unrelated to any lesson: small models copy examples,
and a copied lesson fact ("ships on Fridays") looks like the model remembered something."""

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


def test_tool_examples_appear_in_no_lesson() -> None:
    from lesson_utils.cortadel.client import MemoryClient

    client = _NoClient()
    assert isinstance(client, MemoryClient)
    text = _lesson_text()
    schema = json.dumps([tool.parameters() for tool in create_memory_tools(client)])
    descriptions = " ".join(tool.description for tool in create_memory_tools(client)) + schema
    examples = re.findall(r"e\.g\. '([^']+)'", descriptions)
    assert examples, "the add_memories text parameter gives an example sentence"
    lesson_words = set(re.findall(r"[a-z]+", text))
    for example in examples:
        # Its nouns, not its verbs: "keeps" may well appear in a lesson; "sourdough" must not.
        nouns = [w for w in re.findall(r"[a-z]+", example.lower()) if len(w) > 5]
        assert nouns and not [w for w in nouns if w in lesson_words], f"{example!r} shares words with a lesson"
    assert "friday" not in descriptions.lower()
