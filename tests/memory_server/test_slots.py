"""The knowledge-update rules (slots.py), with phrasings the lessons never use.

The lessons say "Lyon → Porto" and "ship on Fridays"; these tests use other cities, employers,
verbs and word orders, first and third person, so a rule that only knew the lesson's sentences
would fail here.
"""

from __future__ import annotations

import pytest

from lesson_utils.memory_server.slots import read, retracts, same_fact, supersedes


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I'm based in Tallinn", "home", "tallinn"),
        ("Priya has relocated to Quito.", "home", "quito"),
        ("The user resides in Kraków.", "home", "kraków"),
        ("My home is Valparaíso", "home", "valparaíso"),
        ("Noor goes by Nono.", "name", "nono"),
        ("The user's name is Ife.", "name", "ife"),
        ("I am employed by Hooli", "employer", "hooli"),
        ("Tomas works for the city council.", "employer", "city council"),
        ("Priya works at Wingtip as a pharmacist.", "employer", "wingtip"),         # the role is not the employer
        ("I started a new job at Globex.", "employer", "globex"),
        ("Dev got a job with the harbour authority.", "employer", "harbour authority"),
        ("My job title is radiographer", "job", "radiographer"),
        ("Kofi works as a lighting technician.", "job", "lighting technician"),
        ("I'm a locksmith", "job", "locksmith"),
        ("Mei prefers green tea over black tea.", "preference:drink", "green tea"),
        ("My favourite food is moussaka.", "preference:food", "moussaka"),
        ("My favourite drink is cocoa.", "preference:drink", "cocoa"),
        ("My favourite season is autumn", "preference:season", "autumn"),
        ("I prefer aisle seats", "preference:seat", "aisle seats"),
    ],
)
def test_general_patterns_find_the_slot_and_value(text, slot, value):
    statement = read(text)
    assert (statement.slot, statement.value) == (slot, value)
    assert statement.about_user and not statement.negated and not statement.ceased


@pytest.mark.parametrize(
    "text",
    ["Alex is a vegetarian.", "I am a member of the chess club", "Ines's brother lives in Oslo.",
     "I like hiking", "Numbered memory 4 of the pager"],
)
def test_things_that_are_not_a_slot_of_the_user(text):
    assert read(text).slot is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I'm based in Tallinn", "I've relocated to Quito"),                 # home, different verbs
        ("The user resides in Kraków.", "Ife is now living in Gdańsk."),      # "The user" vs a name
        ("I am employed by Hooli", "I work at Pied Piper now"),               # employer
        ("My job is radiographer", "I'm a sonographer these days"),          # job: possessive vs "is a"
        ("Mei prefers green tea over black tea.", "Mei now prefers espresso."),  # preference, same topic
        ("My favourite season is autumn", "My favorite season is spring"),  # spelling varies
        ("My favourite drink is tea.", "I prefer coffee over tea these days."),  # drinks: one topic
        ("Noor goes by Nono.", "The user's name is Noor-Ali."),              # name
        ("Kofi rehearses on Tuesdays.", "Kofi rehearses on Thursdays."),     # near-duplicate, changed day
        ("The user is 41 years old.", "The user is 42 years old."),          # near-duplicate, number
        ("I do not eat gluten", "I eat gluten"),                             # polarity flips
        ("Sam enjoys jazz", "Sam doesn't enjoy jazz"),
        ("Priya works at Wingtip as a pharmacist.", "Priya started a new job at Globex."),  # employer, new phrasing
        ("Lisa goes rowing on Tuesdays.", "Lisa moved rowing to Saturdays."),             # rescheduled day
        ("I have a dentist appointment on 28 April", "I rescheduled my dentist appointment to 3 May"),
        ("Kofi has choir practice at 7 pm.", "Kofi has moved choir practice to 8 pm."),
        ("Ben drives a Volvo.", "Ben sold their Volvo and now drives a Kia."),            # compound: a clause
        ("I live in Hanoi", "I loved Hanoi but now I live in Perth"),
        ("Ben sold their Volvo and now drives a Kia.", "Ben drives a Fiat."),             # a clause of the old one
    ],
)
def test_a_contradicting_fact_supersedes(old, new):
    assert supersedes(read(new), read(old))
    assert not same_fact(read(new), read(old))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I like tea", "I like coffee"),                                     # many-valued verb
        ("Lena speaks Danish.", "Lena speaks Finnish."),                     # many-valued, proper nouns
        ("Omar has a dog named Biscuit.", "Omar has a dog named Pepper."),   # could be two dogs
        ("Omar went to Rome last year.", "Omar went to Seville last year."),  # past events accumulate
        ("I'm allergic to peanuts", "I'm allergic to shellfish"),            # lower-case values
        ("Ines's brother lives in Oslo.", "Ines lives in Bergen."),          # someone else's home
        ("I prefer aisle seats", "I prefer oat milk"),                       # different preference topics
        ("My favourite food is moussaka.", "Kenji prefers coffee over lemonade."),  # a drink is not a dish
        ("I live in Lyon", "I don't live in Porto"),                         # a negation about another value
        ("Numbered memory 4 of the pager", "Numbered memory 5 of the pager"),  # not about the user
        ("Lisa goes rowing on Tuesdays.", "Lisa moved swimming to Saturdays."),            # another activity
        ("Lisa goes rowing on Tuesdays.", "Lisa moved rowing to Tuesdays."),               # same day: no change
        ("I keep my books in the attic.", "I moved my books to Berlin."),                  # a place, not a time
        ("I live in Lyon", "I live in Lyon and now work at Hooli"),                        # a clause repeats it
        ("I drive a Volvo", "I sold my bike and then bought a Volvo"),                      # no clause says otherwise
    ],
)
def test_facts_that_do_not_conflict_are_both_kept(old, new):
    assert not supersedes(read(new), read(old))


