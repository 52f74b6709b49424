"""course_kit.lessons.l10_memory_that_changes.checks: shows_replaced holds only for one outdated row, drawn as such."""

from __future__ import annotations

from types import SimpleNamespace

from course_kit.lessons.l10_memory_that_changes.checks import SUPERSEDED_CLASS, shows_replaced
from course_kit.widgets.memory_browser import MemoryRow

TEA = MemoryRow("1", "prefers tea", is_current=False, superseded_by="2", replaced_by="prefers coffee")
COFFEE = MemoryRow("2", "prefers coffee")


def _browser(*rows, html=f'<tr class="{SUPERSEDED_CLASS}">'):
    return SimpleNamespace(rows=list(rows), table=SimpleNamespace(value=html))


def test_shows_replaced():
    assert shows_replaced(_browser(TEA, COFFEE), "tea", "coffee")
    assert not shows_replaced(_browser(TEA, COFFEE), "coffee", "tea")
    assert not shows_replaced(_browser(COFFEE), "tea", "coffee")  # nothing outdated
    assert not shows_replaced(_browser(TEA, COFFEE, html="<tr>"), "tea", "coffee")  # not drawn as superseded
