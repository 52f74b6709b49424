"""Wrong answers to 11.injected_ids, written from the exercise text only (issue 21, item 1).

Each returns a list of memory ids that matches what the lesson's plain provider injects for a first
question. Each breaks one rule: run *the provider's* recall, in a brand-new session, and return the ids
it injected, in order.
"""

from __future__ import annotations

from agent_framework import AgentSession, Message, SessionContext
from cortadel import SearchOptions

from lesson_utils.cortadel.gating import BOTH_ARMS_FLOOR
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY


async def _recall(provider, question, session, slot):
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[question])])
    state = session.state.setdefault(slot, {})
    await provider.before_run(agent=None, session=session, context=context, state=state)
    return list(state.get(INJECTED_IDS_KEY, []))


async def raw_search_ids(provider, question):
    """Returns what the search found, not what the provider injected: gate and floor are skipped."""
    found = await provider.client.search(question, SearchOptions(top_k=5))
    return [hit.id for hit in found.results]


async def lesson_floor_reimplemented(provider, question):
    """Re-implements the floor with the lesson's BOTH_ARMS_FLOOR and no gate, instead of running the provider."""
    found = await provider.client.search(question, SearchOptions(top_k=5))
    return [hit.id for hit in found.results if (hit.rrf_score or 0) > BOTH_ARMS_FLOOR]


_SESSION = AgentSession()


async def one_session_for_all(provider, question):
    """Reuses one module-level session: the provider's dedup hides ids an earlier question injected."""
    return await _recall(provider, question, _SESSION, provider.source_id)


async def sorted_ids(provider, question):
    """Runs the recall right, then returns the ids sorted, not in the order injected."""
    return sorted(await _recall(provider, question, AgentSession(), provider.source_id))


async def default_slot_hardcoded(provider, question):
    """Hard-codes the default slot name "cortadel" instead of `provider.source_id`."""
    return await _recall(provider, question, AgentSession(), "cortadel")


async def ids_from_the_block(provider, question):
    """Maps the injected lines back to ids by searching again and matching text: duplicates and order drift."""
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[question])])
    await provider.before_run(
        agent=None, session=session, context=context, state=session.state.setdefault(provider.source_id, {})
    )
    block = "\n".join(m.text for m in context.context_messages.get(provider.source_id, []))
    found = await provider.client.search(question, SearchOptions(top_k=10))
    return [hit.id for hit in found.results if hit.content[:30] in block]


WRONG = [
    ("11.injected_ids", raw_search_ids, "raw search ids, not injected ids"),
    ("11.injected_ids", lesson_floor_reimplemented, "re-implements the lesson's floor; no gate"),
    ("11.injected_ids", one_session_for_all, "one module-level session reused"),
    ("11.injected_ids", sorted_ids, "ids sorted, not in injected order"),
    ("11.injected_ids", default_slot_hardcoded, 'hard-codes the slot "cortadel"'),
    ("11.injected_ids", ids_from_the_block, "ids matched back from the block's text"),
]
