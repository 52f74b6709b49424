"""The knowledge-update seam, and the rows of the former decider's tests that the one offline reader reads.

Why this file: the store applies an ``UpdateDecider``'s verdicts and decides nothing itself, deciders are chosen
by name, and a stored fact reads the same after a restart; those tests of the seam stay whichever reader decides.
The tables are the former decider's rows (other cities, verbs, word orders than the lessons use) that the one
reader (``offline_reader.changes.MeaningDecider``) gets right; the rows it gets wrong are listed at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from local_memory_server.deciders import DECIDERS, make_decider
from local_memory_server.store import MemoryStore, NewMemory
from offline_reader import (
    Fact, MeaningDecider, UpdateDecider, Verdict, about_someone_else, is_withdrawal, masked, not_current,
)
from offline_reader import withdrawal as withdrawal_of


@pytest.fixture(scope="module")
def decider(embedder) -> MeaningDecider:
    return MeaningDecider(embedder.embed)


@pytest.fixture(scope="module")
def fact(embedder):
    """A fact as the service hands it to the store: its text and vector (the decider embeds the twin)."""
    def make(text: str) -> Fact:
        return Fact(text, embedder.embed([text])[0])
    return make


def verdict(decider, fact, old: str, new: str) -> Verdict:
    return decider.decide(fact(new), [fact(old)])[0]


# -- the seam: the store applies the decider's verdicts ---------------------------------------------


class Scripted:
    """A decider that answers from a script and records what the store asked."""

    name = "scripted"

    def __init__(self, verdict: Verdict, attribute: str | None = "home") -> None:
        self.verdict, self._attribute, self.asked = verdict, attribute, []

    def attribute(self, fact: Fact) -> str | None:
        return self._attribute

    def decide(self, new: Fact, stored: Sequence[Fact]) -> list[Verdict]:
        self.asked.append((new.text, [f.text for f in stored]))
        return [self.verdict for _ in stored]

    def retracts(self, withdrawal: Fact, stored: Sequence[Fact]) -> list[bool]:
        self.asked.append((withdrawal.text, [f.text for f in stored]))
        return [True for _ in stored]


@pytest.mark.parametrize(("scripted", "event"), [(Verdict.SUPERSEDES, "SUPERSEDE"), (Verdict.SAME, "SKIP_DUPLICATE"),
                                                 (Verdict.UNRELATED, "ADD")])
def test_the_store_applies_the_deciders_verdicts_and_decides_nothing_itself(scripted, event):
    decider = Scripted(scripted)
    assert isinstance(decider, UpdateDecider)
    store = MemoryStore(None, embedding_model="test", dim=4, decider=decider)
    first = store.write(NewMemory(user_id="u", content="A cat sat.", memory_type="semantic"), np.array([1, 0, 0, 0.0]))
    assert first.event == "ADD" and first.record is not None and first.record.slot == "home"
    second = store.write(NewMemory(user_id="u", content="Tea is hot.", memory_type="semantic"), np.array([0, 1, 0, 0.0]))
    assert second.event == event
    assert decider.asked[-1] == ("Tea is hot.", ["A cat sat."])  # the candidate came from the attribute lookup
    taken = store.retract("u", "Forget it.", np.array([0, 0, 1, 0.0]))
    assert taken.event == "INVALIDATE" and store.list_memories("u", page=1, size=10)[1] == 0


def test_deciders_are_chosen_by_name_and_a_wrong_name_says_which_exist(embedder):
    assert DECIDERS == ("meaning", "model")
    assert isinstance(make_decider("meaning", embedder.embed), MeaningDecider)
    with pytest.raises(ValueError, match="meaning, model"):
        make_decider("oracle", embedder.embed)


def test_without_examples_only_the_rules_decide():
    blind = MeaningDecider(None)
    old, new = Fact("Ben drives a Volvo.", np.zeros(4)), Fact("Ben sold their Volvo and bought a Kia.", np.zeros(4))
    assert blind.attribute(new) is None
    assert blind.decide(new, [old]) == [Verdict.SUPERSEDES]  # a departure needs no attribute
    assert blind.decide(Fact("Ben drives a Kia.", np.zeros(4)), [old]) == [Verdict.UNRELATED]


def test_a_stored_fact_reads_the_same_after_a_restart(embedder, tmp_path):
    """Its label once came from the twin the service passed on when it was written, and after a restart
    from its own vector alone: "girlfriend is Oksana" then read as a name and was never replaced."""
    def write(text: str) -> str:
        store = MemoryStore(tmp_path / "memories.sqlite3", embedding_model=embedder.model, dim=embedder.dim,
                            decider=MeaningDecider(embedder.embed, key=embedder.model))
        event = store.write(NewMemory(user_id="u", content=text, memory_type="semantic"), embedder.embed([text])[0]).event
        store.close()
        return event
    assert write("The user's girlfriend is Oksana.") == "ADD"
    assert write("The user's girlfriend is Mariana.") == "SUPERSEDE"


def test_the_twin_is_embedded_only_when_the_rules_leave_the_attribute_open(embedder):
    asked: list[list[str]] = []
    decider = MeaningDecider(lambda texts: asked.append(list(texts)) or embedder.embed(texts), key=embedder.model)
    for text in ["The user's aunt Clara lives in Ghent.", "As a child the user lived in Ghent.", "The user lives in Ghent."]:
        decider.attribute(Fact(text, embedder.embed([text])[0]))
    assert [texts for texts in asked if len(texts) == 1] == [["The user lives in X."]]


def test_news_told_by_name_keeps_the_name_and_the_news(embedder):
    """ "joined X and left …" once read as a withdrawal: the new employer was dropped, and the withdrawal took
    back the fact sharing the most words with it — the user's name."""
    from local_memory_server.request_models import AddConversationRequest
    from local_memory_server.service import MemoryService

    store = MemoryStore(None, embedding_model=embedder.model, dim=embedder.dim)
    service = MemoryService(store, embedder)
    for said in ["My name is Tove.", "I work at Fabrikam.", "I've just joined Contoso and left my old company."]:
        service.from_conversation("u", AddConversationRequest.model_validate(
            {"user_id": "u", "messages": [{"role": "user", "content": said}]}))
    current = [r.content for r in store.list_memories("u", page=1, size=10)[0]]
    assert "The user's name is Tove." in current and any("Contoso" in text for text in current)


