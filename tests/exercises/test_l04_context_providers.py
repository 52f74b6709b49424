"""04.remember_city: the solution passes; the stub and plausible wrong answers fail with their hint."""

from __future__ import annotations

import re

import pytest
from agent_framework import ContextProvider, Message

from course_kit.exercises import check

CITY = re.compile(r"\bI live in ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)")  # "Cape Town" as well as "Quito"


def _city_in(context) -> str | None:
    for message in context.input_messages:
        if message.role == "user" and (match := CITY.search(message.text or "")):
            return match.group(1)
    return None


class Solution(ContextProvider):
    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        if "city" in state:
            context.extend_instructions(self.source_id, f"The user lives in {state['city']}.")

    async def after_run(self, *, agent, session, context, state):
        if city := _city_in(context):
            state["city"] = city


class AsAMessage(Solution):
    async def before_run(self, *, agent, session, context, state):
        if "city" in state:
            context.extend_messages(self, [Message(role="user", contents=[f"Memory: I live in {state['city']}."])])


class Stub(ContextProvider):
    def __init__(self):
        super().__init__("city_memory")

    async def before_run(self, *, agent, session, context, state):
        raise NotImplementedError

    async def after_run(self, *, agent, session, context, state):
        raise NotImplementedError


class StoresButNeverInjects(Solution):
    async def before_run(self, *, agent, session, context, state):
        pass


class KeptOnTheInstance(Solution):
    city = None

    async def before_run(self, *, agent, session, context, state):
        if self.city:
            context.extend_instructions(self.source_id, f"The user lives in {self.city}.")

    async def after_run(self, *, agent, session, context, state):
        if city := _city_in(context):
            self.city = city
            state["city"] = city  # stored in state too, but injected from the instance


class NeverStores(Solution):
    async def after_run(self, *, agent, session, context, state):
        pass


class NoSuperInit(Solution):
    def __init__(self):
        pass


def test_the_solution_passes(capsys):
    assert check("04.remember_city", Solution) is True
    assert "\u2705 04.remember_city" in capsys.readouterr().out


def test_injecting_a_message_instead_of_an_instruction_also_passes():
    assert check("04.remember_city", AsAMessage) is True


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (Stub, "fill in your CityMemory's before_run/after_run first"),
        (StoresButNeverInjects, "stored in state but never reached the model"),
        (KeptOnTheInstance, "a second user who never named a city was told about"),
        (NeverStores, "the city is nowhere"),
        (NoSuperInit, "call super().__init__"),
        (Solution(), "hand in the class itself"),
    ],
    ids=["stub", "stores-never-injects", "kept-on-instance", "never-stores", "no-super-init", "an-instance"],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    fails_with("04.remember_city", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("04.remember_city", Solution)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
