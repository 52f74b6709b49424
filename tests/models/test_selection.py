"""Model selection: environment variables, .env files (nearest upward, never overriding), clear errors."""

from __future__ import annotations

import os
import sys

import pytest

from chat_models.guard import is_guarded
from chat_models import (
    ModelConfigurationError,
    OfflineChatClient,
    describe_chat_client,
    find_env_file,
    get_chat_client,
    load_lesson_env,
    resolve_model,
)


@pytest.fixture
def env(clean_env: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    return clean_env


def test_nothing_configured_gives_the_offline_model_and_says_why(env) -> None:
    info = describe_chat_client()
    assert info.kind == "offline"
    assert "no model is configured" in info.reason
    assert info.env_file is None
    assert isinstance(get_chat_client(), OfflineChatClient)


@pytest.mark.parametrize(
    ("variables", "kind", "reason_mentions"),
    [
        ({"OPENAI_API_KEY": "sk-test"}, "openai", "OPENAI_API_KEY"),
        ({"AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com", "AZURE_OPENAI_MODEL": "dep"}, "azure",
         "AZURE_OPENAI_ENDPOINT"),
        ({"LOCAL_MODEL_BASE_URL": "http://localhost:11434/v1", "LOCAL_MODEL": "llama3.2"}, "local",
         "LOCAL_MODEL_BASE_URL"),
        ({"OPENAI_BASE_URL": "http://localhost:1234/v1", "OPENAI_MODEL": "qwen"}, "local", "OPENAI_BASE_URL"),
        ({"FOUNDRY_PROJECT_ENDPOINT": "https://x.services.ai.azure.com/api/projects/p", "FOUNDRY_MODEL": "m"},
         "foundry", "FOUNDRY_PROJECT_ENDPOINT"),
        # Order: OpenAI beats Azure beats a local server beats Foundry.
        ({"OPENAI_API_KEY": "sk", "AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com"}, "openai", "OPENAI_API_KEY"),
        ({"AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com", "AZURE_OPENAI_MODEL": "d",
          "LOCAL_MODEL_BASE_URL": "http://localhost:11434/v1"}, "azure", "AZURE_OPENAI_ENDPOINT"),
    ],
)
def test_auto_choice(variables: dict[str, str], kind: str, reason_mentions: str) -> None:
    info = resolve_model(variables)
    assert info.kind == kind
    assert reason_mentions in info.reason


def test_lesson_model_forces_a_choice_even_when_keys_are_set() -> None:
    info = resolve_model({"LESSON_MODEL": "offline", "OPENAI_API_KEY": "sk-test"})
    assert info.kind == "offline" and info.reason == "LESSON_MODEL=offline"
    forced = resolve_model(
        {"LESSON_MODEL": "Local", "OPENAI_API_KEY": "sk", "LOCAL_MODEL_BASE_URL": "http://h:1/v1", "LOCAL_MODEL": "m"}
    )
    assert (forced.kind, forced.base_url, forced.model) == ("local", "http://h:1/v1", "m")


def test_openai_model_defaults_and_can_be_named() -> None:
    assert resolve_model({"OPENAI_API_KEY": "sk"}).model == "gpt-4o-mini"
    assert resolve_model({"OPENAI_API_KEY": "sk", "OPENAI_MODEL": "gpt-4.1"}).model == "gpt-4.1"


@pytest.mark.parametrize(
    ("variables", "variable"),
    [
        ({"LESSON_MODEL": "gpt"}, "LESSON_MODEL"),
        ({"LESSON_MODEL": "openai"}, "OPENAI_API_KEY"),
        ({"LESSON_MODEL": "local", "LOCAL_MODEL": "m"}, "LOCAL_MODEL_BASE_URL"),
        ({"LOCAL_MODEL_BASE_URL": "http://localhost:11434/v1"}, "LOCAL_MODEL"),
        ({"LOCAL_MODEL_BASE_URL": "localhost:11434", "LOCAL_MODEL": "m"}, "LOCAL_MODEL_BASE_URL"),
        ({"AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com"}, "AZURE_OPENAI_MODEL"),
        ({"FOUNDRY_PROJECT_ENDPOINT": "https://x/api/projects/p"}, "FOUNDRY_MODEL"),
    ],
)
def test_broken_configuration_names_the_variable_to_fix(variables: dict[str, str], variable: str) -> None:
    with pytest.raises(ModelConfigurationError) as caught:
        resolve_model(variables)
    assert caught.value.variable == variable
    assert variable in str(caught.value)
    assert "\n" not in str(caught.value)


def test_error_renders_as_one_line_in_ipython() -> None:
    with pytest.raises(ModelConfigurationError) as caught:
        resolve_model({"LESSON_MODEL": "openai"})
    assert caught.value._render_traceback_() == [f"ModelConfigurationError: {caught.value}"]


def test_azure_without_key_or_identity_is_a_clear_error(env) -> None:
    env.setenv("AZURE_OPENAI_ENDPOINT", "https://r.openai.azure.com")
    env.setenv("AZURE_OPENAI_MODEL", "dep")
    env.setitem(sys.modules, "azure.identity", None)  # as if azure-identity were not installed
    with pytest.raises(ModelConfigurationError, match="AZURE_OPENAI_API_KEY"):
        get_chat_client()


def test_azure_with_key_builds_a_chat_completions_client(env) -> None:
    env.setenv("AZURE_OPENAI_ENDPOINT", "https://r.openai.azure.com")
    env.setenv("AZURE_OPENAI_MODEL", "dep")
    env.setenv("AZURE_OPENAI_API_KEY", "k")
    client = get_chat_client()
    # The framework's own client, not a subclass: the lesson policy rides on it as public middleware.
    assert type(client).__name__ == "OpenAIChatCompletionClient"
    assert is_guarded(client)
    assert client.model == "dep"


def test_foundry_without_the_extra_says_how_to_install_it(env) -> None:
    env.setenv("FOUNDRY_PROJECT_ENDPOINT", "https://x.services.ai.azure.com/api/projects/p")
    env.setenv("FOUNDRY_MODEL", "gpt-4o-mini")
    env.setitem(sys.modules, "agent_framework_foundry", None)
    with pytest.raises(ModelConfigurationError) as caught:
        get_chat_client()
    assert "[foundry]" in str(caught.value) and caught.value.variable == "FOUNDRY_PROJECT_ENDPOINT"


def test_openai_client_uses_chat_completions_so_history_stays_local(env) -> None:
    env.setenv("OPENAI_API_KEY", "sk-test")
    client = get_chat_client()
    assert type(client).__name__ == "OpenAIChatCompletionClient"
    assert client.STORES_BY_DEFAULT is False
    assert is_guarded(client)


# ------------------------------------------------------------------------------------------- .env files


def test_env_file_is_found_from_the_working_directory_upward(env, tmp_path) -> None:
    (tmp_path / ".env").write_text("LOCAL_MODEL_BASE_URL=http://localhost:11434/v1\nLOCAL_MODEL=llama3.2\n",
                                   encoding="utf-8")
    nested = tmp_path / "notebooks" / "deeper"
    nested.mkdir(parents=True)
    env.chdir(nested)
    assert find_env_file() == tmp_path / ".env"
    info = describe_chat_client()
    assert (info.kind, info.model) == ("local", "llama3.2")
    assert info.env_file == str(tmp_path / ".env")
    assert "LOCAL_MODEL" not in os.environ, "describing does not change the environment"


def test_nearest_env_file_wins(env, tmp_path) -> None:
    (tmp_path / ".env").write_text("LESSON_MODEL=local\n", encoding="utf-8")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / ".env").write_text("LESSON_MODEL=offline\n", encoding="utf-8")
    env.chdir(inner)
    assert describe_chat_client().kind == "offline"


