"""Which of the user's single-valued attributes a question asks about (``asked.py``).

The questions here are in words apart from the example questions, the lessons and the splits. A question
about someone else, the past or a many-valued thing asks about no attribute: search then ranks as before.
"""

from __future__ import annotations

import pytest

from lesson_utils.memory_server.asked import asked_attribute


def _asked(embedder, question):
    return asked_attribute(embedder, question, embedder.embed([question])[0])


@pytest.mark.parametrize(("question", "attribute"), [
    ("Who pays my wages at the moment?", "employer"),
    ("What is my line of work now?", "job"),
    ("Which town is home for me now?", "home"),
    ("Where's my place these days?", "home"),
    ("What vehicle am I driving these days?", "car"),
    ("What's my mobile number?", "phone"),
    ("What is my email address now?", "email"),
    ("Who am I seeing at the moment?", "partner"),
    ("What's my wife called?", "partner"),
    ("Which surname am I using now?", "surname"),
])
def test_a_question_about_the_users_current_value_asks_that_attribute(embedder, question, attribute):
    assert _asked(embedder, question) == attribute


@pytest.mark.parametrize("question", [
    "What does my brother do for work?",    # someone else's job
    "What's my neighbour's car?",            # someone else's car
    "What does my partner do?",              # the partner's job, not who the partner is
    "What was my first car?",                # the past
    "Where did I grow up?",
    "Which cities have I visited?",          # many values
    "Do I have any pets?",
    "What instrument do I play?",
])
def test_a_near_miss_asks_about_no_attribute_of_the_user_now(embedder, question):
    assert _asked(embedder, question) is None


def test_a_question_about_a_favourite_names_its_kind_with_or_without_the_word(embedder):
    assert _asked(embedder, "What is my favourite podcast these days?") == "favourite:podcast"
    assert _asked(embedder, "Which colour do I like best now?") == "favourite:colour"


@pytest.mark.parametrize(("question", "attribute"), [
    ("Which firm pays me?", "employer"),                   # no "is" or "do": still about now
    ("What ought you to call me?", "name"),
    ("When is my fencing class?", "schedule"),             # "When" asks about now as often as not
    ("Which game do I enjoy the most?", "favourite:game"),  # a superlative asks for one of a kind
    ("What snack do I most like?", "favourite:snack"),
    ("What do I prefer to be called?", "name"),            # a preference word inside another attribute's question
])
def test_a_question_asks_about_now_without_a_present_verb_and_for_a_favourite_with_a_superlative(embedder, question,
                                                                                              attribute):
    assert _asked(embedder, question) == attribute


def test_a_near_miss_about_someone_elses_favourite_does_not_outvote_the_users_own(embedder):
    assert _asked(embedder, "What am I called these days?") == "name"
    assert _asked(embedder, "What's my niece's favourite game?") is None   # the relation word still decides
