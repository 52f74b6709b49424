"""Each lesson user talks to an authenticated Cortadel with their own key, never the first user's."""

from __future__ import annotations

import pytest

from lesson_utils.cortadel.server_choice import MemoryServerChoice
from lesson_utils.cortadel.user_keys import UserKeyMissing, api_key_for, user_key_variable, user_keys


@pytest.fixture(autouse=True)
def no_dotenv(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env from the repo
    for name in ("CORTADEL_API_KEY_BEN", "CORTADEL_API_KEY_THE_TEAM", "CORTADEL_API_KEY_ANA", "CORTADEL_API_KEY_TEAM_SHIPIT"):
        monkeypatch.delenv(name, raising=False)


def real(api_key: str | None) -> MemoryServerChoice:
    return MemoryServerChoice(url="https://cortadel.example", api_key=api_key, local=False)


def test_the_local_server_and_an_open_real_server_need_no_key(monkeypatch):
    monkeypatch.setenv("CORTADEL_API_KEY_BEN", "ben-key")
    assert api_key_for(MemoryServerChoice(url="http://127.0.0.1:1"), "ben") is None
    assert api_key_for(real(None), "ben") is None


def test_an_authenticated_server_gives_each_user_their_own_key(monkeypatch):
    monkeypatch.setenv("CORTADEL_API_KEY_BEN", "ben-key")
    assert api_key_for(real("alex-key"), "ben") == "ben-key"


def test_a_dot_env_file_is_read(tmp_path):
    (tmp_path / ".env").write_text("CORTADEL_API_KEY_BEN=from-dotenv\n", encoding="utf-8")
    assert api_key_for(real("alex-key"), "ben") == "from-dotenv"


def test_a_missing_key_stops_with_one_line_naming_the_fix():
    with pytest.raises(UserKeyMissing) as raised:
        api_key_for(real("alex-key"), "ben")
    message = str(raised.value)
    assert "\n" not in message
    assert "CORTADEL_API_KEY_BEN" in message and "unset CORTADEL_BASE_URL" in message


def test_reusing_the_first_users_key_is_refused(monkeypatch):
    monkeypatch.setenv("CORTADEL_API_KEY_BEN", "alex-key")
    with pytest.raises(UserKeyMissing, match="same key as CORTADEL_API_KEY"):
        api_key_for(real("alex-key"), "ben")


def test_variable_names_are_upper_case_with_underscores():
    assert user_key_variable("the team") == "CORTADEL_API_KEY_THE_TEAM"
    assert user_key_variable("ben") == "CORTADEL_API_KEY_BEN"
    with pytest.raises(ValueError):
        user_key_variable("  ")


# -- a whole cast of users at once (lessons 13 and 90) --


def test_key_variable_names_the_user():
    assert user_key_variable("ana") == "CORTADEL_API_KEY_ANA"
    assert user_key_variable("team-shipit") == "CORTADEL_API_KEY_TEAM_SHIPIT"


def test_an_open_server_needs_no_keys():
    server = MemoryServerChoice(url="http://127.0.0.1:1", api_key=None, local=True)
    assert user_keys(server, ["ana", "ben"]) == {"ana": None, "ben": None}


def test_one_shared_key_stops_with_the_variables_to_set():
    server = MemoryServerChoice(url="https://cortadel.example", api_key="shared", local=False)
    with pytest.raises(UserKeyMissing, match="CORTADEL_API_KEY_ANA, CORTADEL_API_KEY_BEN") as caught:
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
    with pytest.raises(UserKeyMissing, match="share one API key"):
        user_keys(server, ["ana", "ben"])
