"""Retrieval quality with the real embedder: paraphrased questions find their facts."""

from __future__ import annotations

import json
from pathlib import Path

from cortadel import AddOptions, CortadelClient, SearchOptions

EVAL = json.loads((Path(__file__).parent / "data" / "recall_eval.json").read_text(encoding="utf-8"))


async def test_recall_at_5_on_the_evaluation_set(server):
    items = EVAL["items"]
    assert len(items) >= 30
    async with CortadelClient(server.url, EVAL["user_id"]) as client:
        ids = {}
        for item in items:
            created = await client.add(item["fact"], AddOptions(infer=False))
            assert created.event == "ADD", item
            ids[created.id] = item["fact"]
        misses = []
        for item in items:
            hits = (await client.search(item["question"], SearchOptions(top_k=5))).results
            if item["fact"] not in [ids.get(h.id) for h in hits]:
                misses.append((item["question"], [h.content for h in hits]))
    recall = 1 - len(misses) / len(items)
    print(f"recall@5 = {recall:.3f} over {len(items)} questions; misses: {misses}")
    assert recall >= 0.9, misses


async def test_paraphrase_is_found_by_hybrid_search(server):
    async with CortadelClient(server.url, "alex") as client:
        for text in ["Alex ships on Fridays", "Alex has a cat named Pixel", "Alex lives in Lyon",
                     "Alex is allergic to peanuts"]:
            await client.add(text)
        hits = (await client.search("When do I usually ship?", SearchOptions(top_k=1))).results
    assert [h.content for h in hits] == ["Alex ships on Fridays"]


async def test_from_conversation_facts_are_recalled_in_a_later_question(server):
    from cortadel import ChatMessage

    async with CortadelClient(server.url, "alex") as client:
        await client.add_conversation([ChatMessage("user", "Hi, I'm Alex. I usually ship on Fridays.")])
        await client.add_conversation([ChatMessage("user", "My dog Rex loves the beach.")])
        hits = (await client.search("What pet do I have?", SearchOptions(top_k=1))).results
    assert hits[0].content == "Alex's dog Rex loves the beach."  # the stored name makes later facts self-contained
