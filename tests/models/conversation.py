"""Shared helper for the offline-model rule tests: ask the model about a scripted conversation."""

from __future__ import annotations

from agent_framework import Message

from chat_models import OfflineChatClient


def conversation(*turns: str) -> list[Message]:
    """Alternating user/assistant messages, starting with the user."""
    return [Message("user" if i % 2 == 0 else "assistant", [t]) for i, t in enumerate(turns)]


async def ask(*turns: str, instructions: str | None = None) -> str:
    """The offline model's reply to ``turns`` (a fresh client each time: it must not remember)."""
    options = {"instructions": instructions} if instructions else None
    response = await OfflineChatClient().get_response(conversation(*turns), options=options)
    return response.text
