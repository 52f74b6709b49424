"""Lessons use a real Cortadel server when CORTADEL_BASE_URL is set, else the local one."""

from __future__ import annotations

from lesson_utils.cortadel import open_memory_server


def test_configured_server_wins_and_is_never_stopped(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CORTADEL_BASE_URL", "https://cortadel.example")
    monkeypatch.setenv("CORTADEL_API_KEY", "secret")
    with open_memory_server() as choice:
        assert (choice.url, choice.api_key, choice.local) == ("https://cortadel.example", "secret", False)
        alice = choice.user_id("alice")
        assert alice.startswith("alice-") and alice != "alice"  # a real server gets per-run user ids
    choice.stop()


def test_dot_env_file_is_read_when_the_environment_is_silent(monkeypatch, tmp_path):
    monkeypatch.delenv("CORTADEL_BASE_URL", raising=False)
    monkeypatch.delenv("CORTADEL_API_KEY", raising=False)
    (tmp_path / ".env").write_text("CORTADEL_BASE_URL=http://10.0.0.5:3001\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    choice = open_memory_server()
    assert (choice.url, choice.api_key, choice.local) == ("http://10.0.0.5:3001", None, False)


async def test_without_configuration_a_local_server_is_started_and_stopped(monkeypatch, tmp_path):
    import httpx

    monkeypatch.delenv("CORTADEL_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    with open_memory_server() as choice:
        assert choice.local and choice.api_key is None and choice.user_id("alice") == "alice"
        assert httpx.get(f"{choice.url}/api/health").status_code == 200
    assert not choice.server  # stopped and released