# -- what a fact says, not which value it names: the masked twin ---------------------------------------


@pytest.mark.parametrize(
    ("text", "twin"),
    [
        ("The user's landline is 0131 555 2020.", "The user's landline is X."),
        ("Write to the user at kai.lund@postbox.example from now on.", "Write to the user at X from now on."),
        ("Priya now goes by Pri.", "The user now goes by X."),          # the user's name as the subject
        ("Saffron has become the user's favourite spice.", "Saffron has become the user's favourite spice."),
        ("Priya's brother drives a Lada.", "The user's brother drives a X."),
    ],
)
def test_the_masked_twin_keeps_the_wording_and_drops_the_values(text, twin):
    assert masked(text) == twin


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ines has moved to Vigo.", "Ines"),
        ("Saffron has become the user's favourite spice.", None),   # the user comes later
        ("The user lives in Vigo.", None),
        ("Ines left their old job.", "Ines"),      # the distiller writes the named user's "my" as "their"
        ("Oskar moved to Bergen in the spring.", "Oskar"),
        ("Rowing is at 7am on Saturdays now.", None),     # a word, not a name: a gerund
        ("Home is Narvik for them these days.", None),    # a word of the vocabulary
    ],
)
def test_only_a_name_opening_a_fact_is_its_subject_in_the_twin(text, name):
    twin = masked(text)
    if name is None:
        assert twin.split()[:2] == text.split()[:2]
    else:
        assert twin.startswith("The user ") and name not in twin


# -- the attribute, read by meaning --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("I'm based in Tallinn", "home"),
        ("Priya has relocated to Quito.", "home"),
        ("The user resides in Kraków.", "home"),
        ("My home is Valparaíso", "home"),
        ("The user's name is Ife.", "name"),
        ("I am employed by Hooli", "employer"),
        ("I started a new job at Globex.", "employer"),
        ("Dev got a job with the harbour authority.", "employer"),
        ("My job title is radiographer", "job"),
        ("Kofi works as a lighting technician.", "job"),
        ("Mei prefers green tea over black tea.", "favourite:drink"),
        ("My favourite food is moussaka.", "favourite:food"),
        ("My favourite drink is cocoa.", "favourite:drink"),
        ("My favourite season is autumn", "favourite:season"),
        ("The user's partner is Sam.", "partner"),               # a relation that is the user's attribute
        ("The user's girlfriend is Oksana.", "partner"),         # a partner called like a typical first name
        ("The user's name is Oksana.", "name"),
        ("My mobile number is 07123 456789.", "phone"),
        ("You can ring Dev on 555-0123.", "phone"),
        ("My email is ana.r@example.org.", "email"),
        ("My favourite podcast is Ologies.", "favourite:podcast"),  # a kind the examples never name
        ("Ada's surname is Okoro.", "surname"),
        ("I'm at Northgate Haulage these days.", "employer"),
        ("The user works for Dunmore Civil now.", "employer"),
        ("The user switched careers and is a glazier now.", "job"),   # an occupation names its person
        ("The user got promoted to duty manager at the co-op.", "job"),  # a relation word that is a trade too
        ("The user was appointed head coach at the rowing club.", "job"),
        ("These days the user's role is cashier.", "job"),
    ],
)
def test_the_attribute_is_read_by_meaning(decider, fact, text, attribute):
    assert decider.attribute(fact(text)) == attribute


