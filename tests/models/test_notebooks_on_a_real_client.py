"""Every lesson also runs on a real model: the same notebooks, through the real OpenAI Chat
Completions client, against a keyless OpenAI-compatible stand-in on 127.0.0.1.

The stand-in echoes chat, so this cannot check what a real model would say; it proves the lessons
never lean on the offline model's private API (``client.last_request`` and the like) and that
their wording checks are guarded to the offline model, as the series promises.

The stand-in also reads: the local memory server asks the configured model to read every stored turn (JSON-schema
requests, ``memory_server/understanding.py``), and the stand-in answers them with valid JSON of its own reading,
unlike the offline reader's (``stand_in_reader.py``: other wording, other splits, never a replacement). So a lesson
whose ``assert`` depends on what a model read fails here, as issue 46 item 8 asks: such a claim is ``expect_model``.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from .stand_in_server import StandInServer

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: Lessons whose local memory server stores conversation turns: on a model the server can call, the model reads them.
READ_BY_THE_MODEL = ("07", "08", "09", "10", "12", "13", "16", "17", "90")
#: What the memory server logs when the model's answer was unusable and the offline reader read the turn instead.
FELL_BACK = "could not read a turn, so the offline reader did"


def printed(nb: nbformat.NotebookNode) -> str:
    """Everything the executed notebook's code cells showed: text streams (stdout and stderr) and text results."""
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            parts.append(output.get("text", "") or output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lesson_runs_top_to_bottom_on_a_real_openai_client(path: Path, tmp_path: Path, clean_env) -> None:
    monkeypatch = clean_env
    for name in ("CORTADEL_BASE_URL", "CORTADEL_API_KEY"):  # the lessons' local memory server, not a real one
        monkeypatch.delenv(name, raising=False)
    with StandInServer(api_key="test-key") as server:
        # The kernel inherits this environment; tmp_path as its folder means no .env is found.
        monkeypatch.setenv("LESSON_MODEL", "local")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
        monkeypatch.setenv("LOCAL_MODEL", "stand-in-model")
        monkeypatch.setenv("LOCAL_MODEL_API_KEY", "test-key")
        with open(path, encoding="utf-8") as f:
            nb = nbformat.read(f, as_version=4)
        NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
        assert server.requests, f"{path.name} never called the configured model"
    read = [name for name, _ in server.json_answers]
    if path.name[:2] in READ_BY_THE_MODEL:  # the model, not the offline reader, read the turns the lesson stored
        assert "facts" in read, f"{path.name}: the memory server never asked the configured model to read a turn"
    assert FELL_BACK not in printed(nb), f"{path.name}: the memory server fell back to the offline reader"


def test_memory_tools_lesson_names_tool_calls_written_as_text(tmp_path: Path, clean_env) -> None:
    """No silent pass: on a model that writes its tool calls as text, lesson 09 still runs (the fact is
    seeded), and every check about the model's choice says in one line what happened."""
    monkeypatch = clean_env
    for name in ("CORTADEL_BASE_URL", "CORTADEL_API_KEY", "LESSON_CLAIMS_LOG"):
        monkeypatch.delenv(name, raising=False)
    path = next(p for p in NOTEBOOKS if p.name.startswith("09_"))
    with StandInServer(api_key=None, misbehave="tool_as_text") as server:
        monkeypatch.setenv("LESSON_MODEL", "local")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
        monkeypatch.setenv("LOCAL_MODEL", "stand-in-model")
        with open(path, encoding="utf-8") as f:
            nb = nbformat.read(f, as_version=4)
        NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    said = [line for line in printed.splitlines() if line.startswith("\u2717 the model called")]
    assert len(said) == 2 and all("wrote the call as text" in line and "README" in line for line in said)
    assert "model WROTE a call as text instead of making it: search_memory" in printed


def _verbose(request: dict) -> str:
    """A chatty model: a long reply of long words that invents details (a name, a city, a hotel), never a tool call.

    Long words matter: a capped reply (lesson 03 asks for 48 tokens) is cut by words here, so only long words
    make the history long enough that a summariser's input budget takes fewer turns than the lesson's own model.
    """
    asked = next((m.get("content") for m in reversed(request.get("messages", [])) if m.get("role") == "user"), "")
    opener = " ".join(str(asked).split()[:4])
    return (f"Regarding \u201c{opener}\u201d: extraordinarily comprehensive recommendations, Margarethe-Valparaiso! "
            + "Unquestionably, accommodation-wise, the Hotel-Aurora-Panoramica representatives enthusiastically "
            "recommended internationally-acclaimed, environmentally-conscientious, characteristically-Mediterranean "
            "experiences, alongside Bartholomew-Fitzwilliam's meticulously-documented transcontinental itineraries. " * 4)


@pytest.mark.full
@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.name[:2] in ("03", "16")], ids=lambda p: p.name)
def test_lesson_runs_to_the_end_on_a_verbose_model(path: Path, tmp_path: Path, clean_env) -> None:
    """No `assert` leans on what a model wrote: on long, invented, tool-less replies the lesson still runs to
    its end, and each claim about the model says in one line whether this model showed it."""
    monkeypatch = clean_env
    for name in ("CORTADEL_BASE_URL", "CORTADEL_API_KEY", "LESSON_CLAIMS_LOG"):
        monkeypatch.delenv(name, raising=False)
    with StandInServer(api_key=None, reply=_verbose) as server:
        monkeypatch.setenv("LESSON_MODEL", "local")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
        monkeypatch.setenv("LOCAL_MODEL", "stand-in-model")
        with open(path, encoding="utf-8") as f:
            nb = nbformat.read(f, as_version=4)
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "\u2713" in printed or "\u2717" in printed, "the lesson's claims about the model should each say what it showed"
