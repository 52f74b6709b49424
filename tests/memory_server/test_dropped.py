"""Chat that drops "I" and "I'm" is the writer's news (memory_server.dropped, through the distiller).

The sentences are written apart from the lessons, the data sets and the probes the rules were measured on."""

from __future__ import annotations

import pytest

from local_memory_server.distill import Turn, distill
from local_memory_server.persons import PersonWords

PEOPLE_HERE = frozenset({"physiotherapist", "grandmother", "sommelier"})


def facts(said: str, is_person=PEOPLE_HERE.__contains__) -> list[str]:
    return [fact.text for fact in distill([Turn("user", said)], is_person=is_person)]


@pytest.mark.parametrize(("said", "fact"), [
    ("Teach violin to kids on Saturdays", "The user teaches violin to kids on Saturdays."),
    ("Grew up near Dundee.", "The user grew up near Dundee."),
    ("Born in Tallinn, raised all over.", "The user was born in Tallinn, raised all over."),
    ("Currently restoring an old narrowboat", "The user is currently restoring an old narrowboat."),
    ("Originally from Gdańsk, in Bristol now", "The user is originally from Gdańsk, in Bristol now."),
    ("Keep chickens and two goats out back", "The user keeps chickens and two goats out back."),
    ("got a kitten named Pickle yesterday", "The user got a kitten named Pickle yesterday."),
    ("Sold the camper in April and have been cycling everywhere since",
     "The user sold the camper in April and have been cycling everywhere since."),
    ("Since Easter, commuting by ferry", "Since Easter, the user is commuting by ferry."),
    ("Volunteering at Larkspur, a hospice in Bray", "The user is volunteering at Larkspur, a hospice in Bray."),  # the place again
    ("Renting from Ogilvy & Marr, the agency, since May", "The user is renting from Ogilvy & Marr, the agency, since May."),
])
def test_a_verb_with_no_subject_is_the_writers(said, fact):
    assert facts(said) == [fact]


@pytest.mark.parametrize(("said", "fact"), [
    ("Row on the canal every Saturday", "The user rows on the canal every Saturday."),  # "row" is a noun too
    ("coach the under-nines on Wednesday evenings", "The user coaches the under-nines on Wednesday evenings."),
])
def test_a_habit_told_with_its_days_is_the_writers(said, fact):
    assert facts(said) == [fact]


@pytest.mark.parametrize("said", [
    "Remind me every Friday to pay the window cleaner",  # an order, whatever its days
    "Bins go out on Thursdays",                          # a thing does it
    "Amazing gigs every Friday",                         # an adjective before a noun, whatever its days
])
def test_a_habit_needs_the_writer_to_do_it(said):
    assert facts(said) == []


@pytest.mark.parametrize(("said", "fact"), [
    ("Physiotherapist at a rugby club in Leeds.", "The user is physiotherapist at a rugby club in Leeds."),
    ("Proud grandmother of four, retired in Fife", "The user is proud grandmother of four, retired in Fife."),
])
def test_a_noun_phrase_naming_a_person_is_the_writer(said, fact):
    assert facts(said) == [fact]


@pytest.mark.parametrize("said", [
    "Shorten it a bit",                            # an order to the assistant acts on "it"
    "Draft a polite reply to the landlord",        # … or names what to make
    "Let me check the dates",                      # the writer is the object
    "Have a lovely weekend",                       # a wish
    "Cancelled again, the 7:40 to Leeds",          # the subject comes last
    "Marta started at the bakery last week",       # a name is the subject
    "Lovely evening at the harbour",               # a noun phrase about a thing
    "Sommeliers striking in Lyon today",           # people, but not one: a headline
    "Sommelier from Lyon wins the national final",  # a headline with its own verb
    "Tired of the rain",                           # a feeling
    "Wondering about the train times",             # why the user writes, not news
    "Gentle Giants",                               # a title
    "Thanks for the tip",                          # thanks
    "Could be worse, to be fair",                  # a modal needs its subject said
    "Baking all afternoon, the twins want scones",  # a later clause with a subject and a verb of its own
])
def test_small_talk_orders_and_other_subjects_are_not_the_writers(said):
    assert facts(said) == []


def test_without_a_person_test_a_noun_phrase_is_not_taken():
    assert facts("Physiotherapist at a rugby club in Leeds.", is_person=None) == []


def test_the_embedding_model_tells_a_person_from_a_thing(embedder):
    person = PersonWords(embedder.embed).is_person
    assert facts("Locksmith in Bray, mostly call-outs", is_person=person) == ["The user is locksmith in Bray, mostly call-outs."]
    assert facts("Quiet afternoon in Bray, mostly rain", is_person=person) == []
