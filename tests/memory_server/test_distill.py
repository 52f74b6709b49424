"""Rule-based distillation: atomic, self-contained, third-person facts; no questions or filler."""

from __future__ import annotations

import pytest

from local_memory_server.distill import Turn, distill, find_name


def texts(*turns, **kwargs):
    return [f.text for f in distill(list(turns), **kwargs)]


def test_statements_become_third_person_facts_with_the_name():
    assert texts(Turn("user", "Hi! I'm Alex and I usually ship on Fridays.")) == [
        "The user's name is Alex.", "Alex usually ships on Fridays."]


def test_compound_sentences_are_split_into_atomic_facts():
    assert texts(Turn("user", "I live in Lyon, and I work at Acme as a data engineer. My dog is called Rex; "
                              "I don't like coffee.")) == [
        "The user lives in Lyon.", "The user works at Acme as a data engineer.",
        "The user's dog is called Rex.", "The user does not like coffee."]


@pytest.mark.parametrize("content", [
    "What is the weather like?", "When do I usually ship", "Can you tell me a joke?", "Hello!", "Thanks, ok.",
    "I see. I'm not sure. I think so.", "Tell me about Rust.", "Good morning", "The sky is blue.",
    "I have a question", "Do you know my name?",
])
def test_questions_greetings_requests_and_filler_are_not_facts(content):
    assert texts(Turn("user", content)) == []


def test_assistant_words_are_never_facts_about_the_user():
    assert texts(Turn("assistant", "You live in Paris and I love it."), Turn("user", "Ok.")) == []


def test_verbs_are_conjugated_for_the_third_person():
    assert texts(Turn("user", "I go hiking. I watch films. I try new recipes. I went to Rome last year. "
                              "I have two kids. I can swim."), known_name="Sam") == [
        "Sam goes hiking.", "Sam watches films.", "Sam tries new recipes.", "Sam went to Rome last year.",
        "Sam has two kids.", "Sam can swim."]


def test_remember_prefix_is_dropped_and_possessives_rewritten():
    assert texts(Turn("user", "Please remember that my favourite colour is teal.")) == [
        "The user's favourite colour is teal."]


def test_source_uuids_and_repeats():
    facts = distill([Turn("user", "I am vegan.", "t1"), Turn("user", "I'm vegan!", "t2")])
    assert [(f.text, f.source_uuids) for f in facts] == [("The user is vegan.", ["t1", "t2"])]


def test_agent_memory_is_about_the_assistant():
    turns = [Turn("user", "Your name is Max. Always answer in French. I live in Oslo."),
             Turn("assistant", "Sure! I am Max, and I prefer short answers.")]
    assert texts(*turns, is_agent_memory=True) == [
        "The assistant's name is Max.", "The assistant should always answer in French.",
        "The assistant prefers short answers."]


def test_name_detection_ignores_adjectives_and_nationalities():
    assert find_name([Turn("user", "I'm tired.")]) is None
    assert find_name([Turn("user", "I'm German.")]) is None
    assert find_name([Turn("user", "Call me Priya, please.")]) == "Priya"
    assert find_name([Turn("assistant", "My name is Bot.")]) is None


def test_the_stored_name_follows_the_user_and_is_forgotten_with_the_memory(server):
    from cortadel import ChatMessage, SyncCortadelClient

    with SyncCortadelClient(server.url, "named") as client:
        client.add_conversation([ChatMessage("user", "I am vegan.")])
        named = client.add_conversation([ChatMessage("user", "My name is Robin.")]).results[0]
        later = client.add_conversation([ChatMessage("user", "I work nights.")]).results[0]
        assert later.memory == "Robin works nights."
        client.delete([named.id])
        assert client.add_conversation([ChatMessage("user", "I like owls.")]).results[0].memory == \
            "The user likes owls."


def test_forget_requests_become_withdrawals_not_facts():
    from local_memory_server.distill import Turn, distill

    [fact] = distill([Turn("user", "Please forget that I rehearse on Tuesdays.")], known_name="Kofi")
    assert fact.forget and fact.text == "Kofi rehearses on Tuesdays."
    [kept] = distill([Turn("user", "Don't forget that I rehearse on Tuesdays.")], known_name="Kofi")
    assert not kept.forget and kept.text == "Kofi rehearses on Tuesdays."  # the opposite request
    [address] = distill([Turn("user", "Forget my address")])
    assert address.forget and address.text == "The user's address."


def test_a_ceasing_clause_and_a_lead_in_keep_their_subject():
    from local_memory_server.distill import Turn, distill

    facts = distill([Turn("user", "Quick update: I no longer work at Initech, I work at Hooli now.")], known_name="Ife")
    assert [f.text for f in facts] == ["Ife no longer works at Initech.", "Ife works at Hooli now."]


def test_a_later_name_in_the_conversation_wins():
    turns = [Turn("user", "I'm Alexandra."), Turn("assistant", "Nice to meet you, Alexandra."),
             Turn("user", "Actually, just call me Alex. I live in Lyon.")]
    assert find_name(turns) == "Alex"
    assert [f.text for f in distill(turns)] == [
        "The user's name is Alexandra.", "The user's name is Alex.", "Alex lives in Lyon."]


@pytest.mark.parametrize(("said", "fact"), [
    ("Quit the mill and signed on with a brewery.", "The user quit the mill and signed on with a brewery."),
    ("Sold the Fiesta and bought a Polestar.", "The user sold the Fiesta and bought a Polestar."),
    ("Moved out of Valencia; Seville is home now.", "The user moved out of Valencia; Seville is home now."),
    ("Turned 28 yesterday!", "The user turned 28 yesterday."),
    ("We finally settled in Bergen.", "The user finally settled in Bergen."),
    ("Since last autumn my home has been in Utrecht.", "Since last autumn the user's home has been in Utrecht."),
])
def test_chat_sentences_without_a_subject_or_with_we_become_facts_about_the_user(said, fact):
    assert [f.text for f in distill([Turn("user", said)])] == [fact]


def test_a_name_asked_for_in_a_polite_question_is_the_users_name():
    assert [f.text for f in distill([Turn("user", "Could you call me Bobby instead, please?")])] == \
        ["The user's name is Bobby."]
    assert distill([Turn("user", "Could you tell me a joke?")]) == []
    assert [f.text for f in distill([Turn("user", "oh and can u call me jojo now")])] == ["The user's name is Jojo."]
    assert [f.text for f in distill([Turn("user", "It'd be grand if you called me Mags.")])] == ["The user's name is Mags."]
    assert [f.text for f in distill([Turn("user", "can you call me back after lunch?")])] == []
    assert distill([Turn("user", "Red is lovely.")]) == []  # "Red" is no past-tense verb


@pytest.mark.parametrize(("said", "fact"), [
    ("work at the harbour office now", "The user works at the harbour office now."),
    ("Based in Leeds now", "The user is based in Leeds now."),
    ("Now a paramedic at the infirmary", "The user is now a paramedic at the infirmary."),
    ("Since May, living in Graz", "Since May, the user is living in Graz."),
    ("After the course, became a paramedic", "After the course, the user became a paramedic."),
    ("new place is in Whitby, love it", "The user's new place is in Whitby, love it."),
    ("Been at Halden Mills since spring.", "The user has been at Halden Mills since spring."),
    ("Dyed my hair green!", "The user dyed their hair green."),
    ("Thirty-two as of this morning, cake for breakfast", "The user is thirty-two as of this morning."),
    ("birthday was on Sunday, 40 now", "The user is 40 now."),
    ("new flat in Leith, moved in saturday", "The user has a new flat in Leith, moved in saturday."),
    ("choir's on Tuesday evenings now", "The user's choir's on Tuesday evenings now."),
    ("Spanish class switched to Thursday nights.", "The user's spanish class switched to Thursday nights."),
    ("favourite band's Wet Leg these days", "The user's favourite band's Wet Leg these days."),
    ("We adopted a rescue greyhound. His name is Biscuit.", "The user adopted a rescue greyhound called Biscuit."),
    ("I see a chiropodist every month.", "The user sees a chiropodist every month."),  # "I see" alone is filler
    ("Moved to St. Albans in June.", "The user moved to St. Albans in June."),  # "St." ends no sentence
    # a verb in -ing starts the news, whatever the verb
    ("Subletting a studio near Kelvingrove for now", "The user is subletting a studio near Kelvingrove for now."),
    ("Teaching at the Ashby lido these days", "The user is teaching at the Ashby lido these days."),
    # one of the user's own things, named by one word
    ("job is sous chef at Marrow now", "The user's job is sous chef at Marrow now."),
])
def test_chat_news_without_a_subject_is_the_users_own(said, fact):
    assert texts(Turn("user", said)) == [fact]


