"""Search ranks the user's own, current facts above the near misses a large history is full of.

Each test builds a small store with one kind of near miss and fails on plain RRF ranking:
facts about other people (subject.py) and facts framed in the distant past for a question about
now (timeframe.py); the readers themselves are tested on single sentences.
"""

from __future__ import annotations

import pytest
from cortadel import AddOptions, SearchOptions, SyncCortadelClient

from lesson_utils.memory_server import subject, timeframe

NAMES = ["Ivan", "Mia", "Raj", "Lea", "Theo", "Ana", "Finn", "Noor", "Kai", "Rosa", "Hugo", "Uma"]
FIRMS = ["Contoso", "Northwind", "Fabrikam", "Litware", "Proseware", "Tailspin"]
CITIES = ["Oslo", "Bergen", "Lisbon", "Krakow", "Ghent", "Hobart", "Austin", "Perth"]


def _client(server, user, facts):
    client = SyncCortadelClient(server.url, user)
    for fact in facts:
        client.add(fact, AddOptions(infer=False))
    return client


def _top(client, query, k=5):
    return [h.content for h in client.search(query, SearchOptions(mode="hybrid", top_k=k)).results]


def test_the_users_own_fact_ranks_above_other_peoples_of_the_same_kind(server):
    others = [f"The user's {rel} {n} works at {FIRMS[i % len(FIRMS)]}."
              for i, (rel, n) in enumerate(zip(["colleague", "manager", "cousin"] * 4, NAMES, strict=True))]
    with _client(server, "sam", [*others, "The user works at Adatum."]) as sam:
        assert _top(sam, "Who is my employer?")[0] == "The user works at Adatum."
        # ... unless the question names that person
        assert "Ivan" in _top(sam, "Where does my colleague Ivan work?")[0]


def test_a_question_about_now_ranks_the_current_fact_above_the_same_topic_long_ago(server):
    past = [f"As a child the user visited {c} with their parents." for c in CITIES]
    facts = [*past, "The user's mother lives in Porto.", "The user's father has a flat in Riga.",
             "The user's sister lives in Lima.", "The user's uncle Ivan lives in Quebec."]
    with _client(server, "kim", facts) as kim:
        top = _top(kim, "Where do my parents live?", k=2)
        assert set(top) == {"The user's mother lives in Porto.", "The user's father has a flat in Riga."}
        # a question about the past keeps the past where it was
        assert _top(kim, "Which cities did I visit with my parents as a child?")[0] in past


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
])
def test_the_person_is_the_last_link_of_a_possessive_chain_and_kin_words_name_each_other(query, content, expected):
    assert subject.about_someone_else(query, content) is expected


@pytest.mark.parametrize("query, expected", [
    ("Where do my parents live?", True), ("Which city is my home?", True), ("What do I do now?", True),
    ("When did I visit Oslo?", False), ("Which happened first: the course or the trip?", False),
    ("Where was I born?", False),
])
def test_a_question_is_about_now_in_the_present_tense_without_a_past_marker(query, expected):
    assert timeframe.about_now(query) is expected


@pytest.mark.parametrize("content, expected", [
    ("As a child the user visited Oslo with their parents.", True),
    ("A long time ago the user tried judo once and hated it.", True),
    ("The user used to live in Ghent.", True),
    ("The user turned 51 last week.", False),
    ("The user lives in Seville now.", False),
    ("The user swims once a week.", False),
])
def test_a_memory_is_long_past_when_framed_as_the_distant_past(content, expected):
    assert timeframe.long_past(content) is expected


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
])
def test_the_decider_treats_the_distant_past_and_wishes_as_no_current_value(content, expected):
    assert timeframe.not_current(content) is expected