@pytest.mark.parametrize(
    "text",
    [
        "Alex is a vegetarian.", "Ines's brother lives in Oslo.", "I like hiking", "Numbered memory 4 of the pager",
        "The user's dog is called Pepper.", "The user does not live in Porto.",
        "The user adopted a puppy and named him Rufus.",          # a pet's name is not the user's
        "The user has now visited Oman as well, another country done.",  # a place been to is not a home
        "The user bonded with the neighbour over a jar of kimchi.",   # everyday news
        "The user is on bins this week.",
        "Emma lost her umbrella on the bus.",   # a name with no word of naming or of a couple
        "Leah is shattered today.",
        "Emma texts now and then.",
        "The user has been to Valencia twice now.",              # a place been to
        "The user's previous flat in Ghent had mould everywhere.",  # a place lived in before
        "The user binged the first season of Night Ferry.",       # a title: its twin has an X too
        "The user took a phone call about the Marlow Textiles order.",  # a client's name in passing
        "The user keeps forgetting.",                             # a remark with no value at all
        "The user cannot wait.",
        "The user loves shakshuka.", "The user adores Wagner.",   # a like, however near a name it sounds
        "The user will call it Biscuit.", "The user calls him Captain.",  # a name given to something or someone else
    ],
)
def test_things_that_are_not_a_single_valued_attribute_of_the_user(decider, fact, text):
    assert decider.attribute(fact(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "The user's job is in Frankfurt.", "The user's position is near the window.",  # where a job is
        "The user is a grandad now.",                                                  # kin is no trade
    ],
)
def test_what_names_no_occupation_is_no_job(decider, fact, text):
    assert decider.attribute(fact(text)) != "job"


@pytest.mark.parametrize(
    ("text", "favourite"),
    [
        ("The user likes most kinds of cheese.", False),        # "most" of many is no preference
    ],
)
def test_liking_one_thing_the_most_is_a_favourite(decider, fact, text, favourite):
    assert (decider.label(fact(text)) or "").startswith("favourite") is favourite


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("The user got poached by Tarrant Mills in the spring.", True),
        ("These days the user is with Cobble & Finch.", True),
    ],
)
def test_an_employer_is_told_in_works_words(decider, fact, text, employer):
    assert (decider.label(fact(text)) == "employer") is employer


