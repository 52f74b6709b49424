"""The local server's per-hit relevance: present, a probability, calibrated, and left out where it cannot hold."""

from __future__ import annotations

import numpy as np
import pytest
from cortadel import AddOptions, SearchOptions, SyncCortadelClient

from lesson_utils.cortadel.gating import RELEVANCE_FLOOR
from local_memory_server import relevance, start_memory_server
from local_memory_server.embeddings import HashingEmbedder
from tests.bench_scripts import load_bench_script

FACTS = [
    "Alex is allergic to latex.", "Alex has a cat named Juniper.", "Alex bakes bread on Saturdays.",
    "Alex's neighbour has a horse called Ivy.", "Alex plays the oboe in a band.", "Alex lives in Tunis.",
]


@pytest.fixture
def alex(server):
    with SyncCortadelClient(server.url, "alex") as client:
        for fact in FACTS:
            client.add(fact, AddOptions(infer=False))
        yield client


@pytest.mark.parametrize("mode", ["hybrid", "vector"])
def test_every_hit_carries_a_relevance_in_zero_to_one(alex, mode):
    hits = alex.search("What am I allergic to?", SearchOptions(mode=mode, top_k=6)).results
    assert hits and all(0.0 <= h.attributes["relevance"] <= 1.0 for h in hits)


def test_text_mode_leaves_it_out_because_it_has_no_query_embedding(alex):
    hits = alex.search("allergic latex", SearchOptions(mode="text")).results
    assert hits and all("relevance" not in (h.attributes or {}) for h in hits)


# A history of realistic size: the default floor was chosen on users with hundreds of memories.
PEOPLE = ["Ivan", "Mia", "Raj", "Lea", "Theo", "Ana", "Finn", "Noor", "Kai", "Rosa"]
OTHERS = [f"{who} from their book club {what}." for who in PEOPLE for what in (
    "lives in Perth", "works as a welder", "goes climbing on Sundays", "loves curry", "drives a Skoda",
    "just turned 41", "plays chess on Tuesdays", "has a dog called Rex", "has a cat named Olive",
    "rides horses at weekends", "is allergic to shellfish",
)]
EVERYDAY = ["Alex watched a documentary about glaciers.", "Alex fixed their bicycle chain yesterday.",
            "Alex had soup for dinner.", "Alex bought a wool blanket at the market.", "Alex keeps a journal."]


def test_the_answer_clears_the_default_floor_and_the_near_miss_about_someone_else_does_not(alex):
    for text in OTHERS + EVERYDAY:
        alex.add(text, AddOptions(infer=False))
    answered = {h.content: h.attributes["relevance"] for h in alex.search("What am I allergic to?").results}
    assert answered.pop("Alex is allergic to latex.") >= RELEVANCE_FLOOR > max(answered.values())  # others' allergies
    unanswerable = {h.content: h.attributes["relevance"] for h in alex.search("What is my horse called?").results}
    assert "Alex's neighbour has a horse called Ivy." in unanswerable and max(unanswerable.values()) < RELEVANCE_FLOOR


def test_a_small_store_fails_open_the_answer_is_never_below_the_floor(alex):
    for question, answer in [("What am I allergic to?", "Alex is allergic to latex."),
                             ("What instrument do I play?", "Alex plays the oboe in a band."),
                             ("Where do I live?", "Alex lives in Tunis.")]:
        hits = alex.search(question, SearchOptions(top_k=5)).results
        assert hits[0].content == answer and hits[0].attributes["relevance"] >= RELEVANCE_FLOOR


def test_an_embedder_it_was_not_fitted_on_gets_no_relevance():
    with start_memory_server(embedder=HashingEmbedder()) as other, SyncCortadelClient(other.url, "alex") as client:
        client.add("Alex lives in Tunis.", AddOptions(infer=False))
        hits = client.search("Where does Alex live?").results
    assert hits and all("relevance" not in (h.attributes or {}) for h in hits)


def test_background_is_the_mean_of_the_best_padded_with_the_prior():
    assert relevance.background([]) == pytest.approx(relevance.PRIOR_SIMILARITY)
    many = [0.9] * relevance.BACKGROUND + [0.0] * 10
    assert relevance.background(many) == pytest.approx(0.9)
    one = relevance.background([0.5])
    assert one == pytest.approx((0.5 + (relevance.BACKGROUND - 1) * relevance.PRIOR_SIMILARITY) / relevance.BACKGROUND)


@pytest.mark.parametrize("query, content, expected", [
    ("What is my horse called?", "The user's neighbour has a horse called Ivy.", True),
    ("Where do I work?", "The user's old schoolmate Yusuf works as an electrician.", True),
    ("Where do I live?", "Mia from their book club lives in Tunis.", True),
    ("What's my sister's name?", "The user's sister is called Leila.", False),
    ("Who is my neighbour?", "The user's neighbour Raj lives in Seville.", False),
    ("Which dish do I like most?", "Kenji's favourite food is moussaka.", False),
    ("Where do I live?", "The user lives in Oslo.", False),
])
def test_about_someone_else_reads_the_possessive_subject(query, content, expected):
    assert relevance.about_someone_else(query, content) is expected


def test_probability_is_in_zero_to_one_and_rises_with_contrast_and_falls_for_other_people_and_the_past():
    low, high = relevance.probability((-1.0, 0.0, 0.0)), relevance.probability((0.5, 0.0, 0.0))
    assert 0.0 <= low < high <= 1.0
    assert relevance.probability((0.3, 1.0, 0.0)) < relevance.probability((0.3, 0.0, 0.0))
    assert relevance.probability((0.3, 0.0, 1.0)) < relevance.probability((0.3, 0.0, 0.0))
    assert relevance.probability((-100.0, 1.0, 1.0)) == 0.0


def test_the_fit_recovers_a_known_logistic_model():
    fit_relevance = load_bench_script("fit_relevance")
    rng = np.random.default_rng(0)
    x = np.column_stack([rng.normal(0, 0.3, 20_000), rng.integers(0, 2, 20_000)])
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(-2.0 + 8.0 * x[:, 0] - 3.0 * x[:, 1])))).astype(float)
    intercept, weights = fit_relevance.fit(x, y, l2=0.0)
    assert intercept == pytest.approx(-2.0, abs=0.2) and weights == pytest.approx([8.0, -3.0], abs=0.4)


@pytest.mark.slow
def test_refitting_on_the_dev_data_reproduces_the_shipped_constants():
    """``bench/fit_relevance.py`` on the data ``FITTED_ON`` names gives the constants in ``relevance.py``."""
    fit_relevance = load_bench_script("fit_relevance")
    intercept, weights = fit_relevance.fit(*fit_relevance.collect(fit_relevance.dev_cases()))
    shipped = [relevance.INTERCEPT, *(relevance.COEFFICIENTS[name] for name in relevance.FEATURES)]
    assert [intercept, *weights] == pytest.approx(shipped, abs=fit_relevance.TOLERANCE)
