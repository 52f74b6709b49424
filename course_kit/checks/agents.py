"""What an agent object holds: the check that it keeps no conversation's data (lessons 04 and 06).

The mental model of lessons 01–06 is that the agent is configuration and the session is the
conversation. The claim "the agent holds nothing about this user" is checked by looking at
everything the agent carries that a run could have written to — its options (instructions
included) and every context provider's attributes — for the user's words.
"""

from __future__ import annotations

import json
from typing import Any


def agent_remembers(agent: Any, *words: str) -> list[str]:
    """Which of ``words`` appear in ``agent``'s options or in any of its context providers' attributes."""
    carried = json.dumps(
        [getattr(agent, "default_options", {}), *(vars(p) for p in getattr(agent, "context_providers", []))],
        default=repr,
        ensure_ascii=False,
    )
    return [word for word in words if word in carried]