# -- a new value supersedes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I'm based in Tallinn", "I've relocated to Quito"),                 # home, different verbs
        ("The user resides in Kraków.", "Ife is now living in Gdańsk."),      # "The user" vs a name
        ("Mei prefers green tea over black tea.", "Mei now prefers espresso."),  # a favourite, same kind
        ("My favourite season is autumn", "My favorite season is spring"),  # spelling varies
        ("Kofi rehearses on Tuesdays.", "Kofi rehearses on Thursdays."),     # schedule, changed day
        ("The user is 41 years old.", "The user is 42 years old."),          # age
        ("The user is 33.", "The user celebrated their 34th birthday on Saturday."),  # age told as a birthday
        ("I do not eat gluten", "I eat gluten"),                             # polarity flips
        ("Lisa goes rowing on Tuesdays.", "Lisa moved rowing to Saturdays."),  # rescheduled day
        ("I have a dentist appointment on 28 April", "I rescheduled my dentist appointment to 3 May"),
        ("Kofi has choir practice at 7 pm.", "Kofi has moved choir practice to 8 pm."),
        ("Ben drives a Volvo.", "Ben sold their Volvo and now drives a Kia."),  # a departure: what was sold
        ("Ben sold their Volvo and now drives a Kia.", "Ben drives a Fiat."),  # the old one's departure is no value
        ("The user works for Halden Logistics.", "The user quit Halden and signed on with a brewery."),
        ("Ife no longer lives in Gdańsk.", "Ife lives in Gdańsk again."),    # a stored "no longer" becomes true again
        ("Alex lives in Lyon.", "Alex lives in Porto now."),
        ("The user's mobile number is 07123 456789.", "The user's number is now 07555 010203."),
        ("The user's email is ana.r@example.org.", "The user's new email address is ana.rossi@mailbox.net."),
        ("The user works for Brightwater Logistics.", "The user is at Northgate Haulage now."),
        ("The user's favourite podcast is Ologies.", "Hardcore History has become the user's favourite podcast."),
        ("The user reads on a Kindle.", "The user upgraded from a Kindle to a Kobo."),  # both named: "from" is left
        ("The user is a carpenter.", "The user switched from carpentry to nursing."),   # the old one by its root
        ("The user's boyfriend is Piotr.", "The user's new boyfriend, Tomasz, is joining them for dinner."),
        ("Write to the user at tom.h@postbox.example.", "The user's inbox is now th@lanternmail.example."),  # any wording
        ("The user lives in Tartu.", "The user moved out of Tartu — they rent in Pärnu now."),  # the dash ends the left
        ("The user's mobile is 07700 900100.", "The user got a new mobile: 07700 900999 - the old one is cancelled."),
        ("The user does yoga every morning at dawn.", "The user does yoga every morning at 6.30 now."),  # dawn is a time
        ("The user's email is ola@webpost.example.", "The user is not on webpost any more, its ola.n@lanternmail.example now."),
        ("The user would say their favourite cheese is brie.", "Comté is the user's favourite cheese now."),  # a hedge
        ("The user lives in Bath.", "The user has moved from their old flat in Bath to a house in York."),
        ("The user has moved from their old flat in Bath to a house in York.", "The user lives in Hove now."),
        ("The user's boyfriend is Idris.", "The user and Bartek got engaged in May."),  # a couple's words
        ("The user's mobile number is 07700 111222.",
         "The user's number is 0161 555 0199 if anything urgent crops up."),   # an "if" on acting, not a what-if
        ("The user's girlfriend is Ines.", "The user and Marguerite got engaged."),
        ("The user's partner is Tomasz.", "The user's boyfriend is Leandro now."),   # what becomes the user's own
        ("The user lives in Cork.", "The user's house is in Galway now."),           # a thing of the user's own
        ("The user works at Brandt Freight.", "The user's employer is Veloura Salon now."),
        ("The user's favourite author is Ann Patchett.", "The user's favourite writer is Colm Toibin now."),
        ("The user goes canoeing on Tuesdays.", "The user goes canoeing on Fridays now."),  # a schedule, any activity
        ("The user plays darts on Thursdays.", "The user plays darts on Monday evenings now."),
        ("The user's girlfriend is Wren.", "The user's partner these days is Dagny."),  # named a few words on
        ("The user's car's a Skoda Fabia.", "The user drives a Mazda 3 now."),       # "'s a": "is a"
        ("The user is 23, in their second year of a PhD.", "The user is 24 now."),  # an ordinal adds nothing
    ],
)
def test_a_new_value_however_it_is_told_supersedes(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is Verdict.SUPERSEDES


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user is a glazier.", "The user is a horologist now."),
    ],
)
def test_an_occupation_the_examples_do_not_name_replaces_the_old_one(decider, fact, old, new):
    assert decider.attribute(fact(new)) == "job"
    assert verdict(decider, fact, old, new) is Verdict.SUPERSEDES


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("The user lives in Tallinn.", "I'm currently based in Tallinn", Verdict.SAME),   # a repeat of a value
        # an address is the value, whatever case its words are in; "office@" is no work word
        ("Mail the user at office@birchlane-pottery.example.", "The user now uses jun@quietmail.example.", Verdict.SUPERSEDES),
        ("The user's number is 0161 496 0711.", "The user's number is 01614960711.", Verdict.SAME),
    ],
)
def test_a_repeat_is_the_same_fact_and_an_address_or_number_is_one_value(decider, fact, old, new, expected):
    assert verdict(decider, fact, old, new) is expected


