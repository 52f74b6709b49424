"""Follow-ups on the scorecard: asked after their first question, they need the query rewritten.

A small history on a real local server: the seed's one search per turn with the turn's own words
misses the follow-up's evidence, ``hybrid+rewrite`` finds it, and a question that stands alone is
searched as it is in both modes (the previous question does not leak into it).
"""

from __future__ import annotations

import asyncio

import pytest

from memory_evaluation import run_scorecard
from memory_evaluation.dataset import Case, Question, Session, Turn

SAID = ["I spent a week hiking in the Dolomites in June.", "My sister Noor got married in September.",
        "The boiler was repaired in February.", "I adopted a cat called Miso in April.",
        "I work as a sound engineer.", "My favourite dish is mushroom risotto."]


@pytest.fixture(scope="module")
def card():
    turns = [Turn(f"t{n}", "user", text) for n, text in enumerate(SAID)]
    questions = [
        Question("u-r1-first", "information_extraction", "Where did I go hiking?", "Dolomites", ["t0"]),
        Question("u-r1-follow", "follow_up", "And when was that again?", "June", ["t0"]),
        Question("u-f1", "information_extraction", "What do I do for work?", "sound engineer", ["t4"]),
    ]
    case = Case("u", [Session("s0", "2024-01-06", turns)], questions, [], [])
    return asyncio.run(run_scorecard([case], modes=["hybrid", "hybrid+rewrite"], top_k=1))


def test_the_turns_own_words_miss_the_follow_ups_evidence(card):
    assert card.metric("hybrid", "follow_up", "recall@1") == 0.0


def test_rewritten_with_the_first_question_the_follow_up_finds_it(card):
    assert card.metric("hybrid+rewrite", "follow_up", "recall@1") == 1.0


def test_a_question_that_stands_alone_is_unaffected_by_the_one_before(card):
    for mode in ("hybrid", "hybrid+rewrite"):
        assert card.metric(mode, "information_extraction", "recall@1") == 1.0
