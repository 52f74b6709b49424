"""Hybrid search ranks by fusion and similarity alone: no reading of who or when a memory is about.

RRF of the two arms picks the candidates and the query's cosine similarity orders them (``search.py`` has the
dev figures that chose this order). The English readers that once re-ranked the pool (``subject.py``,
``timeframe.py``, an attribute lookup) read "The user's line manager is Priya" as someone else's memory and
ranked unrelated notes above it; these tests fail on that ranking.
"""

from __future__ import annotations

from cortadel import AddOptions, SearchOptions, SyncCortadelClient

from local_memory_server.search import search

WORK_NOTES = ["The user reorganised the kitchen cupboards.", "The user booked a dentist appointment for Monday.",
              "The user's team moved to the third floor.", "The user finished the quarterly report on supplier costs.",
              "The user's desk is next to the printer.", "The user starts work at eight most mornings.",
              "The user had lunch with a new colleague."]
MANAGER = "The user's line manager is Priya Raman."


def _client(server, user, facts):
    client = SyncCortadelClient(server.url, user)
    for fact in facts:
        client.add(fact, AddOptions(infer=False))
    return client


def _top(client, query, k=5):
    return [h.content for h in client.search(query, SearchOptions(mode="hybrid", top_k=k)).results]


def test_the_memory_naming_the_users_manager_ranks_first_for_a_question_about_the_manager(server):
    with _client(server, "kai", [MANAGER, *WORK_NOTES]) as kai:
        assert _top(kai, "What's my manager's name?")[0] == MANAGER
        assert _top(kai, "Who is my boss?")[0] == MANAGER


def test_a_hit_only_the_text_arm_found_gets_its_similarity_and_relevance_from_its_stored_vector(server):
    with _client(server, "kai", [MANAGER, *WORK_NOTES]):
        service = server.service  # a similarity floor no memory reaches: the vector arm ranks nothing
        hits = search(service.store, service.embedder, "kai", "Priya", top_k=5, min_similarity=0.99)
    assert [(h.record.content, h.text_rank, h.vector_rank) for h in hits] == [(MANAGER, 1, None)]
    assert 0.2 < hits[0].similarity < 0.99 and 0.0 <= hits[0].relevance <= 1.0


def test_a_paraphrase_only_the_vectors_found_ranks_above_memories_that_share_one_common_word(server):
    # BM25 matches "play" in every outing; plain RRF ranked those (found weakly by both arms) above the answer
    outings = [f"The user saw a play {where} with {name}." for where, name in
               (("at the Old Vic", "Mia"), ("about a lighthouse keeper", "Raj"), ("in the park", "Lea"),
                ("in a pub theatre", "Theo"))]
    with _client(server, "ren", [*outings, "The user has taken up the cello."]) as ren:
        hits = ren.search("What instrument do I play?", SearchOptions(mode="hybrid", top_k=5)).results
    assert hits[0].content == "The user has taken up the cello."
    # the order is the query's similarity, not the fused score: the outings both arms found score higher in RRF
    sims = [h.attributes["similarity"] for h in hits]
    assert sims == sorted(sims, reverse=True) and hits[0].rrf_score < max(h.rrf_score for h in hits[1:])
