"""The offline lesson model with names beyond ASCII (a lesson author's "I'm Tomás." came back as "Tom").

Names come back whole from user messages, instructions and memory lines, in any script.
"""

from __future__ import annotations

import pytest
from agent_framework import Agent

from chat_models import OfflineChatClient
from chat_models.facts import collect_facts
from chat_models.text import to_second_person, words
from lesson_utils.user_memory import UserMemoryProvider

from .conversation import ask


NAMES = ["Zo\u00eb", "Jos\u00e9", "Tom\u00e1s", "Bj\u00f6rn", "\u0141ukasz", "Siobh\u00e1n", "\u00c9mile",
         "\u00d8ystein", "Mary-Jane", "O'Brien"]




# ------------------------------------------------------------------------------ names beyond ASCII


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("statement", ["I'm {}.", "My name is {}", "Hi! I am {} and I'm 30.", "Call me {}."])
async def test_a_name_the_user_states_comes_back_whole(name: str, statement: str) -> None:
    assert await ask(statement.format(name), "OK.", "What is my name?") == f"Your name is {name}."


@pytest.mark.parametrize("name", NAMES)
async def test_a_stated_name_is_acknowledged_whole(name: str) -> None:
    assert await ask(f"I\u2019m {name}.") == f"Nice to meet you, {name}!"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("instructions", ["The user's name is {}.", "The user is called {}.", "Name: {}"])
async def test_a_name_in_the_instructions_comes_back_whole(name: str, instructions: str) -> None:
    assert await ask("Who am I?", instructions=instructions.format(name)) == f"Your name is {name}."


@pytest.mark.parametrize("name", NAMES)
async def test_a_bare_name_answering_whats_your_name_comes_back_whole(name: str) -> None:
    assert await ask("Hi", "Hello! What's your name?", f"{name}.", "OK.", "What's my name?") == f"Your name is {name}."


@pytest.mark.parametrize("name", NAMES)
async def test_memory_lines_about_a_non_ascii_name_are_about_the_user(name: str) -> None:
    block = f"Relevant memories:\n- {name} ships on Fridays\n- {name}'s favourite colour is teal"
    assert await ask(block, "OK.", "When do I ship?") == "You ship on Fridays."
    assert await ask("What's my favourite colour?", instructions=block) == "Your favourite colour is teal."


@pytest.mark.parametrize("name", NAMES)
async def test_a_known_name_makes_unbulleted_instruction_lines_about_the_user(name: str) -> None:
    instructions = f"The user's name is {name}. {name} lives in Z\u00fcrich."
    assert await ask("Where do I live?", instructions=instructions) == "You live in Z\u00fcrich."


async def test_the_assistants_own_non_ascii_name_comes_back_whole() -> None:
    assert await ask("What is your name?", instructions="Your name is \u00c9lodie.") == "My name is \u00c9lodie."


def test_lower_case_non_ascii_words_are_still_not_names() -> None:
    sheet = collect_facts("", ["I'm \u00e9puis\u00e9", "I'm \u00fcberm\u00fcdet today"])
    assert sheet.name is None


def test_words_and_person_swaps_keep_non_ascii_letters() -> None:
    assert words("Tom\u00e1s lives in Z\u00fcrich") == ["tom\u00e1s", "lives", "in", "z\u00fcrich"]
    assert to_second_person("I met \u00c9my in M\u00e1laga") == "you met \u00c9my in M\u00e1laga"


async def test_a_non_ascii_fact_is_matched_by_its_whole_word() -> None:
    assert await ask("I love cr\u00e8me br\u00fbl\u00e9e.", "OK.", "What do I love?") == "You love cr\u00e8me br\u00fbl\u00e9e."
    assert await ask("I visited M\u00e1laga in May.", "OK.", "When did I visit M\u00e1laga?") == (
        "You visited M\u00e1laga in May."
    )


async def test_lesson_three_provider_and_offline_model_remember_tomas() -> None:
    """The lesson-3 path end to end: the provider learns the name, the model reads it back whole."""
    agent = Agent(client=OfflineChatClient(), instructions="You are a friendly assistant.",
                  context_providers=[UserMemoryProvider()])
    session = agent.create_session()
    await agent.run("Hi, I'm Tom\u00e1s.", session=session)
    assert session.state["user_memory"]["name"] == "Tom\u00e1s"
    later = agent.create_session()
    later.state["user_memory"] = dict(session.state["user_memory"])
    answer = await agent.run("What is my name?", session=later)
    assert answer.text == "Your name is Tom\u00e1s."
