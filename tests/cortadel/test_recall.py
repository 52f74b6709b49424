"""before_run: search with the turn's input, render, inject, remember what was injected."""

from __future__ import annotations

from types import SimpleNamespace

from agent_framework import AgentSession, Message, SessionContext

from lesson_utils import CortadelContextProvider
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY, MAX_QUERY_CHARS


def user(text: str) -> Message:
    return Message(role="user", contents=[text])


async def recall(provider, *messages, session=None, agent=None):
    session = session or AgentSession()
    context = SessionContext(
        session_id=session.session_id,
        service_session_id=session.service_session_id,
        input_messages=list(messages),
    )
    agent = agent or SimpleNamespace(context_providers=[provider])
    await provider.before_run(
        agent=agent, session=session, context=context, state=session.state.setdefault(provider.source_id, {})
    )
    return context, session


async def test_searches_with_the_trimmed_joined_user_input_and_injects_a_user_message(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays"), make_hit("m2", "Alex likes tea")]
    provider = CortadelContextProvider(client=memory)
    context, _ = await recall(provider, user("  When do I ship?  "), user("\nAnd what do I drink?\n"))

    assert [q for q, _ in memory.searches] == ["When do I ship?\nAnd what do I drink?"]
    injected = context.context_messages["cortadel"]
    assert len(injected) == 1 and injected[0].role == "user"
    lines = injected[0].text.splitlines()
    assert lines[0] == provider.context_prompt
    assert lines[1:] == ["- Alex ships on Fridays", "- Alex likes tea"]
    assert injected[0].additional_properties["_attribution"]["source_id"] == "cortadel"
    assert context.instructions == []


async def test_query_ignores_non_user_and_injected_messages(memory):
    provider = CortadelContextProvider(client=memory)
    injected = Message(role="user", contents=["old memory"], additional_properties={"_attribution": {"source_id": "x"}})
    await recall(provider, Message(role="system", contents=["be terse"]), injected, user("hello"))
    assert memory.searches[0][0] == "hello"


async def test_blank_turn_does_not_search(memory, make_hit):
    memory.hits = [make_hit("m1", "x")]
    provider = CortadelContextProvider(client=memory)
    context, _ = await recall(provider, user("   \n  "))
    context2, _ = await recall(provider)
    assert memory.searches == []
    assert context.context_messages == {} and context2.context_messages == {}


async def test_very_long_turn_is_cut_to_cortadels_query_limit(memory):
    provider = CortadelContextProvider(client=memory)
    await recall(provider, user("x" * (MAX_QUERY_CHARS + 100)))
    assert len(memory.searches[0][0]) == MAX_QUERY_CHARS


async def test_options_are_forwarded(memory):
    provider = CortadelContextProvider(
        client=memory, top_k=7, search_mode="text", rerank="cross_encoder", memory_type="procedural"
    )
    await recall(provider, user("how do I deploy?"))
    options = memory.searches[0][1]
    assert (options.top_k, options.mode, options.rerank, options.memory_type) == (7, "text", "cross_encoder", "procedural")
    assert options.session_id is None  # cross-session recall by default


async def test_scope_recall_to_session_sends_the_session_id(memory):
    provider = CortadelContextProvider(client=memory, scope_recall_to_session=True)
    session = AgentSession(session_id="s-123")
    await recall(provider, user("hi"), session=session)
    assert memory.searches[0][1].session_id == "s-123"


async def test_scope_uses_the_service_conversation_id_when_the_service_keeps_history(memory):
    provider = CortadelContextProvider(client=memory, scope_recall_to_session=True)
    session = AgentSession(session_id="local", service_session_id="conv_abc")
    await recall(provider, user("hi"), session=session)
    assert memory.searches[0][1].session_id == "conv_abc"


async def test_gist_is_preferred_and_newlines_are_flattened(memory, make_hit):
    memory.hits = [
        make_hit("m1", "raw content that is long", gist="Alex ships on Fridays"),
        make_hit("m2", "Alex likes\ntea\r\nand  cake"),
        make_hit("m3", "   "),  # nothing to say: no line
    ]
    provider = CortadelContextProvider(client=memory)
    context, _ = await recall(provider, user("tell me"))
    assert context.context_messages["cortadel"][0].text.splitlines()[1:] == [
        "- Alex ships on Fridays",
        "- Alex likes tea and cake",
    ]


async def test_instructions_mode_appends_the_block_to_instructions(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory, inject_as="instructions", context_prompt="Known facts:")
    context, _ = await recall(provider, user("when?"))
    assert context.context_messages == {}
    assert context.instructions == ["Known facts:\n- Alex ships on Fridays"]


async def test_no_hits_injects_nothing(memory):
    provider = CortadelContextProvider(client=memory)
    context, session = await recall(provider, user("anything"))
    assert context.context_messages == {} and context.instructions == []
    assert INJECTED_IDS_KEY not in session.state["cortadel"]


async def test_ids_already_injected_in_this_session_are_skipped(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays"), make_hit("m2", "Alex likes tea")]
    provider = CortadelContextProvider(client=memory)
    session = AgentSession()
    await recall(provider, user("ship?"), session=session)
    assert session.state["cortadel"][INJECTED_IDS_KEY] == ["m1", "m2"]

    memory.hits = [make_hit("m2", "Alex likes tea"), make_hit("m3", "Alex lives in Oslo")]
    second, _ = await recall(provider, user("tea?"), session=session)
    assert second.context_messages["cortadel"][0].text.splitlines()[1:] == ["- Alex lives in Oslo"]
    assert session.state["cortadel"][INJECTED_IDS_KEY] == ["m1", "m2", "m3"]  # newest last

    third, _ = await recall(provider, user("again?"), session=session)
    assert third.context_messages == {}  # everything already seen: nothing re-paid


async def test_a_different_session_gets_the_same_memory_again(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory)
    await recall(provider, user("ship?"))
    other, _ = await recall(provider, user("ship?"))
    assert "Alex ships on Fridays" in other.context_messages["cortadel"][0].text


async def test_dedup_off_reinjects_every_turn_and_keeps_no_ids(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory, deduplicate_across_turns=False)
    session = AgentSession()
    await recall(provider, user("a"), session=session)
    again, _ = await recall(provider, user("b"), session=session)
    assert "Alex ships on Fridays" in again.context_messages["cortadel"][0].text
    assert INJECTED_IDS_KEY not in session.state["cortadel"]


async def test_remembered_ids_are_capped_newest_last(memory, make_hit):
    provider = CortadelContextProvider(client=memory, max_remembered_ids=3)
    session = AgentSession()
    memory.hits = [make_hit(f"m{i}", f"fact {i}") for i in range(1, 6)]
    await recall(provider, user("q"), session=session)
    assert session.state["cortadel"][INJECTED_IDS_KEY] == ["m3", "m4", "m5"]
    # m1 fell out of the window, so it is eligible again; m5 is not.
    memory.hits = [make_hit("m1", "fact 1"), make_hit("m5", "fact 5")]
    context, _ = await recall(provider, user("q"), session=session)
    assert context.context_messages["cortadel"][0].text.splitlines()[1:] == ["- fact 1"]
    assert session.state["cortadel"][INJECTED_IDS_KEY] == ["m4", "m5", "m1"]


async def test_zero_remembers_nothing_so_every_hit_stays_eligible(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory, max_remembered_ids=0)
    session = AgentSession()
    await recall(provider, user("a"), session=session)
    again, _ = await recall(provider, user("b"), session=session)
    assert "Alex ships on Fridays" in again.context_messages["cortadel"][0].text
    assert INJECTED_IDS_KEY not in session.state["cortadel"]


async def test_duplicate_ids_within_one_result_are_injected_once(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays"), make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory)
    context, session = await recall(provider, user("q"))
    assert context.context_messages["cortadel"][0].text.count("Alex ships") == 1
    assert session.state["cortadel"][INJECTED_IDS_KEY] == ["m1"]


async def test_dedup_state_survives_session_serialization(memory, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory)
    session = AgentSession()
    await recall(provider, user("ship?"), session=session)

    import json

    restored = AgentSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert restored.state["cortadel"][INJECTED_IDS_KEY] == ["m1"]
    context, _ = await recall(provider, user("ship?"), session=restored)
    assert context.context_messages == {}  # the restored session does not get the same memory again


async def test_include_memory_tools_offers_both_tools_even_on_a_blank_turn(memory):
    provider = CortadelContextProvider(client=memory, include_memory_tools=True)
    context, _ = await recall(provider, user(" "))
    assert [t.name for t in context.tools] == ["search_memory", "add_memories"]
    assert memory.searches == []


async def test_custom_source_id_keys_state_and_attribution(memory, make_hit):
    memory.hits = [make_hit("m1", "x")]
    provider = CortadelContextProvider(client=memory, source_id="work-memory")
    context, session = await recall(provider, user("q"))
    assert session.state["work-memory"][INJECTED_IDS_KEY] == ["m1"]
    assert context.context_messages["work-memory"][0].additional_properties["_attribution"]["source_id"] == "work-memory"
