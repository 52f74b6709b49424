"""The MiniLM adapter speaks the framework's embedding-client protocol, and its vectors carry meaning."""

from __future__ import annotations

import numpy as np
import pytest
from agent_framework import SupportsGetEmbeddings

from local_memory_server.embedding_client import MINILM_DIMENSIONS, MiniLMEmbeddingClient
from local_memory_server.embeddings import HashingEmbedder


async def test_it_is_an_embedding_client_with_one_vector_per_value() -> None:
    client = MiniLMEmbeddingClient(HashingEmbedder(dim=16))
    assert isinstance(client, SupportsGetEmbeddings)
    result = await client.get_embeddings(["a", "b", "c"], options={"dimensions": 16})
    assert [len(e.vector) for e in result] == [16, 16, 16] and result[0].dimensions == 16
    assert await client.get_embeddings([]) == []


async def test_a_wrong_dimension_names_the_fix() -> None:
    client = MiniLMEmbeddingClient(HashingEmbedder(dim=16))
    with pytest.raises(ValueError, match=r"pass embedding_options=\{'dimensions': 16\}"):
        await client.get_embeddings(["a"], options={"dimensions": 384})


async def test_the_local_minilm_puts_paraphrases_closer_than_unrelated_text() -> None:
    client = MiniLMEmbeddingClient()
    assert client.dimensions == MINILM_DIMENSIONS
    hotel, lodging, joke = [np.array(e.vector) for e in await client.get_embeddings(
        ["I'm staying at the Hotel Miramar.", "Where am I lodging on this trip?", "Why did the goose cross the road?"])]
    assert float(hotel @ lodging) > float(hotel @ joke)
