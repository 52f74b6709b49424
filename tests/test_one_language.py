"""One reading of what a user says about themselves, wherever it is read (issue 13: "one shared language module").

The same table goes through the user-memory provider (lessons 04–06, through the framework's
``after_run``) and through the offline lesson model (asked afterwards "What is my name?"). Both
use :mod:`offline_reader.speaker`; if either grows its own vocabulary again, a row here disagrees.
The memory server's offline path reads the same table through the reader's distiller: the last test below.
"""

from __future__ import annotations

import pytest
from agent_framework import Agent

from chat_models import OfflineChatClient
from lesson_utils import UserMemoryProvider
from offline_reader.speaker import remember_request, strip_remember_prefix

from .fakes import FakeChatClient

# (what the user says, the name it gives, the age it gives)
STATEMENTS: list[tuple[str, str | None, int | None]] = [
    # lower-case names after an explicit phrase
    ("my name is alex", "Alex", None),
    ("my name is łukasz", "Łukasz", None),
    ("My name is June.", "June", None),  # a month, and a name
    ("Please remember that my name is priya.", "Priya", None),
    # names in any script, whole
    ("I'm Tomás.", "Tomás", None),
    ("I am Zoë", "Zoë", None),
    ("Hi! I'm Łukasz and I'm 30.", "Łukasz", 30),
    ("I'm O'Brien.", "O'Brien", None),
    ("My name is Anne-Marie.", "Anne-Marie", None),
    # "call me …"
    ("call me Sam", "Sam", None),
    ("Call me Siobhán.", "Siobhán", None),
    ("I'm Alexandra, but please call me Alex.", "Alex", None),
    ("Don't call me Bob.", None, None),
    # a name asked for politely
    ("Could you call me Kim from now on?", "Kim", None),
    ("I'd rather you called me Kit from now on.", "Kit", None),
    ("I'd prefer Earl Grey.", None, None),  # a tea: no "please", "from now on" or "instead"
    # "I'm …" is a name only when it is capitalised and not a word like "tired"
    ("I'm tired", None, None),
    ("I'm Canadian.", None, None),
    ("I'm curious about Rust.", None, None),
    ("i'm alex", None, None),
    # ages, and numbers that are not ages
    ("I'm 31", None, 31),
    ("I just turned 40.", None, 40),
    ("I'm 5 minutes late", None, None),
    ("my son is 5", None, None),
]
IDS = [text for text, _, _ in STATEMENTS]


@pytest.mark.parametrize(("text", "name", "age"), STATEMENTS, ids=IDS)
async def test_the_provider_learns_what_the_table_says(text: str, name: str | None, age: int | None) -> None:
    provider = UserMemoryProvider()
    agent = Agent(client=FakeChatClient(reply="noted"), context_providers=[provider])
    session = agent.create_session()
    await agent.run(text, session=session)
    learned = session.state.get(provider.source_id, {})
    assert (learned.get("name"), learned.get("age")) == (name, age)


@pytest.mark.parametrize(("text", "name", "age"), STATEMENTS, ids=IDS)
async def test_the_offline_model_reads_what_the_table_says(text: str, name: str | None, age: int | None) -> None:
    agent = Agent(client=OfflineChatClient())
    session = agent.create_session()
    await agent.run(text, session=session)
    said_name = (await agent.run("What is my name?", session=session)).text
    said_age = (await agent.run("How old am I?", session=session)).text
    if name is None:
        assert said_name.startswith("I don't know your name"), said_name
    else:
        assert said_name == f"Your name is {name}."
    if age is None:
        assert said_age.startswith("I don't know your age"), said_age
    else:
        assert said_age == f"You are {age} years old."


def test_limits_a_name_offered_without_a_verb_of_naming_is_the_readers_limit() -> None:
    """"I'd prefer Kim, please" names no verb of naming (the former reader read it): the one reader leaves it to a
    model (``reader.LIMITS``), as it leaves "I'd prefer Earl Grey"."""
    from offline_reader import LIMITS, extract_name

    assert extract_name("I'd prefer Kim, please.") is None and "I'd prefer Jo" in LIMITS


REMEMBER_REQUESTS: list[tuple[str, str | None]] = [
    ("Remember that I ship on Fridays.", "I ship on Fridays."),
    ("ok, please note: my dog is called Rex", "my dog is called Rex"),
    ("Hi! For the record, I’m vegan.", "I'm vegan."),
    ("Don't forget I like tea", "I like tea"),
    ("What do you remember about me?", None),
    ("I remember that film.", None),
]


@pytest.mark.parametrize(("text", "what"), REMEMBER_REQUESTS, ids=[t for t, _ in REMEMBER_REQUESTS])
def test_a_request_to_remember_is_read_once_for_everyone(text: str, what: str | None) -> None:
    assert remember_request(text) == what


def test_the_request_comes_off_the_front_of_a_statement_only() -> None:
    assert strip_remember_prefix("Please remember that I'm vegan") == "I'm vegan"
    assert strip_remember_prefix("ok, note: my dog is Rex") == "my dog is Rex"
    assert strip_remember_prefix("I remember that film.") == "I remember that film."


# ------------------------------------------------------------------------------ the memory server
# The reader's distiller, offline_reader/statements.py: the name it finds in a conversation, and
# the "The user's name is …" fact it distils from the same words (the fact that lets later turns say
# "Alex …" and that the server's name slot supersedes).
def test_the_server_distiller_reads_names_as_the_table_says() -> None:
    from offline_reader.statements import Turn, distill, find_name

    disagreements = [
        (text, found, name)
        for text, name, _ in STATEMENTS
        if (found := find_name([Turn("user", text)])) != name
    ]
    assert disagreements == [], "(said, distilled, expected): " + repr(disagreements)
    facts = {text: [f.text for f in distill([Turn("user", text)]) if f.name] for text, _, _ in STATEMENTS}
    assert facts == {text: [f"The user's name is {name}."] if name else [] for text, name, _ in STATEMENTS}


def test_the_server_distiller_takes_requests_to_remember_off_as_the_language_module_does() -> None:
    from offline_reader.statements import Turn, distill

    said = "Please make a note that my dog is called Rex. For the record, I'm vegan."
    assert [f.text for f in distill([Turn("user", said)], known_name="Ada")] == ["Ada's dog is called Rex.", "Ada is vegan."]
