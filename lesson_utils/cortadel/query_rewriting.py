"""Query rewriting: search with what a turn means, not only with its own words.

The seed provider (Cortadel.AgentFramework) names this limit: one search per turn, with that turn's
words only, and no query rewriting. A follow-up such as "and when was that again?" then searches for
"when was that again" and finds whatever mentions a date, not the trip the user just asked about.

Rewriting builds the query from the recent turns instead. The offline rule here is deterministic
and knows no topic: a turn that *refers back* (it, that, there, again…: words that point at something
said before) is searched together with the user's earlier turns, back to the last one that stands
alone. A turn that stands alone is searched as it is, so a new question is not muddied by the last
one. A model can do this better: pass any function ``(recent_turns, turn) -> query`` (sync or
async, e.g. one model call) as the provider's ``rewrite_query``.

The recent turns are the provider's own state in ``session.state[source_id]``: the framework's
history provider runs *after* a provider the agent adds it for, and a service-side history is not
local at all, so the provider keeps the few user turns it needs itself (they survive
``AgentSession.to_dict()`` like the injected ids do).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .limits import build_query

__all__ = ["KEEP_TURNS", "RECENT_TURNS_KEY", "QueryRewriter", "follow_up_query", "recent_turns", "refers_back",
           "remember_turn", "rewrite"]

#: Key in the provider's session state for the user's recent turns (oldest first).
RECENT_TURNS_KEY = "recent_turns"
#: How many earlier user turns a session keeps for rewriting.
KEEP_TURNS = 3
#: Words that point back at something said earlier: pronouns, demonstratives, "again".
REFERRING = frozenset(
    "it its that this those these there then them they their he she him her his again same".split()
)
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

QueryRewriter = Callable[[Sequence[str], str], str | Awaitable[str]]


def refers_back(turn: str) -> bool:
    """True when the turn uses a word that points at something said before ("when was *that*?")."""
    return any(word in REFERRING for word in _WORD.findall(turn.lower()))


def follow_up_query(recent: Sequence[str], turn: str) -> str:
    """The offline rule: a turn that refers back is searched with the earlier turns it leans on,
    back to the last one that stands alone; any other turn is searched as it is."""
    leaned_on: list[str] = []
    if refers_back(turn):
        for earlier in reversed(recent):
            leaned_on.insert(0, earlier)
            if not refers_back(earlier):
                break
    return build_query([*leaned_on, turn])  # the newest turns that fit Cortadel's query limit


def recent_turns(state: dict[str, Any]) -> list[str]:
    """The user's earlier turns this session kept for rewriting, oldest first."""
    return list(state.get(RECENT_TURNS_KEY) or [])


def remember_turn(state: dict[str, Any], turn: str, keep: int = KEEP_TURNS) -> None:
    """Keep ``turn`` as the newest of the session's recent turns (at most ``keep`` of them)."""
    state[RECENT_TURNS_KEY] = [*recent_turns(state), turn][-keep:]


async def rewrite(rewriter: QueryRewriter, recent: Sequence[str], turn: str) -> str:
    """Run a rewriter, awaiting it if it is async; a blank or non-text answer is an error."""
    query = rewriter(list(recent), turn)
    if inspect.isawaitable(query):
        query = await query
    if not isinstance(query, str) or not query.strip():
        raise ValueError(f"rewrite_query must return the query text; it returned {query!r}.")
    return build_query([query])
