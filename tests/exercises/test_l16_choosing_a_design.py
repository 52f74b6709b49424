"""16.pick_a_design and 16.measure_a_design: the solutions pass; each wrong answer fails with its hint on five different draws
(design names, figures, abilities and budgets the lesson never shows)."""

from __future__ import annotations

import pytest

from course_kit.exercises import check
from course_kit.exercises._cases import SEED_VARIABLE
from chat_models.request_reading import record_every_call
from memory_evaluation.designs import tokens_sent

SEEDS = [1, 2, 3, 4, 5]


def pick(rows, ability, max_calls):
    fitting = [r for r in rows if r.ability == ability and r.evidence_recall is not None and r.per_turn(r.calls) <= max_calls]
    if not fitting:
        return None
    return max(fitting, key=lambda r: (r.evidence_recall, -r.per_turn(r.tokens))).design


@pytest.mark.parametrize("seed", SEEDS)
def test_the_solution_passes(seed, monkeypatch, capsys):
    monkeypatch.setenv(SEED_VARIABLE, str(seed))
    assert check("16.pick_a_design", pick) is True


def stub(rows, ability, max_calls):
    raise NotImplementedError


def ignores_budget(rows, ability, max_calls):
    mine = [r for r in rows if r.ability == ability]
    return max(mine, key=lambda r: (r.evidence_recall, -r.per_turn(r.tokens))).design


def cheapest(rows, ability, max_calls):
    fitting = [r for r in rows if r.ability == ability and r.per_turn(r.calls) <= max_calls]
    return min(fitting, key=lambda r: r.per_turn(r.tokens)).design if fitting else None


def any_ability(rows, ability, max_calls):
    fitting = [r for r in rows if r.per_turn(r.calls) <= max_calls]
    return max(fitting, key=lambda r: (r.evidence_recall, -r.per_turn(r.tokens))).design if fitting else None


def never_none(rows, ability, max_calls):
    mine = [r for r in rows if r.ability == ability]
    fitting = [r for r in mine if r.per_turn(r.calls) <= max_calls] or mine
    return max(fitting, key=lambda r: (r.evidence_recall, -r.per_turn(r.tokens))).design


def first_best(rows, ability, max_calls):
    fitting = [r for r in rows if r.ability == ability and r.per_turn(r.calls) <= max_calls]
    return max(fitting, key=lambda r: r.evidence_recall).design if fitting else None


def last_best(rows, ability, max_calls):
    fitting = [r for r in rows if r.ability == ability and r.per_turn(r.calls) <= max_calls]
    return max(reversed(fitting), key=lambda r: r.evidence_recall).design if fitting else None


def returns_row(rows, ability, max_calls):
    fitting = [r for r in rows if r.ability == ability and r.per_turn(r.calls) <= max_calls]
    return max(fitting, key=lambda r: (r.evidence_recall, -r.per_turn(r.tokens))) if fitting else None


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("answer", "hint"),
    [(stub, "fill in your `pick` first"), (ignores_budget, "over the budget"), (cheapest, "not the cheapest"),
     (any_ability, "compare only the rows of the ability asked"), (never_none, "the answer is None"),
     (first_best, "break a tie on tokens"), (last_best, "break a tie on tokens"), (returns_row, "return a design's name")],
    ids=["stub", "ignores-budget", "cheapest", "any-ability", "never-none", "first-best", "last-best", "returns-row"],
)
def test_a_wrong_pick_gets_its_hint(answer, hint, seed, monkeypatch, fails_with):
    monkeypatch.setenv(SEED_VARIABLE, str(seed))
    out = fails_with("16.pick_a_design", answer, hint)
    assert f"seed {seed}" in out or "fill in" in out


# ------------------------------------------------------------------------------ 16.measure_a_design (issue 46)



async def measure(make_agent, client, questions):
    recorder = record_every_call(client)
    agent = make_agent(client)
    figures = []
    for question in questions:
        mark = len(recorder.requests)
        await agent.run(question, session=agent.create_session())
        sent = recorder.requests[mark:]
        figures.append((sum(tokens_sent(request) for request in sent), len(sent)))
    return figures


def test_the_measure_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("16.measure_a_design", measure)


async def measure_stub(make_agent, client, questions):
    raise NotImplementedError


async def one_figure(make_agent, client, questions):
    return (1, 1)


async def floats(make_agent, client, questions):
    return [(1.0, 1.0) for _ in questions]


@pytest.mark.parametrize(
    ("answer", "hint"),
    [(measure_stub, "fill in your `measure` first"), (one_figure, "one (tokens, calls) pair per question"),
     (floats, "a pair of whole numbers")],
    ids=["stub", "one-figure", "floats"],
)
def test_wrong_measures_get_their_hint(answer, hint, fails_with):
    fails_with("16.measure_a_design", answer, hint)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
