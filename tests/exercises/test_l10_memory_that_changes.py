"""Lesson 10's exercise: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import pytest
from cortadel import AddOptions, ListOptions

from course_kit.exercises import check


async def solution(client, new_city):
    await client.add(f"I live in {new_city} now")
    history = await client.list(ListOptions(include_superseded=True))
    return next(item for item in history.items if item.is_current is False and "live" in item.content)


async def stub(client, new_city):
    raise NotImplementedError


async def lists_without_history(client, new_city):
    await client.add(f"I live in {new_city} now")
    current = await client.list()
    return next((item for item in current.items if item.is_current is False), None)


async def adds_both_unchecked(client, new_city):
    # stores the move verbatim (no inference), so nothing is superseded; then trusts the list order
    await client.add(f"The user lives in {new_city}", AddOptions(infer=False))
    history = await client.list(ListOptions(include_superseded=True))
    return history.items[-1]


async def deletes_the_old_fact(client, new_city):
    current = await client.list()
    old = [item.id for item in current.items if "live" in item.content]
    await client.delete(old)
    await client.add(f"I live in {new_city} now")
    return old[0]


async def returns_the_newest(client, new_city):
    await client.add(f"I live in {new_city} now")
    history = await client.list(ListOptions(include_superseded=True))
    return history.items[0]  # newest first: that is the *current* memory


def test_the_solution_passes(capsys):
    assert check("10.supersede_and_find", solution) is True
    assert "✅ 10.supersede_and_find" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `move(client, new_city)` first"),
        (lists_without_history, "include_superseded=True"),
        (adds_both_unchecked, "did not supersede the old one"),
        (deletes_the_old_fact, "deleting it loses the history"),
        (returns_the_newest, "that is the current memory"),
        ("not a function", "pass your function itself"),
    ],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, capsys):
    assert check("10.supersede_and_find", answer) is False
    out = capsys.readouterr().out
    assert out.startswith("❌ 10.supersede_and_find") and hint in out, out


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("10.supersede_and_find", solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