def test_environment_beats_the_env_file(env, tmp_path) -> None:
    (tmp_path / ".env").write_text("OPENAI_API_KEY=sk-from-file\n", encoding="utf-8")
    assert describe_chat_client().kind == "openai"
    env.setenv("LESSON_MODEL", "offline")  # what the test suite and CI do
    assert describe_chat_client().kind == "offline"


def test_load_lesson_env_never_overrides(env, tmp_path) -> None:
    (tmp_path / ".env").write_text("LOCAL_MODEL=from-file\nLOCAL_MODEL_API_KEY=file-key\n", encoding="utf-8")
    env.setenv("LOCAL_MODEL", "from-env")
    env.delenv("LOCAL_MODEL_API_KEY", raising=False)
    assert load_lesson_env() == tmp_path / ".env"
    try:
        assert os.environ["LOCAL_MODEL"] == "from-env"
        assert os.environ["LOCAL_MODEL_API_KEY"] == "file-key"
    finally:
        os.environ.pop("LOCAL_MODEL_API_KEY", None)


def test_broken_env_file_value_is_reported_with_its_variable(env, tmp_path) -> None:
    (tmp_path / ".env").write_text("LESSON_MODEL=azure\nAZURE_OPENAI_ENDPOINT=r.openai.azure.com\n", encoding="utf-8")
    with pytest.raises(ModelConfigurationError) as caught:
        get_chat_client()
    assert caught.value.variable == "AZURE_OPENAI_ENDPOINT"


def test_env_example_documents_every_variable_the_selection_reads() -> None:
    import re
    from pathlib import Path

    import model_config
    from chat_models import selection

    # Every module that reads variables: the choice of model and its policy, the selection and the backends.
    folders = (Path(model_config.__file__).parent, Path(selection.__file__).parent)
    source = "".join(path.read_text(encoding="utf-8") for folder in folders for path in sorted(folder.glob("*.py")))
    read = set(re.findall(r'"((?:LESSON|OPENAI|AZURE_OPENAI|LOCAL|FOUNDRY)_[A-Z_]+)"', source))
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text(encoding="utf-8")
    assert {"LESSON_MODEL", "OPENAI_API_KEY", "LOCAL_MODEL_BASE_URL", "FOUNDRY_PROJECT_ENDPOINT",
            "LESSON_MODEL_TIMEOUT", "LOCAL_MODEL_MAX_TOKENS"} <= read
    undocumented = {name for name in read if name not in example}
    # Aliases the framework itself also reads are accepted but not advertised.
    aliases = {"OPENAI_CHAT_COMPLETION_MODEL", "AZURE_OPENAI_CHAT_COMPLETION_MODEL",
               "AZURE_OPENAI_CHAT_DEPLOYMENT_NAME", "FOUNDRY_MODEL_DEPLOYMENT_NAME"}
    assert undocumented <= aliases, undocumented


def test_the_description_never_carries_a_secret(env) -> None:
    import dataclasses

    env.setenv("OPENAI_API_KEY", "sk-very-secret")
    info = describe_chat_client()
    assert "sk-very-secret" not in repr(info) + str(info) + repr(dataclasses.asdict(info))
    assert info.settings["api_key_var"] == "OPENAI_API_KEY"
