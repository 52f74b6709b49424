"""Lessons use a real Cortadel server when CORTADEL_BASE_URL is set, else the local one.

A configured server is probed first: a dead or wrong URL is one line naming the variable and the fix.
Every address here is on loopback.
"""

from __future__ import annotations

import socket

import httpx
import pytest

from course_kit import open_memory_server
from lesson_utils.cortadel.server_choice import MemoryServerUnreachable
from local_memory_server import start_memory_server


@pytest.fixture(scope="module")
def running_server():
    with start_memory_server() as server:
        yield server


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_configured_server_wins_and_is_never_stopped(monkeypatch, tmp_path, running_server):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CORTADEL_BASE_URL", running_server.url)
    monkeypatch.setenv("CORTADEL_API_KEY", "secret")
    with open_memory_server() as choice:
        assert (choice.url, choice.api_key, choice.local) == (running_server.url, "secret", False)
        alice = choice.user_id("alice")
        assert alice.startswith("alice-") and alice != "alice"  # a real server gets per-run user ids
    choice.stop()
    assert httpx.get(f"{running_server.url}/api/health").status_code == 200  # left running


def test_dot_env_file_is_read_when_the_environment_is_silent(monkeypatch, tmp_path, running_server):
    monkeypatch.delenv("CORTADEL_BASE_URL", raising=False)
    monkeypatch.delenv("CORTADEL_API_KEY", raising=False)
    (tmp_path / ".env").write_text(f"CORTADEL_BASE_URL={running_server.url}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    choice = open_memory_server()
    assert (choice.url, choice.api_key, choice.local) == (running_server.url, None, False)


def test_a_dead_url_is_one_line_naming_the_variable_and_the_fix(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    url = _dead_url()
    monkeypatch.setenv("CORTADEL_BASE_URL", url)
    with pytest.raises(MemoryServerUnreachable) as caught:
        open_memory_server()
    message = str(caught.value)
    assert message.startswith(f"CORTADEL_BASE_URL={url} cannot be reached")
    assert "remove CORTADEL_BASE_URL" in message and "\n" not in message
    assert caught.value._render_traceback_() == [f"MemoryServerUnreachable: {message}"]


def test_a_url_that_is_not_cortadel_says_what_the_url_should_be(monkeypatch, tmp_path, running_server):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CORTADEL_BASE_URL", f"{running_server.url}/not-the-root")
    with pytest.raises(MemoryServerUnreachable, match=r"answered /api/health with HTTP 404, not a Cortadel health"):
        open_memory_server()


def test_probe_false_skips_the_check(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CORTADEL_BASE_URL", _dead_url())
    assert open_memory_server(probe=False).local is False


async def test_without_configuration_a_local_server_is_started_and_stopped(monkeypatch, tmp_path):
    monkeypatch.delenv("CORTADEL_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    with open_memory_server() as choice:
        assert choice.local and choice.api_key is None and choice.user_id("alice") == "alice"
        assert httpx.get(f"{choice.url}/api/health").status_code == 200
    assert not choice.server  # stopped and released
