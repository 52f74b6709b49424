"""11.injected_ids: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

from agent_framework import AgentSession, Message, SessionContext
from cortadel import SearchOptions

from lesson_utils.exercises import EXERCISES, check


async def solution(provider, question):
    session = AgentSession()
    context = SessionContext(session_id=session.session_id, input_messages=[Message(role="user", contents=[question])])
    state = session.state.setdefault(provider.source_id, {})
    await provider.before_run(agent=None, session=session, context=context, state=state)
    return list(state.get("injected_memory_ids", []))


async def stub(provider, question):
    raise NotImplementedError


async def raw_search(provider, question):
    """Plausible: score the search results instead of what the provider injected."""
    results = await provider.client.search(question, SearchOptions(top_k=provider.top_k, mode=provider.search_mode))
    return [hit.id for hit in results.results]


_SHARED = AgentSession()


async def reused_session(provider, question):
    """Plausible: one session for every question, so dedup hides what was injected before."""
    context = SessionContext(session_id=_SHARED.session_id, input_messages=[Message(role="user", contents=[question])])
    state = _SHARED.state.setdefault(provider.source_id, {})
    await provider.before_run(agent=None, session=_SHARED, context=context, state=state)
    return list(state.get("injected_memory_ids", []))


async def reordered_ids(provider, question):
    """Plausible: the right ids, rank order lost (read from a set, or worst first). Reversed, so that any
    answer of two or more ids is out of order whatever the random ids are."""
    return list(reversed(await solution(provider, question)))


def test_registered_with_its_lesson():
    assert EXERCISES["11.injected_ids"].lesson == "11"


def test_solution_passes(capsys):
    assert check("11.injected_ids", solution) is True
    assert capsys.readouterr().out.startswith("✅")


def test_untouched_stub_fails_with_fill_in_hint(capsys):
    assert check("11.injected_ids", stub) is False
    assert "fill in" in capsys.readouterr().out


def test_raw_search_results_fail(capsys):
    assert check("11.injected_ids", raw_search) is False
    out = capsys.readouterr().out
    assert "not the raw search results" in out and "gate" in out


def test_reused_session_fails(capsys):
    assert check("11.injected_ids", reused_session) is False
    assert "brand-new AgentSession" in capsys.readouterr().out


def test_unordered_ids_fail(capsys):
    assert check("11.injected_ids", reordered_ids) is False
    assert "wrong order" in capsys.readouterr().out


def test_not_a_function_fails(capsys):
    assert check("11.injected_ids", "ids") is False
    assert "pass your function" in capsys.readouterr().out
