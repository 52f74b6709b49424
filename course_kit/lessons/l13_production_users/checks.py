"""Lesson 13's checks: users kept apart, providers kept apart, and memories that cannot pose as instructions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from cortadel import CortadelError

from lesson_utils.cortadel import CortadelContextProvider
from ...checks.requests import _source_id, injected_texts

_POSING = ("#", "System:", "User:", "Assistant:")  # what a memory line must not start with
_TEMPLATE_TOKENS = ("<|im_start|>", "<|im_end|>", "<|system|>", "<|user|>")


def given_only_their_own(recalled: Mapping[str, str], facts: Mapping[str, str]) -> bool:
    """Whether each user's recalled text holds their own fact and no other user's."""
    return all(
        facts[user] in text and not any(fact in text for other, fact in facts.items() if other != user)
        for user, text in recalled.items()
    )


def one_agent_per_user(agent_for: Callable[[str], Any], users: Sequence[str]) -> bool:
    """Whether ``agent_for`` hands each user the same Agent on every call, each with its own Cortadel provider."""
    agents = [agent_for(user) for user in users]
    if any(agent_for(user) is not agent for user, agent in zip(users, agents, strict=True)):
        return False
    providers = [next((p for p in a.context_providers if isinstance(p, CortadelContextProvider)), None) for a in agents]
    return None not in providers and len({id(a) for a in agents}) == len({id(p) for p in providers}) == len(users)


async def status_of(call: Awaitable[Any]) -> int:
    """The HTTP status a Cortadel call ended with: 200 when it succeeded, else its error's status (403 …)."""
    try:
        await call
    except CortadelError as error:
        return error.status
    return 200


def each_source_kept_apart(request: Any, session: Any, facts: Mapping[str, str]) -> bool:
    """Whether the providers named in ``facts`` injected, in that order, each its own fact, each keeping its own state."""
    stamped = [source for source in (_source_id(m) for m in request.messages) if source is not None]
    return stamped == list(facts) and all(
        fact in " ".join(injected_texts(request, source)) and session.state.get(source, {}).get("injected_memory_ids")
        for source, fact in facts.items()
    )


def one_quoted_bullet(rendered: str | None) -> bool:
    """Whether one rendered memory became a header and exactly one ``- (quoted) …`` bullet, with no template token."""
    lines = (rendered or "").splitlines()
    return len(lines) == 2 and lines[1].startswith("- (quoted) ") and not any(t in lines[1] for t in _TEMPLATE_TOKENS)


def only_bullets_under(block: str, header: str) -> bool:
    """Whether ``block`` is ``header`` then memory bullets, none posing as a heading, a role turn or a template token."""
    lines = block.splitlines()
    return (
        len(lines) >= 2
        and lines[0] == header
        and all(line.startswith("- ") and not line[2:].startswith(_POSING) for line in lines[1:])
        and not any(token in block for token in _TEMPLATE_TOKENS)
    )
