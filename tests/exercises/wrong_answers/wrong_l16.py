"""Wrong answers to lesson 16's exercises, written from the task texts.

``16.measure_a_design``: each ``measure(make_agent, client, questions)`` records the client's calls and breaks one
thing the task states: figures measured (not the lesson's table typed in), every call a question made (a tool
call, a provider's extraction), the tokens the model was *sent* (not the reply's), each question alone (not a
running total), each question in a new session of one agent.
"""

from __future__ import annotations

from chat_models.request_reading import record_every_call
from memory_evaluation.designs import tokens_sent
from chat_models.text import token_count


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


# Written by another author from the exercise text only, without reading the checks:
# Wrong answers to 16.pick_a_design, written from the exercise text only.
# 
# Written from the exercise text and the lesson only, without reading the checks or their tests. Each
# ``pick(rows, ability, max_calls)`` looks right on the lesson's table and breaks one rule of the task: among
# the rows of `ability` whose design makes *at most* `max_calls` model calls per turn (``row.per_turn(row.calls)``),
# the design with the highest ``evidence_recall``, a tie going to fewer tokens per turn
# (``row.per_turn(row.tokens)``), and ``None`` when no design fits.
# 
# Kinds: a boundary ("at most" as "less than"), an input ignored, the lesson's recommendation typed in, the
# empty case, and state shared through a mutable default.

def _recall(row) -> float:
    return row.evidence_recall if row.evidence_recall is not None else -1.0


def _best(rows):
    return max(rows, key=lambda row: (_recall(row), -row.per_turn(row.tokens)))


def fewer_calls_than_max(rows, ability, max_calls):
    """Keeps designs with per_turn(calls) < max_calls: a design making exactly max_calls is left out."""
    fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) < max_calls]
    return _best(fitting).design if fitting else None


def every_ability_pooled(rows, ability, max_calls):
    """Ignores `ability`: picks among every row within the budget, whatever ability it measured."""
    fitting = [row for row in rows if row.per_turn(row.calls) <= max_calls]
    return _best(fitting).design if fitting else None


def lesson_recommendation_first(rows, ability, max_calls):
    """Returns the lesson's recommendation, "Cortadel provider", whenever it fits the budget; the best otherwise."""
    fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) <= max_calls]
    if any(row.design == "Cortadel provider" for row in fitting):
        return "Cortadel provider"
    return _best(fitting).design if fitting else None


def max_of_nothing(rows, ability, max_calls):
    """Forgets the empty case: max() of no fitting row raises ValueError instead of returning None."""
    fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) <= max_calls]
    return _best(fitting).design


def cached_in_default(rows, ability, max_calls, _picked={}):  # noqa: B006 - the mistake itself
    """Caches the pick per (ability, max_calls) in a mutable default dict: a new table gets the old table's pick."""
    key = (ability, max_calls)
    if key not in _picked:
        fitting = [row for row in rows if row.ability == ability and row.per_turn(row.calls) <= max_calls]
        _picked[key] = _best(fitting).design if fitting else None
    return _picked[key]


WRONG_FROM_TEXT = [
    ("16.pick_a_design", fewer_calls_than_max, "'at most max_calls' as < max_calls (boundary)"),
    ("16.pick_a_design", every_ability_pooled, "ignores `ability`: every row pooled"),
    ("16.pick_a_design", lesson_recommendation_first, "the lesson's 'Cortadel provider' typed in when it fits"),
    ("16.pick_a_design", max_of_nothing, "no design fits: raises ValueError instead of returning None"),
    ("16.pick_a_design", cached_in_default, "pick cached per (ability, max_calls) in a mutable default dict"),
]

WRONG = [*WRONG, *WRONG_FROM_TEXT]
