"""Cortadel's size limits: an over-long turn is split and batched, never dropped; recall queries fit."""

from __future__ import annotations

import pytest
from agent_framework import Agent, Message
from cortadel import ChatMessage, CortadelError

from lesson_utils import CortadelContextProvider, create_memory_tools
from lesson_utils.cortadel.limits import (
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES_PER_CALL,
    MAX_QUERY_CHARS,
    batch_messages,
    build_query,
    cut_text,
    fit_messages,
    split_text,
    utf16_len,
)


def agent_with(chat, provider) -> Agent:
    return Agent(client=chat, instructions="You are helpful.", context_providers=[provider])


# ── the helpers ─────────────────────────────────────────────────────────────────────────────


def test_utf16_len_counts_astral_characters_twice():
    assert utf16_len("abc") == 3
    assert utf16_len("é中") == 2
    assert utf16_len("😀a") == 3


def test_split_text_pieces_fit_and_join_back_breaking_after_whitespace():
    text = " ".join(f"word{i}" for i in range(30_000))  # ~200k characters
    pieces = split_text(text, MAX_MESSAGE_CHARS)
    assert len(pieces) > 1
    assert "".join(pieces) == text
    assert all(utf16_len(p) <= MAX_MESSAGE_CHARS for p in pieces)
    assert all(p.endswith(" ") for p in pieces[:-1])  # words stay whole


