"""Cortadel's request limits, and fitting a turn into them without losing what was said.

The contract caps ``add_conversation`` at 1–500 messages of at most 50,000 characters each, and a
search query at 5,000 characters. A request over a limit is rejected whole with a 400, so a single
pasted document would cost the user the entire turn. Instead the provider:

* splits an over-long message into consecutive pieces, each within the limit, with the same role
  and the **same** ``uuid`` — the uuid is the producer's pointer back to the turn, and every fact
  Cortadel distils from any piece belongs to that one turn (a suffixed uuid would point at turns
  that do not exist). Pieces break after whitespace where possible; joined, they are the original
  text. A piece that would hold only whitespace is not sent: it has nothing to remember;
* sends more than 500 messages as several consecutive ``add_conversation`` calls;
* builds the recall query from the newest user messages that fit in 5,000 characters (see
  :func:`build_query`).

The limits themselves, and ``utf16_len``, live in :mod:`lesson_utils.cortadel_contract`, which the
local server checks against too. Lengths are counted in UTF-16 code units, the way the .NET server
counts ``maxLength``: an emoji is two. That is never less than Python's ``len``, so a piece that
fits here fits any server.
"""

from __future__ import annotations

from collections.abc import Sequence

from cortadel import ChatMessage

from ..cortadel_contract import MAX_MESSAGE_CHARS, MAX_MESSAGES_PER_CALL, MAX_QUERY_CHARS, utf16_len

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_MESSAGES_PER_CALL",
    "MAX_QUERY_CHARS",
    "batch_messages",
    "build_query",
    "cut_text",
    "fit_messages",
    "split_text",
    "utf16_len",
]


def _fit(text: str, start: int, limit: int) -> int:
    """The largest ``end`` such that ``text[start:end]`` is at most ``limit`` UTF-16 units."""
    end = min(len(text), start + limit)  # at least one unit per character: never too short
    while (over := utf16_len(text[start:end]) - limit) > 0:
        # Dropping k characters frees between k and 2k units: drop half the overshoot, rounded up.
        end -= (over + 1) // 2
    return end


def cut_text(text: str, limit: int) -> str:
    """The longest prefix of ``text`` within ``limit`` UTF-16 units."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit!r}.")
    return text[: _fit(text, 0, limit)]


def split_text(text: str, limit: int = MAX_MESSAGE_CHARS) -> list[str]:
    """Consecutive pieces of ``text``, each within ``limit`` UTF-16 units, that join back to it.

    A piece ends just after the last whitespace in its window when that whitespace lies in the
    window's second half (so words stay whole); otherwise it is cut at the limit.
    """
    if limit < 2:
        raise ValueError(f"limit must be at least 2 (one astral character), got {limit!r}.")
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = _fit(text, start, limit)
        if end < len(text):
            window = text[start:end]
            brk = max(window.rfind(" "), window.rfind("\n"), window.rfind("\t"))
            if brk + 1 > len(window) // 2:
                end = start + brk + 1
        pieces.append(text[start:end])
        start = end
    return pieces


def fit_messages(messages: Sequence[ChatMessage], limit: int = MAX_MESSAGE_CHARS) -> list[ChatMessage]:
    """``messages`` with every over-long one split into consecutive pieces (same role, same uuid)."""
    fitted: list[ChatMessage] = []
    for message in messages:
        content = message.content or ""
        if utf16_len(content) <= limit:
            fitted.append(message)
            continue
        fitted.extend(
            ChatMessage(role=message.role, content=piece, uuid=message.uuid)
            for piece in split_text(content, limit)
            if piece.strip()
        )
    return fitted


def batch_messages(
    messages: Sequence[ChatMessage], size: int = MAX_MESSAGES_PER_CALL
) -> list[list[ChatMessage]]:
    """Consecutive batches of at most ``size`` messages (none when there are no messages)."""
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size!r}.")
    return [list(messages[i : i + size]) for i in range(0, len(messages), size)]


def build_query(texts: Sequence[str], limit: int = MAX_QUERY_CHARS) -> str:
    """The recall query for a turn's user messages (oldest first), within ``limit`` UTF-16 units.

    Messages are stripped and blanks dropped. When they all fit, the query is all of them joined
    by newlines. Otherwise the **newest** messages are kept whole, newest first, while they fit —
    the latest message is what the user is asking now — and are joined in their original order.
    If even the newest message alone is too long, the query is its first ``limit`` units (cut
    after a word where possible): a long paste usually opens with what it is about.
    """
    parts = [t.strip() for t in texts if t and t.strip()]
    if not parts:
        return ""
    kept: list[str] = []
    used = 0
    for part in reversed(parts):
        cost = utf16_len(part) + (1 if kept else 0)  # the joining newline
        if used + cost > limit:
            break
        kept.append(part)
        used += cost
    if kept:
        return "\n".join(reversed(kept))
    return split_text(parts[-1], limit)[0].strip()
