"""07.fix_failure_mode: the solution passes; the stub and plausible wrong answers get their hint."""

from __future__ import annotations

import pytest
from agent_framework import ContextProvider, Message
from cortadel import ChatMessage, ConversationOptions, SearchOptions

from course_kit.exercises import check


def is_injected(message):
    return bool(message.additional_properties.get("_attribution", {}).get("source_id"))


class SafeMemory(ContextProvider):
    """The solution: guard, dedup with a cap, fail open (but not on cancellation)."""

    def __init__(self, client, max_remembered=3):
        super().__init__("safe_memory")
        self.client = client
        self.max_remembered = max_remembered

    async def before_run(self, *, agent, session, context, state):
        try:
            query = " ".join(m.text for m in context.input_messages if m.role == "user")
            found = await self.client.search(query, SearchOptions(top_k=5))
        except Exception:
            return
        seen = state.get("ids", [])
        fresh = [hit for hit in found.results if hit.id not in seen]
        if fresh:
            block = "## Memories\n" + "\n".join(f"- {hit.content}" for hit in fresh)
            context.extend_messages(self, [Message(role="user", contents=[block])])
            state["ids"] = (seen + [hit.id for hit in fresh])[-self.max_remembered :]

    def turn(self, context):
        seen = context.get_messages(include_input=True, include_response=True)
        return [ChatMessage(role=m.role, content=m.text) for m in seen if m.text and not is_injected(m)]

    async def after_run(self, *, agent, session, context, state):
        response = context.response
        if response is None or any(c.type == "error" for m in response.messages for c in m.contents):
            return  # a failed turn: nothing happened worth remembering
        try:
            await self.client.add_conversation(self.turn(context), ConversationOptions(session_id=session.session_id))
        except Exception:
            pass


class Stub(SafeMemory):
    async def before_run(self, **kwargs):
        raise NotImplementedError


class DropsUserMessages(SafeMemory):
    def turn(self, context):
        return [ChatMessage(role=m.role, content=m.text) for m in context.response.messages if m.text]


class NoGuard(SafeMemory):
    def turn(self, context):
        seen = context.get_messages(include_input=True, include_response=True)
        return [ChatMessage(role=m.role, content=m.text) for m in seen if m.text]


class NeverCaps(SafeMemory):
    def __init__(self, client, max_remembered=3):
        super().__init__(client, max_remembered=10_000)


class NoDedup(SafeMemory):
    async def before_run(self, *, agent, session, context, state):
        state.pop("ids", None)
        await super().before_run(agent=agent, session=session, context=context, state=state)


class StillRaises(SafeMemory):
    """Fails open in after_run only: a down server still breaks the turn in before_run."""

    async def before_run(self, *, agent, session, context, state):
        await self.client.search("probe", SearchOptions(top_k=1))  # raises when the server is down
        await super().before_run(agent=agent, session=session, context=context, state=state)


class SwallowsCancellation(SafeMemory):
    async def before_run(self, **kwargs):
        try:
            await super().before_run(**kwargs)
        except BaseException:
            pass

    async def after_run(self, *, agent, session, context, state):
        if context.response is None or any(c.type == "error" for m in context.response.messages for c in m.contents):
            return
        try:
            await self.client.add_conversation(self.turn(context), ConversationOptions(session_id=session.session_id))
        except BaseException:
            pass


class SwallowsCancellationInSearch(SafeMemory):
    async def before_run(self, *, agent, session, context, state):
        try:
            query = " ".join(m.text for m in context.input_messages if m.role == "user")
            await self.client.search(query, SearchOptions(top_k=5))
        except BaseException:
            return
        await super().before_run(agent=agent, session=session, context=context, state=state)


def test_the_solution_passes(capsys):
    assert check("07.fix_failure_mode", SafeMemory) is True


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (Stub, "fill in"),
        (DropsUserMessages, "the user's own message was not stored"),
        (NoGuard, "feedback loop"),
        (NoDedup, "injected again on the second turn"),
        (NeverCaps, "with max_remembered=2 your state keeps 3 ids"),
        (StillRaises, "with the memory server down the turn raised"),
        (SwallowsCancellationInSearch, "swallowed asyncio.CancelledError"),
        (SwallowsCancellation, "swallowed asyncio.CancelledError"),
        (SafeMemory(None), "pass your provider class itself"),
    ],
)
def test_wrong_answers_get_their_hint(answer, hint, fails_with):
    fails_with("07.fix_failure_mode", answer, hint)


class StoresFailedTurns(SafeMemory):
    async def after_run(self, *, agent, session, context, state):
        try:
            await self.client.add_conversation(self.turn(context), ConversationOptions(session_id=session.session_id))
        except Exception:
            pass


def test_a_failed_turn_must_not_be_stored(fails_with):
    fails_with("07.fix_failure_mode", StoresFailedTurns, "a failed turn was stored")


def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("07.fix_failure_mode", SafeMemory)


def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
