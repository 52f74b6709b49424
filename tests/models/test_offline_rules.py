"""The offline lesson model's rules, with names, facts and phrasings the notebooks never use."""

from __future__ import annotations

import pytest
from agent_framework import Agent, Message

from chat_models import OfflineChatClient
from chat_models.facts import collect_facts
from chat_models.jokes import tell_joke, topic_of
from chat_models.text import stem

from .conversation import ask


# ------------------------------------------------------------------------------ facts the user states


@pytest.mark.parametrize(
    ("statement", "question", "expected"),
    [
        ("I'm Tomasz.", "What is my name?", "Your name is Tomasz."),
        ("My name is Priya", "what's my name", "Your name is Priya."),
        ("Call me Jo.", "Who am I?", "Your name is Jo."),
        ("I am 31 years old", "How old am I?", "You are 31 years old."),
        ("I'm 42", "What's my age?", "You are 42 years old."),
        ("I just turned 19.", "How old am I?", "You are 19 years old."),
        ("I ship on Fridays", "When do I ship?", "You ship on Fridays."),
        ("We're busy. I usually deploy on Tuesdays.", "When do I deploy?", "You usually deploy on Tuesdays."),
        ("I like green tea and I love hiking.", "What do I love?", "You love hiking."),
        ("My favourite colour is teal.", "What's my favorite color?", "Your favourite colour is teal."),
        ("I live in Oslo.", "Where do I live?", "You live in Oslo."),
        ("I work at Contoso.", "Where do I work?", "You work at Contoso."),
        ("I prefer dark mode.", "Which mode do I prefer?", "You prefer dark mode."),
        ("I have two cats named Milo and Otis.", "How many cats do I have?", "You have two cats named Milo and Otis."),
    ],
)
async def test_answers_questions_about_facts_stated_in_an_earlier_turn(statement, question, expected) -> None:
    assert await ask(statement, "OK.", question) == expected


async def test_name_and_age_in_one_question() -> None:
    answer = await ask("Hi! I'm Mei and I'm 64.", "Nice to meet you, Mei!", "What's my name and age?")
    assert answer == "Your name is Mei and you are 64 years old."


async def test_shipping_shipped_ships_match_by_stem() -> None:
    assert stem("ship") == stem("ships") == stem("shipping") == stem("shipped")
    assert stem("live") == stem("lives") == stem("living")
    assert await ask("I ship on Fridays.", "ok", "When am I shipping?") == "You ship on Fridays."


async def test_a_correction_wins_over_the_earlier_fact() -> None:
    answer = await ask("I'm Sam.", "Hi Sam!", "Sorry, my name is Samantha.", "Got it.", "What's my name?")
    assert answer == "Your name is Samantha."


async def test_facts_and_question_in_the_same_message() -> None:
    answer = await ask("Hi, I'm Ana, I'm 29 and I live in Lisbon. Where do I live?")
    assert "You live in Lisbon." in answer and "Ana" in answer


async def test_statements_are_acknowledged_in_second_person() -> None:
    assert await ask("I'm Kofi.") == "Nice to meet you, Kofi!"
    assert await ask("I water the plants on Sundays.") == "Got it: you water the plants on Sundays."


async def test_not_names_are_not_taken_for_names() -> None:
    sheet = collect_facts("", ["I'm Fine, thanks", "I'm in the office until 5pm", "I'm 5 minutes late"])
    assert sheet.name is None and sheet.age is None


@pytest.mark.parametrize(
    "question", ["What is my name?", "How old am I?", "Where do I live?", "What's my favourite colour?"]
)
async def test_unknown_facts_say_dont_know(question: str) -> None:
    answer = await ask(question)
    assert "don't know" in answer


async def test_what_do_you_know_about_me_lists_everything_or_nothing() -> None:
    full = await ask("I'm Lars, I'm 50 and I live in Aarhus.", "ok", "What do you know about me?")
    assert all(part in full for part in ("Lars", "50 years old", "Aarhus"))
    assert "don't know" in await ask("What do you know about me?")


# ------------------------------------------------------------------------------ instructions


@pytest.mark.parametrize(
    ("instructions", "question", "expected"),
    [
        ("The user's name is Alex.\nThe user is 31 years old.", "What is my name and age?",
         "Your name is Alex and you are 31 years old."),
        ("User's name: Rosa. The user is 28.", "How old am I?", "You are 28 years old."),
        ("The user is called Ivo.", "Who am I?", "Your name is Ivo."),
        ("The user lives in Quito.", "Where do I live?", "You live in Quito."),
    ],
)
async def test_facts_in_instructions(instructions: str, question: str, expected: str) -> None:
    assert await ask(question, instructions=instructions) == expected


async def test_ask_for_the_name_when_it_is_unknown() -> None:
    reply = await ask("Hello!", instructions="Ask the user for their name before answering.")
    assert "What's your name?" in reply


async def test_no_asking_when_the_name_is_known_from_the_turn_or_instructions() -> None:
    told = await ask("Hi, I'm Sam.", instructions="Ask the user for their name before answering.")
    assert "What's your name?" not in told and "Sam" in told
    known = await ask("Hello!", instructions="The user's name is Dev. Ask the user for their name if unknown.")
    assert "What's your name?" not in known


async def test_a_bare_reply_to_the_name_question_is_the_name() -> None:
    assert await ask("Hello!", "Hello! What's your name?", "Zoe.", "Nice to meet you!", "What is my name?") == (
        "Your name is Zoe."
    )


