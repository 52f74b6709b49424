"""Wrong answers to 03.token_budget, written from the exercise text only (issue 21, item 1).

Each builds the lesson's pieces (a history, a name provider, a compaction strategy) and looks right on
the lesson's twelve turns about Priya at the lesson's budgets. Each breaks one rule: every request within
`token_budget` (the new message included), the previous message still carried, the user's name reaching
the model on the last turn.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import re

from agent_framework import (
    Agent,
    CharacterEstimatorTokenizer,
    CompactionProvider,
    ContextProvider,
    InMemoryHistoryProvider,
    SlidingWindowStrategy,
    TokenBudgetComposedStrategy,
    TruncationStrategy,
)

INSTRUCTIONS = "You are a helpful travel assistant. Keep answers short."
NAME = re.compile(r"(?i:\bmy name is|\bi'm|\bi am|\bcall me)\s+([A-Z][\w'-]+)")


class NameInState(ContextProvider):
    """The lesson's UserNameProvider (correct on its own): the name in state, told as an instruction."""

    def __init__(self):
        super().__init__("user_name")

    async def before_run(self, *, agent, session, context, state):
        if "name" in state:
            context.extend_instructions(self.source_id, f"The user's name is {state['name']}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = NAME.search(message.text or "")
            if found:
                state["name"] = found.group(1)


def _budgeted(budget):
    return CompactionProvider(
        before_strategy=TokenBudgetComposedStrategy(
            token_budget=budget,
            tokenizer=CharacterEstimatorTokenizer(),
            strategies=[SlidingWindowStrategy(keep_last_groups=4)],
        )
    )


def _lesson_budget(budget):
    """Section 2c's composition, copied: a window of 8 groups, then the budget's own fallback."""
    return CompactionProvider(
        before_strategy=TokenBudgetComposedStrategy(
            token_budget=budget,
            tokenizer=CharacterEstimatorTokenizer(),
            strategies=[SlidingWindowStrategy(keep_last_groups=8)],
        )
    )


def history_only_budget(client, token_budget):
    """Section 2c at `token_budget`: the history fits the budget, but the new user message comes on top of it."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), NameInState(), _lesson_budget(token_budget)],
    )


def lesson_budget_hardcoded(client, token_budget):
    """Ignores `token_budget`: section 2c's 350, less a margin for the new message."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), NameInState(), _lesson_budget(350 - 80)],
    )


class PriyaName(ContextProvider):
    """Tells the model the lesson's user's name, whatever the user said."""

    def __init__(self):
        super().__init__("user_name")

    async def before_run(self, *, agent, session, context, state):
        context.extend_instructions(self.source_id, "The user's name is Priya.")


def hardcoded_name(client, token_budget):
    """Hard-codes the lesson's name (Priya) in the instructions; the budget part is right."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), PriyaName(), _budgeted(token_budget // 2)],
    )


class NameOnInstance(ContextProvider):
    """Keeps the name on the provider instance (self.name) instead of in session.state."""

    def __init__(self):
        super().__init__("user_name")
        self.name = None

    async def before_run(self, *, agent, session, context, state):
        if self.name:
            context.extend_instructions(self.source_id, f"The user's name is {self.name}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = NAME.search(message.text or "")
            if found:
                self.name = found.group(1)


def name_on_instance(client, token_budget):
    """The name lives on the provider object: a second conversation on the same agent hears the first user's name."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), NameOnInstance(), _budgeted(token_budget // 2)],
    )


class NameAfterImOnly(NameInState):
    """Learns a name only from "I'm <Name>" (the lesson's first turn), one word long."""

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            found = re.search(r"\bI'm (\w+)", message.text or "")
            if found:
                state["name"] = found.group(1)


