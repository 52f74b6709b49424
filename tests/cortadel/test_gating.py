"""Recall gating and abstention: the gate skips phatic turns, the floor drops weak hits, the budget caps tokens.

Defaults keep the seed's behaviour (search every turn, inject every hit); each option is tested
on its own, through ``before_run`` on a fake client, and as the pure rule it is built from.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from agent_framework import AgentSession, Message, SessionContext
from cortadel import SearchHit

from lesson_utils import CortadelContextProvider
from lesson_utils.cortadel.gating import BOTH_ARMS_FLOOR, ONE_ARM_MAX, estimate_tokens, is_phatic, select_hits
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY


async def recall(provider, text):
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[text])])
    state = session.state.setdefault(provider.source_id, {})
    await provider.before_run(agent=SimpleNamespace(context_providers=[provider]), session=session, context=context, state=state)
    return context, state


def scored(id: str, score: float, content: str = "x") -> SearchHit:
    return SearchHit(id=id, content=content, rrf_score=score)


@pytest.mark.parametrize("text", [
    "hi", "Hello!", "hey there", "Thanks!", "thank you so much", "thx 👍", "ok", "OK cool.", "got it",
    "sounds good", "great, thanks a lot!", "Good morning!", "bye", "see you later", "ok?", "   ", "!!!",
])
def test_phatic_turns_are_recognised(text):
    assert is_phatic(text)


@pytest.mark.parametrize("text", [
    "Where do I live?", "thanks, and what do I drink?", "ok, when do I ship?", "Hi, I'm Alex.",
    "remind me", "what's my sister called", "cool, book the Lisbon flight", "no peanuts please",
])
def test_turns_with_a_content_word_are_not_phatic(text):
    assert not is_phatic(text)


async def test_default_searches_every_turn_even_thanks(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory)
    context, _ = await recall(provider, "Thanks!")
    assert [q for q, _ in memory.searches] == ["Thanks!"]
    assert "cortadel" in context.context_messages


async def test_gate_skips_the_search_for_a_phatic_turn_and_counts_it(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory, gate=True)
    context, state = await recall(provider, "thanks a lot!")
    assert memory.searches == [] and context.context_messages == {} and INJECTED_IDS_KEY not in state
    await recall(provider, "When do I ship?")
    assert [q for q, _ in memory.searches] == ["When do I ship?"]
    assert (provider.recall_policy.searched, provider.recall_policy.skipped) == (1, 1)


async def test_floor_drops_weak_hits_and_keeps_rank_order(memory):
    memory.hits = [scored("both", 0.03), scored("text-only", ONE_ARM_MAX), scored("unscored", None), scored("both2", 0.025)]
    provider = CortadelContextProvider(client=memory, min_score=BOTH_ARMS_FLOOR)
    _, state = await recall(provider, "When do I ship?")
    assert state[INJECTED_IDS_KEY] == ["both", "both2"]


async def test_floor_that_drops_everything_injects_nothing(memory):
    memory.hits = [scored("a", 0.01), scored("b", 0.012)]
    provider = CortadelContextProvider(client=memory, min_score=0.02)
    context, state = await recall(provider, "What is my dog's name?")
    assert len(memory.searches) == 1  # the floor costs no search: it only filters
    assert context.context_messages == {} and INJECTED_IDS_KEY not in state


async def test_without_a_floor_weak_hits_are_injected(memory):
    memory.hits = [scored("a", 0.01)]
    _, state = await recall(CortadelContextProvider(client=memory), "What is my dog's name?")
    assert state[INJECTED_IDS_KEY] == ["a"]


async def test_token_budget_stops_at_the_first_hit_that_does_not_fit(memory):
    memory.hits = [scored("a", 0.03, "x" * 40), scored("b", 0.03, "y" * 40), scored("c", 0.03, "z" * 4)]
    provider = CortadelContextProvider(client=memory, token_budget=15)
    _, state = await recall(provider, "tell me everything")
    assert state[INJECTED_IDS_KEY] == ["a"]  # 10 tokens; b would make 20 > 15, and the cut is not skipped over


def test_select_hits_budget_counts_the_gist_when_there_is_one():
    hits = [SearchHit(id="a", content="x" * 400, gist="short", rrf_score=0.03)]
    assert [h.id for h in select_hits(hits, min_score=None, token_budget=2)] == ["a"]
    assert estimate_tokens("") == 0 and estimate_tokens("abcde") == 2


@pytest.mark.parametrize("kwargs, fix", [
    ({"min_score": -0.1}, "min_score"), ({"min_score": "high"}, "min_score"), ({"min_score": True}, "min_score"),
    ({"token_budget": 0}, "token_budget"), ({"token_budget": 2.5}, "token_budget"),
])
def test_bad_options_fail_at_construction_naming_the_option(memory, kwargs, fix):
    with pytest.raises(ValueError, match=fix):
        CortadelContextProvider(client=memory, **kwargs)
