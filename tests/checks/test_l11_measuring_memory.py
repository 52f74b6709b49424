"""course_kit.lessons.l11_measuring_memory.checks: history_tokens counts every turn of every session."""

from __future__ import annotations

from types import SimpleNamespace

from course_kit.lessons.l11_measuring_memory.checks import history_tokens
from lesson_utils.cortadel.gating import estimate_tokens


def test_history_tokens_counts_every_turn_of_every_session():
    turns = [SimpleNamespace(content="I live in Lyon."), SimpleNamespace(content="Noted!")]
    case = SimpleNamespace(sessions=[SimpleNamespace(turns=turns), SimpleNamespace(turns=turns[:1])])
    assert history_tokens(case) == 2 * estimate_tokens("I live in Lyon.") + estimate_tokens("Noted!")
    assert history_tokens(SimpleNamespace(sessions=[])) == 0
