"""The offline model summarises conversations by general rules, and answers from a summary afterwards.

Names, facts and phrasings here are ones lesson 03 never uses. The framework's own
``SummarizationStrategy`` is driven end to end, so the transcript format it sends is the one tested.
"""

from __future__ import annotations

import pytest
from agent_framework import (
    Agent,
    CompactionProvider,
    InMemoryHistoryProvider,
    Message,
    SlidingWindowStrategy,
    SummarizationStrategy,
)

from chat_models import OfflineChatClient
from chat_models.summaries import SUMMARY_HEADING, parse_transcript, summarize
from chat_models.text import to_third_person

from .conversation import ask

SUMMARY_PROMPT = "Write a short summary of the conversation below."


async def summary_of(transcript: str, prompt: str = SUMMARY_PROMPT) -> str:
    response = await OfflineChatClient().get_response(
        [Message("system", [prompt]), Message("user", [transcript])]
    )
    return response.text


@pytest.mark.parametrize(
    ("fact", "third"),
    [
        ("your name is Oluwaseun", "The user's name is Oluwaseun"),
        ("you are 58 years old", "The user is 58 years old"),
        ("you brew cider in autumn", "The user brews cider in autumn"),
        ("you usually cycle to the lab", "The user usually cycles to the lab"),
        ("you're a beekeeper", "The user is a beekeeper"),
        ("you have a tortoise called Gus", "The user has a tortoise called Gus"),
        ("you don't drink coffee", "The user doesn't drink coffee"),
        ("you moved to Tromsø last year", "The user moved to Tromsø last year"),
        ("you can juggle", "The user can juggle"),
        ("you walk your dog at dawn", "The user walks their dog at dawn"),
        ("your sister lives in Quito", "The user's sister lives in Quito"),
    ],
)
def test_a_fact_is_restated_about_the_user(fact: str, third: str) -> None:
    assert to_third_person(fact) == third


def test_the_framework_transcript_format_is_parsed_by_role() -> None:
    text = "1. [user] I'm Ikaika.\n2. [assistant] Nice to meet you!\nsecond line\n3. [user] I fly kites."
    assert parse_transcript(text) == [
        ("user", "I'm Ikaika."),
        ("assistant", "Nice to meet you!\nsecond line"),
        ("user", "I fly kites."),
    ]
    assert parse_transcript("User: hi\nAssistant: hello") == [("user", "hi"), ("assistant", "hello")]
    assert parse_transcript("just some text") == [("user", "just some text")]


async def test_a_summary_keeps_every_fact_the_user_stated_and_their_questions() -> None:
    transcript = (
        "1. [user] Hello, my name is Oluwaseun and I brew cider in autumn.\n"
        "2. [assistant] Nice to meet you, Oluwaseun!\n"
        "3. [user] What is the tallest mountain in Chile?\n"
        "4. [assistant] I'm not sure.\n"
        "5. [user] I keep three goats."
    )
    summary = await summary_of(transcript)
    assert summary.startswith(SUMMARY_HEADING)
    assert "- The user's name is Oluwaseun." in summary
    assert "- The user brews cider in autumn." in summary
    assert "- The user keeps three goats." in summary
    assert '"What is the tallest mountain in Chile?"' in summary
    assert "Nice to meet you" not in summary  # the assistant's small talk is not a fact


async def test_a_correction_wins_in_the_summary() -> None:
    summary = await summary_of("1. [user] I'm Bo.\n2. [assistant] Hi Bo!\n3. [user] Actually, my name is Bodil.")
    assert "name is Bodil" in summary and "name is Bo." not in summary


async def test_a_summary_of_a_summary_keeps_the_first_facts() -> None:
    first = await summary_of("1. [user] Call me Rangi. I restore old clocks.")
    numbered = "\n".join(f"1. [assistant] {line}" if i == 0 else line for i, line in enumerate(first.splitlines()))
    second = await summary_of(numbered + "\n2. [user] I'm 47.\n3. [assistant] Noted.")
    assert "- The user's name is Rangi." in second
    assert "- The user restores old clocks." in second
    assert "- The user is 47 years old." in second


async def test_a_summary_with_nothing_personal_says_so_without_inventing_facts() -> None:
    summary = await summary_of("1. [user] What's the boiling point of water?\n2. [assistant] 100 °C.")
    assert "No facts about the user yet." in summary
    assert "- The user" not in summary


@pytest.mark.parametrize(
    "prompt",
    [
        "Generate a clear and complete summary of the entire conversation in no more than five sentences.",
        "Summarise this chat transcript for the next assistant.",
        "Please summarize the messages so far.",
    ],
)
async def test_any_summary_prompt_about_a_conversation_is_followed(prompt: str) -> None:
    assert "name is Henrike" in await summary_of("1. [user] I am Henrike.", prompt)


async def test_the_model_answers_from_a_summary_in_an_assistant_message() -> None:
    summary = await summary_of("1. [user] My name is Tevita and I sail on Sundays.")
    answer = await ask("Hi.", summary, "What's my name, and when do I sail?")
    assert "Tevita" in answer and "you sail on sundays" in answer.lower()


async def test_the_user_can_ask_for_a_summary_of_this_chat_but_not_of_an_article() -> None:
    answer = await ask("I'm Anouk and I grow chillies.", "Got it.", "Can you summarise our conversation so far?")
    assert answer.startswith(SUMMARY_HEADING) and "The user grows chillies." in answer
    assert "offline lesson model" in await ask("Please summarise this article for me.")


async def test_an_ordinary_assistant_reply_is_not_read_as_a_fact_about_the_user() -> None:
    # Only statements *about the user* count from assistant text; the assistant's own words do not.
    assert "don't know" in await ask("Tell me something.", "I love the sea.", "What do I love?")


def test_summarize_drops_a_request_for_the_summary_itself_from_the_questions() -> None:
    text = summarize([("user", "I'm Ilse."), ("user", "Could you summarise what we discussed?")])
    assert "Earlier questions" not in text


async def test_framework_summarization_keeps_a_name_a_sliding_window_forgets() -> None:
    turns = [
        "Hello, I'm Zaid and I repair bicycles.",
        "What is the capital of Chile?",
        "I collect stamps.",
        "Can you recommend a film?",
        "I swim on Mondays.",
        "What's my name?",
    ]

    async def last_answer(strategy) -> str:
        history = InMemoryHistoryProvider()
        agent = Agent(
            client=OfflineChatClient(),
            context_providers=[history, CompactionProvider(before_strategy=strategy)],
        )
        session = agent.create_session()
        for turn in turns:
            reply = await agent.run(turn, session=session)
        return reply.text

    summarizer = SummarizationStrategy(client=OfflineChatClient(), target_count=2, threshold=0)
    assert await last_answer(summarizer) == "Your name is Zaid."
    assert "don't know your name" in await last_answer(SlidingWindowStrategy(keep_last_groups=2))
