"""Who and when a memory is about, as the offline reader reads them (``offline_reader/changes.py``).

Search does not read them (it ranks by fusion alone: ``search.py``); the update decider does (a memory about someone
else or not about now fills no attribute), and so does the per-hit ``relevance`` (``relevance.py``). The cases the
former readers (``subject.py``, ``timeframe.py``) were written for and the one small reader does not read are kept
below as its limits: a model reads them (``understanding.py``).
"""

from __future__ import annotations

import pytest

import offline_reader as reader


@pytest.mark.parametrize("query, content, expected", [
    ('Where do my parents live?', "The user's sister lives in Lima.", True),
    ("What's my sister's name?", "The user's sister's friend Lea has a cat named Luna.", True),
    ('What does Mia from my book club do?', 'Mia from their book club works as a welder.', False),
    ('Where do I work?', "Sven from the user's pottery class works at a brewery.", True),
    ('Where do I work?', 'The user works from a studio in Hove.', False),
    ('What does my great-uncle like?', "The user's great-uncle's favourite dessert is baklava.", False),
    ('What is my favourite dessert?', "The user's great-uncle's favourite dessert is baklava.", True),
    ('Where do I work?', "The manager of the user's gym works at a bank.", True),
    ('How old am I?', "The user's old roommate is 41 and still cannot boil an egg.", True),
    ('Who is my employer?', "The user's boss Dmitri is off to Lisbon for three months.", True),
    ('What is my favourite food?', "The user's favourite food is pho.", False),
    ('What car do I drive?', "The user's Volvo is in the garage again.", False),
    ('When was that?', 'The boiler was repaired in February.', False),
])
def test_a_relation_word_after_the_users_possessive_or_a_group_member_is_someone_else(query, content, expected):
    assert reader.about_someone_else(query, content) is expected


@pytest.mark.parametrize("query, expected", [
    ('Where do my parents live?', True),
    ('Which city is my home?', True),
    ('What do I do now?', True),
    ('When did I visit Oslo?', False),
    ('Which happened first: the course or the trip?', False),
    ('Where was I born?', False),
    ('Which firm pays me?', True),
    ('What ought you to call me?', True),
    ('my email?', True),
    ('When is my pottery class?', True),
    ("What's my last name?", True),
    ('my first bike?', False),
    ('The user used to loathe mushrooms but now adores them.', False),
    ('The user was born in Arles and still lives there.', False),
    ('The user is slowly getting used to the flat in Bree.', False),
    ('If the user won the raffle they would buy a canoe.', True),
])
def test_a_question_is_about_now_unless_a_past_marker_says_otherwise(query, expected):
    assert reader.about_now(query) is expected


@pytest.mark.parametrize("content, expected", [
    ('As a child the user visited Oslo with their parents.', True),
    ('A long time ago the user tried judo once and hated it.', True),
    ('The user used to live in Ghent.', True),
    ('The user turned 51 last week.', False),
    ('The user lives in Seville now.', False),
    ('The user swims once a week.', False),
    ('The user once sailed to Corsica.', True),
    ("The user's very first flat was above a chip shop.", True),
    ("At secondary school the user's nickname was Spud.", True),
    ('The user shared a flat with Ola in their first year at university.', True),
    ('Decades ago the user had a flat in Turin.', True),
    ('The user moved to Turin last year.', False),
    ('The user had their 40th last month, so they are in their forties now.', False),
    ('Once the lease was signed the user moved to Hove.', False),
    ('If the user got the grant they would move to Hove.', True),
    ('The user grew up near Derby.', True),
    ('The user bought a plain old van, nothing fancy.', False),
    ('The user started at the depot, first week was hard.', False),
    ('The user teaches at a high school in Lodz.', False),
    ("The user's son started primary school this autumn.", False),
    ('The user is in their final year of college and lives in Hull.', False),
    ('The user is cycling to Kraków tomorrow.', True),
    ('The user lives in Hexham.', False),
    ('The user has lived in Aberdeen for four years.', False),
    ('The user is at university in Dundee.', False),
    ('The user used to loathe mushrooms.', True),
    ('The user is 61, if that helps with the form.', False),
    ('The user can give their postcode if you need it.', False),
])
def test_the_distant_past_a_wish_and_a_stay_with_an_end_hold_no_current_value(content, expected):
    assert reader.not_current(content) is expected


@pytest.mark.parametrize("kind, case", [
    ('someone', ('Where do my parents live?', "The user's father has a flat in Riga.", False)),
    ('someone', ('Do I have siblings?', "The user's brother is a nurse.", False)),
    ('someone', ("Does my sister's friend have a cat?", "The user's sister's friend Lea has a cat named Luna.", False)),
    ('someone', ('Where do I work?', "Tobias from Agnes' choir works at Fernhall Bakery.", True)),
    ('current', ('In their teens the user delivered newspapers in Derby.', True)),
    ('current', ('The user would really like to live by the sea.', True)),
    ('current', ('The user would like to be called Dani from now on.', False)),
    ('current', ('In elementary school the user lived above a bakery in Lodz.', True)),
    ('current', ('Back at junior school everybody called the user Beanpole.', True)),
    ('current', ('The user worked behind a bar in third year of uni.', True)),
    ('current', ('Back in college the user drove a Mini; these days it is a Saab.', False)),
    ('current', ("The user's cousin is flying in to Faro next Thursday.", True)),
    ('current', ("In a couple of weeks the user has a fitting at the tailor's.", True)),
    ('current', ("Starting next month, the user's choir meets on Fridays.", False)),
    ('current', ('The user moved to Hexham and joins Tolland Bank next week.', False)),
    ('current', ('The user lived in Aberdeen for four years after school.', True)),
    ('current', ('The user picked up Portuguese during university.', True)),
    ('current', ('The user is renting a houseboat in Bruges for September.', True)),
])
def test_limits_the_reader_does_not_read_these_a_model_does(kind, case):
    """Kin words naming each other, possessive chains, school days, "once", clause-by-clause reading, a time to come
    in a later clause: the former readers' phrasings, which the one reader leaves to a model."""
    if kind == "someone":
        assert reader.about_someone_else(case[0], case[1]) is not case[2]
    else:
        assert reader.not_current(case[0]) is not case[1]
