"""Lesson 08's exercise: ``search_mode="text"`` against hybrid on a paraphrased question.

The learner writes ``recall_by_mode(server_url, user_id, question, chat_client)`` that runs the
question once per mode through an agent with a :class:`CortadelContextProvider` and returns the
memory lines each mode injected: ``{"text": [...], "hybrid": [...]}``. The check seeds a throwaway
local memory server with a few facts stored verbatim (``infer=False``) and asks about one of them
in words it does not contain: keyword (BM25) search finds nothing, hybrid search finds it through
the embedding arm.
"""

from __future__ import annotations

import random
from typing import Any

from cortadel import AddOptions, CortadelClient

from ._registry import Hint, call_learner, exercise

# (fact, a question that shares no content word with it). Verified against the local server:
# text search returns nothing for the question, hybrid returns the fact.
_PARAPHRASES = (
    ("Sam ships on Fridays.", "Which day of the week do I release my code?", "Fridays"),
    ("Sam is allergic to peanuts.", "Which foods must I avoid?", "peanuts"),
    ("Sam lives in Lisbon.", "Which city is my home?", "Lisbon"),
)
_USER = "exercise-modes"


def _lines(result: Any, mode: str) -> list[str]:
    if not isinstance(result, dict) or set(result) != {"text", "hybrid"}:
        raise Hint('return a dict with exactly two keys, "text" and "hybrid", each a list of recalled lines')
    lines = result[mode]
    if not isinstance(lines, (list, tuple)) or not all(isinstance(line, str) for line in lines):
        raise Hint(f'result["{mode}"] should be a list of strings (the memory lines that mode injected)')
    return list(lines)


@exercise("08.text_vs_hybrid", title="text search against hybrid on a paraphrased question")
async def check_text_vs_hybrid(answer: Any) -> None:
    if not callable(answer):
        raise Hint("pass your function itself, e.g. `recall_by_mode` (without calling it)")
    from lesson_utils.memory_server import start_memory_server
    from lesson_utils.models import OfflineChatClient

    fact, question, word = random.choice(_PARAPHRASES)
    server = start_memory_server()
    try:
        async with CortadelClient(server.url, _USER) as sdk:
            for seeded, _, _ in _PARAPHRASES:
                await sdk.add(seeded, AddOptions(infer=False))
        result = await call_learner(answer, server.url, _USER, question, OfflineChatClient())
    finally:
        server.stop()

    text, hybrid = _lines(result, "text"), _lines(result, "hybrid")
    in_text = any(word in line for line in text)
    in_hybrid = any(word in line for line in hybrid)
    if in_text and not in_hybrid:
        raise Hint(f'"text" found {fact!r} and "hybrid" did not: are the two modes swapped?')
    if text == hybrid:
        raise Hint(
            "both modes recalled the same lines: build each provider with its own search_mode= "
            '("text", then "hybrid")'
        )
    if not in_hybrid:
        raise Hint(
            f"hybrid recalled nothing about {fact!r} for {question!r}: return the lines the provider injected "
            "(the message whose _attribution source_id is the provider's)"
        )
    if in_text:
        raise Hint(f'"text" should not find {fact!r}: the question shares no word with it — was it really search_mode="text"?')
