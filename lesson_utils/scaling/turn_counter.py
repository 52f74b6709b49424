"""Lesson 14: provider state that every turn changes, so a lost update is visible.

``TurnCounter`` is the smallest context provider with state that must survive every turn: it
counts the conversation's turns and records which worker served each. A billing meter, a
summary or a user profile is the same in kind: read in a turn, changed, written back with the
session. If two workers save copies of the same session, one worker's change is lost.
"""

from __future__ import annotations

from typing import Any

from agent_framework import AgentSession, ContextProvider, SessionContext, SupportsAgentRun

__all__ = ["TurnCounter"]


class TurnCounter(ContextProvider):
    """Counts turns in ``session.state["turns"]``: ``{"count": n, "served_by": [worker, ...]}``."""

    def __init__(self, worker: str) -> None:
        super().__init__("turns")
        self.worker = worker

    async def after_run(
        self, *, agent: SupportsAgentRun, session: AgentSession, context: SessionContext, state: dict[str, Any]
    ) -> None:
        state["count"] = state.get("count", 0) + 1
        state["served_by"] = [*state.get("served_by", []), self.worker]
