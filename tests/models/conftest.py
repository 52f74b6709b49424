"""Shared fixtures for the model tests: a process environment with no model configured."""

from __future__ import annotations

import pytest

# Every variable model selection reads, plus the framework's own OpenAI/Azure ones it falls back on.
MODEL_VARIABLES = (
    "LESSON_MODEL", "OPENAI_API_KEY", "OPENAI_MODEL", "OPENAI_CHAT_COMPLETION_MODEL", "OPENAI_BASE_URL",
    "OPENAI_ORG_ID", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_MODEL",
    "AZURE_OPENAI_CHAT_COMPLETION_MODEL", "AZURE_OPENAI_CHAT_DEPLOYMENT_NAME", "AZURE_OPENAI_API_VERSION",
    "LOCAL_MODEL_BASE_URL", "LOCAL_MODEL", "LOCAL_MODEL_API_KEY", "FOUNDRY_PROJECT_ENDPOINT", "FOUNDRY_MODEL",
    "FOUNDRY_MODEL_DEPLOYMENT_NAME",
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """No model variables set and a working folder without a .env file."""
    for name in MODEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch
