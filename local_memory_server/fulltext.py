"""Full-text search over the memories table: an FTS5 index ranked by BM25, and the words it sees.

Why a module of its own: which words a query asks about (stop-words dropped), and which of them
are worth scoring at all (the postings budget below), are the decisions that make BM25 useful
and fast; they read best, and are tested best, without the rest of storage around them. The
same tokeniser makes the duplicate keys (``normalise_text``, ``content_key``), so "the same
words" means one thing everywhere in the server.

The index is an FTS5 table with the Porter stemmer ("ships" matches "ship") holding the *current*
memories only. Each row also carries an ``owner`` token derived from the user id, so a user's
query is an index intersection rather than a scan of everyone's matches. Filters (memory type,
session) join the ``memories`` table that ``rows.py`` keeps.

This class runs statements on a connection it does not own and never begins or commits a
transaction: the store serialises access and decides where transactions start and end.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# Words that carry no topic: dropped from full-text queries so "When do I usually ship?" asks
# the index about "usually ship", not about every memory containing "I".
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing don down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor not now of off on once only or other our ours ourselves out
    over own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves tell know remember recall please
    anything something thing things user users""".split()
)
_NEGATIONS = frozenset({"not", "no", "nor", "don", "t"})
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
#: Most distinct terms one query asks the index about.
MAX_QUERY_TERMS = 64
#: Most posting-list entries one full-text query scores (see ``FullTextIndex.plan``).
TEXT_POSTINGS_BUDGET = 3_000

_SCHEMA = "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5 (owner, content, tokenize = 'porter unicode61')"


def normalise_text(text: str) -> str:
    """The exact-duplicate key: case, spacing and trailing punctuation do not make a new memory."""
    return " ".join(_TOKEN.findall(text.casefold()))


def query_terms(text: str) -> list[str]:
    """The distinct topic words of a query, in order: stop-words and punctuation dropped."""
    terms = [t for t in _TOKEN.findall(text.casefold()) if t not in STOPWORDS]
    return list(dict.fromkeys(terms))[:MAX_QUERY_TERMS]


def content_key(text: str) -> frozenset[str]:
    """The topic words of a text, crudely stemmed: equal keys mean "says the same thing"."""
    return frozenset(
        t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t
        for t in _TOKEN.findall(text.casefold())
        if t not in STOPWORDS or t in _NEGATIONS
    )


@lru_cache(maxsize=4096)
def owner_token(user_id: str) -> str:
    """The user's token in the index: one word, so any user id (spaces, quotes, scripts) is safe.

    Cached: every insert and most queries of a user need it."""
    return "u" + hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:24]


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


