"""The knowledge-update seam (updates.py) and its offline decider (meaning.py), with phrasings the lessons never use.

The lessons say "Lyon → Porto" and "ship on Fridays"; these tests use other cities, employers, verbs
and word orders, first and third person, so a decider that only knew the lesson's sentences would
fail here. Cases that tune the decider (where the embedding's reading is the point) live in the dev
pairs (``lesson_utils/evaluation/data/dev_pairs.json``, scored by ``tests/evaluation/test_dev_pairs.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from lesson_utils.memory_server.meaning import MeaningDecider, read
from lesson_utils.memory_server.timeframe import not_current
from lesson_utils.memory_server.store import MemoryStore, NewMemory
from lesson_utils.memory_server.updates import (
    Fact, UpdateDecider, Verdict, is_withdrawal, make_decider, masked, named_subject,
)
from lesson_utils.memory_server.updates import withdrawal as withdrawal_of


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
    ],
)
def test_the_attribute_is_read_by_meaning(decider, fact, text, attribute):
    assert decider.attribute(fact(text)) == attribute


@pytest.mark.parametrize(
    "text",
    ["Alex is a vegetarian.", "Ines's brother lives in Oslo.", "I like hiking", "Numbered memory 4 of the pager",
     "The user's dog is called Pepper.", "The user does not live in Porto."],
)
def test_things_that_are_not_a_single_valued_attribute_of_the_user(decider, fact, text):
    assert decider.attribute(fact(text)) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I'm based in Tallinn", "I've relocated to Quito"),                 # home, different verbs
        ("The user resides in Kraków.", "Ife is now living in Gdańsk."),      # "The user" vs a name
        ("Mei prefers green tea over black tea.", "Mei now prefers espresso."),  # a favourite, same kind
        ("My favourite season is autumn", "My favorite season is spring"),  # spelling varies
        ("My favourite drink is tea.", "I prefer coffee over tea these days."),  # "X over Y": Y is left
        ("Kofi rehearses on Tuesdays.", "Kofi rehearses on Thursdays."),     # schedule, changed day
        ("The user is 41 years old.", "The user is 42 years old."),          # age
        ("The user is 33.", "The user celebrated their 34th birthday on Saturday."),  # age told as a birthday
        ("I do not eat gluten", "I eat gluten"),                             # polarity flips
        ("Sam enjoys jazz", "Sam doesn't enjoy jazz"),
        ("Lisa goes rowing on Tuesdays.", "Lisa moved rowing to Saturdays."),  # rescheduled day
        ("I have a dentist appointment on 28 April", "I rescheduled my dentist appointment to 3 May"),
        ("Kofi has choir practice at 7 pm.", "Kofi has moved choir practice to 8 pm."),
        ("Ben drives a Volvo.", "Ben sold their Volvo and now drives a Kia."),  # a departure: what was sold
        ("I live in Hanoi", "I loved Hanoi but now I live in Perth"),        # "X but now Y"
        ("Ben sold their Volvo and now drives a Kia.", "Ben drives a Fiat."),  # the old one's departure is no value
        ("The user works for Halden Logistics.", "The user quit Halden and signed on with a brewery."),
        ("Ife no longer lives in Gdańsk.", "Ife lives in Gdańsk again."),    # a stored "no longer" becomes true again
    ],
)
def test_a_contradicting_fact_supersedes(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is Verdict.SUPERSEDES


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
        ("I live in Lyon", "I don't live in Porto"),                         # a negation about another value
        ("Numbered memory 4 of the pager", "Numbered memory 5 of the pager"),  # not about anyone's attribute
        ("I live in Lyon", "I live in Lyon and now work at Hooli"),          # a clause repeats it
        ("I drive a Volvo", "I sold my bike and then bought a Volvo"),       # what was sold is not the car
        ("I run on Tuesdays.", "I also run on Saturdays."),                  # "also" adds
        ("The user lives in Porto.", "The user's flat in Porto has a balcony."),  # a detail, not a new value
    ],
)
def test_facts_that_do_not_conflict_are_both_kept(decider, fact, old, new):
    assert verdict(decider, fact, old, new) is not Verdict.SUPERSEDES


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        ("The user also drives a Mini.", "The user drives a Polestar.", False),   # one more of a kind fills no slot
        ("The user owns a Mini as well.", "The user drives a Polestar.", False),
        ("The user is 23, in their second year of a PhD.", "The user is 24 now.", True),  # an ordinal adds nothing
        ("The user is twenty-three, in their second year of a PhD.", "The user is twenty-four.", True),
    ],
)
def test_a_fact_told_as_one_more_of_a_kind_is_never_replaced_but_an_ordinal_adds_nothing(decider, fact, old, new, replaced):
    assert (verdict(decider, fact, old, new) is Verdict.SUPERSEDES) is replaced


def test_a_repeat_of_a_value_is_the_same_fact(decider, fact):
    assert verdict(decider, fact, "The user lives in Tallinn.", "I'm currently based in Tallinn") is Verdict.SAME
    assert verdict(decider, fact, "Alex lives in Lyon.", "Alex lives in Porto now.") is Verdict.SUPERSEDES


@pytest.mark.parametrize(
    ("withdrawal", "stored"),
    [
        ("I don't live in Lyon any more", "The user lives in Lyon."),
        ("I do not live in Lyon anymore", "Alex lives in Lyon."),
        ("Tomas no longer works for the city council.", "Tomas works for the city council."),
        ("I'm not a locksmith any longer", "The user is a locksmith."),
        ("Kofi stopped rehearsing on Tuesdays.", "Kofi rehearses on Tuesdays."),
        ("I quit drinking espresso", "The user drinks espresso every morning."),
        ("The user quits smoking.", "The user smokes."),
    ],
)
def test_ceasing_phrasings_withdraw_the_matching_fact(decider, fact, withdrawal, stored):
    assert is_withdrawal(withdrawal)
    assert decider.retracts(fact(withdrawal), [fact(stored)]) == [True]


def test_a_withdrawal_names_a_value_or_an_attribute(decider, fact):
    assert decider.retracts(fact("I don't live in Lyon any more"), [fact("The user lives in Porto.")]) == [False]
    assert decider.retracts(fact("The user rides a bike."), [fact("The user likes tea.")]) == [False]
    stored = [fact("Kofi rehearses on Tuesdays with the brass band."), fact("Kofi rehearses on Tuesdays.")]
    assert decider.retracts(fact("Kofi rehearses on Tuesdays."), stored) == [False, True]  # the closest match


@pytest.mark.parametrize(
    ("text", "withdrawal"),
    [("I don't eat meat", False), ("I don't want any more reminders", False), ("I no longer eat meat", True),
     ("The user quit the mill and signed on with a brewery.", False),  # a change, not a withdrawal
     ("I quit my job", True), ("I'm not in the rowing club any longer", True)],
)
def test_which_texts_are_withdrawals(text, withdrawal):
    assert is_withdrawal(text) is withdrawal


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
    assert isinstance(make_decider("meaning", embedder.embed), MeaningDecider)
    with pytest.raises(ValueError, match="meaning, model"):
        make_decider("oracle", embedder.embed)


def test_without_examples_only_the_rules_decide():
    blind = MeaningDecider(None)
    old, new = Fact("Ben drives a Volvo.", np.zeros(4)), Fact("Ben sold their Volvo and bought a Kia.", np.zeros(4))
    assert blind.attribute(new) is None
    assert blind.decide(new, [old]) == [Verdict.SUPERSEDES]  # a departure needs no attribute
    assert blind.decide(Fact("Ben drives a Kia.", np.zeros(4)), [old]) == [Verdict.UNRELATED]


def test_the_one_pair_view_the_lesson_shows():
    from lesson_utils.memory_server.updates import verdict

    assert verdict("Alex lives in Lyon.", "Alex lives in Porto now.") is Verdict.SUPERSEDES
    assert verdict("Alex likes tea.", "Alex likes coffee.") is Verdict.UNRELATED
    assert verdict("Alex likes tea.", "Alex likes coffee.", decider=Scripted(Verdict.SAME)) is Verdict.SAME


# -- what a fact says, not which value it names ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "twin"),
    [
        ("The user's landline is 0131 555 2020.", "The user's landline is X."),
        ("Write to the user at kai.lund@postbox.example from now on.", "Write to the user at X from now on."),
        ("The user joined Dean & Lowe in Cardiff.", "The user joined X in X."),
        ("Priya now goes by Pri.", "The user now goes by X."),          # the user's name as the subject
        ("Saffron has become the user's favourite spice.", "Saffron has become the user's favourite spice."),
        ("Priya's brother drives a Lada.", "The user's brother drives a X."),
    ],
)
def test_the_masked_twin_keeps_the_wording_and_drops_the_values(text, twin):
    assert masked(text) == twin


def test_a_name_opening_a_fact_is_its_subject_unless_the_user_comes_later():
    assert named_subject("Ines has moved to Vigo.") == "Ines"
    assert named_subject("Saffron has become the user's favourite spice.") is None
    assert named_subject("The user lives in Vigo.") is None
    assert named_subject("Ines left their old job.") == "Ines"  # the distiller writes the named user's "my" as "their"


def test_news_told_by_name_keeps_the_name_and_the_news(embedder):
    """ "joined X and left …" once read as a withdrawal: the new employer was dropped, and the withdrawal took
    back the fact sharing the most words with it — the user's name."""
    from lesson_utils.memory_server.request_models import AddConversationRequest
    from lesson_utils.memory_server.service import MemoryService

    store = MemoryStore(None, embedding_model=embedder.model, dim=embedder.dim)
    service = MemoryService(store, embedder)
    for said in ["My name is Tove.", "I work at Fabrikam.", "I've just joined Contoso and left my old company."]:
        service.from_conversation("u", AddConversationRequest.model_validate(
            {"user_id": "u", "messages": [{"role": "user", "content": said}]}))
    current = [r.content for r in store.list_memories("u", page=1, size=10)[0]]
    assert "The user's name is Tove." in current and any("Contoso" in text for text in current)


