"""The memories table and its full-text index alone: SQLite only, no vectors, no embedder."""

from __future__ import annotations

import numpy as np
import pytest

from local_memory_server.fulltext import FullTextIndex, normalise_text, query_terms
from local_memory_server.rows import MemoryRows, NewMemory, now

NO_VECTOR = np.zeros(4, dtype=np.float32)  # rows keep an embedding; nothing here reads it


class Table:
    """The rows and the full-text index over one connection, written as the store writes them."""

    def __init__(self, *, postings_budget: int = 3_000) -> None:
        self.rows = MemoryRows(None)
        self.text = FullTextIndex(self.rows.db, postings_budget=postings_budget)

    def add(self, user: str, *texts: str, **fields) -> list[int]:
        seqs = []
        for text in texts:
            record = self.rows.insert(NewMemory(user_id=user, content=text, memory_type="semantic", **fields),
                                      NO_VECTOR, norm=normalise_text(text), model="none", at=now())
            self.text.add(record.seq, user, text)
            seqs.append(record.seq)
        return seqs

    def found(self, user: str, query: str, limit: int = 50, **filters) -> list[str]:
        seqs = self.text.search(user, query, limit, **filters)
        records = self.rows.fetch(seqs)
        return [records[s].content for s in seqs]


def test_query_terms_drop_stop_words_and_repeats():
    assert query_terms("When do I usually ship? I ship on Fridays!") == ["usually", "ship", "fridays"]
    assert query_terms("What do you know about me?") == []
    assert query_terms("Café — naïve 東京") == ["café", "naïve", "東京"]


def test_bm25_ranks_the_fuller_and_rarer_match_first_and_stems_words():
    table = Table()
    table.add("u", "Alex ships the billing service on Fridays", "Alex likes green tea", "Alex paints the green door",
              "Sam drinks tea", "Sam reads about astronomy")
    found = table.found("u", "green tea")
    assert found[0] == "Alex likes green tea"  # both terms beat either one
    assert sorted(found[1:]) == ["Alex paints the green door", "Sam drinks tea"]
    assert table.found("u", "When do they ship?") == ["Alex ships the billing service on Fridays"]  # stemmed
    assert table.found("u", "When does Alex ship?")[0] == "Alex ships the billing service on Fridays"
    assert table.found("u", "Alex astronomy")[0] == "Sam reads about astronomy"  # the rare term outweighs "Alex"
    assert table.found("u", "What do you remember?") == []  # only stop-words: no query at all
    # FTS5 syntax in a query is just words: no error, no operator.
    assert sorted(table.found("u", 'tea" NOT (owner : * -')) == ["Alex likes green tea", "Sam drinks tea"]


def test_the_index_is_scoped_to_the_user_on_every_query_plan():
    table = Table()
    table.add("solo", "solo eats kiwi")
    assert table.found("solo", "kiwi") == ["solo eats kiwi"]  # the only user: no filter needed
    assert table.found("nobody", "kiwi") == []
    table.add("major", *[f"major eats kiwi {i}" for i in range(5)])  # owns most rows: filtered through the join
    table.add("minor", "minor eats kiwi")  # owns few rows: filtered by the owner token
    assert sorted(table.found("major", "kiwi")) == [f"major eats kiwi {i}" for i in range(5)]
    assert table.found("minor", "kiwi") == ["minor eats kiwi"]
    assert table.found("solo", "kiwi") == ["solo eats kiwi"]
    assert table.found("nobody", "kiwi") == []


def test_filters_by_memory_type_and_session_join_the_rows():
    table = Table()
    table.add("u", "kiwi in session one", session_id="one")
    table.add("u", "kiwi in session two", session_id="two")
    assert table.found("u", "kiwi", session_id="two") == ["kiwi in session two"]
    assert table.found("u", "kiwi", memory_type="episodic") == []
    assert len(table.found("u", "kiwi", memory_type="semantic")) == 2


def test_common_terms_are_dropped_beyond_the_postings_budget():
    table = Table(postings_budget=50)
    table.add("u", *[f"Alex noted detail number {i}" for i in range(299)], "Alex has a cat called Pixel")
    assert table.text.plan(["alex", "pixel"]) == (["pixel"], False)  # "alex" is in every memory
    assert table.text.plan(["alex"]) == (["alex"], True)  # too common alone: newest matches only
    assert table.found("u", "Is Alex's cat Pixel?", 5) == ["Alex has a cat called Pixel"]
    assert sorted(table.text.search("u", "Alex", 300)) == list(range(251, 301))  # the 50 newest, BM25-ranked
    table.text.postings_budget = 10_000  # under the budget nothing is dropped
    assert table.text.plan(["alex", "pixel"]) == (["alex", "pixel"], False)


def test_invalidated_rows_leave_the_index_but_stay_in_the_history():
    table = Table()
    [old] = table.add("u", "Noor lives in Tallinn")
    [new] = table.add("u", "Noor lives in Quito")
    at = now() + 0.5
    table.rows.invalidate("u", [old], at, superseded_by=table.rows.fetch([new])[new].id)
    table.text.remove("u", [old])
    assert table.found("u", "Noor lives") == ["Noor lives in Quito"]
    assert table.text.rows_of("u") == 1 and table.text.rows == 1
    table.text.recount()  # counted from the rows again: the same
    assert table.text.rows_of("u") == 1 and table.text.rows == 1
    current, total = table.rows.page("u", page=1, size=10)
    assert [r.content for r in current] == ["Noor lives in Quito"] and total == 1
    history, total = table.rows.page("u", page=1, size=10, include_superseded=True)
    assert total == 2 and {r.seq for r in history} == {old, new}
    then, _ = table.rows.page("u", page=1, size=10, as_of=at - 0.1)  # both were current then, newest first
    assert [r.content for r in then] == ["Noor lives in Quito", "Noor lives in Tallinn"]
    since, _ = table.rows.page("u", page=1, size=10, as_of=at + 0.1)
    assert [r.content for r in since] == ["Noor lives in Quito"]
    assert table.rows.fetch([old])[old].superseded_by == table.rows.fetch([new])[new].id


def test_rows_find_exact_duplicates_and_owned_ids_per_user():
    table = Table()
    [seq] = table.add("u", "Alex ships on Fridays.")
    assert table.rows.current_duplicate("u", normalise_text("  alex SHIPS on fridays ")).seq == seq
    assert table.rows.current_duplicate("other", normalise_text("Alex ships on Fridays")) is None
    mid = table.rows.fetch([seq])[seq].id
    assert table.rows.owned("u", [mid, "missing"]) == [(seq, True)]
    assert table.rows.owned("other", [mid]) == []
    assert table.rows.get("other", mid) is None and table.rows.get("u", mid).content == "Alex ships on Fridays."


def test_latest_attribute_follows_inserts_and_forgets_on_invalidation():
    table = Table()
    [first] = table.add("u", "I am Alex", attributes={"name": "Alex"})
    assert table.rows.latest_attribute("u", "name") == "Alex"
    [second] = table.add("u", "Call me Al", attributes={"name": "Al"})
    assert table.rows.latest_attribute("u", "name") == "Al"  # the cached value follows the insert
    table.rows.invalidate("u", [second], now(), None)
    assert table.rows.latest_attribute("u", "name") == "Alex"
    table.rows.delete("u", [first])
    assert table.rows.latest_attribute("u", "name") is None  # forgotten on delete too
    assert table.rows.latest_attribute("someone", "name") is None
    with pytest.raises(ValueError, match="lower-case identifiers"):
        table.rows.latest_attribute("u", "name') --")
