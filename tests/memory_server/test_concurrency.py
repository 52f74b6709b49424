"""Many clients writing and searching at once lose no write."""

from __future__ import annotations

import asyncio

import pytest

from cortadel import AddOptions, CortadelClient, SearchOptions


@pytest.mark.full  # slow: many concurrent writes
async def test_concurrent_writers_and_searchers_lose_nothing(server):
    writers, per_writer = 8, 15

    async def write(n: int) -> list[str]:
        async with CortadelClient(server.url, f"user-{n % 4}") as client:
            ids = []
            for i in range(per_writer):
                created = await client.add(f"Writer {n} noted item number {i} about topic {n * 100 + i}",
                                           AddOptions(infer=False))
                assert created.event == "ADD"
                ids.append(created.id)
            return ids

    async def search(n: int) -> int:
        async with CortadelClient(server.url, f"user-{n % 4}") as client:
            seen = 0
            for _ in range(per_writer):
                seen += len((await client.search("item about topic", SearchOptions(top_k=5))).results)
            return seen

    results = await asyncio.gather(*(write(n) for n in range(writers)), *(search(n) for n in range(4)))
    written = [i for ids in results[:writers] for i in ids]
    assert len(set(written)) == writers * per_writer
    for user in range(4):
        async with CortadelClient(server.url, f"user-{user}") as client:
            listed = await client.list(__import__("cortadel").ListOptions(size=100))
            stored = {item.id for item in listed.items}
            expected = {i for n, ids in enumerate(results[:writers]) if n % 4 == user for i in ids}
            assert stored == expected


@pytest.mark.full  # slow: many concurrent writes (the slowest unit test)
async def test_concurrent_duplicates_are_stored_once(server):
    async def add(_: int) -> str:
        async with CortadelClient(server.url, "dup") as client:
            return (await client.add("Alex ships on Fridays")).event

    events = await asyncio.gather(*(add(n) for n in range(6)))
    assert sorted(events) == ["ADD"] + ["SKIP_DUPLICATE"] * 5
    assert server.service.store.count("dup") == 1


def test_near_duplicates_need_the_same_topic_words(embedder):
    from local_memory_server.store import MemoryStore, NewMemory

    store = MemoryStore(None, embedding_model=embedder.model, dim=embedder.dim)

    def add(text: str) -> bool:
        written = store.write(NewMemory(user_id="u", content=text, memory_type="semantic"), embedder.embed([text])[0])
        return written.event != "SKIP_DUPLICATE"

    assert add("Alex ships on Fridays")
    assert not add("Alex ships on Friday.")  # same fact
    assert add("Alex does not ship on Fridays")  # a negation is a different fact
    assert add("The meeting room is B12")
    assert add("The meeting room is B13")  # one character apart, still a different fact
    assert store.count("u") == 4