class FullTextIndex:
    """The FTS5 mirror of the current memories, and the planner of its BM25 queries."""

    def __init__(self, db: sqlite3.Connection, *, postings_budget: int = TEXT_POSTINGS_BUDGET) -> None:
        self._db = db
        self.postings_budget = postings_budget
        db.execute(_SCHEMA)
        # BM25 over the content column only (the owner column is a filter, weight 0).
        db.execute("INSERT INTO memories_fts (memories_fts, rank) VALUES ('rank', 'bm25(0.0, 1.0)')")
        self._df_cache: dict[str, tuple[int, int]] = {}
        self._per_user: dict[str, int] = {}
        self.rows = 0
        self.recount()

    def recount(self) -> None:
        """Count the indexed (current) memories per user again, e.g. after a rolled-back write."""
        self._per_user = dict(
            self._db.execute("SELECT user_id, count(*) FROM memories WHERE invalid_at IS NULL GROUP BY user_id")
        )
        self.rows = sum(self._per_user.values())

    def rows_of(self, user_id: str) -> int:
        return self._per_user.get(user_id, 0)

    # -- writes (inside the caller's transaction) ---------------------------------------------

    def add(self, seq: int, user_id: str, content: str) -> None:
        self._db.execute(
            "INSERT INTO memories_fts (rowid, owner, content) VALUES (?, ?, ?)", (seq, owner_token(user_id), content)
        )
        self._per_user[user_id] = self._per_user.get(user_id, 0) + 1
        self.rows += 1

    def remove(self, user_id: str, seqs: Sequence[int]) -> None:
        """Take the user's memories ``seqs`` (all currently indexed) out of the index."""
        self._db.executemany("DELETE FROM memories_fts WHERE rowid = ?", [(s,) for s in seqs])
        self._per_user[user_id] = self._per_user.get(user_id, 0) - len(seqs)
        self.rows -= len(seqs)

    # -- reads ---------------------------------------------------------------------------------

    def search(
        self,
        user_id: str,
        query: str,
        limit: int,
        *,
        memory_type: str | None = None,
        session_id: str | None = None,
    ) -> list[int]:
        """BM25 ranking (best first) of the user's memories sharing a stemmed term with ``query``."""
        terms = query_terms(query)
        if not terms:
            return []
        terms, capped = self.plan(terms)
        content = "content : (" + " OR ".join(_phrase(t) for t in terms) + ")"
        # The owner token makes a user's query an index intersection, which pays off when the user
        # owns a minority of the rows; when they own most of them, filtering the joined rows is cheaper.
        mine = self.rows_of(user_id)
        use_owner = mine * 2 <= self.rows
        only_user = mine == self.rows  # a one-user store needs no user filter at all
        match = f'owner : "{owner_token(user_id)}" AND {content}' if use_owner else content
        args: list[Any] = [match]
        extra = []
        filter_rows = not use_owner and not only_user
        if filter_rows:
            extra.append("m.user_id = ?")
            args.append(user_id)
        if memory_type is not None:
            extra.append("m.memory_type = ?")
            args.append(memory_type)
        if session_id is not None:
            extra.append("m.session_id = ?")
            args.append(session_id)
        sql = "SELECT f.rowid AS seq, f.rank AS score FROM memories_fts f"
        if extra:
            sql += " JOIN memories m ON m.seq = f.rowid"
        sql += " WHERE memories_fts MATCH ?"
        if extra:
            sql += " AND " + " AND ".join(extra)
        if capped:  # even the rarest term is common: rank only its newest matches
            sql = f"SELECT seq FROM ({sql} ORDER BY f.rowid DESC LIMIT {self.postings_budget}) ORDER BY score LIMIT ?"
        else:
            sql += " ORDER BY f.rank LIMIT ?"
        args.append(limit)
        return [r[0] for r in self._db.execute(sql, args)]

    def plan(self, terms: list[str]) -> tuple[list[str], bool]:
        """The query terms to score, rarest first, within a budget of posting-list entries.

        Scoring a term costs one step per memory containing it, and a very common term (a
        user's own name can be in nearly every memory) carries almost no BM25 weight. So terms
        are taken from the rarest up while their document frequencies add up to at most
        ``postings_budget``; the rarest term is always kept. If even that one is more common
        than the budget (``capped``), only its newest matches are ranked. Below the budget —
        every store of lesson size — nothing is dropped and the ranking is plain BM25. Document
        frequencies are cached until the index grows or shrinks by a tenth.
        """
        rows = self.rows
        if rows <= self.postings_budget:
            return terms, False
        dfs = {}
        for term in terms:
            cached = self._df_cache.get(term)
            if cached is None or abs(rows - cached[1]) > cached[1] // 10:
                df = self._db.execute(
                    "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", ("content : " + _phrase(term),)
                ).fetchone()[0]
                if len(self._df_cache) > 50_000:
                    self._df_cache.clear()
                cached = self._df_cache[term] = (df, rows)
            dfs[term] = cached[0]
        ordered = sorted(terms, key=lambda t: dfs[t])
        kept, spent = [ordered[0]], dfs[ordered[0]]
        for term in ordered[1:]:
            if spent + dfs[term] > self.postings_budget:
                break
            kept.append(term)
            spent += dfs[term]
        return kept, spent > self.postings_budget
