"""The shared memory-server helpers: each one fails where the claim it names is false."""

from __future__ import annotations

from lesson_utils.checks.memories import mentions, stored_facts
from lesson_utils.cortadel import CortadelMemoryClient
from lesson_utils.memory_server import start_memory_server


def test_mentions_looks_inside_each_fact() -> None:
    assert mentions(["Kim lives in Tallinn."], "Tallinn")
    assert not mentions(["Kim lives in Tartu."], "Tallinn") and not mentions([], "Tallinn")


async def test_stored_facts_reads_one_users_memories_from_the_server() -> None:
    with start_memory_server(api_keys={"kim": "kim-key", "lea": "lea-key"}) as server:
        async with CortadelMemoryClient(server.url, "kim", api_key="kim-key") as kim:
            await kim.add("Kim lives in Tallinn.")
        assert mentions(await stored_facts(server.url, "kim", "kim-key"), "Tallinn")
        assert await stored_facts(server.url, "lea", "lea-key") == []
