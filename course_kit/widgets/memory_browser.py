"""Browse one user's long-term memories on a Cortadel server: list, search, delete, history.

It talks through the official ``cortadel`` SDK, so it works the same against the local memory
server and a real Cortadel deployment. Each action opens a short-lived client (``async with``),
which keeps the widget independent of whichever event loop it was created on.

Memories change: a fact can be superseded by a newer one or withdrawn. With "Show history" on
(the default) the list asks for superseded memories too and shows them greyed and struck
through, with what replaced them. The list items of the contract carry ``is_current`` but not
``superseded_by``, so the browser fetches each superseded memory (``get``) to find its
replacement — one extra call per outdated memory shown, fine for a lesson-sized store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from ._render import esc

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MemoryRow:
    """One memory as the browser shows it."""

    id: str
    content: str
    score: float | None = None
    is_current: bool = True
    #: The id and text of the memory that replaced this one (None: current, or withdrawn).
    superseded_by: str | None = None
    replaced_by: str | None = None


def _default_client_factory(base_url: str, user_id: str, api_key: str | None) -> Any:
    from cortadel import CortadelClient

    return CortadelClient(base_url, user_id, api_key=api_key)


class MemoryBrowser(widgets.VBox):
    """List, search and delete the memories of ``user_id`` on the server at ``base_url``.

    Drive it from code as well as by clicking: ``await browser.refresh()``,
    ``browser.query.value = "ship"; await browser.search()``, ``await browser.delete(memory_id)``.
    Failures (server down, wrong key) show one readable line in the status and change nothing.
    """

    def __init__(
        self,
        base_url: str,
        user_id: str,
        api_key: str | None = None,
        *,
        page_size: int = 50,
        show_history: bool = True,
        client_factory: Callable[[str, str, str | None], Any] | None = None,
    ) -> None:
        if not user_id or not user_id.strip():
            raise ValueError("MemoryBrowser needs a non-blank user_id: memories are always one user's.")
        self.base_url = base_url
        self.user_id = user_id
        self._api_key = api_key
        self.page_size = page_size
        self._client_factory = client_factory or _default_client_factory
        self.rows: list[MemoryRow] = []
        self.total = 0
        self.mode = "list"
        self.last_task: asyncio.Task[Any] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

        self.header = widgets.HTML(f"<b>Memories of</b> <code>{esc(user_id)}</code> <small>at {esc(base_url)}</small>")
        self.query = widgets.Text(placeholder="search these memories", layout=widgets.Layout(width="50%"))
        self.search_button = widgets.Button(description="Search", icon="search")
        self.list_button = widgets.Button(description="List all", icon="list")
        self.history = widgets.Checkbox(value=show_history, description="Show history", indent=False,
                                        layout=widgets.Layout(width="auto"))
        self.table = widgets.HTML("")
        self.selection = widgets.SelectMultiple(options=[], rows=8, layout=widgets.Layout(width="95%"))
        self.delete_button = widgets.Button(description="Delete selected", button_style="danger", icon="trash")
        self.status = widgets.HTML("")
        self.search_button.on_click(lambda _b: self._schedule(self.search()))
        self.list_button.on_click(lambda _b: self._schedule(self.refresh()))
        self.history.observe(lambda _change: self._schedule(self.refresh()), names="value")
        self.delete_button.on_click(lambda _b: self._schedule(self.delete_selected()))
        self.add_class("lesson-memory-browser")
        super().__init__(
            children=[
                self.header,
                widgets.HBox([self.query, self.search_button, self.list_button, self.history]),
                self.table,
                self.selection,
                self.delete_button,
                self.status,
            ]
        )

    # -- actions ---------------------------------------------------------------------------------

    def _schedule(self, coro: Any) -> asyncio.Task[Any]:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.last_task = task
        return task

    async def _call(self, action: str, operation: Callable[[Any], Any]) -> Any:
        """Run one SDK call with a fresh client; on failure say so in the status and return None."""
        try:
            async with self._client_factory(self.base_url, self.user_id, self._api_key) as client:
                return await operation(client)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logger.info("MemoryBrowser %s failed", action, exc_info=True)  # the learner sees the status line
            self._set_status(f"⚠ Could not {action}: {type(exc).__name__}: {exc}".rstrip(": "), error=True)
            return None

    async def refresh(self) -> list[MemoryRow]:
        """List the user's memories (newest first); with history on, superseded ones too."""
        from cortadel import ListOptions

        history = bool(self.history.value)

        async def listing(client: Any) -> tuple[Any, list[MemoryRow]]:
            result = await client.list(ListOptions(size=self.page_size, include_superseded=history))
            return result, await self._with_replacements(client, result.items)

        got = await self._call("list memories", listing)
        if got is None:
            return self.rows
        result, rows = got
        self.mode = "list"
        self._show(rows, total=result.total)
        shown, old = len(self.rows), sum(not r.is_current for r in self.rows)
        noun = f"memor{'y' if result.total == 1 else 'ies'}"
        self._set_status(f"{result.total} {noun}" + (f", {old} no longer current" if old else "")
                         + (f" (showing {shown})" if shown < result.total else ""))
        return self.rows

    @staticmethod
    async def _with_replacements(client: Any, items: list[Any]) -> list[MemoryRow]:
        """Rows for list items; each superseded one says what replaced it (see the module docstring)."""
        texts = {item.id: item.content for item in items}
        rows = []
        for item in items:
            if item.is_current is not False:
                rows.append(MemoryRow(item.id, item.content))
                continue
            detail = await client.get(item.id)
            newer = detail.superseded_by if detail is not None else None
            if newer is not None and newer not in texts:
                replacement = await client.get(newer)
                texts[newer] = replacement.text if replacement is not None else "(deleted)"
            rows.append(MemoryRow(item.id, item.content, is_current=False, superseded_by=newer,
                                  replaced_by=texts.get(newer) if newer else None))
        return rows

    async def search(self, query: str | None = None) -> list[MemoryRow]:
        """Hybrid search of the user's memories for ``query`` (default: the search box)."""
        from cortadel import SearchOptions

        text = (self.query.value if query is None else query).strip()
        if not text:
            self._set_status("Type something to search for, or press List all.")
            return self.rows
        result = await self._call("search", lambda c: c.search(text, SearchOptions(top_k=self.page_size)))
        if result is None:
            return self.rows
        self.mode = "search"
        self._show([MemoryRow(hit.id, hit.content, hit.rrf_score) for hit in result.results], total=result.total)
        self._set_status(f"{len(self.rows)} result(s) for “{text}”")
        return self.rows

    async def delete(self, *memory_ids: str) -> bool:
        """Delete these memories, then reload the current view. True when the server confirmed."""
        ids = [i for i in memory_ids if i]
        if not ids:
            self._set_status("Select one or more memories to delete first.")
            return False
        confirmation = await self._call("delete", lambda c: c.delete(ids))
        if confirmation is None:
            return False
        await (self.search() if self.mode == "search" and self.query.value.strip() else self.refresh())
        # The server's own confirmation says how many it deleted; say it once.
        fallback = f"Deleted {len(ids)} memor{'y' if len(ids) == 1 else 'ies'}."
        self._set_status(str(confirmation).strip() or fallback)
        return True

    async def delete_selected(self) -> bool:
        return await self.delete(*self.selection.value)

    # -- rendering -------------------------------------------------------------------------------

    def _show(self, rows: list[MemoryRow], *, total: int) -> None:
        self.rows = rows
        self.total = total
        self.selection.options = [(self._label(row), row.id) for row in rows]
        self.selection.value = ()
        self.table.value = self._table(rows)

    @staticmethod
    def _label(row: MemoryRow) -> str:
        score = f"  [{row.score:.3f}]" if row.score is not None else ""
        old = "" if row.is_current else "  (superseded)" if row.superseded_by else "  (withdrawn)"
        return f"{row.content}{score}{old}  ·  {row.id[:8]}"

    @staticmethod
    def _table(rows: list[MemoryRow]) -> str:
        """The memories as HTML: current ones plain, outdated ones greyed with their replacement."""
        if not rows:
            return "<div class='lesson-memory-table'><i>No memories.</i></div>"
        lines = []
        for row in rows:
            if row.is_current:
                lines.append(f"<li class='lesson-memory-current'>{esc(row.content)}</li>")
                continue
            why = (f"replaced by “{esc(row.replaced_by)}”" if row.superseded_by
                   else "withdrawn (no longer true, or forgotten)")
            lines.append(
                "<li class='lesson-memory-superseded' style='color:#888'>"
                f"<s>{esc(row.content)}</s> <small>— {why}</small></li>"
            )
        return "<ul class='lesson-memory-table' style='margin:2px 0'>" + "".join(lines) + "</ul>"

    def _set_status(self, text: str, *, error: bool = False) -> None:
        style = " style='color:#b00020'" if error else ""
        self.status.value = f"<span class='lesson-memory-status'{style}>{esc(text)}</span>"
