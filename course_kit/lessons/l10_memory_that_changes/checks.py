"""Lesson 10's checks: what the memory browser shows of a memory's history, and what a model decided."""

from __future__ import annotations

from typing import Any

__all__ = ["decided", "model_exchange", "shows_replaced"]

#: The CSS class the browser gives a superseded row (greyed, struck through).
SUPERSEDED_CLASS = "lesson-memory-superseded"


def shows_replaced(browser: Any, old: str, new: str) -> bool:
    """The browser shows exactly one outdated row, mentioning ``old``, replaced by one mentioning ``new``,
    and draws it as superseded."""
    outdated = [row for row in browser.rows if not row.is_current]
    return (len(outdated) == 1 and old in outdated[0].content and new in (outdated[0].replaced_by or "")
            and SUPERSEDED_CLASS in browser.table.value)


def model_exchange(server: Any) -> dict[str, Any]:
    """The newest exchange in which a model read a turn for this lesson's local ``server`` (``"source": "yours"``),
    or, when no model read one (offline, or a real Cortadel server), the recording (``"source": "recorded"``)."""
    from memory_evaluation.exchange import recorded_exchange

    service = getattr(getattr(server, "server", None), "service", None)
    reader, readings = getattr(service, "reader", None), list(getattr(service, "readings", []))
    mine = [r for r in readings if len(r.exchange) == 2]  # a turn with both calls: extract and decide
    if reader is not None and mine:
        return {"source": "yours", "model": reader.model, "exchange": mine[-1].exchange}
    return {"source": "recorded", **recorded_exchange()}


def decided(exchange: list[dict[str, Any]], event: str) -> bool:
    """The deciding call of ``exchange`` answered ``event`` for one of its facts, naming a memory it was shown."""
    decide = [call for call in exchange if call["call"] == "decide"]
    shown = decide[0]["sent"][-1]["content"] if decide else ""
    return any(d.get("event") == event and f"STORED {d.get('id')}:" in shown
               for call in decide for d in call["received"].get("decisions", []))