# -- both kept -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I like tea", "I like coffee"),                                     # many-valued
        ("Alex likes tea.", "Alex likes coffee."),
        ("I'm allergic to peanuts", "I'm allergic to shellfish"),
        ("Ines's brother lives in Oslo.", "Ines lives in Bergen."),          # someone else's home
        ("Ines lives in Bergen.", "Ines's brother lives in Oslo."),
        ("I prefer aisle seats", "I prefer oat milk"),                       # favourites of different kinds
        ("My favourite colour is teal.", "My favourite film is Heat."),
        ("My favourite food is moussaka.", "Kenji prefers coffee over lemonade."),
        ("Numbered memory 4 of the pager", "Numbered memory 5 of the pager"),  # not about anyone's attribute
        ("I live in Lyon", "I live in Lyon and now work at Hooli"),          # a clause repeats it
        ("I drive a Volvo", "I sold my bike and then bought a Volvo"),       # what was sold is not the car
        ("I run on Tuesdays.", "I also run on Saturdays."),                  # "also" adds
        ("The user lives in Porto.", "The user's flat in Porto has a balcony."),  # a detail, not a new value
        ("The user also drives a Mini.", "The user drives a Polestar."),     # one more of a kind fills no slot
        ("The user owns a Mini as well.", "The user drives a Polestar."),
        ("The user rides a Vespa at weekends.", "The user goes kayaking on Sundays."),  # another activity
    ],
)
def test_facts_that_do_not_conflict_are_both_kept(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is not Verdict.SUPERSEDES


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user's mobile number is 07123 456789.", "The user's desk extension is 4410."),
        ("The user's favourite song is Jolene.", "The user's favourite band is Blondie."),  # two kinds
        ("The user likes mango.", "The user likes it when the best bakery is open."),  # "best" that is no preference
        ("The user's favourite podcast is Ologies.", "The user's favourite radio show is Desert Island Discs."),
        ("The user's boyfriend is Piotr.", "The user's sister's boyfriend is Marek."),
        ("The user's wife is Rosa.", "The user's ex-wife Carla lives in Lisbon."),
        ("The user's name is Ada.", "Ada's surname is Okoro."),
        ("The user has a cat.", "The user got a dog."),
        ("The user likes tea.", "The user likes coffee."),
        ("The user drives a Fiat.", "The user's old bandmate Bo drives a Volvo."),     # a person named after "the user's"
        ("The user lives in Bergen.", "Ivy from the user's choir lives in Oslo."),     # someone from the user's circle
        ("The user works at Brightwater.", "The user scrubbed the oven this afternoon."),  # small talk fills no slot
        ("The user's name is Odile.", "Odile's new flatmate is called Odile too, which is awkward."),  # not a lead
        ("The user is 52.", "Bram's birthday is the 3rd of June, they need a card."),       # a date is no age
        ("The user is 61.", "Tamsin's birthday is on Feb 11th, they keep forgetting it."),
        ("The user works as a welder.", "The user hums along to jazz while baking."),    # names no occupation
        ("The user works as a welder.", "The user has a dentist visit on Friday and then the school run."),
        ("The user is a glazier.", "The user is a keen amateur astronomer in their spare time."),  # a pastime
    ],
)
def test_near_misses_stay_apart(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is not Verdict.SUPERSEDES


# -- other people, the past, a wish ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user lives in Kendal.", "The manager of the user's climbing gym moved to Penrith."),   # "of the user's"
        ("The user works as a luthier.", "A cousin of the user's wife works as a sommelier."),
        ("The user drives a Kia.", "The brother of the user's flatmate drives a Lexus now."),
        ("The user's partner is Soren.", "The woman who owns the user's local deli is called Marisol."),  # a relative clause
        ("The user's girlfriend is Noor.", "The user's girlfriend's dad is a pilot at Skyline Air."),  # a possessive chain
        ("The user works at Brightwater.", "The user's husband's aunt is a cook at Harbour Grill."),
        ("The user lives in Leeds.", "The user's pottery teacher lives in York."),   # a relation after another noun
        ("The user's favourite dessert is tiramisu.", "The user's great-uncle's favourite dessert is baklava."),  # a hyphen
        ("The user drives a Skoda.", "Ottilie's step-dad's car is a Saab now."),
        ("The user lives in Tromsø.", "The user's father-in-law lives in Bodø now."),         # in-laws
        ("The user works at Pellow Foods.", "The user's ex works at Garnock Mills."),          # an ex
        ("The user is a welder.", "The user's co-worker is a qualified electrician now."),
        ("The user's partner is Oskar.", "The user's husband got them a ticket to see Gravel Choir."),  # a deed, not a name
        ("The user is 29.", "Rosalind from Imran's climbing club turned 60 on Friday."),     # a member of anyone's group
        ("The user's partner is Tomasz.", "The user ran into their ex, Leandro, outside the gym — so awkward."),  # the ex's
        ("The user drives a Honda Jazz.", "The user is driving their dad's Volvo this week."),                  # dad's
        ("The user is a glazier.", "The user's brother became a farrier."),                      # someone else's trade
        ("The user lives in Galway.", "Dagny told them her favourite film is Heat."),
        ("The user's favourite film is Alien.", "Ruairi recently sent them his new address in Cork."),
    ],
)
def test_other_people_in_the_users_life_are_someone_else(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is not Verdict.SUPERSEDES


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user works as a florist.", "The user was teaching chemistry at a school in Derby for a decade."),
        ("The user lives in Ripon.", "The user was living above a chip shop in Salford for three years."),
        ("The user works as a paramedic.", "Sometimes the user daydreams about quitting and becoming a sound engineer."),
        ("The user is a glazier.", "The user was a horologist years ago."),
    ],
)
def test_a_state_that_went_on_in_the_past_or_a_daydream_holds_no_value_now(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is not Verdict.SUPERSEDES


@pytest.mark.parametrize(
    "text",
    [
        "The osteopath rescheduled the user's appointment to Friday.",   # what it acted on is the user's
        "The other evening the user moved to Hexham.",                    # the user, after a lead
        "The Skoda is now the user's car.",                               # the user's thing is what it is
    ],
)
def test_a_fronted_noun_phrase_that_is_no_person_leaves_the_fact_the_users(text):
    assert not about_someone_else("", text)


def test_an_if_first_is_a_what_if():
    assert not_current("If the job comes through, the user moves to Whitby.")


# -- withdrawals ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("withdrawal", "stored"),
    [
        ("I do not live in Lyon anymore", "Alex lives in Lyon."),
        ("Tomas no longer works for the city council.", "Tomas works for the city council."),
        ("I'm not a locksmith any longer", "The user is a locksmith."),
        ("Kofi stopped rehearsing on Tuesdays.", "Kofi rehearses on Tuesdays."),
        ("I quit drinking espresso", "The user drinks espresso every morning."),
    ],
)
def test_ceasing_phrasings_withdraw_the_matching_fact(decider, fact, withdrawal, stored):
    assert is_withdrawal(withdrawal)
    assert decider.retracts(fact(withdrawal), [fact(stored)]) == [True]