def test_lower_case_chat_is_split_into_its_clauses_and_ceasing_without_a_subject_is_the_users():
    assert texts(Turn("user", "not teaching any more, i'm a locksmith in Crewe now")) == [
        "The user is not teaching any more.", "The user is a locksmith in Crewe now."]
    assert texts(Turn("user", "me and sunita moved in together, i'm in her flat now")) == [
        "The user and Sunita moved in together.", "The user is in her flat now."]


def test_news_without_a_subject_takes_the_known_name():
    assert texts(Turn("user", "live near the docks these days"), known_name="Ines") == ["Ines lives near the docks these days."]


@pytest.mark.parametrize(("said", "fact"), [
    ("My sister got a dog. His name is Rex.", "The user's sister got a dog called Rex."),
    ("Finally bought a sailboat! Her name's Gull.", "The user finally bought a sailboat called Gull."),
])
def test_a_thing_named_in_the_next_clause_is_one_fact_with_its_name(said, fact):
    assert texts(Turn("user", said)) == [fact]


@pytest.mark.parametrize("turns", [
    [Turn("user", "I have a cat. I have a cat allergy too.")],
    [Turn("user", "I own a boat."), Turn("user", "I own a boat repair shop in Hull.")],
    [Turn("user", "Forget my address. My address is 5 Elm Street.")],
])
def test_a_fact_that_begins_the_next_one_is_still_kept(turns):
    first, second = distill(turns)
    assert second.text.startswith(first.text[:-1] + " ")


def test_a_sentence_with_my_in_it_gets_no_second_owner():
    assert texts(Turn("user", "Weekend football is my favourite thing now")) == [
        "Weekend football is the user's favourite thing now."]
    assert texts(Turn("user", "Seriously, running club is Thursdays now")) == ["The user's running club is Thursdays now."]


@pytest.mark.parametrize("said", [
    "weather's grim today", "Traffic was awful this morning", "Coffee machine's broken again", "Tired of all this rain",
    "Agreed, thanks", "Mondays are the worst", "Exams are over now", "Twenty minutes to go", "Check the oven is on now",
    "New rules at work are annoying", "Keep it short from now on",
    # someone else is the subject: never the user's news
    "Marit moved to Oslo in May.", "marit moved to oslo", "Marit's classes are on Mondays now", "Tamsin is now at Vellum.",
    # an -ing word that is a thing, not what the user is doing, or a remark on someone else
    "Something in the shed reeks", "Christening at the abbey was freezing", "Roadworks in the high street again",
    "Queueing at the post office must be dull", "Asking for a colleague", "Guess who I bumped into at the gym?",
])
def test_small_talk_and_other_peoples_news_without_a_subject_are_not_facts(said):
    assert texts(Turn("user", said)) == []


@pytest.mark.parametrize(("said", "facts"), [
    # an afterthought comments on the clause before it: that clause is kept, the comment is no fact of its own
    ("Signed up for a salsa class, I admit", ["The user signed up for a salsa class."]),
    ("Baked sourdough last weekend and I'm thrilled", ["The user baked sourdough last weekend."]),
    ("My grandad built this boat, I had no clue", ["The user's grandad built this boat."]),
    ("I learned to ski in Andorra, i was maybe sixteen", ["The user learned to ski in Andorra."]),
    ("Got myself a ukulele and I'm teaching myself on YouTube", ["The user got themselves a ukulele."]),
    ("the ferry to Skye is always late, I reckon", []),
])
def test_an_afterthought_is_no_fact_of_its_own(said, facts):
    assert texts(Turn("user", said)) == facts


