"""Wrong answers to lesson 16's exercises, written from the task texts.

``16.measure_a_design``: each ``measure(make_agent, client, questions)`` records the client's calls and breaks one
thing the task states: figures measured (not the lesson's table typed in), every call a question made (a tool
call, a provider's extraction), the tokens the model was *sent* (not the reply's), each question alone (not a
running total), each question in a new session of one agent.
"""

from __future__ import annotations

from lesson_utils.framework_memory import record_every_call
from lesson_utils.framework_memory.designs import tokens_sent
from lesson_utils.models.text import token_count


async def lesson_table(make_agent, client, questions):
    """The full-history row of the lesson's table, typed in: 1383 tokens, 1 call, for every question."""
    return [(1383, 1) for _ in questions]


async def one_call_each(make_agent, client, questions):
    """Counts the tokens right but one model call per question."""
    recorder, agent, figures = record_every_call(client), make_agent(client), []
    for question in questions:
        mark = len(recorder.requests)
        await agent.run(question, session=agent.create_session())
        figures.append((sum(tokens_sent(r) for r in recorder.requests[mark:]), 1))
    return figures


async def reply_tokens(make_agent, client, questions):
    """Counts the calls right but the tokens of the reply."""
    recorder, agent, figures = record_every_call(client), make_agent(client), []
    for question in questions:
        mark = len(recorder.requests)
        reply = await agent.run(question, session=agent.create_session())
        figures.append((token_count(reply.text), len(recorder.requests) - mark))
    return figures


async def running_totals(make_agent, client, questions):
    """Never notes where a question's calls start: every figure is a total so far."""
    recorder, agent, figures = record_every_call(client), make_agent(client), []
    for question in questions:
        await agent.run(question, session=agent.create_session())
        figures.append((sum(tokens_sent(r) for r in recorder.requests), len(recorder.requests)))
    return figures


async def one_session(make_agent, client, questions):
    """Asks every question in one session: later questions carry the earlier ones."""
    recorder, agent, figures = record_every_call(client), make_agent(client), []
    session = agent.create_session()
    for question in questions:
        mark = len(recorder.requests)
        await agent.run(question, session=session)
        sent = recorder.requests[mark:]
        figures.append((sum(tokens_sent(r) for r in sent), len(sent)))
    return figures


async def last_request_only(make_agent, client, questions):
    """Counts every call but only the last request's tokens."""
    recorder, agent, figures = record_every_call(client), make_agent(client), []
    for question in questions:
        mark = len(recorder.requests)
        await agent.run(question, session=agent.create_session())
        sent = recorder.requests[mark:]
        figures.append((tokens_sent(sent[-1]), len(sent)))
    return figures


async def agent_per_question(make_agent, client, questions):
    """Builds a new agent for every question: what one question wrote is gone for the next."""
    recorder, figures = record_every_call(client), []
    for question in questions:
        agent = make_agent(client)
        mark = len(recorder.requests)
        await agent.run(question, session=agent.create_session())
        sent = recorder.requests[mark:]
        figures.append((sum(tokens_sent(r) for r in sent), len(sent)))
    return figures


WRONG = [
    ("16.measure_a_design", lesson_table, "returns the lesson's table instead of measuring"),
    ("16.measure_a_design", one_call_each, "counts one model call per question"),
    ("16.measure_a_design", reply_tokens, "counts the reply's tokens, not what was sent"),
    ("16.measure_a_design", running_totals, "running totals, not per question"),
    ("16.measure_a_design", one_session, "one session for every question"),
    ("16.measure_a_design", last_request_only, "tokens of the last request only"),
    ("16.measure_a_design", agent_per_question, "a new agent per question"),
]
