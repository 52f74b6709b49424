"""The English readers of who and when a memory is about (``subject.py``, ``timeframe.py``), on single sentences.

Search no longer reads them (it ranks by fusion alone: ``search.py``); the update decider does (a memory that
holds no current value supersedes nothing, ``meaning.py``), and so does the per-hit ``relevance`` (``relevance.py``).
"""

from __future__ import annotations

import pytest

from local_memory_server import subject, timeframe


@pytest.mark.parametrize("query, content, expected", [
    ("Where do my parents live?", "The user's father has a flat in Riga.", False),
    ("Where do my parents live?", "The user's sister lives in Lima.", True),
    ("Do I have siblings?", "The user's brother is a nurse.", False),
    ("What's my sister's name?", "The user's sister's friend Lea has a cat named Luna.", True),
    ("Does my sister's friend have a cat?", "The user's sister's friend Lea has a cat named Luna.", False),
    ("What does Mia from my book club do?", "Mia from their book club works as a welder.", False),
    ("Where do I work?", "Sven from the user's pottery class works at a brewery.", True),  # as the distiller writes it
    ("Where do I work?", "The user works from a studio in Hove.", False),
    ("Where do I work?", "Tobias from Agnes' choir works at Fernhall Bakery.", True),  # anyone's group
    ("What is my favourite dessert?", "The user's great-uncle's favourite dessert is baklava.", True),
    ("What does my great-uncle like?", "The user's great-uncle's favourite dessert is baklava.", False),
    ("How old am I?", "The user's old roommate is 41 and still cannot boil an egg.", True),  # a person before "is"
    ("Who is my employer?", "The user's boss Dmitri is off to Lisbon for three months.", True),
    ("What is my favourite food?", "The user's favourite food is pho.", False),              # an attribute before it
    ("What car do I drive?", "The user's Volvo is in the garage again.", False),           # a capital is no person
    ("Where do I work?", "The manager of the user's gym works at a bank.", True),            # a noun phrase first
    ("When was that?", "The boiler was repaired in February.", False),                     # the user's own news
])
def test_the_person_is_the_last_link_of_a_possessive_chain_and_kin_words_name_each_other(query, content, expected):
    assert subject.about_someone_else(query, content) is expected


@pytest.mark.parametrize("query, expected", [
    ("Where do my parents live?", True), ("Which city is my home?", True), ("What do I do now?", True),
    ("When did I visit Oslo?", False), ("Which happened first: the course or the trip?", False),
    ("Where was I born?", False),
    ("Which firm pays me?", True), ("What ought you to call me?", True), ("my email?", True),  # no "is" or "do"
    ("When is my pottery class?", True), ("What's my last name?", True), ("my first bike?", False),
])
def test_a_question_is_about_now_unless_a_past_marker_says_otherwise(query, expected):
    assert timeframe.about_now(query) is expected


@pytest.mark.parametrize("content, expected", [
    ("As a child the user visited Oslo with their parents.", True),
    ("A long time ago the user tried judo once and hated it.", True),
    ("The user used to live in Ghent.", True),
    ("The user turned 51 last week.", False),
    ("The user lives in Seville now.", False),
    ("The user swims once a week.", False),
])
def test_a_memory_framed_as_the_distant_past_holds_no_current_value(content, expected):
    assert timeframe.not_current(content) is expected


@pytest.mark.parametrize("content, expected", [
    ("In their teens the user delivered newspapers in Derby.", True),
    ("Decades ago the user had a flat in Turin.", True),
    ("The user once sailed to Corsica.", True),
    ("The user moved to Turin last year.", False),  # a state that began last year still holds
    ("The user had their 40th last month, so they are in their forties now.", False),  # an age, told
    ("Once the lease was signed the user moved to Hove.", False),  # "once" as "as soon as"
    ("If the user got the grant they would move to Hove.", True),  # a what-if
    ("The user would really like to live by the sea.", True),
    ("The user would like to be called Dani from now on.", False),  # a name asked for is current
    ("The user's very first flat was above a chip shop.", True),
    ("The user grew up near Derby.", True),
    ("The user bought a plain old van, nothing fancy.", False),
    ("The user started at the depot, first week was hard.", False),
    ("At secondary school the user's nickname was Spud.", True),  # school days are a time of life, as childhood is
    ("In elementary school the user lived above a bakery in Lodz.", True),
    ("Back at junior school everybody called the user Beanpole.", True),
    ("The user teaches at a high school in Lodz.", False),
    ("The user's son started primary school this autumn.", False),
    ("The user shared a flat with Ola in their first year at university.", True),  # a year of study in the past
    ("The user worked behind a bar in third year of uni.", True),
    ("The user is in their final year of college and lives in Hull.", False),      # one under way
])
def test_the_decider_treats_the_distant_past_and_wishes_as_no_current_value(content, expected):
    assert timeframe.not_current(content) is expected


@pytest.mark.parametrize("content, expected", [
    ("The user used to loathe mushrooms but now adores them.", False),  # a clause says what holds now
    ("The user was born in Arles and still lives there.", False),
    ("Back in college the user drove a Mini; these days it is a Saab.", False),
    ("The user used to loathe mushrooms.", True),                       # no clause says now
    ("The user is slowly getting used to the flat in Bree.", False),    # "getting used to" is no past
    ("The user is 61, if that helps with the form.", False),            # a word to the listener, not a what-if
    ("The user can give their postcode if you need it.", False),
    ("If the user won the raffle they would buy a canoe.", True),       # still a what-if
])
def test_a_clause_about_now_or_a_word_to_the_listener_keeps_a_fact_current(content, expected):
    assert timeframe.not_current(content) is expected


@pytest.mark.parametrize("content, expected", [
    ("The user is cycling to Kraków tomorrow.", True),                       # a time still to come: an event or a plan
    ("The user's cousin is flying in to Faro next Thursday.", True),
    ("In a couple of weeks the user has a fitting at the tailor's.", True),
    ("Starting next month, the user's choir meets on Fridays.", False),      # a change that starts then
    ("The user moved to Hexham and joins Tolland Bank next week.", False),   # what comes next, after the news
    ("The user lives in Hexham.", False),
])
def test_a_time_still_to_come_in_the_main_clause_is_no_current_value(content, expected):
    assert timeframe.not_current(content) is expected


@pytest.mark.parametrize("content, expected", [
    ("The user lived in Aberdeen for four years after school.", True),       # a home lived in for a while, over
    ("The user has lived in Aberdeen for four years.", False),               # and one that still holds
    ("The user picked up Portuguese during university.", True),              # a time of life
    ("The user is at university in Dundee.", False),
    ("The user is renting a houseboat in Bruges for September.", True),      # a stay with its month
])
def test_a_home_lived_in_for_a_while_or_a_stay_for_a_month_is_no_current_value(content, expected):
    assert timeframe.not_current(content) is expected