@pytest.mark.parametrize(("said", "facts"), [
    # a real second fact after a comma or "and" still stands on its own
    ("Left Dundee in June, I teach at a primary school now",
     ["The user left Dundee in June.", "The user teaches at a primary school now."]),
    ("Had my birthday on Sunday, I'm 52 now", ["The user had their birthday on Sunday.", "The user is 52 now."]),
    ("I grow tomatoes, I'm pescatarian", ["The user grows tomatoes.", "The user is pescatarian."]),
    ("Gave up the cafe and I'm a postman these days", ["The user gave up the cafe.", "The user is a postman these days."]),
    ("Bought a violin and I'm teaching myself Bach", ["The user bought a violin.", "The user is teaching themselves Bach."]),
    # "and now I …", "and then I …": the time word stays with the fact it times
    ("the depot shut down, and now I'm a farrier", ["Now the user is a farrier."]),
    ("I sang in a choir and then I joined a ceilidh band", ["The user sang in a choir.", "Then the user joined a ceilidh band."]),
])
def test_a_real_second_fact_after_a_comma_is_still_kept(said, facts):
    assert texts(Turn("user", said)) == facts


@pytest.mark.parametrize(("said", "facts"), [
    ("im 27 now", ["The user is 27 now."]),
    ("ive got a new flat in Hull", ["The user has got a new flat in Hull."]),
    ("my fave band is Wire tbh", ["The user's favourite band is Wire tbh."]),
    ("i dont drive anymore", ["The user does not drive anymore."]),
    ("pls call me Mags", ["The user's name is Mags."]),
    ("just 45 and already creaky", ["The user is just 45 and already creaky."]),
    ("my mobile no. is 0412 118 990", ["The user's mobile number is 0412 118 990."]),  # "no." ends no sentence
    ("stayin at my aunt's in Tralee for now", ["The user is staying at their aunt's in Tralee for now."]),  # a dropped g
    # an emoji ends a sentence
    ("crashed the scooter 😩 riding a Brompton to work now",
     ["The user crashed the scooter.", "The user is riding a Brompton to work now."]),
    # a teaser the user answers with "me"
    ("guess who passed their driving test?? me!!", ["The user passed their driving test."]),
])
def test_phone_typing_is_read_as_it_is_meant(said, facts):
    assert texts(Turn("user", said)) == facts


@pytest.mark.parametrize(("said", "facts"), [
    ("email me at ana.me@kpn.nl", ["Email them at ana.me@kpn.nl."]),
    ("my address is u.okoro@mail.ng now", ["The user's address is u.okoro@mail.ng now."]),
    ("I switched, it's our.house@web.de", ["The user switched, it's our.house@web.de."]),
])
def test_an_email_address_is_kept_as_typed(said, facts):
    assert texts(Turn("user", said)) == facts  # its "me", "u" and "our" are no pronouns


@pytest.mark.parametrize(("said", "facts"), [
    ("landline number is 01632 960 118", ["The user's landline number is 01632 960 118."]),
    ("favourite biscuit has to be the custard cream", ["The user's favourite biscuit has to be the custard cream."]),
    ("From next month, pottery moves to Thursday evenings.", ["From next month, the user's pottery moves to Thursday evenings."]),
])
def test_a_bare_noun_with_a_value_a_favourite_or_a_new_time_is_the_speakers(said, facts):
    assert texts(Turn("user", said)) == facts


@pytest.mark.parametrize(("said", "facts"), [
    ("my home town? Kilkenny, born and bred", ["The user's home town is Kilkenny, born and bred."]),  # answered at once
    ("my password? I never share it", ["The user never shares it."]),                              # not an answer
    ("I start at the bakery on Monday, right?", ["The user starts at the bakery on Monday."]),      # a tag asks a nod
    ("texts to 0161 496 0711 from now on please", ["Texts to 0161 496 0711 from now on please."]),  # the user's number
    ("Marit's number is 0161 496 0712", []),                                                       # someone else's
    ("is my parcel here yet?", []),                                                                # still a question
])
def test_an_answered_question_a_tag_or_a_bare_number_is_still_a_statement(said, facts):
    assert texts(Turn("user", said)) == facts


