"""The relevance floor: ``min_relevance`` judges hits by ``attributes["relevance"]``, else by the rrf floor.

Through ``before_run`` on a fake client (what gets injected), and as the pure rule it is built from.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest
from agent_framework import AgentSession, Message, SessionContext
from cortadel import SearchHit

from lesson_utils import CortadelContextProvider
from lesson_utils.cortadel.gating import BOTH_ARMS_FLOOR, RELEVANCE_FLOOR, RecallPolicy, relevance_of, select_hits
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY


async def recall(provider, text):
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[text])])
    state = session.state.setdefault(provider.source_id, {})
    await provider.before_run(agent=SimpleNamespace(context_providers=[provider]), session=session, context=context, state=state)
    return context, state


def hit(id: str, relevance: float | None, rrf: float | None = 0.03) -> SearchHit:
    attributes = {"session_id": "s1"} if relevance is None else {"relevance": relevance, "session_id": "s1"}
    return SearchHit(id=id, content=f"memory {id}", rrf_score=rrf, attributes=attributes)


async def test_floor_keeps_relevant_hits_and_drops_the_rest_in_rank_order(memory):
    memory.hits = [hit("sure", 0.9), hit("weak", 0.05), hit("borderline", RELEVANCE_FLOOR), hit("low", 0.1)]
    provider = CortadelContextProvider(client=memory, min_relevance=RELEVANCE_FLOOR)
    context, state = await recall(provider, "Where do I live?")
    assert state[INJECTED_IDS_KEY] == ["sure", "borderline"]
    assert "memory weak" not in context.context_messages["cortadel"][0].text


async def test_nothing_relevant_means_nothing_injected(memory):
    memory.hits = [hit("a", 0.02), hit("b", 0.2)]
    provider = CortadelContextProvider(client=memory, min_relevance=0.5)
    context, state = await recall(provider, "What is my horse called?")
    assert context.context_messages == {} and INJECTED_IDS_KEY not in state


async def test_relevance_decides_even_when_the_rrf_score_is_low(memory):
    memory.hits = [hit("one-arm-but-relevant", 0.8, rrf=1 / 62), hit("both-arms-but-irrelevant", 0.01, rrf=0.032)]
    provider = CortadelContextProvider(client=memory, min_relevance=RELEVANCE_FLOOR)
    _, state = await recall(provider, "What are my pets called?")
    assert state[INJECTED_IDS_KEY] == ["one-arm-but-relevant"]


async def test_without_the_attribute_the_rrf_floor_decides_and_says_so_once(memory, caplog):
    memory.hits = [hit("both-arms", None, rrf=0.03), hit("one-arm", None, rrf=1 / 61)]
    provider = CortadelContextProvider(client=memory, min_relevance=RELEVANCE_FLOOR)
    with caplog.at_level(logging.WARNING, logger="lesson_utils.cortadel.gating"):
        _, first = await recall(provider, "Where do I live?")
        _, second = await recall(provider, "When do I ship?")
    assert first[INJECTED_IDS_KEY] == ["both-arms"] and second[INJECTED_IDS_KEY] == ["both-arms"]
    fallbacks = [r for r in caplog.records if "relevance" in r.getMessage()]
    assert len(fallbacks) == 1 and "rrf_score floor" in fallbacks[0].getMessage()
    assert provider.recall_policy.fell_back == 2


async def test_the_fallback_uses_min_score_when_one_is_given(memory):
    memory.hits = [hit("high", None, rrf=0.05), hit("mid", None, rrf=0.03), hit("scored", 0.9, rrf=0.001)]
    provider = CortadelContextProvider(client=memory, min_relevance=0.5, min_score=0.04)
    _, state = await recall(provider, "Where do I live?")
    assert state[INJECTED_IDS_KEY] == ["high", "scored"]


def test_a_server_that_fills_relevance_never_triggers_the_fallback(caplog):
    policy = RecallPolicy(min_relevance=0.3)
    with caplog.at_level(logging.WARNING):
        kept = policy.select([hit("a", 0.4), hit("b", 0.2)])
    assert [h.id for h in kept] == ["a"] and policy.fell_back == 0 and not caplog.records


def test_relevance_of_reads_only_numbers():
    assert relevance_of(hit("a", 0.25)) == 0.25
    assert relevance_of(hit("a", None)) is None
    assert relevance_of(SearchHit(id="a", content="x", attributes={"relevance": "high"})) is None
    assert relevance_of(SearchHit(id="a", content="x", attributes={"relevance": True})) is None
    assert relevance_of(SearchHit(id="a", content="x")) is None


def test_select_hits_without_any_floor_keeps_everything():
    hits = [hit("a", 0.01, rrf=None), hit("b", None, rrf=None)]
    assert [h.id for h in select_hits(hits, min_score=None, token_budget=None, min_relevance=None)] == ["a", "b"]
    assert [h.id for h in select_hits(hits, min_score=None, token_budget=None, min_relevance=0.0)] == ["a"]
    assert BOTH_ARMS_FLOOR > 1 / 61


@pytest.mark.parametrize("value", [1.5, -0.1, "high", True, [0.3]])
def test_an_invalid_min_relevance_is_one_line_naming_the_fix(memory, value):
    with pytest.raises(ValueError) as error:
        CortadelContextProvider(client=memory, min_relevance=value)
    message = str(error.value)
    assert "\n" not in message and "min_relevance" in message and "RELEVANCE_FLOOR" in message
