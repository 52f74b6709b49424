"""Fixtures for the lesson 3–5 tests: the suite's recording chat client, answering a fixed reply.

The provider tests are about what reaches the model, not about the answer, so a recorder is
enough and keeps them independent of the offline lesson model.
"""

from __future__ import annotations

import pytest

from ..fakes import FakeChatClient


@pytest.fixture
def recorder() -> FakeChatClient:
    return FakeChatClient(reply="noted")
