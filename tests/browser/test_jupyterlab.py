"""Real-browser check: a lesson runs in JupyterLab, its diagram and chat widget render, and the widget chats.

Starts JupyterLab headless on 127.0.0.1 (random free port, a token, no browser of its own) on a
*copy* of the lesson, opens it in Debian's Chromium driven by Playwright (never a downloaded
browser), runs all cells, checks the mermaid diagram and the chat widget, sends one message
through the widget and waits for the reply. Screenshots go to ``build/screenshots/``.

Needs ``apt-get install chromium`` and ``pip install playwright`` (no ``playwright install``).
Pick another lesson with ``LESSON_BROWSER_NOTEBOOK=03`` (a file-name prefix, or a path to an .ipynb).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "build" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"
    ),
]


def lesson_path() -> Path:
    prefix = os.environ.get("LESSON_BROWSER_NOTEBOOK", "02")
    if prefix.endswith(".ipynb") and Path(prefix).is_file():
        return Path(prefix)
    matches = sorted((REPO / "notebooks").glob(f"{prefix}*.ipynb"))
    if not matches:
        pytest.fail(f"no notebook in notebooks/ starts with {prefix!r}")
    return matches[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def jupyterlab(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """A JupyterLab server on a temporary copy of the lesson; yields (base url, token, notebook name)."""
    lesson = lesson_path()
    with open(lesson, encoding="utf-8") as f:
        code = "".join("".join(c["source"]) for c in json.load(f)["cells"] if c["cell_type"] == "code")
    if "ChatWidget(" not in code:
        pytest.fail(f"{lesson.name} has no ChatWidget cell (its 'Try it yourself' cell) for the browser to chat through")
    work = tmp_path / "lessons"
    work.mkdir()
    shutil.copy(lesson, work / lesson.name)
    port, token = free_port(), secrets.token_hex(16)
    env = {
        **os.environ,
        "LESSON_MODEL": "offline",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "lab-settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "lab-workspaces"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "jupyter-runtime"),
    }
    # No "would you like news?" toast over the screenshots.
    news = tmp_path / "lab-settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text('{"fetchNews": "false"}', encoding="utf-8")
    log = open(tmp_path / "jupyterlab.log", "w", encoding="utf-8")  # closed below
    server = subprocess.Popen(
        [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={work}",
            "--LabApp.expose_app_in_browser=True",
            *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),  # CI containers run as root
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited early:\n{(tmp_path / 'jupyterlab.log').read_text(encoding='utf-8')}")
            try:
                if httpx.get(f"{base}/api/status", params={"token": token}, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("JupyterLab did not answer within 60 s")
            time.sleep(0.5)
        yield base, token, lesson.name
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def test_lesson_runs_renders_and_chats_in_chromium(jupyterlab: tuple[str, str, Path], tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (no browser download needed)")
    base, token, name = jupyterlab
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    stem = Path(name).stem

    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 1600},
        )
        try:
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{base}/lab/tree/{name}?token={token}")
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget")
            page.wait_for_selector(".jp-Notebook .jp-Cell")
            # The kernel must be up before running all cells.
            page.wait_for_function(
                "() => { const w = window.jupyterapp.shell.currentWidget;"
                " const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;"
                " return k && k.status === 'idle'; }"
            )
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            # Done when every code cell has an execution count and the kernel is idle again.
            page.wait_for_function(
                "() => { const w = window.jupyterapp.shell.currentWidget;"
                " const cells = w.content.widgets.filter(c => c.model.type === 'code');"
                " return cells.length > 0 && cells.every(c => c.model.executionCount !== null)"
                "   && w.sessionContext.session.kernel.status === 'idle'; }",
                timeout=90_000,
            )
            page.screenshot(path=str(SCREENSHOTS / f"{stem}_after_run_all.png"), full_page=True)

            errors = page.locator("[data-mime-type='application/vnd.jupyter.error']")
            assert errors.count() == 0, errors.first.inner_text()
            diagrams = page.locator(".jp-RenderedMermaid img, .jp-RenderedMermaid svg")
            assert diagrams.count() >= 1, "the mermaid diagram did not render"
            assert diagrams.first.bounding_box()["height"] > 50, "the mermaid diagram rendered empty"
            assert page.locator(".jp-RenderedMermaid.jp-mod-warning").count() == 0, "mermaid reported a syntax error"

            chat = page.locator(".lesson-chat-widget").last
            chat.wait_for(state="visible")
            chat.scroll_into_view_if_needed()
            def send(message: str) -> str:
                before = chat.locator(".lesson-chat-reply").count()
                chat.locator("input[type='text']").fill(message)
                chat.get_by_role("button", name="Send").click()
                # The reply's HTML is re-rendered for every streamed chunk, so query it afresh on each poll.
                page.wait_for_function(
                    "(n) => { const chats = document.querySelectorAll('.lesson-chat-widget');"
                    " const replies = chats[chats.length - 1].querySelectorAll('.lesson-chat-reply');"
                    " return replies.length > n && !replies[n].textContent.includes('▌'); }",
                    arg=before,
                    timeout=30_000,
                )
                return chat.locator(".lesson-chat-reply").nth(before).inner_text()

            first = send("Hi, I'm Robin and I ship on Fridays.")
            page.screenshot(path=str(SCREENSHOTS / f"{stem}_chat_reply.png"), full_page=True)
            assert "Robin" in first, first
            assert chat.locator(".lesson-chat-error").count() == 0
            # The widget keeps its session: a second turn can use the first.
            second = send("What is my name?")
            assert "Robin" in second, second
        except Exception:
            page.screenshot(path=str(SCREENSHOTS / f"{stem}_failure.png"), full_page=True)
            raise
        finally:
            context.close()
