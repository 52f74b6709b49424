"""Fixtures for the widget tests: a scripted chat client and an agent with a name-learning provider."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from .stubs import NameMemory, ScriptedClient


@pytest.fixture
def client() -> ScriptedClient:
    return ScriptedClient()


@pytest.fixture
def agent(client: ScriptedClient) -> Agent:
    return Agent(client=client, instructions="Be brief.", context_providers=[NameMemory()])
