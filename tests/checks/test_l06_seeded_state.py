"""Lesson 06's check helper: it reads back exactly what the user-memory provider told the model."""

from __future__ import annotations

from types import SimpleNamespace

from lesson_utils import UserMemoryProvider
from course_kit.lessons.l06_seeded_state.checks import memory_told


def _request(state: dict) -> SimpleNamespace:
    instructions = "You are friendly.\n" + "\n".join(UserMemoryProvider().instructions_for(state))
    return SimpleNamespace(instructions=instructions)


def test_memory_told_reads_back_the_seeded_name_and_age() -> None:
    assert memory_told(_request({"name": "Mary Ann", "age": 31})) == {"name": "Mary Ann", "age": 31}
    assert memory_told(_request({"name": "Priya", "age": 32})) != {"name": "Priya", "age": 31}


def test_memory_told_is_empty_when_the_provider_knew_nothing() -> None:
    assert memory_told(_request({})) == {}  # it only asked for the name
    assert memory_told(_request({"age": 40})) == {"age": 40}
