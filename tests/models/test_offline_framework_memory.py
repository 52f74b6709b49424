"""The offline lesson model takes part in the framework's own memory honestly.

- It answers a memory writer's extraction and consolidation prompts with the JSON shape they ask for,
  recognised by that shape (a custom extraction prompt with other wording works too), from nothing but
  the transcript it is sent; topics are short and stable, one sentence per memory, "at most N" obeyed.
- It calls ``file_memory_write`` / ``file_memory_read`` and ``search_history`` when the user asks it to
  remember or recall, by the same rules as the Cortadel tools.
Names, facts and phrasings here are not the lesson's.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from agent_framework import (
    Agent,
    FileMemoryProvider,
    InMemoryAgentFileStore,
    InMemoryStore,
    MemoryContextProvider,
    MemoryFileStore,
    Message,
    SlidingWindowStrategy,
    VectorStoreHistoryProvider,
)
from agent_framework._harness._memory import (  # the framework's own prompts, read (never patched)
    DEFAULT_MEMORY_CONSOLIDATION_PROMPT,
    DEFAULT_MEMORY_EXTRACTION_PROMPT,
)

from local_memory_server.embedding_client import MiniLMEmbeddingClient
from chat_models.request_reading import tool_calls
from local_memory_server.embeddings import HashingEmbedder
from chat_models import OfflineChatClient
from chat_models.memory_prompts import consolidate, recognise, same_memory, topic_of
from chat_models.memory_tools import listed_names, recall_arguments

pytestmark = pytest.mark.filterwarnings("ignore::agent_framework._feature_stage.ExperimentalWarning")


async def _ask(system: str, user: str) -> str:
    response = await OfflineChatClient().get_response([Message("system", [system]), Message("user", [user])])
    return response.text


# ------------------------------------------------------------------------------ extraction


async def test_extraction_answers_the_asked_shape_from_the_users_lines_only() -> None:
    transcript = ("USER: Hello! I'm Oskar and I'm 58. My boat is called Selma. Can you book me a table?\n\n"
                  "ASSISTANT: I live in Reykjavik and my favourite food is skyr.")
    data = json.loads(await _ask(DEFAULT_MEMORY_EXTRACTION_PROMPT, transcript))
    pairs = [(m["topic"], m["memory"]) for m in data["memories"]]
    assert pairs == [("profile", "The user's name is Oskar."), ("profile", "The user is 58 years old."),
                     ("boat", "The user's boat is called Selma.")]  # not the request, not the assistant's words


async def test_extraction_returns_an_empty_list_when_nothing_is_durable() -> None:
    data = json.loads(await _ask(DEFAULT_MEMORY_EXTRACTION_PROMPT, "USER: What time is it in Lima?\n\nASSISTANT: No idea."))
    assert data == {"memories": []}


async def test_extraction_keeps_the_prompts_limit_and_one_sentence_per_memory() -> None:
    prompt = DEFAULT_MEMORY_EXTRACTION_PROMPT.replace("at most 5", "at most 2")
    transcript = "USER: I'm Wen. I'm 40. I play the oboe on Sundays. My cat is called Pixel."
    data = json.loads(await _ask(prompt, transcript))
    assert len(data["memories"]) == 2
    assert all(m["memory"].count(".") == 1 and m["memory"].endswith(".") for m in data["memories"])


async def test_a_custom_extraction_prompt_is_recognised_by_its_shape_not_its_wording() -> None:
    custom = ('Read the conversation and note lasting things about the person.\n'
              'Reply with JSON only, exactly like {"memories":[{"memory":"one fact","topic":"a label"}]}.')
    assert recognise(custom) is not None and recognise("Be brief and friendly.") is None
    data = json.loads(await _ask(custom, "USER: I usually commute by tram."))
    assert data == {"memories": [{"topic": "commute", "memory": "The user usually commutes by tram."}]}


async def test_a_custom_prompt_through_memory_context_provider_writes_topic_files(tmp_path) -> None:
    custom = 'Extract what is worth keeping. Output JSON shaped {"memories":[{"topic":"t","memory":"m"}]}.'
    store = MemoryFileStore(tmp_path, owner_state_key="user")
    agent = Agent(client=OfflineChatClient(), context_providers=[MemoryContextProvider(store=store, extraction_prompt=custom)])
    session = agent.create_session()
    session.state["user"] = "kofi"
    await agent.run("My bike is a green Brompton.", session=session)
    topics = store.list_topics(session, source_id="memory")
    assert [(t.topic, t.memories) for t in topics] == [("bike", ["The user's bike is a green Brompton."])]


@pytest.mark.parametrize(
    ("said", "topic"),
    [("I moved to Tromsø", "home"), ("I now live in Tromsø", "home"), ("my favourite band is Low", "favourite band"),
     ("my usual train is the 8:10", "train"), ("I have three ferrets", "ferrets"), ("I'm 44", "profile"),
     ("my ferry leaves at 6:15", "ferry")],
)
def test_topics_are_short_and_stable(said, topic) -> None:
    from chat_models.facts import first_person_facts

    fact = first_person_facts(said)[0]
    assert topic_of(fact.text, fact.slot) == topic


# ------------------------------------------------------------------------------ consolidation


async def test_consolidation_merges_paraphrases_and_keeps_different_facts() -> None:
    record = {"topic": "tea", "memories": ["The user drinks green tea without sugar.",
                                           "The user drinks sugar-free green tea.",
                                           "The user's teapot is blue."]}
    data = json.loads(await _ask(DEFAULT_MEMORY_CONSOLIDATION_PROMPT, json.dumps(record)))
    assert data == {"summary": "The user drinks green tea without sugar.",
                    "memories": ["The user drinks green tea without sugar.", "The user's teapot is blue."]}


def test_same_memory_needs_most_content_words_shared() -> None:
    assert same_memory("The user lives in Quito.", "The user's home is in Quito, they live there.")
    assert not same_memory("The user lives in Quito.", "The user lives in Lima.")
    assert consolidate([]) == ("", [])


async def test_consolidation_never_invents_memories_it_was_not_sent() -> None:
    data = json.loads(await _ask(DEFAULT_MEMORY_CONSOLIDATION_PROMPT, "not a record"))
    assert data == {"summary": "", "memories": []}


async def test_consolidation_runs_through_the_provider_when_its_cadence_allows(tmp_path) -> None:
    store = MemoryFileStore(tmp_path, owner_state_key="user")
    provider = MemoryContextProvider(store=store, consolidation_min_sessions=2, consolidation_interval=timedelta(0))
    agent = Agent(client=OfflineChatClient(), context_providers=[provider])
    for said in ("My laptop is a grey ThinkPad X1.", "My laptop is an X1 ThinkPad, grey."):
        session = agent.create_session()
        session.state["user"] = "ines"
        await agent.run(said, session=session)
    [topic] = store.list_topics(session, source_id="memory")
    assert topic.topic == "laptop" and len(topic.memories) == 1


# ------------------------------------------------------------------------------ file memory tools


async def test_remember_writes_a_named_file_and_a_later_session_reads_it_back() -> None:
    client = OfflineChatClient()
    agent = Agent(client=client, context_providers=[FileMemoryProvider(InMemoryAgentFileStore(), scope="lin")])
    wrote = await agent.run("Please remember that my locker number is 311.", session=agent.create_session())
    assert tool_calls(wrote)[0] == ("file_memory_write", {"file_name": "locker-number.md",
                                                          "content": "The user's locker number is 311",
                                                          "description": "The user's locker number is 311"})
    read = await agent.run("What is my locker number?", session=agent.create_session())
    assert tool_calls(read) == [("file_memory_read", {"file_name": "locker-number.md"})]
    assert read.text == "Your locker number is 311."


async def test_a_change_overwrites_the_same_file_and_other_users_see_nothing() -> None:
    store = InMemoryAgentFileStore()
    lin = Agent(client=OfflineChatClient(), context_providers=[FileMemoryProvider(store, scope="lin")])
    await lin.run("Remember that my locker number is 311.", session=lin.create_session())
    await lin.run("Remember that my locker number is 47 now.", session=lin.create_session())
    reply = await lin.run("What is my locker number?", session=lin.create_session())
    assert "47" in reply.text and "311" not in reply.text
    other = Agent(client=OfflineChatClient(), context_providers=[FileMemoryProvider(store, scope="ravi")])
    reply = await other.run("What is my locker number?", session=other.create_session())
    assert "311" not in reply.text and "47" not in reply.text  # its grep searched only its own folder


def test_a_name_tool_is_called_only_with_a_listed_name_that_fits_the_question() -> None:
    listing = listed_names(["# Memory Index\n\n- **bike.md**: The user's bike is red\n- [pets](topics/pets.md): Two cats."])
    schema = {"properties": {"file_name": {"type": "string"}}, "required": ["file_name"]}
    assert recall_arguments(schema, "What colour is my bike?", listing) == {"file_name": "bike.md"}
    assert recall_arguments(schema, "Where do I work?", listing) is None
    grep = {"properties": {"regex_pattern": {"type": "string"}}, "required": ["regex_pattern"]}
    assert recall_arguments(grep, "Where do I work?", listing) == {"regex_pattern": "work"}


# ------------------------------------------------------------------------------ search_history


async def test_search_history_finds_a_compacted_turn_and_the_answer_comes_from_it() -> None:
    embedder = MiniLMEmbeddingClient(HashingEmbedder(dim=64))  # deterministic vectors; meaning is the lesson's
    history = VectorStoreHistoryProvider(
        InMemoryStore(), application_id="tests", collection_name="t", embedding_generator=embedder,
        embedding_options={"dimensions": 64}, compaction_strategy=SlidingWindowStrategy(keep_last_groups=2),
        include_search_tool=True)
    agent = Agent(client=OfflineChatClient(), context_providers=[history])
    session = agent.create_session()
    for said in ("My gate code is 4471.", "Tell me a joke about a goose.", "Tell me a joke about a kettle."):
        await agent.run(said, session=session)
    reply = await agent.run("What is my gate code?", session=session)
    assert [name for name, _ in tool_calls(reply)] == ["search_history"]
    assert reply.text == "Your gate code is 4471."
    fresh = await agent.run("What is my gate code?", session=agent.create_session())
    assert "4471" not in fresh.text  # its search is scoped to the session