def test_a_repeat_of_a_slot_value_is_a_duplicate_not_an_update():
    assert same_fact(read("I'm currently based in Tallinn"), read("The user lives in Tallinn."))
    assert not supersedes(read("I'm currently based in Tallinn"), read("The user lives in Tallinn."))


@pytest.mark.parametrize(
    ("withdrawal", "stored"),
    [
        ("I don't live in Lyon any more", "The user lives in Lyon."),
        ("I do not live in Lyon anymore", "Alex lives in Lyon."),
        ("Tomas no longer works for the city council.", "Tomas works for the city council."),
        ("I'm not a locksmith any longer", "The user is a locksmith."),
        ("Kofi stopped rehearsing on Tuesdays.", "Kofi rehearses on Tuesdays."),
        ("I quit drinking espresso", "The user drinks espresso every morning."),
    ],
)
def test_ceasing_phrasings_withdraw_the_matching_fact(withdrawal, stored):
    statement = read(withdrawal)
    assert statement.ceased and not statement.negated
    assert retracts(statement, read(stored)) is not None


def test_a_withdrawal_names_a_value_or_a_slot():
    assert retracts(read("I don't live in Lyon any more"), read("The user lives in Porto.")) is None
    assert retracts(read("Ife's address."), read("Ife lives in Gdańsk.")) == 0  # "forget my address"
    assert retracts(read("The user rides a bike."), read("The user likes tea.")) is None
    # the closest match costs least: fewer extra words
    narrow, broad = read("Kofi rehearses on Tuesdays."), read("Kofi rehearses on Tuesdays with the brass band.")
    wanted = read("Kofi rehearses on Tuesdays.")
    assert retracts(wanted, narrow) < retracts(wanted, broad)


def test_a_compound_statement_is_read_clause_by_clause():
    statement = read("I live in Lyon and now work at Hooli")
    assert [(c.slot, c.value) for c in statement.clauses] == [("home", "lyon"), ("employer", "hooli")]
    assert (statement.slot, statement.value) == ("home", "lyon")        # not "lyon and work at hooli"
    assert supersedes(statement, read("I work at Initech"))             # the second clause updates the employer
    assert not same_fact(statement, read("I live in Lyon"))            # it says more than the stored fact
    assert read("I live in Bosnia and Herzegovina").clauses == ()       # "and" alone does not split


def test_a_plain_negation_is_a_fact_not_a_withdrawal():
    statement = read("I don't eat meat")
    assert statement.negated and not statement.ceased


@pytest.mark.parametrize(
    "text",
    ["I'm based in Tallinn", "Noor goes by Nono.", "I am employed by Hooli", "My job title is radiographer",
     "I'm a locksmith", "Mei prefers green tea over black tea.", "My favourite season is autumn",
     "Priya has relocated to Quito.", "The user resides in Kraków.", "Ife is called Ifeoma."],
)
def test_the_fast_slot_lookup_agrees_with_read(text):
    from lesson_utils.memory_server.slots import slot_of

    assert slot_of(text) == read(text).slot is not None


def test_the_fast_slot_lookup_skips_texts_without_a_slot_word():
    from lesson_utils.memory_server.slots import slot_of

    assert slot_of("Priya likes the billing service on Fridays (note 123)") is None


def test_any_more_as_a_quantifier_is_not_a_withdrawal():
    assert not read("I don't want any more reminders").ceased
    assert read("I don't want any more reminders").negated


def test_a_stored_no_longer_fact_is_superseded_when_it_becomes_true_again():
    assert supersedes(read("Ife lives in Gdańsk again."), read("Ife no longer lives in Gdańsk."))
    assert not supersedes(read("Ife lives in Oslo."), read("Ife no longer lives in Gdańsk."))