def name_only_after_im(client, token_budget):
    """A name regex that only knows "I'm X": "My name is ..." or "Call me ..." teach it nothing."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), NameAfterImOnly(), _budgeted(token_budget // 2)],
    )


def anchored_truncation(client, token_budget):
    """Keeps turn 1 with preserve_first_user_group and truncates to the budget: history only, and no provider."""
    truncate = TruncationStrategy(
        max_n=token_budget,
        compact_to=token_budget * 2 // 3,
        tokenizer=CharacterEstimatorTokenizer(),
        preserve_first_user_group=True,
    )
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), CompactionProvider(before_strategy=truncate)],
    )


def fixed_window(client, token_budget):
    """Ignores `token_budget`: a fixed window of the last 4 groups plus the name provider."""
    window = CompactionProvider(before_strategy=SlidingWindowStrategy(keep_last_groups=4))
    return Agent(
        client=client, instructions=INSTRUCTIONS, context_providers=[InMemoryHistoryProvider(), NameInState(), window]
    )


WRONG = [
    ("03.token_budget", history_only_budget, "budget on the history only; new message on top"),
    ("03.token_budget", lesson_budget_hardcoded, "ignores token_budget: lesson's 350 hard-coded"),
    ("03.token_budget", hardcoded_name, "hard-codes the name Priya"),
    ("03.token_budget", name_on_instance, "name kept on the provider instance"),
    ("03.token_budget", name_only_after_im, 'name regex knows only "I\'m X"'),
    ("03.token_budget", anchored_truncation, "anchored truncation of the history; budget exceeded by new message"),
    ("03.token_budget", fixed_window, "ignores token_budget: fixed sliding window"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).

from lesson_utils.context_budget import message_tokens

FULL_NAME = re.compile(r"(?i:\bmy name is|\bi'm|\bi am|\bcall me)\s+([A-Z][\w'-]+(?:[ \t]+[A-Z][\w'-]+)*)")


def _serialised_tokens(messages):
    return message_tokens(messages)


def _text_tokens(messages):
    """About four characters per token, of the text alone (what the estimator does, minus role and id)."""
    return sum(len(m.text or "") for m in messages) // 4


class _TrimToBudget(ContextProvider):
    """After the history provider: drops the oldest history messages until history + new message fit the budget,
    keeping at least the previous exchange."""

    def __init__(self, token_budget, count=_serialised_tokens):
        super().__init__("budget_trim")
        self.token_budget = token_budget
        self.count = count

    async def before_run(self, *, agent, session, context, state):
        new = list(context.input_messages)

        def total():
            return self.count([m for ms in context.context_messages.values() for m in ms] + new)

        for source_id in list(context.context_messages):
            messages = context.context_messages[source_id]
            while len(messages) > 2 and total() > self.token_budget:
                messages.pop(0)


class _FullNameInState(ContextProvider):
    """The name (one word or more) in the session's state, told as an instruction on every turn."""

    def __init__(self):
        super().__init__("user_name")

    def _find(self, text):
        found = FULL_NAME.search(text or "")
        return found.group(1) if found else None

    async def before_run(self, *, agent, session, context, state):
        if "name" in state:
            context.extend_instructions(self.source_id, f"The user's name is {state['name']}.")

    async def after_run(self, *, agent, session, context, state):
        for message in context.input_messages:
            name = self._find(message.text)
            if name:
                state["name"] = name


class _LessonRegexName(_FullNameInState):
    """Section 3's UserNameProvider regex, copied: `([A-Z][\\w'-]+)` takes one word of the name."""

    def _find(self, text):
        found = NAME.search(text or "")
        return found.group(1) if found else None


def lesson_name_regex_one_word(client, token_budget):
    """Budget kept with the new message counted; the name learned with the lesson's regex: first word only."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), _LessonRegexName(), _TrimToBudget(token_budget)],
    )


def budget_counts_text_only(client, token_budget):
    """Trims to the budget counting len(text) // 4: the role and id every message is serialised with are left out."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), _FullNameInState(), _TrimToBudget(token_budget, _text_tokens)],
    )


_EMPTY_PROFILE: dict = {}


class _ProfileFromModuleDefault(_FullNameInState):
    """state.setdefault("profile", _EMPTY_PROFILE) and then fills it in: every session gets the same dict object."""

    async def before_run(self, *, agent, session, context, state):
        profile = state.setdefault("profile", _EMPTY_PROFILE)
        if "name" in profile:
            context.extend_instructions(self.source_id, f"The user's name is {profile['name']}.")

    async def after_run(self, *, agent, session, context, state):
        profile = state.setdefault("profile", _EMPTY_PROFILE)
        for message in context.input_messages:
            name = self._find(message.text)
            if name:
                profile["name"] = name


def name_in_shared_default_dict(client, token_budget):
    """The name goes into a module-level default dict that every session's state points at."""
    return Agent(
        client=client,
        instructions=INSTRUCTIONS,
        context_providers=[InMemoryHistoryProvider(), _ProfileFromModuleDefault(), _TrimToBudget(token_budget)],
    )


NEW_FROM_TEXT = [
    ("03.token_budget", lesson_name_regex_one_word, "lesson's name regex: a two-word name cut to its first word"),
    ("03.token_budget", budget_counts_text_only, "budget counted as len(text)//4, not as serialised (boundary)"),
    ("03.token_budget", name_in_shared_default_dict, "name in a module-level default dict shared by every session"),
]
WRONG += NEW_FROM_TEXT