def test_split_text_without_whitespace_cuts_at_the_limit():
    assert split_text("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]


def test_split_text_counts_emoji_as_two_and_never_splits_one():
    text = "😀" * 7
    pieces = split_text(text, 4)
    assert pieces == ["😀😀", "😀😀", "😀😀", "😀"]
    assert split_text("a😀b", 2) == ["a", "😀", "b"]


def test_split_text_rejects_a_limit_that_cannot_hold_a_character():
    with pytest.raises(ValueError, match="at least 2"):
        split_text("abc", 1)


def test_cut_text_is_the_longest_fitting_prefix():
    assert cut_text("abcdef", 4) == "abcd"
    assert cut_text("ab😀cd", 3) == "ab"
    assert cut_text("short", 100) == "short"


def test_fit_messages_keeps_role_and_uuid_on_every_piece_and_drops_blank_pieces():
    long = "a" * 12 + " " * 30
    messages = [ChatMessage(role="user", content="hi", uuid="u0"), ChatMessage(role="assistant", content=long, uuid="a1")]
    fitted = fit_messages(messages, limit=10)
    assert fitted[0] is messages[0]
    assert [(m.role, m.uuid) for m in fitted[1:]] == [("assistant", "a1")] * 2
    assert [m.content for m in fitted[1:]] == ["a" * 10, "aa" + " " * 8]  # the all-blank tail is not sent


def test_batch_messages_are_consecutive_and_at_most_the_size():
    messages = [ChatMessage(role="user", content=str(i)) for i in range(1001)]
    batches = batch_messages(messages)
    assert [len(b) for b in batches] == [500, 500, 1]
    assert [m.content for b in batches for m in b] == [str(i) for i in range(1001)]
    assert batch_messages([]) == []


def test_build_query_joins_everything_that_fits():
    assert build_query(["  first ", "", "second"]) == "first\nsecond"


def test_build_query_keeps_the_newest_whole_messages_when_all_do_not_fit():
    old, middle, new = "o" * 3000, "m" * 1500, "n" * 1000
    assert build_query([old, middle, new]) == f"{middle}\n{new}"


def test_build_query_cuts_a_too_long_newest_message_to_its_start_after_a_word():
    text = "Summarise this report about the Oslo office. " + "lorem ipsum " * 1000
    query = build_query(["earlier", text])
    assert utf16_len(query) <= MAX_QUERY_CHARS
    assert query.startswith("Summarise this report about the Oslo office.")
    assert text.startswith(query) and text[len(query)] == " "  # cut between words


# ── the provider: store everything ──────────────────────────────────────────────────────────


async def test_an_oversized_message_is_stored_in_pieces_not_dropped(memory, chat):
    provider = CortadelContextProvider(client=memory)
    agent = agent_with(chat, provider)
    chat.reply = "Got it."
    paste = "Here is my whole diary. " * 5000 + "I ship on Fridays."  # 120k characters
    await agent.run(Message(role="user", contents=[paste], message_id="u1"), session=agent.create_session())

    [(messages, _)] = memory.conversations
    pieces, reply = messages[:-1], messages[-1]
    assert len(pieces) == 3
    assert all(m.role == "user" and m.uuid == "u1" for m in pieces)
    assert all(utf16_len(m.content) <= MAX_MESSAGE_CHARS for m in pieces)
    assert "".join(m.content for m in pieces) == paste
    assert (reply.role, reply.content) == ("assistant", "Got it.")


async def test_more_than_500_messages_go_out_in_consecutive_calls_with_the_same_options(memory, chat):
    provider = CortadelContextProvider(client=memory, tags=["import"])
    agent = agent_with(chat, provider)
    chat.reply = "Done."
    session = agent.create_session()
    history = [Message(role="user", contents=[f"note {i}"]) for i in range(700)]
    await agent.run(history, session=session)

    assert [len(batch) for batch, _ in memory.conversations] == [MAX_MESSAGES_PER_CALL, 201]
    sent = [m.content for batch, _ in memory.conversations for m in batch]
    assert sent == [f"note {i}" for i in range(700)] + ["Done."]
    assert all(o.session_id == session.session_id and o.tags == ["import"] for _, o in memory.conversations)


class FailsOnce:
    """Wraps a fake MemoryClient: the first add_conversation call fails, later ones succeed."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.failed = False

    async def search(self, query, options=None):
        return await self.inner.search(query, options)

    async def add(self, text, options=None):
        return await self.inner.add(text, options)

    async def add_conversation(self, messages, options=None):
        if not self.failed:
            self.failed = True
            raise CortadelError(503, "unavailable", "try later")
        return await self.inner.add_conversation(messages, options)


async def test_a_failed_batch_loses_only_itself_and_is_reported(memory, chat):
    seen: list[Exception] = []
    provider = CortadelContextProvider(client=FailsOnce(memory), on_error=seen.append)
    agent = agent_with(chat, provider)
    await agent.run([Message(role="user", contents=[f"n{i}"]) for i in range(600)], session=agent.create_session())
    assert [len(batch) for batch, _ in memory.conversations] == [101]  # the second batch still went out
    assert len(seen) == 1 and seen[0].status == 503


async def test_raise_on_error_raises_only_after_every_batch_was_tried(memory, chat):
    provider = CortadelContextProvider(client=FailsOnce(memory), raise_on_error=True)
    agent = agent_with(chat, provider)
    with pytest.raises(CortadelError, match="try later"):
        await agent.run([Message(role="user", contents=[f"n{i}"]) for i in range(600)], session=agent.create_session())
    assert [len(batch) for batch, _ in memory.conversations] == [101]


# ── the provider and the tools: queries fit ─────────────────────────────────────────────────


async def test_recall_query_for_a_long_turn_keeps_the_newest_message(memory, chat):
    provider = CortadelContextProvider(client=memory)
    agent = agent_with(chat, provider)
    await agent.run(
        [Message(role="user", contents=["x" * 4990]), Message(role="user", contents=["When do I ship?"])],
        session=agent.create_session(),
    )
    [(query, _)] = memory.searches
    assert query == "When do I ship?"


async def test_search_tool_cuts_an_over_long_query_to_the_limit(memory):
    search, _ = create_memory_tools(memory)
    await search.invoke(arguments={"query": "Oslo " * 2000})
    [(query, _)] = memory.searches
    assert utf16_len(query) <= MAX_QUERY_CHARS and query.startswith("Oslo Oslo")


async def test_add_tool_refuses_an_over_long_fact_with_a_clear_note_and_calls_nothing(memory):
    _, add = create_memory_tools(memory)
    result = await add.invoke(arguments={"text": "y" * (MAX_MESSAGE_CHARS + 1)})
    assert "50,001 characters" in result[0].text and "shorter facts" in result[0].text
    assert memory.adds == []
