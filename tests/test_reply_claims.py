"""A "did not know" claim holds only when the reply neither states the fact nor invents one, and a joke
claim is judged by the joke's words, not the offline model's wording. The fixtures are the replies real
small models gave (issue 22: Qwen2.5-Coder 0.5B/1.5B on llama-server), invented verbose ones, and honest
ones that must pass."""

from __future__ import annotations

import pytest

from course_kit.claims import builds_on, knows_nothing_about
from offline_reader.speaker import ages_stated, content_words, names_stated, places_stated

# What real small models answered when they had been sent no such fact (issue 22): each one invents it.
REAL_INVENTED = [
    ("I live in a small town called Oakville.", "city"),
    ("My name is Sarah.", "name"),
    ("My name is John and I am 30 years old.", "name"),
    ("My name is John and I am 30 years old.", "age"),
]
INVENTED = [
    ("Based on our previous conversation, your name is Michael and you mentioned you live in Paris, France.", "name"),
    ("Based on our previous conversation, your name is Michael and you mentioned you live in Paris, France.", "city"),
    ("Hello, Emily! It's wonderful to chat with you again. How has your week been?", "name"),
    ("You're Priya, a 31-year-old traveller planning a trip to Japan!", "name"),
    ("You're Priya, a 31-year-old traveller planning a trip to Japan!", "age"),
    ("If I remember correctly, you are 42 years old.", "age"),
    ("You told me earlier that you're from Berlin, so I'd suggest a direct flight.", "city"),
    ("Your hometown is Springfield, where you grew up with your brother.", "city"),
]
HONEST = [
    "I'm sorry, but I don't have access to personal information such as your name, age or where you live.",
    "I don't know your name yet! Would you like to tell me?",
    "Hello! I am Qwen, created by Alibaba Cloud. I am a helpful assistant. What is your name?",
    "You haven't told me where you live. Could you share the city?",
    "Hi there! How can I assist you today? I'm happy to help with anything.",
    "I'm not sure which joke you mean \u2014 I don't see any joke in what I was sent.",
]


@pytest.mark.parametrize(("reply", "kind"), REAL_INVENTED + INVENTED)
def test_an_invented_fact_is_not_ignorance(reply: str, kind: str) -> None:
    assert not knows_nothing_about(reply, kind)


@pytest.mark.parametrize("reply", HONEST)
def test_a_reply_that_states_nothing_did_not_know(reply: str) -> None:
    assert knows_nothing_about(reply, "name", "city", "age"), (names_stated(reply), places_stated(reply), ages_stated(reply))


def test_the_right_value_is_allowed_only_when_it_was_sent() -> None:
    assert knows_nothing_about("Your name is Ada.", "name", allowed=["Ada"])
    assert not knows_nothing_about("Your name is Sarah.", "name", allowed=["Ada"])
    with pytest.raises(ValueError, match="kinds must be among"):
        knows_nothing_about("x", "colour")


def test_what_a_reply_states_is_read_by_phrasing_not_by_capital_letters() -> None:
    travel = "Kyoto is lovely in spring. From the airport, take the Shinkansen; Tokyo to Kyoto is two hours."
    assert names_stated(travel) == [] and ages_stated(travel) == []
    assert names_stated("I'm tired, and I'm 5 minutes late.") == [] and ages_stated("I'm 5 minutes late.") == []
    assert names_stated("My name is Sarah.") == ["Sarah"] and places_stated("I live in a small town called Oakville.") == ["Oakville"]
    assert ages_stated("My name is John and I am 30 years old.") == [30]


PIRATE = "Why couldn't the pirate play cards? Because he was standing on the deck!"
ASK = "Now add some emojis to the joke and tell it in a parrot's voice."


def test_turn_2_built_on_turn_1_when_it_reuses_the_joke() -> None:
    # The 1.5B model repeated the joke with an emoji: that builds on it (and is what was asked).
    assert builds_on("\U0001f99c Squawk! Why couldn't the pirate play cards? Because he was standing on the deck! \U0001f3f4", PIRATE, besides=[ASK])
    assert builds_on("Arr, that pirate couldn't play cards, standing on that deck! \U0001f0cf", PIRATE, besides=[ASK])


def test_a_new_joke_or_a_question_does_not_build_on_turn_1() -> None:
    new_joke = "Squawk! \U0001f99c Why did the parrot sit on the clock? Because it wanted to be on time! Polly wants a cracker!"
    assert not builds_on(new_joke, PIRATE, besides=[ASK])
    assert not builds_on("Which joke do you mean? Tell me one and I'll add emojis in a parrot's voice!", PIRATE, besides=[ASK])
    # Words of the request ("emojis", "parrot", "joke") and common words ("because") prove nothing.
    assert "because" not in content_words(PIRATE) and "parrot" in content_words(ASK)