def test_a_request_that_gives_the_users_own_address_or_number_is_kept():
    assert [f.text for f in distill([Turn("user", "pls write to dee.w@inbox.example for me from now on")])] == \
        ["Please write to dee.w@inbox.example for them from now on."]
    assert [f.text for f in distill([Turn("user", "Please text me on 0161 496 0000 instead.")])] == \
        ["Please text them on 0161 496 0000 instead."]
    assert distill([Turn("user", "Please forward the minutes to clerk@parish.example.")]) == []  # not the user's
    assert distill([Turn("user", "Please wake me at 6:45.")]) == []  # a time, no address or number


def test_an_adverb_before_the_verb_is_not_conjugated():
    assert texts(Turn("user", "I once ran a marathon and I nearly won it")) == [
        "The user once ran a marathon.", "The user nearly won it."]


@pytest.mark.parametrize(("said", "facts"), [
    # a break-up with two people as the subject: the user's, and the other person is kept
    ("Kenji and I split up in the spring", ["The user split up with Kenji in the spring."]),
    ("so yeah, maren and i broke up", ["The user broke up with Maren."]),
    ("my husband Ruairi and I separated", ["The user separated from their husband Ruairi."]),
    ("me and Wen called it quits after uni", ["The user called it quits with Wen after uni."]),
    # not a break-up: a verb with an object is something both did, a word that is no name is split off as before
    ("Ada and I split the bill", ["The user and Ada split the bill."]),
    ("Yes and I moved to Ely", ["The user moved to Ely."]),
    ("Sold the van and I bought a bike", ["The user sold the van.", "The user bought a bike."]),
])
def test_a_break_up_told_with_two_people_as_the_subject_is_one_fact_about_the_user(said, facts):
    assert texts(Turn("user", said)) == facts


@pytest.mark.parametrize(("said", "facts"), [
    ("Tom and I got engaged!", ["The user and Tom got engaged."]),
    ("my brother and I run a food truck", ["The user and their brother run a food truck."]),
    ("Big week. Niamh and I adopted a greyhound", ["The user and Niamh adopted a greyhound."]),
    ("since Oskar and I moved to Bergen, I walk everywhere", ["Since the user and Oskar moved to Bergen.",
                                                             "The user walks everywhere."]),
])
def test_two_people_as_the_subject_keep_the_other_person(said, facts):
    assert texts(Turn("user", said)) == facts


def test_an_update_announced_before_a_comma_is_a_lead_in_not_the_fact():
    from local_memory_server.distill import Turn, distill

    assert [f.text for f in distill([Turn("user", "small update, new girlfriend: Saoirse")])] == \
        ["The user's new girlfriend is Saoirse."]
    assert distill([Turn("user", "The news is on at six.")]) == []  # the news itself is no lead-in


@pytest.mark.parametrize(("said", "facts"), [
    ("I've just adopted a greyhound, any advice on walks?", ["The user has just adopted a greyhound."]),
    ("My son starts school in May, what should we buy?", ["The user's son starts school in May."]),
    ("Quick one, how do I boil an egg?", []),  # nothing told before the question
])
def test_a_statement_before_a_question_in_one_sentence_is_still_told(said, facts):
    assert texts(Turn("user", said)) == facts


@pytest.mark.parametrize(("said", "forget"), [
    ("Forget I ever mentioned the choir, it clashed with work.", "The choir."),     # what ends where a remark begins
    ("Scratch what I said about the half marathon - my hip won't have it.", "The half marathon."),
])
def test_what_to_forget_is_named_before_the_remark(said, forget):
    assert [(f.text, f.forget) for f in distill([Turn("user", said)])][:1] == [(forget, True)]
