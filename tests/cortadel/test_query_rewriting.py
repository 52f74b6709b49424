"""Query rewriting: a follow-up is searched with the turn it leans on; off by default, as in the seed.

The rule is tested as a pure function (what refers back, how far back it reaches, the query limit),
then as the provider's ``rewrite_query`` option through ``before_run`` on a fake client: the recent
turns live in ``session.state[source_id]``, a custom rewriter (sync or async) replaces the rule, and
a rewriter that fails is reported while the turn's own words are searched.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from agent_framework import AgentSession, Message, SessionContext

from lesson_utils import CortadelContextProvider
from lesson_utils.cortadel.limits import MAX_QUERY_CHARS
from lesson_utils.cortadel.query_rewriting import (
    KEEP_TURNS,
    RECENT_TURNS_KEY,
    follow_up_query,
    recent_turns,
    refers_back,
    remember_turn,
)


async def say(provider, session, text):
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[text])])
    state = session.state.setdefault(provider.source_id, {})
    await provider.before_run(agent=SimpleNamespace(context_providers=[provider]), session=session, context=context, state=state)
    return state


@pytest.mark.parametrize("turn", ["And when was that again?", "Where was it?", "Who was there with me?",
                                  "What did she say about them?", "how much did those cost"])
def test_a_turn_that_points_back_refers_back(turn):
    assert refers_back(turn)


@pytest.mark.parametrize("turn", ["Where did I go hiking?", "What is my sister called?", "Which diet am I on?",
                                  "Thanks!", "Itinerary for Bath, please"])
def test_a_turn_that_stands_alone_does_not(turn):
    assert not refers_back(turn)


def test_a_follow_up_is_searched_with_the_turn_it_leans_on():
    assert follow_up_query(["I love jazz.", "Where did I go hiking?"], "And when was that?") == (
        "Where did I go hiking?\nAnd when was that?")


def test_a_chain_of_follow_ups_reaches_back_to_the_last_turn_that_stands_alone():
    recent = ["What is my dog called?", "Where did I buy the kayak?", "How much was it?"]
    assert follow_up_query(recent, "And who sold it to me?") == (
        "Where did I buy the kayak?\nHow much was it?\nAnd who sold it to me?")


def test_a_turn_that_stands_alone_is_searched_as_it_is():
    assert follow_up_query(["Where did I go hiking?"], "What is my sister called?") == "What is my sister called?"


def test_a_follow_up_with_no_earlier_turn_is_searched_as_it_is():
    assert follow_up_query([], "When was that?") == "When was that?"


def test_the_rewritten_query_keeps_the_newest_turns_within_cortadels_limit():
    long_turn = "hiking " * (MAX_QUERY_CHARS // 7)
    assert follow_up_query([long_turn], "When was that?") == "When was that?"


def test_a_session_keeps_only_its_last_few_turns():
    state: dict = {}
    for n in range(KEEP_TURNS + 2):
        remember_turn(state, f"turn {n}")
    assert recent_turns(state) == [f"turn {n}" for n in range(2, KEEP_TURNS + 2)]


async def test_off_by_default_a_follow_up_searches_its_own_words(memory):
    provider, session = CortadelContextProvider(client=memory), AgentSession()
    await say(provider, session, "Where did I go hiking?")
    state = await say(provider, session, "And when was that again?")
    assert memory.searches[-1][0] == "And when was that again?" and RECENT_TURNS_KEY not in state


async def test_with_rewriting_a_follow_up_searches_with_the_previous_turn(memory):
    provider, session = CortadelContextProvider(client=memory, rewrite_query=True), AgentSession()
    await say(provider, session, "Where did I go hiking?")
    await say(provider, session, "And when was that again?")
    assert [q for q, _ in memory.searches] == ["Where did I go hiking?", "Where did I go hiking?\nAnd when was that again?"]


async def test_the_recent_turns_are_per_session_and_survive_serialisation(memory):
    provider = CortadelContextProvider(client=memory, rewrite_query=True)
    first = AgentSession()
    await say(provider, first, "Where did I go hiking?")
    await say(provider, AgentSession(), "When was that?")  # another session: no earlier turn
    await say(provider, AgentSession.from_dict(first.to_dict()), "When was that?")
    assert [q for q, _ in memory.searches][1:] == ["When was that?", "Where did I go hiking?\nWhen was that?"]


async def test_a_gated_phatic_turn_is_not_searched_nor_remembered(memory):
    provider, session = CortadelContextProvider(client=memory, rewrite_query=True, gate=True), AgentSession()
    await say(provider, session, "Where did I go hiking?")
    state = await say(provider, session, "thanks!")
    assert len(memory.searches) == 1 and recent_turns(state) == ["Where did I go hiking?"]


async def test_a_custom_rewriter_sync_or_async_builds_the_query(memory):
    async def by_model(recent, turn):
        return f"{len(recent)} earlier: {turn}"

    for rewriter in (lambda recent, turn: f"{len(recent)} earlier: {turn}", by_model):
        provider, session = CortadelContextProvider(client=memory, rewrite_query=rewriter), AgentSession()
        await say(provider, session, "Where did I go hiking?")
        await say(provider, session, "When?")
        assert memory.searches[-1][0] == "1 earlier: When?"


async def test_a_failing_rewriter_is_reported_and_the_turns_own_words_are_searched(memory):
    errors = []

    def broken(recent, turn):
        raise RuntimeError("model down")

    provider = CortadelContextProvider(client=memory, rewrite_query=broken, on_error=errors.append)
    await say(provider, AgentSession(), "When was that?")
    assert memory.searches[-1][0] == "When was that?" and [str(e) for e in errors] == ["model down"]


async def test_a_rewriter_that_returns_no_text_is_reported(memory):
    errors = []
    provider = CortadelContextProvider(client=memory, rewrite_query=lambda recent, turn: None, on_error=errors.append)
    await say(provider, AgentSession(), "When was that?")
    assert memory.searches[-1][0] == "When was that?" and "must return the query text" in str(errors[0])


@pytest.mark.parametrize("bad", ["yes", 1, ["Where?"]])
def test_a_rewrite_query_that_is_neither_a_flag_nor_a_function_is_refused_in_one_line(memory, bad):
    with pytest.raises(ValueError, match=r"^rewrite_query must be True, False or a function") as raised:
        CortadelContextProvider(client=memory, rewrite_query=bad)
    assert "\n" not in str(raised.value)