@pytest.mark.parametrize(
    ("withdrawal", "stored", "taken"),
    [
        ("The user rides a bike.", ["The user likes tea."], [False]),
        ("Kofi rehearses on Tuesdays.", ["Kofi rehearses on Tuesdays with the brass band.", "Kofi rehearses on Tuesdays."],
         [False, True]),   # the closest match
    ],
)
def test_a_withdrawal_names_a_value_or_an_attribute(decider, fact, withdrawal, stored, taken):
    assert decider.retracts(fact(withdrawal), [fact(text) for text in stored]) == taken


@pytest.mark.parametrize(
    ("withdrawal", "stored", "taken"),
    [
        ("The user no longer plays the cello.", "The user plays the cello in an orchestra.", True),
        ("The user quit the darts team, the pub shut down.", "The user is on the darts team.", True),
        ("The user cancelled the gym membership.", "The user cancelled the gym class last Tuesday.", False),  # a deed done
    ],
)
def test_a_withdrawal_takes_back_what_it_names_not_what_shares_its_verb_or_its_remarks(decider, fact, withdrawal,
                                                                                        stored, taken):
    assert is_withdrawal(withdrawal)
    assert decider.retracts(fact(withdrawal), [fact(stored)]) == [taken]


@pytest.mark.parametrize(
    ("withdrawal", "stored"),
    [
        ("No more sugar in the user's tea, their dentist insisted.", "The user takes sugar in their tea."),
        ("The user switched to decaf, so no more espresso for them.", "The user drinks espresso every morning."),
    ],
)
def test_no_more_of_something_takes_it_back(decider, fact, withdrawal, stored):
    assert withdrawal_of(withdrawal) is not None and decider.retracts(fact(withdrawal), [fact(stored)]) == [True]


@pytest.mark.parametrize(
    ("text", "withdrawal"),
    [
        ("I don't eat meat", False), ("I don't want any more reminders", False), ("I no longer eat meat", True),
        ("The user quit the mill and signed on with a brewery.", False),  # a change, not a withdrawal
        ("I quit my job", True), ("I'm not in the rowing club any longer", True),
        ("The user left the bank, now with an insurer.", False),          # a clause after a comma can be the arrival
        ("The user dropped the old address, it's kai@postbox.example now.", False),
        ("The user quit smoking for good, three months clean.", True),
        ("The user stopped cycling, nothing to do with the weather.", True),
        ("The user signed with a new agency and left the old one.", False),  # the first clause is the arrival
        ("The user walked away from the co-op, enrolled at a nursing school in autumn.", False),  # another deed follows
        ("The user gave up the plot, the weeds won.", True),  # a remark with a subject of its own
        ("The user left the quiz team and never looked back.", True),
        ("The user is not on the landline any more, its the mobile or nothing now.", False),  # "its" typed for "it's"
        ("The user moved away from Derby in May, Nottingham now.", False),  # a value in its place
        ("The user left Hotmail - r.k@postbox.example now.", False),
        ("The user's flat in Bath sold and they are renting in Bristol.", False),
        ("The user is not on mailbox any more, Fastpost now.", False),
        ("The user is not at Halden any more, Corrie & Webb now.", False),
        ("The plumber cancelled on the user again.", False),                 # only the user leaving something named
        ("Oskar's kettle gave up last night.", False),
        ("The user's landlord sold the building.", False),
        ("The user waited an hour for the bus and nearly gave up.", False),
        ("The user stopped at the chemist on the way home.", False),
    ],
)
def test_which_texts_are_withdrawals(text, withdrawal):
    assert is_withdrawal(text) is withdrawal


