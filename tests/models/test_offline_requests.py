"""Requests the offline lesson model has no rule for get one plain sentence saying what it is.

A lesson author's "Can you recommend a book?" was told "I don't know that — you haven't told me.":
that answer is only right for questions about the user.
"""

from __future__ import annotations

import pytest

from chat_models.text import sentences

from .conversation import ask


GENERAL = [
    "Can you recommend a book?",
    "Can you recommend me a book?",
    "Could you help me write a poem?",
    "What is the capital of Peru?",
    "Why is the sky blue?",
    "What should I cook tonight?",
    "Recommend a good film.",
    "Please summarise this article for me.",
    "Give me three ideas for a birthday party.",
    "Tell me about Paris.",
]


@pytest.mark.parametrize("request_text", GENERAL)
async def test_a_request_it_cannot_act_on_gets_one_plain_offline_sentence(request_text: str) -> None:
    answer = await ask(request_text)
    assert "offline lesson model" in answer
    assert "this conversation" in answer
    assert ".env" in answer and "notebook 00" in answer
    assert "haven't told me" not in answer and "You said" not in answer
    assert len(sentences(answer)) == 1


@pytest.mark.parametrize(
    "question",
    ["Where do I work?", "What's my favourite colour?", "When do I usually ship?", "What car do I drive?",
     "Do I have any pets?", "What is my dog called?"],
)
async def test_unanswerable_questions_about_the_user_still_say_dont_know(question: str) -> None:
    answer = await ask(question)
    assert "don't know" in answer and "haven't told me" in answer
    assert "notebook 00" not in answer


async def test_a_request_next_to_a_stated_name_keeps_the_greeting() -> None:
    answer = await ask("I'm Ana. Can you recommend a book?")
    assert answer.startswith("Nice to meet you, Ana!") and "offline lesson model" in answer


async def test_a_general_request_does_not_hide_a_known_answer() -> None:
    answer = await ask("I work at Contoso.", "OK.", "Where do I work? And can you recommend a book?")
    assert "You work at Contoso." in answer and "offline lesson model" in answer
