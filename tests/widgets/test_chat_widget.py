"""The chat widget, driven headless: type, send (or click), then read the transcript and session."""

from __future__ import annotations

import asyncio
from typing import Any

from agent_framework import Agent, ContextProvider

from course_kit.widgets import ChatWidget, SessionInspector
from course_kit.widgets.activity import PROBE_SOURCE_ID

from ..fakes import FakeChatClient
from .stubs import ExplodingProvider, NameMemory


async def say(widget: ChatWidget, text: str):
    widget.text.value = text
    return await widget.send()


async def test_two_turns_share_the_session_and_show_what_providers_did(agent: Agent, client: FakeChatClient) -> None:
    widget = ChatWidget(agent)

    first = await say(widget, "Hi, I'm Priya")
    second = await say(widget, "What is my name?")

    assert first.ok and second.ok
    assert first.reply == "Echo: Hi, I'm Priya [saw 1 messages]"
    # Turn 2 saw the replayed history (2), the provider's context message (1) and its input (1).
    assert second.reply == "Echo: What is my name? (hello Priya) [saw 4 messages]"
    history = widget.session.state["in_memory"]["messages"]
    assert [m.text for m in history][::2] == ["Hi, I'm Priya", "What is my name?"]

    first_lines = {a.source_id: a.lines() for a in first.activity}
    assert first_lines["user_memory"] == ['stored name = "Priya"']
    assert first_lines["in_memory"][0].startswith("stored messages: +2 (user: Hi, I'm Priya; assistant: Echo:")

    second_lines = {a.source_id: a.lines() for a in second.activity}
    assert second_lines["user_memory"] == [
        "added instructions: The user's name is Priya.",
        "injected context: Memory: the user is Priya",
    ]
    assert second_lines["in_memory"][0] == "replayed 2 earlier message(s) from the session"

    text = widget.transcript_text()
    assert "You: What is my name?" in text and "(hello Priya)" in text
    assert len(widget.transcript.children) == 2
    # The label counts what it lists: four actions (two by user_memory, two by in_memory), two providers.
    assert "what the context providers did: 4 actions by 2 providers</summary>" in widget.transcript.children[1].value
    assert widget.text.value == "" and not widget.busy


async def test_reply_is_streamed_into_the_transcript(agent: Agent) -> None:
    widget = ChatWidget(agent)
    seen: list[str] = []

    def watch(change: dict[str, Any]) -> None:
        for child in change["new"]:
            child.observe(lambda c: seen.append(c["new"]), "value")

    widget.transcript.observe(watch, "children")
    await say(widget, "one two three")

    partial = [v for v in seen if "Echo: one" in v and "[saw 1 messages]" not in v]
    assert partial, "the reply should appear word by word before it is complete"
    assert "▌" in partial[0], "an unfinished reply shows a cursor"
    assert "[saw 1 messages]" in seen[-1] and "▌" not in seen[-1]


async def test_send_button_schedules_the_turn_on_the_running_loop(agent: Agent) -> None:
    widget = ChatWidget(agent)
    widget.text.value = "hello there"
    widget.button.click()
    turn = await widget.last_task
    assert turn is not None and turn.reply.startswith("Echo: hello there")
    assert widget.turns == [turn]


async def test_a_failing_model_shows_a_clear_message_and_the_widget_keeps_working(
    agent: Agent, client: FakeChatClient, capsys: Any
) -> None:
    widget = ChatWidget(agent)
    await say(widget, "I'm Kim")
    state_before = widget.session.to_dict()

    client.fail = RuntimeError("the model endpoint said 401: invalid API key")
    failed = await say(widget, "What is my name?")

    assert failed.done and not failed.ok
    assert failed.error.startswith("This turn failed: RuntimeError: the model endpoint said 401: invalid API key")
    assert "Nothing from this turn was stored" in failed.error
    html = widget.transcript.children[-1].value
    assert "invalid API key" in html and "Traceback" not in html
    assert "This turn failed" in widget.status.value
    assert widget.session.to_dict() == state_before, "a failed turn must not change the session"
    assert "Traceback" not in capsys.readouterr().err, "no traceback leaks into the notebook output"

    client.fail = None
    again = await say(widget, "What is my name?")
    assert again.ok and "(hello Kim)" in again.reply
    assert widget.status.value == ""


