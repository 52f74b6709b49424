"""Fixtures for the memory server tests: one real embedder per session, a fresh server per test."""

from __future__ import annotations

import httpx
import pytest

from local_memory_server import start_memory_server
from local_memory_server.embeddings import default_embedder


@pytest.fixture(scope="session")
def embedder():
    """The real default embedder (all-MiniLM-L6-v2 int8 ONNX), loaded once for the whole session."""
    return default_embedder()


@pytest.fixture
def server(embedder):
    """A throwaway in-memory server on a free loopback port."""
    with start_memory_server(embedder=embedder) as running:
        yield running


@pytest.fixture
def http(server):
    """A raw HTTP client for checking wire shapes and status codes the SDK hides."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def memory_count(server) -> int:
    return server.service.store.count()
