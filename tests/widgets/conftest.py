"""Fixtures for the widget tests: a scripted chat client and an agent with a name-learning provider."""

from __future__ import annotations

import pytest
from agent_framework import Agent

from ..fakes import FakeChatClient
from .stubs import NameMemory, scripted_client


@pytest.fixture
def client() -> FakeChatClient:
    return scripted_client()


@pytest.fixture
def agent(client: FakeChatClient) -> Agent:
    return Agent(client=client, instructions="Be brief.", context_providers=[NameMemory()])