async def test_a_failing_provider_is_reported_not_raised(client: FakeChatClient) -> None:
    agent = Agent(client=client, context_providers=[NameMemory(), ExplodingProvider()])
    widget = ChatWidget(agent)
    turn = await say(widget, "hello")
    assert "ConnectionError: memory service unreachable" in turn.error
    assert client.requests == [], "the model is never called when before_run fails"


async def test_the_turn_probes_never_outlive_a_turn(agent: Agent, client: FakeChatClient) -> None:
    widget = ChatWidget(agent)
    await say(widget, "I'm Ana")
    client.fail = ValueError("boom")
    await say(widget, "again")
    assert [type(p).__name__ for p in agent.context_providers] == ["NameMemory", "InMemoryHistoryProvider"]
    assert not [k for k in widget.session.state if k.startswith(PROBE_SOURCE_ID)]
    assert set(widget.session.state) == {"user_memory", "in_memory"}


async def test_empty_input_and_a_busy_widget_send_nothing(client: FakeChatClient) -> None:
    gate = asyncio.Event()

    class SlowProvider(ContextProvider):
        async def before_run(self, **kwargs: Any) -> None:
            await gate.wait()

    agent = Agent(client=client, context_providers=[SlowProvider("slow")])
    widget = ChatWidget(agent)

    assert await say(widget, "   ") is None
    assert "Type a message first" in widget.status.value and widget.turns == []

    widget.text.value = "first"
    task = widget.schedule_send()
    await asyncio.sleep(0)
    assert widget.busy and widget.button.disabled
    assert await say(widget, "second") is None
    assert "wait for it to finish" in widget.status.value
    gate.set()
    await task
    assert [t.user for t in widget.turns] == ["first"] and not widget.button.disabled


async def test_an_inspector_is_refreshed_after_each_turn(agent: Agent) -> None:
    session = agent.create_session()
    inspector = SessionInspector(session)
    widget = ChatWidget(agent, session, inspector=inspector)
    assert widget.session is session
    assert inspector.summary() == {}

    await say(widget, "I'm Noor")
    assert inspector.summary()["user_memory"] == {"name": "Noor"}
    assert "Noor" in inspector.body.value


async def test_on_turn_hooks_run_even_when_one_of_them_breaks(agent: Agent) -> None:
    widget = ChatWidget(agent)
    seen: list[str] = []

    def broken(_turn: Any) -> None:
        raise RuntimeError("hook bug")

    async def recorder(turn: Any) -> None:
        seen.append(turn.user)

    widget.on_turn(broken)
    widget.on_turn(recorder)
    turn = await say(widget, "hi")
    assert turn.ok and seen == ["hi"]


async def test_with_the_offline_model_and_the_cortadel_provider_across_sessions() -> None:
    """End to end: what the Cortadel provider injected and stored shows up per turn."""
    from lesson_utils import CortadelContextProvider
    from chat_models import OfflineChatClient
    from local_memory_server import start_memory_server

    async with start_memory_server() as server:
        async with CortadelContextProvider(server.url, "alex") as memory:
            agent = Agent(client=OfflineChatClient(), instructions="Be helpful.", context_providers=[memory])
            first = await say(ChatWidget(agent), "I'm Alex. I ship on Fridays.")
            assert first.ok and [a.source_id for a in first.activity] == ["in_memory"]

            later = ChatWidget(agent)  # a brand-new session: no history
            turn = await say(later, "When do I usually ship?")

    assert turn.ok and "Friday" in turn.reply
    cortadel = next(a for a in turn.activity if a.source_id == memory.source_id)
    assert len(cortadel.context_messages) == 1 and "Friday" in cortadel.context_messages[0]
    ids = later.session.state[memory.source_id]["injected_memory_ids"]
    assert cortadel.stored == [f'injected_memory_ids: +["{ids[0]}"]']
