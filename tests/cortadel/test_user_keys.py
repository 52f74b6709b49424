"""One key per lesson user on an authenticated server, or a clear stop."""

from __future__ import annotations

import pytest

from lesson_utils.cortadel.server_choice import MemoryServerChoice
from lesson_utils.cortadel.user_keys import MultiUserNeedsKeys, key_variable, user_keys


@pytest.fixture(autouse=True)
def no_user_keys(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env found here
    for name in ("ANA", "BEN", "TEAM_SHIPIT"):
        monkeypatch.delenv(f"CORTADEL_API_KEY_{name}", raising=False)


def test_key_variable_names_the_user():
    assert key_variable("ana") == "CORTADEL_API_KEY_ANA"
    assert key_variable("team-shipit") == "CORTADEL_API_KEY_TEAM_SHIPIT"


def test_an_open_server_needs_no_keys():
    server = MemoryServerChoice(url="http://127.0.0.1:1", api_key=None, local=True)
    assert user_keys(server, ["ana", "ben"]) == {"ana": None, "ben": None}


def test_one_shared_key_stops_with_the_variables_to_set():
    server = MemoryServerChoice(url="https://cortadel.example", api_key="shared", local=False)
    with pytest.raises(MultiUserNeedsKeys, match="CORTADEL_API_KEY_ANA, CORTADEL_API_KEY_BEN") as caught:
        user_keys(server, ["ana", "ben"])
    assert "open server" in str(caught.value)


def test_a_key_per_user_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("CORTADEL_API_KEY_ANA", "key-a")
    monkeypatch.setenv("CORTADEL_API_KEY_BEN", "key-b")
    server = MemoryServerChoice(url="https://cortadel.example", api_key="shared", local=False)
    assert user_keys(server, ["ana", "ben"]) == {"ana": "key-a", "ben": "key-b"}


def test_two_users_sharing_a_key_are_refused(monkeypatch):
    monkeypatch.setenv("CORTADEL_API_KEY_ANA", "same")
    monkeypatch.setenv("CORTADEL_API_KEY_BEN", "same")
    server = MemoryServerChoice(url="https://cortadel.example", api_key="shared", local=False)
    with pytest.raises(MultiUserNeedsKeys, match="share one API key"):
        user_keys(server, ["ana", "ben"])
