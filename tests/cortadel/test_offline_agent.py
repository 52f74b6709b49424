"""Integration: a real agent_framework.Agent over the offline lesson model."""

from __future__ import annotations

from agent_framework import Agent

from lesson_utils import CortadelContextProvider, create_memory_tools
from chat_models import OfflineChatClient

INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."


_STOP = {"i", "i'm", "do", "the", "a", "on", "in", "my", "you", "when", "where", "what", "usually", "user"}


def _stems(text: str) -> set[str]:
    words = {w.strip("?.!,'").lower() for w in text.split()}
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w and w not in _STOP}


class Remembering:
    """A MemoryClient stand-in that keeps each stored user message as a memory and finds them
    by shared words — enough to watch memory cross a session boundary without a server."""

    def __init__(self) -> None:
        self.memories: dict[str, str] = {}
        self.sessions: dict[str, str | None] = {}
        self.searches = []

    async def search(self, query, options=None):
        from cortadel import SearchHit, SearchResults

        self.searches.append((query, options))
        words = _stems(query)
        found = [
            SearchHit(id=i, content=text)
            for i, text in self.memories.items()
            if words & _stems(text)
            and (options is None or options.session_id is None or self.sessions[i] == options.session_id)
        ]
        return SearchResults(query=query, results=found[: options.top_k if options else 10], total=len(found))

    async def add_conversation(self, messages, options=None):
        from cortadel import ConversationResult

        for m in messages:
            if m.role == "user":
                key = f"m{len(self.memories) + 1}"
                self.memories[key] = m.content
                self.sessions[key] = options.session_id if options else None
        return ConversationResult(no_facts_extracted=False)

    async def add(self, text, options=None):
        from cortadel import MemoryCreated

        event = "SKIP_DUPLICATE" if text in self.memories.values() else "ADD"
        if event == "ADD":
            self.memories[f"m{len(self.memories) + 1}"] = text
        return MemoryCreated(id="x", content=text, event=event)


async def test_a_brand_new_session_recalls_what_an_earlier_one_said():
    store, model = Remembering(), OfflineChatClient()
    agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[CortadelContextProvider(client=store)])
    await agent.run("I'm Alex. I ship on Fridays.", session=agent.create_session())

    later = agent.create_session()
    answer = await agent.run("When do I usually ship?", session=later)
    assert "Friday" in answer.text
    injected = [m for m in model.last_request.messages if m.additional_properties.get("_attribution")]
    assert len(injected) == 1 and "I ship on Fridays" in injected[0].text
    assert later.state["cortadel"]["injected_memory_ids"] == ["m1"]


async def test_without_the_provider_the_new_session_does_not_know():
    model = OfflineChatClient()
    agent = Agent(client=model, instructions=INSTRUCTIONS)
    await agent.run("I'm Alex. I ship on Fridays.", session=agent.create_session())
    answer = await agent.run("When do I usually ship?", session=agent.create_session())
    assert "don't know" in answer.text


async def test_instructions_mode_reaches_the_model_as_instructions():
    store, model = Remembering(), OfflineChatClient()
    store.memories["m1"] = "Priya lives in Oslo"
    store.sessions["m1"] = None
    agent = Agent(
        client=model,
        instructions=INSTRUCTIONS,
        context_providers=[CortadelContextProvider(client=store, inject_as="instructions")],
    )
    answer = await agent.run("Where do I live?", session=agent.create_session())
    assert "Oslo" in answer.text
    assert "- Priya lives in Oslo" in model.last_request.instructions
    assert not any(m.additional_properties.get("_attribution") for m in model.last_request.messages)


async def test_session_scoped_recall_does_not_cross_sessions():
    store, model = Remembering(), OfflineChatClient()
    provider = CortadelContextProvider(client=store, scope_recall_to_session=True)
    agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[provider])
    first = agent.create_session()
    await agent.run("I ship on Fridays.", session=first)
    answer = await agent.run("When do I usually ship?", session=agent.create_session())
    assert "don't know" in answer.text
    assert store.searches[-1][1].session_id not in (None, first.session_id)


async def test_streaming_turn_recalls_and_persists():
    store, model = Remembering(), OfflineChatClient()
    agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[CortadelContextProvider(client=store)])
    await agent.run("I'm Alex. I ship on Fridays.", session=agent.create_session())
    stream = agent.run("When do I usually ship?", session=agent.create_session(), stream=True)
    text = "".join([update.text async for update in stream])
    final = await stream.get_final_response()
    assert "Friday" in text and final.text == text
    assert "When do I usually ship?" in store.memories.values()  # the streamed turn was stored too


async def test_the_model_chooses_to_remember_then_to_recall_with_tools():
    store, model = Remembering(), OfflineChatClient()
    agent = Agent(client=model, instructions=INSTRUCTIONS, tools=create_memory_tools(store))
    saved = await agent.run("Remember that I ship on Fridays.")
    assert model.last_request.tool_names == ["search_memory", "add_memories"]
    assert len(store.memories) == 1 and "Friday" in next(iter(store.memories.values()))
    assert "Remembered" in saved.text
    again = await agent.run("Remember that I ship on Fridays.")
    assert "Already remembered; nothing new was stored." in again.text
    recalled = await agent.run("When do I usually ship?")
    assert "Friday" in recalled.text
