"""Search modes, rank fields, filters, rerank and token budget; list pagination; scoped delete."""

from __future__ import annotations

import time

import pytest
from cortadel import AddOptions, ChatMessage, ConversationOptions, ListOptions, SearchOptions, SyncCortadelClient


FACTS = ["Alex ships on Fridays", "Alex's cat is called Pixel", "Alex went to Rome last year",
         "To deploy, always run the smoke tests first", "Alex drinks green tea"]


@pytest.fixture
def client(server):
    with SyncCortadelClient(server.url, "alex") as c:
        c.ids = {text: c.add(text).id for text in FACTS}
        yield c


def test_modes_fill_their_own_rank_fields(client):
    text = client.search("Pixel", SearchOptions(mode="text")).results
    assert [h.content for h in text] == ["Alex's cat is called Pixel"]
    assert text[0].text_rank == 1 and text[0].vector_rank is None
    vector = client.search("my kitten", SearchOptions(mode="vector", top_k=2)).results
    assert vector[0].content == "Alex's cat is called Pixel"
    assert all(h.text_rank is None for h in vector)
    assert [h.vector_rank for h in vector] == list(range(1, len(vector) + 1))
    hybrid = client.search("cat Pixel", SearchOptions(top_k=3)).results
    assert hybrid[0].text_rank == 1 and hybrid[0].vector_rank == 1
    assert hybrid[0].rrf_score == pytest.approx(2 / 61)  # 1/(60+1) from each arm
    assert [h.rrf_score for h in hybrid] == sorted((h.rrf_score for h in hybrid), reverse=True)


def test_stemming_matches_word_forms(client):
    hits = client.search("shipping", SearchOptions(mode="text")).results
    assert [h.content for h in hits] == ["Alex ships on Fridays"]


def test_memory_type_filter_and_classification(client):
    episodic = client.search("holiday in Italy", SearchOptions(memory_type="episodic")).results
    assert [h.content for h in episodic] == ["Alex went to Rome last year"]
    procedural = client.search("deployment checklist", SearchOptions(memory_type="procedural")).results
    assert [h.content for h in procedural] == ["To deploy, always run the smoke tests first"]
    unfiltered = [h.id for h in client.search("Alex", SearchOptions(top_k=10)).results]
    assert len(unfiltered) >= 4
    assert [h.id for h in client.search("Alex", SearchOptions(memory_type="bogus", top_k=10)).results] == unfiltered


def test_session_filter_and_conversation_tags(server, client):
    result = client.add_conversation(
        [ChatMessage("user", "I play the cello.", "u-1"), ChatMessage("assistant", "Nice!", "a-1")],
        ConversationOptions(tags=["music"], project="orchestra", session_id="s-42", transcript_path="/t/1.jsonl"),
    )
    fact_id = result.results[0].id
    hits = client.search("instrument", SearchOptions(session_id="s-42")).results
    assert [h.id for h in hits] == [fact_id]
    hit = hits[0]
    assert hit.tags == ["music"] and hit.project_id == "orchestra" and hit.gist == "The user plays the cello."
    assert hit.attributes["source_turn_uuids"] == ["u-1"] and hit.attributes["session_id"] == "s-42"
    assert hit.attributes["transcript_path"] == "/t/1.jsonl"
    assert client.search("instrument", SearchOptions(session_id="other")).results == []


def test_rerank_is_accepted_and_reorders_by_similarity(client):
    plain = client.search("tea", SearchOptions(top_k=5)).results
    reranked = client.search("tea", SearchOptions(top_k=5, rerank="cross_encoder")).results
    assert {h.id for h in plain} == {h.id for h in reranked}
    assert reranked[0].content == "Alex drinks green tea"
    assert all(h.attributes["rerank"] == "cosine" for h in reranked)
    sims = [h.attributes["similarity"] for h in reranked]
    assert len(sims) > 1 and sims == sorted(sims, reverse=True)


def test_token_budget_drops_the_lowest_ranked(http, client):
    full = http.post("/api/v1/memories/search", json={"user_id": "alex", "query": "Alex", "top_k": 5}).json()
    cut = http.post("/api/v1/memories/search",
                    json={"user_id": "alex", "query": "Alex", "top_k": 5, "token_budget": 12}).json()
    assert [r["id"] for r in cut["results"]] == [r["id"] for r in full["results"]][: len(cut["results"])]
    assert 0 < cut["total"] < full["total"]


def test_list_is_newest_first_with_pages(server):
    with SyncCortadelClient(server.url, "pager") as c:
        ids = []
        for i in range(7):
            ids.append(c.add(f"Numbered memory {i} of the pager", AddOptions(app="bench")).id)
            time.sleep(0.002)
        first = c.list(ListOptions(page=1, size=3))
        assert (first.total, first.pages, first.page, first.size) == (7, 3, 1, 3)
        pages = [first] + [c.list(ListOptions(page=p, size=3)) for p in (2, 3)]
        assert [i.id for p in pages for i in p.items] == ids[::-1]
        assert c.list(ListOptions(page=4, size=3)).items == []
        assert c.list(ListOptions(app_id="bench")).total == 7 and c.list(ListOptions(app_id="x")).total == 0
        found = c.list(ListOptions(search_query="memory 3 pager", size=1))
        assert found.items[0].id == ids[3]


def test_list_filters_by_category(server):
    with SyncCortadelClient(server.url, "cats") as c:
        c.add("Cats likes pizza")  # food + preferences
        c.add("Cats has a dog")  # pets
        assert [i.content for i in c.list(ListOptions(categories="food")).items] == ["Cats likes pizza"]
        assert c.list(ListOptions(categories="food,pets")).total == 0


def test_delete_is_scoped_to_the_user(server, client):
    with SyncCortadelClient(server.url, "mallory") as other:
        assert other.delete(list(client.ids.values())) == "Deleted 0 memories."
    assert client.list().total == 5
    assert client.delete([client.ids["Alex drinks green tea"], client.ids["Alex ships on Fridays"]]) == \
        "Deleted 2 memories."
    assert client.list().total == 3
    assert client.search("tea", SearchOptions(mode="text")).results == []  # gone from the text index
    assert all(h.content != "Alex drinks green tea" for h in client.search("tea").results)  # and vectors


def test_users_do_not_see_each_others_memories(server, client):
    with SyncCortadelClient(server.url, "sam") as sam:
        assert sam.search("Alex ships on Fridays").results == []
        assert sam.list().total == 0
        assert sam.get(client.ids["Alex ships on Fridays"]) is None
