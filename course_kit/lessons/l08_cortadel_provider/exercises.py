"""Lesson 08's exercise: ``search_mode="text"`` against hybrid on a paraphrased question.

The learner writes ``recall_by_mode(server_url, user_id, question, chat_client)`` that runs the
question once per mode through an agent with a :class:`CortadelContextProvider` and returns the
memory lines each mode injected: ``{"text": [...], "hybrid": [...]}``. The check seeds a throwaway
local memory server with a few facts stored verbatim (``infer=False``) and asks about one of them
in words it does not contain: keyword (BM25) search finds nothing, hybrid search finds it through
the embedding arm.

The user and the fact asked about are drawn per run (:mod:`._cases`); a second fact shares a word
with the question, so text search finds it and hybrid must too (two modes sharing one session skip
it); the question carries a "- " line of its own, which is not a memory. The answer is called twice, for
two users, so lines kept between calls (a mutable default, the module) show up in the second result.
"""

from __future__ import annotations

from typing import Any

from cortadel import AddOptions, CortadelClient

from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

# (fact, a question that shares no content word with it, the word that shows the fact was found, a fact that
# shares a keyword with the question). Verified against the local server: text search misses the fact,
# hybrid finds it; both find the keyword fact.
_PARAPHRASES = (
    ("{} ships on Fridays.", "Which day of the week do I release my code?", "Fridays", "{} keeps the code on GitHub."),
    ("{} is allergic to peanuts.", "Which foods must I avoid?", "peanuts", "{} says fried foods give heartburn."),
    ("{} lives in Lisbon.", "Which city is my home?", "Lisbon", "{}'s home office faces the garden."),
)
NAMES = ("Noor", "Ilse", "Bongani", "Mireille", "Teodor", "Yaretzi", "Callum", "Shirin")


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
    with drawn_cases() as rng:
        # twice in this process, for two users: nothing from the first call may come back from the second
        earlier: list[str] = []
        for name in rng.sample(NAMES, 2):
            earlier += await _compare(answer, rng, name, earlier)


async def _compare(answer: Any, rng: Any, name: str, earlier: list[str]) -> list[str]:
    from local_memory_server import start_memory_server
    from chat_models import OfflineChatClient

    user = f"exercise-{name.lower()}-{rng.randrange(10_000)}"
    facts = [form.format(name) for pair in _PARAPHRASES for form in (pair[0], pair[3])]
    fact_form, asked, word, keyword_form = rng.choice(_PARAPHRASES)
    fact, keyword_fact = fact_form.format(name), keyword_form.format(name)
    question = f"Quick question:\n- {asked}"  # a user's own "- " line is not a memory
    # The offline reader: a check judges your code the same whatever model .env configures.
    server = start_memory_server(understanding="offline")
    try:
        async with CortadelClient(server.url, user) as sdk:
            for seeded in facts:
                await sdk.add(seeded, AddOptions(infer=False))
        result = await call_learner(answer, server.url, user, question, OfflineChatClient())
    finally:
        server.stop()

    text, hybrid = _lines(result, "text"), _lines(result, "hybrid")
    for line in text + hybrid:
        if "\n" in line.strip():
            raise Hint("return one memory per string (the injected message's \"- \" lines), not whole messages")
        others = [form.format(n) for n in NAMES if n != name for pair in _PARAPHRASES for form in (pair[0], pair[3])]
        if any(f in line for f in [*earlier, *others]) and not any(f in line for f in facts):
            raise Hint(f"this call (user {user!r}) returned {line!r:.60}, a memory of an earlier call: build the result "
                       "in local variables inside the function, not in a default argument, the module or the class")
        if not any(f in line for f in facts):
            raise Hint(f"{line!r:.60} is not a memory: return only the lines of the message the provider injected "
                       "(its _attribution source_id), not every message sent, nor what you typed")
    in_text = any(word in line for line in text)
    in_hybrid = any(word in line for line in hybrid)
    if in_text and not in_hybrid:
        raise Hint(f'"text" found {fact!r} and "hybrid" did not: are the two modes swapped?')
    if not any(keyword_fact in line for line in text):
        raise Hint(f"text search recalled nothing about {keyword_fact!r}, which shares a word with the question: run "
                   f"the question for user_id through a provider with search_mode=\"text\" on server_url")
    if text == hybrid:
        raise Hint(
            "both modes recalled the same lines: build each provider with its own search_mode= "
            '("text", then "hybrid")'
        )
    if not any(keyword_fact in line for line in hybrid):
        raise Hint(f"hybrid skipped {keyword_fact!r}, which text search found: hybrid has the keyword arm too — "
                   "did both modes share one session, so the second skipped what the first injected? Use a new "
                   "session per mode")
    if not in_hybrid:
        raise Hint(
            f"hybrid recalled nothing about {fact!r} for {asked!r}: return the lines the provider injected "
            "(the message whose _attribution source_id is the provider's)"
        )
    if in_text:
        raise Hint(f'"text" should not find {fact!r}: the question shares no word with it — was it really search_mode="text"?')
    return facts
