"""The limits Cortadel's REST contract puts on a request, and how they are counted.

Both sides of the wire need the same numbers: the client side (``lesson_utils.cortadel``) fits a
turn into them before sending, and the local server (``local_memory_server``) rejects what
the real server would reject. One module holds them, so the two sides cannot drift apart. It sits
beside both packages, not in either, so importing it loads neither the SDK nor the server.

Lengths are UTF-16 code units, the way the real (.NET) server checks ``maxLength``: an emoji or any
other character outside the Basic Multilingual Plane counts two. Python's ``len`` counts it once,
so a server that used ``len`` would accept a message the real one rejects. The numbers are the
``minLength``/``maxLength``/``minimum``/``maximum``/``maxItems`` of the contract's request schemas
(``memory_server/data/cortadel-openapi.json``).
"""

from __future__ import annotations

__all__ = [
    "MAX_MESSAGES_PER_CALL",
    "MAX_MESSAGE_CHARS",
    "MAX_QUERY_CHARS",
    "MAX_ROLE_CHARS",
    "MAX_TEXT_CHARS",
    "MAX_TOKEN_BUDGET",
    "MAX_TOP_K",
    "ROLES",
    "utf16_len",
]

MAX_MESSAGE_CHARS = 50_000
"""One conversation message's ``content`` (``ConversationMessageItem.content``)."""
MAX_TEXT_CHARS = 50_000
"""The ``text`` of a memory added directly (``CreateMemoryRequest.text``)."""
MAX_MESSAGES_PER_CALL = 500
"""Messages in one ``from-conversation`` call (``AddConversationRequest.messages``, 1–500)."""
MAX_ROLE_CHARS = 20
"""A message's ``role``."""
MAX_QUERY_CHARS = 5000
"""A search query (``SearchMemoriesRequest.query``)."""
MAX_TOP_K = 50
"""Results one search may ask for (``top_k``, 1–50)."""
MAX_TOKEN_BUDGET = 200_000
"""A search's ``token_budget`` (0 means unbounded)."""
ROLES = ("user", "assistant", "system")
"""The roles a conversation message may have."""


def utf16_len(text: str) -> int:
    """Length as a .NET server counts it: characters outside the BMP count twice.

    Encoding counts in C rather than a Python loop (a 50 000-character message costs microseconds);
    ``surrogatepass`` keeps a lone surrogate (which JSON's ``\\ud83d`` escape can produce) at one unit.
    """
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