async def test_other_instructions_voice_caps_and_assistant_name() -> None:
    assert (await ask("Hello", instructions="Always respond in uppercase.")).isupper()
    assert (await ask("Hello", instructions="Talk like a pirate.")).startswith("Arr")
    assert await ask("What's your name?", instructions="Your name is Pip.") == "My name is Pip."


# ------------------------------------------------------------------------------ memory lines in context


async def test_memory_lines_in_a_context_message_are_facts_about_the_user() -> None:
    block = "Relevant memories about the user:\n- Alex ships on Fridays\n- User's favourite colour is teal\n- Has a dog"
    messages = [Message("user", [block]), Message("user", ["When do I usually ship?"])]
    client = OfflineChatClient()
    assert (await client.get_response(messages)).text == "You ship on Fridays."
    messages[-1] = Message("user", ["What is my favourite colour?"])
    assert (await client.get_response(messages)).text == "Your favourite colour is teal."


async def test_memory_lines_in_instructions_with_other_names_and_no_bullets() -> None:
    instructions = "## Memories\nConsider these memories:\n* Bjorn rides his bike to work\n* Bjorn is 38"
    assert await ask("How do I get to work?", instructions=instructions) == "You ride your bike to work."
    assert await ask("How old am I?", instructions=instructions) == "You are 38 years old."


# ------------------------------------------------------------------------------ jokes


@pytest.mark.parametrize("topic", ["a pirate", "penguins", "quantum physics", "my cat", "spreadsheets"])
async def test_a_joke_mentions_its_topic(topic: str) -> None:
    joke = await ask(f"Tell me a joke about {topic}.")
    core = topic.split()[-1].rstrip("s")
    assert core in joke.lower() and "?" in joke


@pytest.mark.parametrize(
    ("request_text", "topic"),
    [("Tell me a joke about a pirate.", "pirate"), ("Do you know a good owl joke?", "owl"),
     ("Give me another joke", ""), ("What's my name?", None), ("Add emojis to the joke", None)],
)
def test_joke_requests_and_topics(request_text: str, topic: str | None) -> None:
    assert topic_of(request_text) == topic


def test_every_topic_gets_a_joke_that_mentions_it() -> None:
    for topic in ("kayak", "lighthouse", "volcano", "database", "trombone"):
        assert topic in tell_joke(topic).lower()


async def test_follow_up_transforms_the_joke_in_view() -> None:
    joke = await ask("Tell me a joke about a lighthouse.")
    reworked = await ask("Tell me a joke about a lighthouse.", joke,
                         "Now add some emojis to the joke and tell it in a parrot's voice.")
    assert "lighthouse" in reworked.lower()
    assert "Squawk" in reworked
    assert any(ord(ch) > 0x2000 for ch in reworked), "emojis were added"


@pytest.mark.parametrize(
    ("follow_up", "check"),
    [
        ("Make it shorter.", lambda joke, out: len(out) <= len(joke)),
        ("Say it louder!", lambda joke, out: out == joke.upper()),
        ("Tell it like a robot", lambda joke, out: "BEEP" in out),
        ("Translate it into Spanish", lambda joke, out: "espa\u00f1ol" in out.lower()),
        ("Tell it again", lambda joke, out: out == joke),
    ],
)
async def test_other_transforms(follow_up: str, check) -> None:
    joke = "Why did the volcano get a standing ovation? Because it was hot stuff, really!"
    out = await ask("Tell me a joke about a volcano.", joke, follow_up)
    assert check(joke, out), out


async def test_a_follow_up_without_a_joke_in_view_asks_which_joke() -> None:
    for follow_up in ("Now add some emojis to the joke and tell it in a parrot's voice.", "Make it shorter"):
        assert "which joke" in await ask(follow_up)


async def test_follow_up_uses_the_latest_joke() -> None:
    out = await ask("Tell me a joke about owls", "Why do owls ... ? Hoot!", "Tell me a joke about frogs",
                    "Why do frogs ... ? Ribbit!", "Add emojis")
    assert "frogs" in out and "owls" not in out


# ------------------------------------------------------------------------------ statelessness, via an Agent


async def test_one_client_two_agent_runs_without_a_session_share_nothing() -> None:
    client = OfflineChatClient()
    agent = Agent(client=client)
    await agent.run("My name is Farah and I fly kites on Saturdays.")
    assert "don't know" in (await agent.run("When do I fly kites?")).text
    assert [m.role for m in client.last_request.messages] == ["user"]


async def test_the_same_client_remembers_only_through_a_session() -> None:
    client = OfflineChatClient()
    agent = Agent(client=client)
    session = agent.create_session()
    await agent.run("My name is Farah and I fly kites on Saturdays.", session=session)
    assert (await agent.run("When do I fly kites?", session=session)).text == "You fly kites on Saturdays."
    other = agent.create_session()
    assert "don't know" in (await agent.run("When do I fly kites?", session=other)).text


async def test_a_later_question_reply_is_not_mistaken_for_the_joke() -> None:
    out = await ask("Tell me a joke about owls", "Why do owls ... ? Hoot!", "Hello",
                    "Hello! How can I help you today? What's your name?", "Add emojis to the joke")
    assert "owls" in out and "help you" not in out


async def test_a_real_models_joke_without_a_request_in_view_is_still_found() -> None:
    out = await ask("Hi", "Here's one: why did the scarecrow win an award? He was outstanding in his field!",
                    "Make it louder")
    assert "SCARECROW" in out


async def test_questions_about_the_world_are_honestly_unknown() -> None:
    answer = await ask("What is the capital of Peru?")
    assert "offline lesson model" in answer and "haven't told me" not in answer
    assert "you haven't told me" in await ask("Where do I work?")