def test_the_value_does_not_pick_the_attribute(decider, fact, embedder):
    """A partner called like a typical first name: the value alone pulls towards "name"; and a city an
    example of another attribute names ("born in a village outside Cork") does not pull a home there."""
    text = "The user's girlfriend is Oksana."
    assert decider.attribute(fact(text)) == "partner"
    assert decider.attribute(fact("The user's name is Oksana.")) == "name"
    assert decider.attribute(fact("The user is based in Cork.")) == "home"


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("My mobile number is 07123 456789.", "phone"),
        ("You can ring Dev on 555-0123.", "phone"),
        ("My email is ana.r@example.org.", "email"),
        ("My favourite podcast is Ologies.", "favourite:podcast"),  # a kind the examples never name
        ("Ada's surname is Okoro.", "surname"),
        ("I'm at Northgate Haulage these days.", "employer"),
    ],
)
def test_more_single_valued_attributes(decider, fact, text, attribute):
    assert decider.attribute(fact(text)) == attribute


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        ("The user's boyfriend is Jonah.", "The user and their boyfriend are rewatching Station Eleven this week.", False),
        ("The user's girlfriend is Ines.", "The user and Marguerite got engaged.", True),
    ],
)
def test_who_shared_a_deed_with_the_user_does_not_say_who_their_partner_is(decider, fact, old, new, replaced):
    assert (verdict(decider, fact, old, new) is Verdict.SUPERSEDES) is replaced
