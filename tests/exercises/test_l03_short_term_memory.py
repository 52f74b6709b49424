"""Exercise 03.token_budget: correct compaction set-ups pass; an untouched stub and plausible wrong ones get their hint."""

from __future__ import annotations

import re

import pytest
from agent_framework import (
    Agent,
    CharacterEstimatorTokenizer,
    CompactionProvider,
    ContextProvider,
    InMemoryHistoryProvider,
    SlidingWindowStrategy,
    SummarizationStrategy,
    TokenBudgetComposedStrategy,
)

from course_kit.exercises import EXERCISES, check

ID = "03.token_budget"


# ----------------------------------------------------------------------------- right answers


# The solution notebook's answer (budgets are drawn from 200–280 tokens, so a summary alone, a kept first
# turn or a fixed window no longer fit: the name is pinned by a provider, the recent turns fill the budget).
ROOM_FOR_THE_NEW_MESSAGE = 90
# "My name is Ana Sofia", "I'm Henrik", "call me Jean-Luc": the capitalised words after an introduction.
INTRODUCTION = re.compile(r"\b(?:[Mm]y name is|I'm|I am|[Cc]all me)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")


class UserName(ContextProvider):
    """Pins the user's name (kept in this session's state) where compaction cannot drop it."""

    def __init__(self):
        super().__init__("user_name")

    async def before_run(self, *, agent, session, context, state):
        if "name" in state:
            context.extend_instructions(self.source_id, f"The user's name is {state['name']}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            if message.role == "user" and (found := INTRODUCTION.search(message.text or "")):
                state["name"] = found.group(1)


def build_agent(client, token_budget):
    """Recent turns verbatim within the budget (room left for the new message); the name pinned by a provider."""
    budget = TokenBudgetComposedStrategy(
        token_budget=token_budget - ROOM_FOR_THE_NEW_MESSAGE,
        tokenizer=CharacterEstimatorTokenizer(),
        strategies=[SlidingWindowStrategy(keep_last_groups=3)],
    )
    return Agent(
        client=client,
        instructions="You are a friendly assistant.",
        context_providers=[InMemoryHistoryProvider(), UserName(), CompactionProvider(before_strategy=budget)],
    )


def summarise_and_pin_the_name(client, token_budget):
    summarise = SummarizationStrategy(client=client, target_count=2, threshold=1)
    budget = TokenBudgetComposedStrategy(
        token_budget=token_budget - ROOM_FOR_THE_NEW_MESSAGE, tokenizer=CharacterEstimatorTokenizer(), strategies=[summarise]
    )
    return Agent(client=client, context_providers=[InMemoryHistoryProvider(), UserName(), CompactionProvider(before_strategy=budget)])


class PinnedName(ContextProvider):
    def __init__(self):
        super().__init__("pinned_name")

    async def before_run(self, *, agent, session, context, state):
        if "name" in state:
            context.extend_instructions(self.source_id, f"The user's name is {state['name']}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            if found := re.search(r"(?i:my name is)\s+([A-Z]\w+)", message.text or ""):
                state["name"] = found.group(1)


def window_plus_pinned_name(client, token_budget):
    """Was a right answer at the old fixed budget of 450; a fixed window ignores the budget drawn now."""
    window = CompactionProvider(before_strategy=SlidingWindowStrategy(keep_last_groups=6))
    return Agent(client=client, context_providers=[InMemoryHistoryProvider(), PinnedName(), window])


@pytest.mark.parametrize("answer", [build_agent, summarise_and_pin_the_name])
def test_any_correct_set_up_passes(answer, capsys) -> None:
    assert check(ID, answer) is True
    assert capsys.readouterr().out.startswith("\u2705 03.token_budget")


# ----------------------------------------------------------------------------- wrong answers


def stub(client, token_budget):
    raise NotImplementedError


def ellipsis_stub(client, token_budget):
    return ...


def sliding_window_only(client, token_budget):
    window = CompactionProvider(before_strategy=SlidingWindowStrategy(keep_last_groups=6))
    return Agent(client=client, context_providers=[InMemoryHistoryProvider(), window])


def no_compaction(client, token_budget):
    return Agent(client=client, instructions="You are a friendly assistant.")


class KeepOnlyTheStart:
    """A hand-written in-run strategy that keeps the oldest messages: the new one is lost."""

    async def __call__(self, messages):
        for message in messages[4:]:
            message.additional_properties["_excluded"] = True
        return True


def drops_the_new_message(client, token_budget):
    return Agent(client=client, compaction_strategy=KeepOnlyTheStart())


def only_the_new_message_and_the_name(client, token_budget):
    """Under budget and the name arrives, but no earlier turn does: no short-term memory left."""
    return Agent(client=client, context_providers=[PinnedName()], compaction_strategy=SlidingWindowStrategy(keep_last_groups=1))


class HistoryInInstructions(ContextProvider):
    def __init__(self):
        super().__init__("transcript")

    async def before_run(self, *, agent, session, context, state):
        context.extend_instructions(self.source_id, "\n".join(state.get("lines", [])))

    async def after_run(self, *, agent, session, context, state):
        state.setdefault("lines", []).extend(m.text for m in context.input_messages)


def smuggles_history_into_instructions(client, token_budget):
    return Agent(
        client=client,
        context_providers=[
            InMemoryHistoryProvider(),
            HistoryInInstructions(),
            CompactionProvider(before_strategy=SlidingWindowStrategy(keep_last_groups=2)),
        ],
    )


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (stub, "fill in `build_agent` first"),
        (ellipsis_stub, "fill in `build_agent` first"),
        (sliding_window_only, "over the budget"),
        (window_plus_pinned_name, "over the budget"),
        (no_compaction, "over the budget"),
        (drops_the_new_message, "never received the new message"),
        (only_the_new_message_and_the_name, "did not carry the previous message"),
        (smuggles_history_into_instructions, "the instructions grew"),
        (lambda client, token_budget: "an agent", "returned str"),
        ("build_agent", "pass your function itself"),
    ],
)
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with) -> None:
    fails_with("03.token_budget", answer, hint)


def test_the_solution_passes_on_every_draw(passes_on_every_seed) -> None:
    passes_on_every_seed(ID, build_agent)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed) -> None:
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)


def test_the_exercise_is_listed_under_lesson_03() -> None:
    entry = EXERCISES[ID]
    assert entry.lesson == "03" and "token budget" in entry.title
