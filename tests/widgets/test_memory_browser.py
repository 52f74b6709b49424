"""The memory browser, against a stand-in for the cortadel SDK client (same method names and DTOs)."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
import pytest
from cortadel import (
    ListOptions, MemoryDetail, MemoryList, MemoryListItem, SearchHit, SearchOptions, SearchResults,
)

from course_kit.widgets import MemoryBrowser


class FakeCortadel:
    """Per-user memories in a dict; behaves like ``cortadel.CortadelClient`` for list/search/get/delete.

    ``replaced`` maps an outdated memory's id to the id that superseded it (None: withdrawn)."""

    store: ClassVar[dict[str, dict[str, str]]] = {}
    replaced: ClassVar[dict[str, str | None]] = {}
    opened: ClassVar[list[tuple[str, str, str | None]]] = []

    def __init__(self, base_url: str, user_id: str, api_key: str | None) -> None:
        self.user_id = user_id
        self.opened.append((base_url, user_id, api_key))

    async def __aenter__(self) -> FakeCortadel:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    async def list(self, options: ListOptions | None = None) -> MemoryList:
        history = bool(options and options.include_superseded)
        items = [MemoryListItem(id=k, content=v, created_at=0, is_current=k not in self.replaced)
                 for k, v in self.store.get(self.user_id, {}).items() if history or k not in self.replaced]
        size = options.size if options else 20
        return MemoryList(items=items[:size], total=len(items), page=1, size=size, pages=1)

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        words = set(query.lower().split())
        hits = [
            SearchHit(id=k, content=v, rrf_score=0.5)
            for k, v in self.store.get(self.user_id, {}).items()
            if words & set(v.lower().split())
        ]
        return SearchResults(query=query, results=hits, total=len(hits))

    async def get(self, memory_id: str) -> MemoryDetail | None:
        text = self.store.get(self.user_id, {}).get(memory_id)
        if text is None:
            return None
        return MemoryDetail(id=memory_id, text=text, created_at=0, is_current=memory_id not in self.replaced,
                            superseded_by=self.replaced.get(memory_id))

    async def delete(self, memory_ids: Any) -> str:
        for memory_id in memory_ids:
            self.store[self.user_id].pop(memory_id)
        n = len(memory_ids)
        return f"Deleted {n} memor{'y' if n == 1 else 'ies'}."  # what the server answers


@pytest.fixture(autouse=True)
def memories() -> None:
    FakeCortadel.store = {
        "alex": {"m1": "Alex ships on Fridays", "m2": "Alex likes teal", "m3": "Alex lives in Oslo"},
        "kim": {"k1": "Kim ships on Mondays"},
    }
    FakeCortadel.replaced = {}
    FakeCortadel.opened = []


def browser(user_id: str = "alex") -> MemoryBrowser:
    return MemoryBrowser("http://127.0.0.1:9", user_id, api_key="key-1", client_factory=FakeCortadel)


async def test_list_shows_only_this_users_memories() -> None:
    b = browser()
    rows = await b.refresh()
    assert [r.content for r in rows] == ["Alex ships on Fridays", "Alex likes teal", "Alex lives in Oslo"]
    assert [value for _label, value in b.selection.options] == ["m1", "m2", "m3"]
    assert "3 memories" in b.status.value
    assert FakeCortadel.opened == [("http://127.0.0.1:9", "alex", "key-1")]


async def test_search_uses_the_search_box() -> None:
    b = browser()
    b.query.value = "ships"
    rows = await b.search()
    assert [r.id for r in rows] == ["m1"] and rows[0].score == 0.5
    assert "1 result(s) for “ships”" in b.status.value


async def test_empty_search_asks_for_a_query_without_calling_the_server() -> None:
    b = browser()
    await b.search("  ")
    assert "Type something" in b.status.value and FakeCortadel.opened == []


async def test_delete_selected_removes_it_and_reloads_the_view() -> None:
    b = browser()
    await b.refresh()
    b.selection.value = ("m2",)
    b.delete_button.click()
    assert await b.last_task is True
    assert [r.id for r in b.rows] == ["m1", "m3"]
    assert b.status.value.count("Deleted") == 1 and "Deleted 1 memory." in b.status.value
    assert FakeCortadel.store["kim"] == {"k1": "Kim ships on Mondays"}, "another user's memories are untouched"


