"""Search ranks the user's own, current facts above the near misses a large history is full of.

Each test builds a small store with one kind of near miss and fails on plain RRF ranking:
facts about other people (subject.py), facts framed in the distant past for a question about
now (timeframe.py), memories that share one common word with the question (the fused pool is
ordered by similarity) and an answer far from its question's words (asked.py); the readers
themselves are tested on single sentences.
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


def test_a_question_about_now_ranks_the_current_fact_above_a_past_one_or_a_wish(server):
    facts = [*(f"The user's first car was a {m}, what a tank." for m in ("Lada", "Saab 900", "Trabant")),
             "If the user ever changes cars it will be a Polestar.", "The user drives a Fiat Panda."]
    with _client(server, "ola", facts) as ola:
        assert _top(ola, "What car do I have?")[0] == "The user drives a Fiat Panda."


def test_a_person_named_before_is_someone_else_even_in_a_fact_about_their_age(server):
    facts = [*(f"The user's {rel} is {age} and still cannot parallel park." for rel, age in
               (("flatmate", 61), ("dad", 70), ("old roommate", 44))),
             "The user's boss Inge is 58 and retiring soon.", "The user turned 39 in March."]
    with _client(server, "ren", facts) as ren:
        assert _top(ren, "How old am I?")[0] == "The user turned 39 in March."


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


def test_a_paraphrase_only_the_vectors_found_ranks_above_memories_that_share_one_common_word(server):
    # BM25 matches "play" in every outing; plain RRF ranked those (found weakly by both arms) above the answer
    outings = [f"The user saw a play {where} with {name}." for where, name in
               (("at the Old Vic", "Mia"), ("about a lighthouse keeper", "Raj"), ("in the park", "Lea"),
                ("in a pub theatre", "Theo"))]
    with _client(server, "ren", [*outings, "The user has taken up the cello."]) as ren:
        assert _top(ren, "What instrument do I play?")[0] == "The user has taken up the cello."


def test_a_question_about_an_attribute_finds_the_users_current_value_whatever_its_words(server):
    # a day at work is nearer the question for the embedding model than the job itself, and shares its words
    decoys = ["The user had to work late on Tuesday, what a day.", "The user will work from the library tomorrow.",
              "The user's work laptop keeps crashing.", "The user wants a better work-life balance this year."]
    with _client(server, "ida", decoys) as ida:
        ida.add("The user retrained and is an electrician now.")  # with the update checks: the decider's job slot
        top = ida.search("What is my line of work now?", SearchOptions(mode="hybrid", top_k=5)).results
        assert top[0].content == "The user retrained and is an electrician now."
        assert top[0].attributes["relevance"] > max(h.attributes["relevance"] for h in top[1:])
        # the lookup keeps the search's filters, and one user's attributes are never another's
        elsewhere = ida.search("What is my line of work now?", SearchOptions(mode="hybrid", session_id="elsewhere"))
        assert all("electrician" not in h.content for h in elsewhere.results)
    with _client(server, "bo", decoys) as bo:
        assert all("electrician" not in content for content in _top(bo, "What is my line of work now?"))


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
