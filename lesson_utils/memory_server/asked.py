"""Which of the user's single-valued attributes a question asks about: "What do I do for a living?" asks the job.

Why: a question and the fact that answers it can be far apart for the embedding model and share no word.
"What do I do for a living?" and "The user retrained and now works as a welder" have a cosine similarity of
0.10; in a history of 500 memories, dozens are nearer, and BM25 matches "living" in "lived right above the
pharmacy". But the update decider has already read that fact as the user's current job: it is the row's
``slot`` (``meaning.py``), and the fact it replaced is no longer current. So a question that asks about an
attribute is answered by the user's current memories in that slot, wherever the arms ranked them
(``search.py`` puts them first).

The question is compared with labelled example questions (``data/question_exemplars.txt``, embedded once per
embedding model and process), and the nearest examples vote as the decider's do (``meaning.poll``). The examples
were written by someone who had seen no history, question or lesson: 13 or so for each single-valued attribute, in
many people's ways of asking ("remind me which company I'm with", "my email?", "hw old am i"), and 86 near misses
labelled ``other`` (someone else's job, the first car, the pets; three on a birthday's date, which is no age, were
added later). A question asks about the attribute its vote backs, when the nearest example is close enough. A near
miss that is someone else's by a relation word ("What's my son's favourite food?") does not vote on a question with
none: it is near the user's own question by all its other words, and the first rule below answers questions about
others. A favourite is one per kind: the kind the question names ("favourite podcast", "Which dish do I like most?":
food, in the decider's words) is the slot; a question that names none asks about every favourite. A preference word
(``meaning.PREFERENCE``: "Which sport do I enjoy the most?", "my drink of choice") asks for a favourite when the
vote names no other attribute: it is near "What sports do I play?", a many-valued near miss.

Two rules keep a near miss from asking about the user's now, because the vote cannot see them reliably:

* a relation word ("What does my brother do?", "my boss's name") makes it someone else's question, unless the
  word is a partner's and the vote is ``partner`` ("What's my wife called?");
* a question not about now (``timeframe.about_now``: "What was my first car?", "Where did I live before?")
  asks about no current value.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import numpy as np

from .meaning import KIND_SYNONYMS, PREFERENCE, SINGLE_VALUED, labelled_lines, poll, read
from .subject import PARTNER, RELATION
from .timeframe import about_now

__all__ = ["QUESTION_EXEMPLARS", "asked_attribute"]

QUESTION_EXEMPLARS = Path(__file__).with_name("data") / "question_exemplars.txt"
#: How close the nearest example question must be (cosine), and how much of the vote the attribute needs.
MIN_SIMILARITY, MIN_SHARE = 0.5, 0.5
_RELATION = re.compile(rf"\b(?:{RELATION})\b", re.IGNORECASE)
_PARTNER = re.compile(rf"\b(?:{PARTNER})\b", re.IGNORECASE)
#: The kind a question about a favourite names without the word "favourite": "Which dish do I like most?"
_KIND_ASKED = re.compile(r"\b(?:what|which)\s+([a-z]+)\s+(?:do|does|am|is|are|would)\b", re.IGNORECASE)
_EXAMPLES: dict[str, tuple[tuple[str, ...], np.ndarray, np.ndarray]] = {}
_LOCK = threading.Lock()


def asked_attribute(embedder: Any, query: str, query_vector: np.ndarray) -> str | None:
    """The single-valued attribute (``meaning.SINGLE_VALUED``: "job", "home" …) that ``query`` asks the user's
    current value of, or None; a favourite of the kind the query names ("favourite:food" for "Which dish do I
    like most?"), or of any kind. ``query_vector`` is the query's embedding by ``embedder``."""
    if not about_now(query):
        return None
    labels, matrix, kin = _examples(embedder)
    if matrix.shape[1] != np.asarray(query_vector).shape[-1]:
        return None
    similarities = matrix @ np.asarray(query_vector, dtype=np.float32)
    relation = _RELATION.search(query)
    if relation is None:  # "What's my son's favourite food?" is near "What's my favourite food?" by its other words;
        similarities = np.where(kin, -1.0, similarities)  # the rule below answers a question about someone else
    votes = poll(similarities, labels, MIN_SIMILARITY)
    label = max(votes, key=votes.__getitem__) if votes else None
    if label not in SINGLE_VALUED or votes[label] < MIN_SHARE:
        if not PREFERENCE.search(query):
            return None
        label = "favourite"  # "Which sport do I enjoy the most?" asks for one, however near "What sports do I play?"
    if relation is not None and not (label == "partner" and _PARTNER.fullmatch(relation.group(0))):
        return None  # "What does my brother do?" asks about the brother
    if label == "favourite":
        kind = read(query).kind  # in the decider's words already
        if kind is None and (named := _KIND_ASKED.search(query)) is not None:
            kind = KIND_SYNONYMS.get(named.group(1).casefold(), named.group(1).casefold())
        return f"favourite:{kind}" if kind else label
    return label


def _examples(embedder: Any) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The example questions' labels and vectors, embedded once per embedding model, and which are near misses for
    a relation word they name ("What does my brother do?")."""
    key = str(getattr(embedder, "model", id(embedder)))
    with _LOCK:
        if key not in _EXAMPLES:
            labels, texts = zip(*labelled_lines(QUESTION_EXEMPLARS), strict=True)
            kin = np.array([label == "other" and _RELATION.search(text) is not None
                            for label, text in zip(labels, texts, strict=True)])
            _EXAMPLES[key] = labels, np.asarray(embedder.embed(list(texts)), dtype=np.float32), kin
        return _EXAMPLES[key]