async def test_history_greys_superseded_memories_with_what_replaced_them() -> None:
    FakeCortadel.store["alex"].update({"m4": "Alex lives in Porto", "m5": "Alex ships on Mondays"})
    FakeCortadel.replaced = {"m3": "m4", "m1": None}  # Oslo → Porto; Fridays withdrawn
    b = browser()
    rows = await b.refresh()
    by_id = {r.id: r for r in rows}
    assert by_id["m3"].is_current is False and by_id["m3"].replaced_by == "Alex lives in Porto"
    assert by_id["m1"].is_current is False and by_id["m1"].superseded_by is None
    assert by_id["m4"].is_current and by_id["m2"].is_current
    table = b.table.value
    assert "<s>Alex lives in Oslo</s>" in table and "replaced by “Alex lives in Porto”" in table
    assert "<s>Alex ships on Fridays</s>" in table and "withdrawn" in table
    assert "<s>Alex lives in Porto</s>" not in table and table.count("lesson-memory-superseded") == 2
    assert "2 no longer current" in b.status.value
    labels = dict((value, label) for label, value in b.selection.options)
    assert "(superseded)" in labels["m3"] and "(withdrawn)" in labels["m1"] and "(" not in labels["m4"]

    b.history.value = False  # the checkbox re-lists without the history
    await b.last_task
    assert sorted(r.id for r in b.rows) == ["m2", "m4", "m5"] and "lesson-memory-superseded" not in b.table.value


async def test_delete_with_nothing_selected_does_nothing() -> None:
    b = browser()
    await b.refresh()
    assert await b.delete_selected() is False
    assert len(FakeCortadel.store["alex"]) == 3


async def test_an_unreachable_server_is_one_readable_line() -> None:
    def down(*_args: Any) -> Any:
        raise httpx.ConnectError("All connection attempts failed")

    b = MemoryBrowser("http://127.0.0.1:9", "alex", client_factory=down)
    assert await b.refresh() == []
    assert "Could not list memories: ConnectError: All connection attempts failed" in b.status.value


def test_a_blank_user_is_rejected() -> None:
    with pytest.raises(ValueError, match="user_id"):
        MemoryBrowser("http://127.0.0.1:9", " ")


async def test_against_the_local_memory_server_through_the_official_sdk() -> None:
    from cortadel import AddOptions, CortadelClient

    from local_memory_server import start_memory_server

    async with start_memory_server(api_keys={"alex": "key-alex", "kim": "key-kim"}) as server:
        async with CortadelClient(server.url, "alex", api_key="key-alex") as alex:
            for fact in ("Alex ships on Fridays", "Alex's favourite colour is teal"):
                await alex.add(fact, AddOptions(infer=False))
        async with CortadelClient(server.url, "kim", api_key="key-kim") as kim:
            await kim.add("Kim ships on Mondays", AddOptions(infer=False))

        b = MemoryBrowser(server.url, "alex", api_key="key-alex")
        rows = await b.refresh()
        assert sorted(r.content for r in rows) == ["Alex ships on Fridays", "Alex's favourite colour is teal"]

        hits = await b.search("when does Alex ship")
        assert hits and hits[0].content == "Alex ships on Fridays"

        b.selection.value = (hits[0].id,)
        assert await b.delete_selected() is True
        assert b.status.value.count("Deleted 1 memory.") == 1  # said once, not "Deleted 1 memory. Deleted 1 memory."
        assert [r.content for r in await b.refresh()] == ["Alex's favourite colour is teal"]

        async with CortadelClient(server.url, "alex", api_key="key-alex") as alex:
            # "… is now orange": the meaning decider misses a bare-name possessive without it (a known
            # weakness of name subjects, in the closing note of issue 19); the browser is what this tests.
            assert (await alex.add("Alex's favourite colour is now orange")).event == "SUPERSEDE"
        rows = await b.refresh()
        assert [(r.content, r.is_current, r.replaced_by) for r in rows] == [
            ("Alex's favourite colour is now orange", True, None),
            ("Alex's favourite colour is teal", False, "Alex's favourite colour is now orange"),
        ]
        assert "<s>Alex&#x27;s favourite colour is teal</s>" in b.table.value

        intruder = MemoryBrowser(server.url, "alex", api_key="wrong-key")
        assert await intruder.refresh() == []
        assert "Could not list memories: CortadelError" in intruder.status.value

        kim_view = MemoryBrowser(server.url, "kim", api_key="key-kim")
        assert [r.content for r in await kim_view.refresh()] == ["Kim ships on Mondays"]
