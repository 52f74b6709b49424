"""course_kit.checks.memories: each helper holds on a store where its claim is true, and fails where it is not."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from course_kit.checks.memories import (
    has_current,
    has_outdated,
    memories_mentioning,
    mentions,
    stored_facts,
    was_superseded,
    was_withdrawn,
)


def _item(id_, content, current=True, superseded_by=None, invalid_at=None):
    return SimpleNamespace(id=id_, content=content, text=content, is_current=current, superseded_by=superseded_by,
                           invalid_at=invalid_at)


class _Store:
    """The two SDK calls the helpers use, over a fixed list of items."""

    def __init__(self, *items):
        self.items = list(items)

    async def list(self, options=None):
        history = getattr(options, "include_superseded", False)
        return SimpleNamespace(items=[i for i in self.items if history or i.is_current])

    async def get(self, memory_id):
        return next((i for i in self.items if i.id == memory_id), None)


MOVED = _Store(_item("1", "Alex lives in Lyon", False, "2", "2026-01-01"), _item("2", "Alex lives in Porto"))


def run(coro):
    return asyncio.run(coro)


def test_stored_facts_are_the_current_ones_unless_history_is_asked_for():
    assert run(stored_facts(MOVED)) == ["Alex lives in Porto"]
    assert run(stored_facts(MOVED, include_superseded=True)) == ["Alex lives in Lyon", "Alex lives in Porto"]
    assert run(stored_facts(SimpleNamespace(sdk_client=MOVED))) == ["Alex lives in Porto"]  # a memory client


def test_memories_mentioning_a_word():
    assert [i.id for i in run(memories_mentioning(MOVED, "Lyon"))] == []
    assert [i.id for i in run(memories_mentioning(MOVED, "Lyon", include_superseded=True))] == ["1"]


def test_mentions_and_currency():
    assert mentions(["a", "in Porto"], "Porto") and not mentions(["a"], "Porto")
    assert has_current(MOVED.items, "Porto") and not has_current(MOVED.items, "Lyon")
    assert has_outdated(MOVED.items, "Lyon") and not has_outdated(MOVED.items, "Porto")


def test_was_superseded_needs_an_outdated_fact_replaced_by_a_current_one_saying_the_new_value():
    assert run(was_superseded(MOVED, "1", by="Porto"))
    assert not run(was_superseded(MOVED, "1", by="Oslo"))  # replaced, but not by that
    assert not run(was_superseded(MOVED, "2", by="Porto"))  # still current
    assert not run(was_superseded(_Store(_item("1", "Lyon", False, None, "2026")), "1", by="Porto"))  # withdrawn


def test_was_withdrawn_needs_one_outdated_fact_replaced_by_nothing():
    assert run(was_withdrawn(_Store(_item("1", "ships on Fridays", False, None, "2026")), "Friday"))
    assert not run(was_withdrawn(_Store(_item("1", "ships on Fridays")), "Friday"))  # still current
    assert not run(was_withdrawn(MOVED, "Lyon"))  # superseded, not withdrawn
    assert not run(was_withdrawn(MOVED, "Friday"))  # never there


async def test_stored_facts_at_reads_one_users_memories_from_the_server() -> None:
    from course_kit.checks.memories import stored_facts_at
    from lesson_utils.cortadel import CortadelMemoryClient
    from local_memory_server import start_memory_server

    with start_memory_server(api_keys={"kim": "kim-key", "lea": "lea-key"}) as server:
        async with CortadelMemoryClient(server.url, "kim", api_key="kim-key") as kim:
            await kim.add("Kim lives in Tallinn.")
        assert mentions(await stored_facts_at(server.url, "kim", "kim-key"), "Tallinn")
        assert await stored_facts_at(server.url, "lea", "lea-key") == []