@pytest.mark.parametrize(
    ("text", "besides"),
    [
        ("The user is a locksmith these days, not a plumber any more.", True),  # what they are now, before it
        ("The user gave up the choir, the rehearsals clashed.", False),         # a remark, not about the user
        ("The user no longer drinks milk.", False),
    ],
)
def test_a_withdrawal_that_says_more_of_the_user_is_also_a_fact(text, besides):
    taken = withdrawal_of(text)
    assert taken is not None and taken.besides is besides and is_withdrawal(text) is not besides


# What the one reader does not read (rows of the former decider's tests it gets wrong)
# One line each: old → new (or the text): expected X, reads Y. Kept here, not as failing rows, so the
# limits stay visible; a row that the reader comes to read belongs back in its table above.
#
# False supersessions (a fact that should be kept is replaced):
# - "I live in Lyon" → "I don't live in Porto": expected kept, reads SUPERSEDES
# - "The user's boyfriend is Jonah." → "The user and their boyfriend are rewatching Station Eleven.": expected kept,
#   reads SUPERSEDES
# - "The user lives in Oslo." → "The user's shop has moved to Bergen.": expected kept, reads SUPERSEDES
# - "The user's email is jo.k@postbox.example." → "For the office the user uses jkay@firm.example.": expected kept,
#   reads SUPERSEDES
# - "The user's email is sam.k@postbox.example." → "The user's work email is sam.k@harbourline.example.":
#   expected UNRELATED, reads SUPERSEDES
# - "The user is 36." → "The user's goddaughter turned 7 on Sunday.": expected kept, reads SUPERSEDES
# - "The user lives in Aveiro." → "The user's priya from yoga moved to Braga.": expected kept, reads SUPERSEDES
# - "The user drives a Kia Picanto." → "Tbh the user's stepmum drives a Mini now.": expected kept, reads SUPERSEDES
# - "The user works at Quillby." → "Tobias from Agnes' choir works at Fernhall Bakery now.": expected kept,
#   reads SUPERSEDES
# - "The user lives in Kilkenny." → "The user's chiropodist moved to Sligo.": expected kept, reads SUPERSEDES
# - "The user works at Brandt Freight." → "The user's stylist now works at Veloura Salon.": expected kept,
#   reads SUPERSEDES
# - "The user is 44." → "The user's old acupuncturist just turned 70.": expected kept, reads SUPERSEDES
# - "The user drives a Seat Ibiza." → "The user's upholsterer drives a Land Rover now.": expected kept, reads SUPERSEDES
# - "The user's favourite film is Alien." → "Dagny told them her favourite film is Heat.": expected kept,
#   reads SUPERSEDES
# - "The user lives in Galway." → "Ruairi recently sent them his new address in Cork.": expected kept, reads SUPERSEDES
#
# False withdrawals (a fact that should be kept is taken back):
# - "I don't live in Lyon any more" takes back "The user lives in Porto.": expected kept, reads taken back
# - "The user no longer plays the cello." takes back "The user plays badminton on Sundays.": expected kept,
#   reads taken back
# - "The user quit the darts team, the pub shut down." takes back "The user's local pub is the Crown.": expected kept,
#   reads taken back
#
# A change it misses (the old value stays current):
# - "My favourite drink is tea." → "I prefer coffee over tea these days.": expected SUPERSEDES, reads UNRELATED
# - "Sam enjoys jazz" → "Sam doesn't enjoy jazz": expected SUPERSEDES, reads UNRELATED
# - "I live in Hanoi" → "I loved Hanoi but now I live in Perth": expected SUPERSEDES, reads UNRELATED
# - "The user's favourite game is chess." → "Go has knocked chess off the top spot as the user's favourite game.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user is a teacher." → "Not teaching any more, the user is a librarian now.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user's name is Katherine." → "Katherine now goes by Kit.": expected SUPERSEDES, reads UNRELATED
# - "The user's name is Bartholomew." → "The user would rather go by Bart, if that's okay.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user drives a Skoda." → "The user does not drive the Skoda any longer - it's a Lada now.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user lives in Derby." → "The user moved away from Derby in May, Nottingham now.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user's favourite group is Khruangbin." → "Idles is now the user's favourite band.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user's favourite time of year is spring." → "Autumn has become the user's favourite season.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user's favourite food is ramen." → "The user likes Thai curry best these days.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user is a ferry deckhand." → "The user went back to being a courier.": expected SUPERSEDES, reads UNRELATED
# - "The user is called Benedikt." → "Everyone calls the user Tilly these days.": expected SUPERSEDES, reads UNRELATED
# - "The user's name is Orla Brennan." → "The user is Orla Kavanagh now.": expected SUPERSEDES, reads UNRELATED
# - "The user is thirty." → "The user had their thirty-first birthday at a bowling alley.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user lives in Ripon." → "The user has lived in Whitby since May, if you were wondering.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user's email is rowan@mailbox.example." → "The user is not on mailbox any more, Fastpost now.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user works at Halden Mills." → "The user is not at Halden any more, Corrie & Webb now.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user drives a Honda Jazz." → "The user bought their uncle's old Saab, a 900 Turbo, and drives it now.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user goes birdwatching every Sunday." → "The user goes birdwatching on weekday mornings now.":
#   expected SUPERSEDES, reads UNRELATED
# - "The user's boyfriend's name is Idris." → "The user is going out with Bram now.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user's flat's in Hull." → "The user has moved to Derby.": expected SUPERSEDES, reads UNRELATED
# - "The user is twenty-three, in their second year of a PhD." → "The user is twenty-four.": expected SUPERSEDES,
#   reads UNRELATED
# - "The user has been a bookkeeper for years." → "The user works as a falconer these days.": expected job and
#   SUPERSEDES, reads job and UNRELATED
# - "The user is a cooper at Ashby Barrels." → "The user became a farrier last spring.": expected job and SUPERSEDES,
#   reads employer and SUPERSEDES
#
# The attribute read by meaning:
# - "The user is based in Cork.": expected home, reads None
# - "The user works as a bookbinder in a small atelier.": expected job, reads employer
# - "The user works as a ferryman.": expected job, reads employer
# - "The user is a thatcher by trade.": expected job, reads employer
# - "The user is employed as a ropemaker.": expected job, reads employer
# - "The user is a glassblower full time these days.": expected job, reads employer
# - "The user went back to being a courier.": expected job, reads None
# - "These days the user earns a living as a sommelier.": expected job, reads None
# - "The user is finally a qualified locksmith.": expected job, reads None
# - "Long story, but now the user is a locksmith.": expected job, reads None
# - "The user has been working from Kiln Coffee all week.": expected None, reads employer
# - "The user is working from the Riverside Library.": expected None, reads employer
# - "The user is knee-deep in spreadsheets today.": expected None, reads job
# - "The user started Hollow Crown on a friend's rec, 4 eps in.": expected a label other than employer, reads employer
# - "The user likes oolong the most these days.": expected a favourite, reads likes
# - "Of all teas the user enjoys oolong most.": expected a favourite, reads likes
#
# Withdrawals:
# - "I don't live in Lyon any more" → "The user lives in Lyon.": expected a withdrawal that takes it back, reads no
#   withdrawal (is_withdrawal False; retracts takes it back)
# - "The user quits smoking." → "The user smokes.": expected a withdrawal that takes it back, reads no withdrawal
#   (is_withdrawal False; retracts takes it back)
# - "The user shut the pottery stall, not doing that any more." → "The user runs a pottery stall.": expected a
#   withdrawal that takes it back, reads no withdrawal and keeps it
# - "The user and Idris are no longer together." → "The user has been dating Idris since May.": expected a withdrawal
#   that takes it back, reads no withdrawal and keeps it
# - "Sadly - the user quit the choir.": expected a withdrawal, reads none
# - "The user packed up the allotment for good.": expected a withdrawal, reads none
# - "The user gave up the plot, a neighbour has it now.": expected a withdrawal, reads none
# - "The user gave up the shed, Priya has it now.": expected a withdrawal, reads none
# - "The user resigned from the council, starting at a charity in May.": expected no withdrawal, reads one
# - "The user split from Arne and has been seeing Ilse since June.": expected no withdrawal, reads one
# - "The user sold the caravan, then bought a narrowboat.": expected no withdrawal, reads one
# - "Storms cancelled the user's ferry to Mull.": expected no withdrawal, reads one
# - "The user drinks no more than two coffees a day.": expected no withdrawal, reads one (besides: a fact too)
# - "The user moved away from Tartu, their flat is in Riga.": expected a withdrawal that is also a fact, reads none
# - "Since the autumn, the user no longer drinks milk.": expected a withdrawal only, reads one that is also a fact
#
# Whose, when, and the twin:
# - "The bursar of the user's college retired.": expected someone else's (the bursar), reads the user's
# - "The user was renting in Derby but bought a house in Ripon last spring.": expected current, reads not current
# - "The user would move to Whitby if the job came through.": expected not current, reads current
# - "The user joined Dean & Lowe in Cardiff.": expected the twin "The user joined X in X.", reads
#   "The user joined X & Lowe in X."
